//! The text analyser. Tantivy does not stem by default; published BM25 baselines do (Porter), so
//! body and title go through lower-casing, ASCII folding and the English Snowball stemmer. The
//! choice is measured by the quality benchmark on shared/data/ir. The stemmer remembers its stems
//! (stem_cache.rs): the same tokens as Tantivy's `Stemmer`, computed once per distinct word.

use tantivy::tokenizer::{AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};

use crate::stem_cache::CachedEnglishStemmer;

pub const BODY_ANALYZER: &str = "evidence_body";

pub fn body_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(CachedEnglishStemmer)
        .build()
}

pub fn register(index: &tantivy::Index) {
    index.tokenizers().register(BODY_ANALYZER, body_analyzer());
}
