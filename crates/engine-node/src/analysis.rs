//! The engine's text analysis for the evidence layer: the words of a text as the index holds
//! them, and which texts hold one of a set of indexed terms (lexical support).

use napi_derive::napi;

use crate::error::guarded;

/// A word of a text: as written (lower-cased) and the term the index holds for it
/// (lower-cased, ASCII-folded, stemmed).
#[napi(object)]
pub struct AnalysedWord {
    pub word: String,
    pub term: String,
}

/// The words of `text` in order, through the index's body analyser.
#[napi]
pub fn analyse_words(text: String) -> napi::Result<Vec<AnalysedWord>> {
    guarded(|| {
        Ok(evidence_engine::analysed_words(&text)
            .into_iter()
            .map(|word| AnalysedWord { word: word.word, term: word.term })
            .collect())
    })
}

/// For each text, whether it holds at least one of `terms` (indexed terms, as `analyseWords`
/// gives them); no terms match nothing.
#[napi]
pub fn texts_holding_terms(terms: Vec<String>, texts: Vec<String>) -> napi::Result<Vec<bool>> {
    guarded(|| Ok(evidence_engine::texts_holding_any(&terms, &texts)))
}
