//! Semantic mode: the nearest neighbours of the query vector (at least `SEMANTIC_DEPTH_MIN`,
//! before filters) above the embedder's similarity floor, mapped back to their passages through
//! the reader's vector key table, as an address set the filters, facets and counts run over
//! like over any match set. What matches is the filtered neighbours considered.

use std::collections::HashMap;

use tantivy::collector::DocSetCollector;
use tantivy::query::Query;
use tantivy::{DocAddress, Term};

use crate::error::{EngineError, Result};
use crate::request::SearchRequest;
use crate::search::address_set::AddressSetQuery;
use crate::search::bm25::inverse_document_frequency;
use crate::search::filters::filtered;
use crate::search::ranking::{sort_by_order, Candidate};
use crate::search::{Ranked, ShardView};

/// Nearest neighbours a semantic ranking considers per shard (before filters).
const SEMANTIC_DEPTH_MIN: usize = 100;

pub fn run(shard: &ShardView, request: &SearchRequest, depth: usize) -> Result<Ranked> {
    let vector = query_vector(shard, request)?;
    let (candidates, match_query) = neighbours(shard, request, &vector, depth)?;
    let total = candidates.len() as u64;
    Ok(Ranked { candidates, total, vertical_counts: None, timed_out: false, match_query })
}

/// The query vector: given, or the query text embedded with this shard's IDF as term weights.
/// A shard whose vectors come from a model outside the engine needs it given.
pub fn query_vector(shard: &ShardView, request: &SearchRequest) -> Result<Vec<f32>> {
    if let Some(vector) = &request.vector {
        return Ok(vector.clone());
    }
    let Some(embedder) = shard.embedder else {
        return Err(EngineError::InvalidRequest(
            "this shard's vectors come from a model outside the engine: semantic and hybrid searches need the query vector".to_string(),
        ));
    };
    let searcher = &shard.searcher;
    let documents = searcher.num_docs() as f32;
    let text_field = shard.fields.text;
    let term_weight = |term: &str| {
        let frequency = searcher.doc_freq(&Term::from_field_text(text_field, term)).unwrap_or(0) as f32;
        inverse_document_frequency(documents, frequency)
    };
    Ok(embedder.embed_weighted(&request.query, &term_weight))
}

/// The nearest neighbours that pass the filters, best first (score = cosine similarity),
/// and the query that matches exactly them.
pub fn neighbours(shard: &ShardView, request: &SearchRequest, vector: &[f32], depth: usize) -> Result<(Vec<Candidate>, Box<dyn Query>)> {
    let searcher = &shard.searcher;
    let neighbours = if vector.iter().all(|value| *value == 0.0) {
        Vec::new()
    } else {
        shard.vectors.search(vector, depth.max(SEMANTIC_DEPTH_MIN))?
    };
    let similarity: HashMap<u64, f64> = neighbours
        .iter()
        .map(|(key, distance)| (*key, 1.0 - *distance as f64))
        .filter(|(_, similarity)| *similarity >= request.vector_scoring.min_similarity)
        .collect();
    let mut scored: HashMap<DocAddress, f64> = HashMap::with_capacity(similarity.len());
    for (key, score) in &similarity {
        if let Some(address) = shard.key_addresses.get(key) {
            scored.insert(*address, *score);
        }
    }
    let neighbour_query: Box<dyn Query> = Box::new(AddressSetQuery::new(searcher, scored.keys().copied()));
    let match_query = filtered(neighbour_query, shard.filter_clauses(request));
    let addresses = if match_query.is::<AddressSetQuery>() {
        scored.keys().copied().collect()
    } else {
        searcher.search(match_query.as_ref(), &DocSetCollector)?
    };
    let mut candidates: Vec<Candidate> =
        addresses.into_iter().filter_map(|address| scored.get(&address).map(|score| Candidate::scored(address, *score))).collect();
    sort_by_order(&mut candidates);
    Ok((candidates, match_query))
}
