//! Hybrid mode: the keyword strategy the plan chose and the nearest neighbours, fused by score
//! (`fuse_scores`: BM25 over a query-dependent scale plus the rescaled cosine). The match set is
//! their union, counted as the keyword matches plus the neighbours the keyword query misses;
//! `point_scores` tells which neighbours the words match and their real BM25, so a neighbour
//! below the keyword depth fuses with its BM25, not as if it matched no word.

use std::collections::{HashMap, HashSet};

use tantivy::query::{BooleanQuery, Occur, Query};
use tantivy::DocAddress;

use crate::deadline::Deadline;
use crate::error::Result;
use crate::request::SearchRequest;
use crate::search::bm25::bm25_scale;
use crate::search::plan::Strategy;
use crate::search::point_scores::scores_at;
use crate::search::ranking::{fuse_scores, SignalColumns};
use crate::search::semantic::{neighbours, query_vector};
use crate::search::{rank, Ranked, ShardView};

pub fn run(shard: &ShardView, request: &SearchRequest, keyword: Strategy, depth: usize, deadline: Deadline) -> Result<Ranked> {
    let searcher = &shard.searcher;
    // The plan made `keyword` a relevance strategy, whatever the request's sort.
    let keyword = rank(shard, request, keyword, depth.max(1), deadline)?;
    let query_vector = query_vector(shard, request)?;
    let (semantic, semantic_query) = neighbours(shard, request, &query_vector, depth)?;
    // The neighbours passed the filters already: those the words match are the ones the
    // keyword query matches too, scored as it scores them.
    let mut neighbour_addresses: Vec<DocAddress> = semantic.iter().map(|c| c.address).collect();
    let matched_by_words = scores_at(searcher, shard.words_query(request).as_ref(), &mut neighbour_addresses)?;
    let in_both: HashSet<DocAddress> = matched_by_words.iter().map(|c| c.address).collect();
    let semantic_only: Vec<DocAddress> = semantic.iter().map(|c| c.address).filter(|address| !in_both.contains(address)).collect();
    let total = keyword.total + semantic_only.len() as u64;
    let vertical_counts = match keyword.vertical_counts {
        Some(mut counts) => {
            let mut columns = SignalColumns::new(searcher);
            for address in &semantic_only {
                if let Some(vertical) = columns.text(*address, "vertical") {
                    *counts.entry(vertical).or_insert(0) += 1;
                }
            }
            Some(counts)
        }
        None => None,
    };
    let candidates = if depth == 0 {
        Vec::new()
    } else {
        let mut cosine_of: HashMap<DocAddress, f64> = semantic.iter().map(|c| (c.address, c.score)).collect();
        let mut columns = SignalColumns::new(searcher);
        for candidate in &keyword.candidates {
            if cosine_of.contains_key(&candidate.address) {
                continue;
            }
            if let Some(vector) = columns.key(candidate.address, "vector_key").map(|key| shard.vectors.get(key)).transpose()?.flatten() {
                cosine_of.insert(candidate.address, cosine(&query_vector, &vector));
            }
        }
        // A neighbour the keyword query matches below the keyword depth fuses with its real
        // BM25, not as if it matched no word.
        let ranked: HashSet<DocAddress> = keyword.candidates.iter().map(|c| c.address).collect();
        let mut keyword_scored = keyword.candidates.clone();
        keyword_scored.extend(matched_by_words.into_iter().filter(|c| !ranked.contains(&c.address)));
        fuse_scores(&keyword_scored, &cosine_of, bm25_scale(searcher, shard.fields.text, &request.query), &request.vector_scoring)
    };
    let union: Box<dyn Query> = Box::new(BooleanQuery::new(vec![(Occur::Should, keyword.match_query), (Occur::Should, semantic_query)]));
    Ok(Ranked { candidates, total, vertical_counts, timed_out: keyword.timed_out, match_query: union })
}

fn cosine(left: &[f32], right: &[f32]) -> f64 {
    let mut dot = 0.0_f64;
    let mut left_norm = 0.0_f64;
    let mut right_norm = 0.0_f64;
    for (a, b) in left.iter().zip(right) {
        dot += (*a as f64) * (*b as f64);
        left_norm += (*a as f64) * (*a as f64);
        right_norm += (*b as f64) * (*b as f64);
    }
    if left_norm == 0.0 || right_norm == 0.0 {
        return 0.0;
    }
    dot / (left_norm.sqrt() * right_norm.sqrt())
}
