//! The default embedder: model-free and deterministic (no weights can be downloaded here).
//! Signed feature hashing of stemmed terms and of character 4-grams, sub-linear term
//! frequency, L2-normalised, so cosine similarity rewards shared vocabulary and shared word
//! stems. A real model can sit behind the same trait, or vectors can come with the passages.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use tantivy::tokenizer::{TextAnalyzer, TokenStream};
use xxhash_rust::xxh3::xxh3_64_with_seed;

use crate::analyzer::body_analyzer;

pub trait Embedder: Send + Sync {
    fn dimensions(&self) -> usize;
    fn embed(&self, text: &str) -> Vec<f32>;
}

pub const DEFAULT_DIMENSIONS: usize = 128;

/// What a passage's vector is computed from: the writer and the reader's fallback agree on it.
pub fn embedding_input(title: &str, text: &str) -> String {
    format!("{title}\n{text}")
}

/// Words too common to carry meaning in a hashed bag of words (a standard English stop list,
/// stemmed the way the analyser stems, since it is checked after stemming).
const STOP_WORDS: &[&str] = &[
    "a", "about", "abov", "after", "again", "against", "all", "also", "am", "an", "and", "ani", "are", "as", "at",
    "be", "becaus", "been", "befor", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
    "doe", "don", "down", "dure", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he",
    "her", "here", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "itself", "just",
    "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "onc", "one", "onli", "or",
    "other", "our", "ourselv", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that",
    "the", "their", "them", "themselv", "then", "there", "these", "they", "this", "those", "through", "to", "too",
    "under", "until", "up", "use", "veri", "was", "we", "were", "what", "when", "where", "which", "while", "who",
    "whom", "whi", "will", "with", "would", "you", "your", "yourself", "yourselv",
];

fn stop_words() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOP_WORDS.iter().copied().collect())
}

pub struct HashingEmbedder {
    dimensions: usize,
    /// Kept between calls so its stem cache stays warm; a caller that finds it busy (another
    /// thread embedding) analyses with a fresh clone instead of waiting.
    analyzer: Mutex<TextAnalyzer>,
}

impl HashingEmbedder {
    pub fn new(dimensions: usize) -> Self {
        HashingEmbedder { dimensions, analyzer: Mutex::new(body_analyzer()) }
    }

    fn add_feature(&self, vector: &mut [f32], feature: &[u8], seed: u64, weight: f32) {
        let hash = xxh3_64_with_seed(feature, seed);
        let slot = (hash % self.dimensions as u64) as usize;
        let sign = if (hash >> 63) == 0 { 1.0 } else { -1.0 };
        vector[slot] += sign * weight;
    }
}

impl HashingEmbedder {
    /// Embed with a weight per analysed term on top of sub-linear term frequency. Queries use
    /// the shard's inverse document frequency here, so rare terms steer the direction and
    /// common ones barely move it (passages are embedded once at ingest, without it).
    pub fn embed_weighted(&self, text: &str, term_weight: &dyn Fn(&str) -> f32) -> Vec<f32> {
        self.embed_terms(text, term_weight)
    }

    fn embed_terms(&self, text: &str, term_weight: &dyn Fn(&str) -> f32) -> Vec<f32> {
        let term_counts = match self.analyzer.try_lock() {
            Ok(mut analyzer) => count_terms(&mut analyzer, text),
            Err(_) => count_terms(&mut body_analyzer(), text),
        };
        let mut vector = vec![0f32; self.dimensions];
        // Iterate in a fixed order: float sums must not depend on hash-map order.
        let mut terms: Vec<(&String, &u32)> = term_counts.iter().collect();
        terms.sort();
        let mut padded = String::new();
        let mut char_starts: Vec<usize> = Vec::new();
        for (term, count) in terms {
            let weight = (1.0 + (*count as f32).ln()) * term_weight(term);
            self.add_feature(&mut vector, term.as_bytes(), 0, weight);
            // Character 4-grams of "^term$", hashed as the UTF-8 bytes of each window.
            padded.clear();
            padded.push('^');
            padded.push_str(term);
            padded.push('$');
            char_starts.clear();
            char_starts.extend(padded.char_indices().map(|(start, _)| start));
            char_starts.push(padded.len());
            let chars = char_starts.len() - 1;
            if chars > 5 {
                for first in 0..=chars - 4 {
                    let gram = &padded.as_bytes()[char_starts[first]..char_starts[first + 4]];
                    self.add_feature(&mut vector, gram, 1, weight * 0.35);
                }
            }
        }
        normalise(&mut vector);
        vector
    }
}

/// Scale a vector to unit length in place (a zero vector stays zero).
pub(crate) fn normalise(vector: &mut [f32]) {
    let norm = vector.iter().map(|value| value * value).sum::<f32>().sqrt();
    if norm > 0.0 {
        for value in vector.iter_mut() {
            *value /= norm;
        }
    }
}

/// How often each analysed term occurs, leaving out stop words and one-letter terms.
fn count_terms(analyzer: &mut TextAnalyzer, text: &str) -> HashMap<String, u32> {
    let mut term_counts: HashMap<String, u32> = HashMap::new();
    let mut stream = analyzer.token_stream(text);
    while stream.advance() {
        let term = &stream.token().text;
        if term.len() < 2 || stop_words().contains(term.as_str()) {
            continue;
        }
        match term_counts.get_mut(term.as_str()) {
            Some(count) => *count += 1,
            None => {
                term_counts.insert(term.clone(), 1);
            }
        }
    }
    term_counts
}

impl Embedder for HashingEmbedder {
    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        self.embed_terms(text, &|_| 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(left: &[f32], right: &[f32]) -> f32 {
        left.iter().zip(right).map(|(a, b)| a * b).sum()
    }

    #[test]
    fn same_text_same_vector() {
        let embedder = HashingEmbedder::new(DEFAULT_DIMENSIONS);
        assert_eq!(embedder.embed("sourdough starter hydration"), embedder.embed("sourdough starter hydration"));
    }

    #[test]
    fn shared_vocabulary_is_closer_than_unrelated_text() {
        let embedder = HashingEmbedder::new(DEFAULT_DIMENSIONS);
        let query = embedder.embed("feeding a sourdough starter");
        let related = embedder.embed("how often to feed your sourdough starters with flour");
        let unrelated = embedder.embed("central bank raises interest rates to fight inflation");
        assert!(cosine(&query, &related) > cosine(&query, &unrelated) + 0.2);
    }

    #[test]
    fn empty_text_is_a_zero_vector() {
        let embedder = HashingEmbedder::new(16);
        assert!(embedder.embed("").iter().all(|value| *value == 0.0));
    }
}
