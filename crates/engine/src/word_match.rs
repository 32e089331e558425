//! Word matching as the index sees it: a text's words through the body analyser (the same
//! tokens the index holds), and which texts hold one of a set of indexed terms. The evidence
//! layer asks this whether a passage shares a word with an objective (lexical support), so that
//! question is answered by the analyser that decided the match, not by a second one.

use std::collections::HashSet;

use tantivy::tokenizer::TokenStream;

use crate::analyzer::body_analyzer;

/// One word of a text: as written (lower-cased) and the term the index holds for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysedWord {
    pub word: String,
    pub term: String,
}

/// The words of `text`, in order, each with its indexed term (lower-cased, ASCII-folded,
/// stemmed); words the analyser drops (over 40 bytes) are left out.
pub fn analysed_words(text: &str) -> Vec<AnalysedWord> {
    let mut analyzer = body_analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut words = Vec::new();
    while stream.advance() {
        let token = stream.token();
        let word = text.get(token.offset_from..token.offset_to).unwrap_or_default().to_lowercase();
        words.push(AnalysedWord { word, term: token.text.clone() });
    }
    words
}

/// For each text, whether it holds at least one of `terms` (indexed terms, as `analysed_words`
/// gives them). One analyser serves every text, so a word is stemmed once per call.
pub fn texts_holding_any(terms: &[String], texts: &[String]) -> Vec<bool> {
    let wanted: HashSet<&str> = terms.iter().map(String::as_str).collect();
    let mut analyzer = body_analyzer();
    texts
        .iter()
        .map(|text| {
            if wanted.is_empty() {
                return false;
            }
            let mut stream = analyzer.token_stream(text);
            while stream.advance() {
                if wanted.contains(stream.token().text.as_str()) {
                    return true;
                }
            }
            false
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms_of(text: &str) -> Vec<String> {
        analysed_words(text).into_iter().map(|word| word.term).collect()
    }

    #[test]
    fn words_carry_their_written_form_and_indexed_term() {
        let words = analysed_words("Running Cafés, o'Brien");
        let pairs: Vec<(&str, &str)> = words.iter().map(|word| (word.word.as_str(), word.term.as_str())).collect();
        assert_eq!(pairs, vec![("running", "run"), ("cafés", "cafe"), ("o", "o"), ("brien", "brien")]);
    }

    #[test]
    fn a_text_holds_a_term_in_any_inflection() {
        let terms = terms_of("lunar craters");
        let texts = vec!["The crater rim".to_string(), "Lunar soil".to_string(), "solar wind".to_string(), String::new()];
        assert_eq!(texts_holding_any(&terms, &texts), vec![true, true, false, false]);
        assert_eq!(texts_holding_any(&[], &texts), vec![false, false, false, false]);
    }
}
