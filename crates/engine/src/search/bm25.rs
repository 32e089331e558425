//! BM25's term statistics where the engine needs them outside Tantivy's scorer: the IDF that
//! weighs a query's terms in the hashing embedder, and the scale that brings BM25 to the
//! cosine's range in hybrid fusion.

use std::collections::HashSet;
use std::ops::{Add, Div, Sub};

use tantivy::schema::Field;
use tantivy::tokenizer::TokenStream;
use tantivy::{Searcher, Term};

use crate::analyzer::body_analyzer;

/// Tantivy's BM25 term-frequency saturation.
const BM25_K1: f64 = 1.2;

/// A float width the IDF is computed in: f32 for the embedder's term weights (Tantivy's own
/// width), f64 for the fusion scale. The one formula below serves both, each in its own width.
pub trait IdfFloat: Copy + Add<Output = Self> + Sub<Output = Self> + Div<Output = Self> {
    const ONE: Self;
    const HALF: Self;
    fn ln(self) -> Self;
}

impl IdfFloat for f32 {
    const ONE: f32 = 1.0;
    const HALF: f32 = 0.5;
    fn ln(self) -> f32 {
        f32::ln(self)
    }
}

impl IdfFloat for f64 {
    const ONE: f64 = 1.0;
    const HALF: f64 = 0.5;
    fn ln(self) -> f64 {
        f64::ln(self)
    }
}

/// BM25's inverse document frequency of a term found in `frequency` of `documents` passages:
/// ln(1 + (N - n + 0.5) / (n + 0.5)), as Tantivy scores it.
pub fn inverse_document_frequency<F: IdfFloat>(documents: F, frequency: F) -> F {
    (F::ONE + (documents - frequency + F::HALF) / (frequency + F::HALF)).ln()
}

/// The BM25 a passage would score matching every query term once at full weight:
/// (k1 + 1) x the sum of the terms' IDF in `field`. It depends on the query and on term
/// statistics that agree closely across shards, unlike a shard's best score.
pub fn bm25_scale(searcher: &Searcher, field: Field, query: &str) -> f64 {
    let documents = searcher.num_docs() as f64;
    let mut analyzer = body_analyzer();
    let mut stream = analyzer.token_stream(query);
    let mut seen = HashSet::new();
    let mut scale = 0.0;
    while stream.advance() {
        let term = stream.token().text.clone();
        if !seen.insert(term.clone()) {
            continue;
        }
        let frequency = searcher.doc_freq(&Term::from_field_text(field, &term)).unwrap_or(0) as f64;
        scale += inverse_document_frequency(documents, frequency);
    }
    (BM25_K1 + 1.0) * scale
}
