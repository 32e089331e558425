//! The search of one shard: the leaf of a scatter-gather search (the pool is the root that
//! merges the shards' top-k and sums their counts). `plan.rs` picks one strategy per request;
//! each strategy runs in a file of its own and collects segment by segment through the
//! collectors of `collectors.rs`, the deadline checked between segments. Then the candidates
//! are reordered (soft rerank, field sort, collapse), the match set is counted for facets (and
//! per vertical when the strategy did not), and only the final rows are fetched (`fetch.rs`).

mod address_set;
mod bm25;
mod collectors;
mod count_only;
mod field_sort;
pub(crate) mod filter_mask;
mod filters;
mod hybrid;
mod one_pass;
mod phrase_union;
mod plan;
mod point_scores;
mod postings_count;
mod queries;
mod query_shape;
pub(crate) mod ranking;
mod semantic;
mod wand_top_k;

use std::collections::HashMap;
use std::time::Instant;

use serde::Serialize;
use tantivy::query::{Query, QueryParser};
use tantivy::{DocAddress, Score, Searcher};

use crate::deadline::Deadline;
use crate::embedder::HashingEmbedder;
use crate::error::{EngineError, Result};
use crate::facets::{FacetCollector, FacetCounts, VerticalCounts, VerticalTable};
use crate::fetch::fetch_hits;
use crate::passage::Hit;
use crate::query_depth::{query_nesting, MAX_QUERY_NESTING};
use crate::reader::KeyAddresses;
use crate::request::{Collapse, SearchRequest};
use crate::schema::ShardFields;
use crate::vectors::VectorStore;
use collectors::{collect_segments, CountCollector};
use filter_mask::{FilterMask, MaskCache};
use plan::{plan, Reorder, Strategy};
use ranking::{apply_collapse, apply_field_sort, apply_rerank, Candidate, SignalColumns};

pub use queries::parse_query;

/// What one shard answers; the pool merges these.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShardSearchResult {
    /// Written as rows (`record::Row`): `decodeSearchResult` makes them hits again.
    #[serde(serialize_with = "crate::record::as_rows")]
    pub hits: Vec<Hit>,
    /// Exact number of live matches in the segments searched (see `Mode` for what matches).
    pub total: u64,
    /// The deadline cut the search short: `total` and `hits` cover only part of the shard.
    pub timed_out: bool,
    pub elapsed_us: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facets: Option<FacetCounts>,
    /// Matches per vertical, when asked for (the router's input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_counts: Option<HashMap<String, u64>>,
    /// Live passages of the shard, and how many of them have a vector (a semantic or hybrid
    /// ranking reaches only those): the answer's coverage while vectors are still being made.
    pub passages: u64,
    pub embedded: u64,
}

/// The shard as one search sees it: one searcher (one reader generation) and what the reader
/// built for that generation.
pub struct ShardView<'a> {
    pub searcher: Searcher,
    pub fields: &'a ShardFields,
    pub query_parser: &'a QueryParser,
    pub vectors: &'a VectorStore,
    /// Vector key -> live document: the way from a nearest neighbour back to its passage.
    pub key_addresses: &'a KeyAddresses,
    pub verticals: &'a VerticalTable,
    pub masks: &'a MaskCache,
    /// The live documents of the generation as a mask (an unfiltered count intersects with it).
    pub live: &'a FilterMask,
    /// The hashing embedder for query texts; None when vectors come from outside the engine.
    pub embedder: Option<&'a HashingEmbedder>,
    /// Live passages with a vector.
    pub embedded: u64,
}

/// What a strategy gives: a ranked list, how many passages matched (with the split per vertical
/// when the strategy counted it), and the query of the match set (for facets).
pub(crate) struct Ranked {
    candidates: Vec<Candidate>,
    total: u64,
    vertical_counts: Option<HashMap<String, u64>>,
    timed_out: bool,
    match_query: Box<dyn Query>,
}

impl Ranked {
    /// What a keyword strategy ranked and counted: the total, and the split per vertical when
    /// the request asked for it (`per_vertical`).
    fn counted(candidates: Vec<Candidate>, counted: VerticalCounts, per_vertical: bool, timed_out: bool, match_query: Box<dyn Query>) -> Ranked {
        Ranked { candidates, total: counted.total, vertical_counts: per_vertical.then_some(counted.by_vertical), timed_out, match_query }
    }

    /// Candidates from a top-k, scored by BM25.
    fn scored(top: Vec<(Score, DocAddress)>) -> Vec<Candidate> {
        top.into_iter().map(|(score, address)| Candidate::scored(address, score as f64)).collect()
    }
}

/// Search one shard: plan, rank, reorder, count what was asked, fetch the final rows.
pub fn search(shard: &ShardView, request: &SearchRequest) -> Result<ShardSearchResult> {
    let started = Instant::now();
    let deadline = request.deadline;
    if deadline.is_expired() {
        return Ok(ShardSearchResult { timed_out: true, ..Default::default() });
    }
    for text in [Some(&request.query), request.filters.term.as_ref()].into_iter().flatten() {
        let depth = query_nesting(text);
        if depth > MAX_QUERY_NESTING {
            return Err(EngineError::QueryTooDeep { depth, max: MAX_QUERY_NESTING });
        }
    }
    let searcher = &shard.searcher;
    let plan = plan(shard, request)?;
    let ranked = rank(shard, request, plan.strategy, plan.depth, deadline)?;
    let mut columns = SignalColumns::new(searcher);
    let mut candidates = ranked.candidates;
    match plan.reorder {
        Reorder::Rerank => apply_rerank(&mut candidates, &request.rerank, &mut columns),
        Reorder::FieldSort => apply_field_sort(&mut candidates, request.sort, &mut columns),
        Reorder::None => {}
    }
    let mut candidates = apply_collapse(candidates, request.collapse, &mut columns);
    candidates.truncate(request.limit);
    let facets = if request.facets {
        let (counts, _) = collect_segments(searcher, ranked.match_query.as_ref(), &FacetCollector, deadline, false)?;
        Some(counts)
    } else {
        None
    };
    let vertical_counts = match ranked.vertical_counts {
        Some(counts) => Some(counts),
        None if request.vertical_counts => {
            let counter = CountCollector { verticals: Some(shard.verticals) };
            let (counts, _) = collect_segments(searcher, ranked.match_query.as_ref(), &counter, deadline, false)?;
            Some(counts.by_vertical)
        }
        None => None,
    };
    let hits = fetch_hits(searcher, shard.fields, &candidates, request.collapse != Collapse::None)?;
    Ok(ShardSearchResult {
        hits,
        total: ranked.total,
        timed_out: ranked.timed_out,
        elapsed_us: started.elapsed().as_micros() as u64,
        facets,
        vertical_counts,
        passages: searcher.num_docs(),
        embedded: shard.embedded,
    })
}

/// Run a strategy `depth` deep.
fn rank(shard: &ShardView, request: &SearchRequest, strategy: Strategy, depth: usize, deadline: Deadline) -> Result<Ranked> {
    match strategy {
        Strategy::WandTopK { queries, counting } => wand_top_k::run(shard, request, queries, counting, depth, deadline),
        Strategy::OnePass { queries } => one_pass::run(shard, request, queries, depth, deadline),
        Strategy::PhraseUnion { queries, clauses } => phrase_union::run(shard, request, queries, clauses, depth, deadline),
        Strategy::CountOnly { queries, counting } => count_only::run(shard, request, queries, counting, deadline),
        Strategy::FieldSort { queries, field } => field_sort::run(shard, request, queries, field, depth, deadline),
        Strategy::Semantic => semantic::run(shard, request, depth),
        Strategy::Hybrid { keyword } => hybrid::run(shard, request, *keyword, depth, deadline),
    }
}
