//! The English Snowball stemmer as a token filter that remembers the stems it has computed.
//! Stemming is a pure function of the token, and the words of a corpus repeat, so most tokens are
//! answered from the cache: the tokens that come out are exactly those of Tantivy's `Stemmer`.
//! Each clone of the analyser (one per segment writer, one per embedder) has a cache of its own,
//! so nothing is shared between threads; a cache that reaches its limit starts again empty.

use std::collections::HashMap;
use std::mem;

use frostem::{Algorithm, Stemmer};
use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};

/// Distinct tokens a cache holds before it is emptied (a few MiB of short strings).
const CACHED_STEMS: usize = 200_000;

#[derive(Clone, Default)]
pub struct CachedEnglishStemmer;

impl TokenFilter for CachedEnglishStemmer {
    type Tokenizer<T: Tokenizer> = CachedStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> CachedStemmerFilter<T> {
        CachedStemmerFilter { inner: tokenizer, stems: StemTable::default() }
    }
}

#[derive(Clone)]
pub struct CachedStemmerFilter<T> {
    inner: T,
    stems: StemTable,
}

impl<T: Tokenizer> Tokenizer for CachedStemmerFilter<T> {
    type TokenStream<'a> = CachedStemmerTokenStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        CachedStemmerTokenStream { tail: self.inner.token_stream(text), stems: &mut self.stems }
    }
}

/// Token → stem, with the stemmer that fills it.
struct StemTable {
    stemmer: Stemmer,
    stems: HashMap<String, String>,
}

impl Default for StemTable {
    fn default() -> Self {
        StemTable { stemmer: Stemmer::new(Algorithm::English), stems: HashMap::new() }
    }
}

impl Clone for StemTable {
    /// A clone starts empty: clones go to other threads and segments, and filling is cheap.
    fn clone(&self) -> Self {
        StemTable::default()
    }
}

impl StemTable {
    /// Replace `token` by its stem.
    fn stem(&mut self, token: &mut String) {
        if let Some(stem) = self.stems.get(token.as_str()) {
            if stem != token {
                token.clear();
                token.push_str(stem);
            }
            return;
        }
        let stem = self.stemmer.stem(token).into_owned();
        if self.stems.len() >= CACHED_STEMS {
            self.stems.clear();
        }
        let word = mem::replace(token, stem.clone());
        self.stems.insert(word, stem);
    }
}

pub struct CachedStemmerTokenStream<'a, T> {
    tail: T,
    stems: &'a mut StemTable,
}

impl<T: TokenStream> TokenStream for CachedStemmerTokenStream<'_, T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        self.stems.stem(&mut self.tail.token_mut().text);
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

#[cfg(test)]
mod tests {
    use tantivy::tokenizer::{AsciiFoldingFilter, Language, LowerCaser, SimpleTokenizer, TextAnalyzer};

    use super::*;

    fn tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    }

    #[test]
    fn same_tokens_as_the_uncached_stemmer() {
        let text = "Running runners ran; the generously generous generation's regenerations. Café naïve \
                    running RUNNING runs ponies pony's caresses agreed feed feeding happily";
        let mut plain = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .filter(tantivy::tokenizer::Stemmer::new(Language::English))
            .build();
        let mut cached = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .filter(CachedEnglishStemmer)
            .build();
        let expected = tokens(&mut plain, text);
        // Twice: the second pass is answered from the cache.
        assert_eq!(tokens(&mut cached, text), expected);
        assert_eq!(tokens(&mut cached, text), expected);
    }
}
