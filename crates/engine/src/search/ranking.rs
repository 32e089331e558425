//! Candidate lists and what happens to them after retrieval: fusion of keyword and vector
//! rankings, soft reranks, field sorts and collapsing. A candidate is a document address with
//! the score it is ranked by.

use std::collections::HashMap;

use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocAddress, Searcher};

use crate::request::{Collapse, Rerank, SortBy, VectorScoring};

#[derive(Clone, Debug)]
pub struct Candidate {
    pub address: DocAddress,
    /// The score reported as `score` in the hit.
    pub score: f64,
    /// What the list is ordered by (the score, or a field value for field sorts).
    pub order: f64,
    /// Rows folded into this one by collapse (1 = itself only).
    pub group_size: u64,
}

impl Candidate {
    pub fn scored(address: DocAddress, score: f64) -> Self {
        Candidate { address, score, order: score, group_size: 1 }
    }
}

/// Fuse by score: BM25 divided by `bm25_scale` (the same query-dependent constant on every
/// shard, so fused scores stay comparable when the pool merges shards) and the cosine rescaled
/// over the embedder's band, weighted as `scoring` says (every candidate of either list has a
/// cosine). A passage only the vector ranking found scores its cosine part alone.
pub fn fuse_scores(keyword: &[Candidate], cosine_of: &HashMap<DocAddress, f64>, bm25_scale: f64, scoring: &VectorScoring) -> Vec<Candidate> {
    let mut fused: HashMap<DocAddress, f64> = HashMap::new();
    for candidate in keyword {
        let normalised = if bm25_scale > 0.0 { candidate.score / bm25_scale } else { 0.0 };
        fused.insert(candidate.address, scoring.keyword_weight * normalised);
    }
    for (address, cosine) in cosine_of {
        *fused.entry(*address).or_insert(0.0) += scoring.cosine_weight * scoring.rescaled(*cosine);
    }
    let mut candidates: Vec<Candidate> =
        fused.into_iter().map(|(address, score)| Candidate::scored(address, score)).collect();
    sort_by_order(&mut candidates);
    candidates
}

/// Best first; ties broken by address so the order is the same every time.
pub fn sort_by_order(candidates: &mut [Candidate]) {
    candidates.sort_by(|left, right| {
        right
            .order
            .partial_cmp(&left.order)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| (left.address.segment_ord, left.address.doc_id).cmp(&(right.address.segment_ord, right.address.doc_id)))
    });
}

/// A numeric fast field in its own type.
enum NumberColumn {
    I64(Column<i64>),
    U64(Column<u64>),
    F64(Column<f64>),
}

impl NumberColumn {
    fn open(fast_fields: &tantivy::fastfield::FastFieldReaders, field: &str) -> Option<NumberColumn> {
        match field {
            "fetched_at" | "published_at" | "quality" => fast_fields.i64(field).ok().map(NumberColumn::I64),
            "host_rank" | "centrality" => fast_fields.f64(field).ok().map(NumberColumn::F64),
            _ => fast_fields.u64(field).ok().map(NumberColumn::U64),
        }
    }

    fn first(&self, doc: tantivy::DocId) -> Option<f64> {
        match self {
            NumberColumn::I64(column) => column.first(doc).map(|value| value as f64),
            NumberColumn::U64(column) => column.first(doc).map(|value| value as f64),
            NumberColumn::F64(column) => column.first(doc),
        }
    }
}

/// Per-segment fast-field readers for the candidates' signals, opened on first use.
pub struct SignalColumns<'a> {
    searcher: &'a Searcher,
    numeric: HashMap<(u32, &'static str), Option<NumberColumn>>,
    keys: HashMap<(u32, &'static str), Option<Column<u64>>>,
    text: HashMap<(u32, &'static str), Option<StrColumn>>,
}

impl<'a> SignalColumns<'a> {
    pub fn new(searcher: &'a Searcher) -> Self {
        SignalColumns { searcher, numeric: HashMap::new(), keys: HashMap::new(), text: HashMap::new() }
    }

    /// A numeric fast field as f64 (None when the passage has no value).
    pub fn number(&mut self, address: DocAddress, field: &'static str) -> Option<f64> {
        let searcher = self.searcher;
        let column = self
            .numeric
            .entry((address.segment_ord, field))
            .or_insert_with(|| NumberColumn::open(searcher.segment_reader(address.segment_ord).fast_fields(), field));
        column.as_ref()?.first(address.doc_id)
    }

    /// A u64 fast field read exactly (a key, not a measure).
    pub fn key(&mut self, address: DocAddress, field: &'static str) -> Option<u64> {
        let searcher = self.searcher;
        let column = self
            .keys
            .entry((address.segment_ord, field))
            .or_insert_with(|| searcher.segment_reader(address.segment_ord).fast_fields().u64(field).ok());
        column.as_ref()?.first(address.doc_id)
    }

    pub fn text(&mut self, address: DocAddress, field: &'static str) -> Option<String> {
        let searcher = self.searcher;
        let column = self
            .text
            .entry((address.segment_ord, field))
            .or_insert_with(|| searcher.segment_reader(address.segment_ord).fast_fields().str(field).ok().flatten());
        let column = column.as_ref()?;
        let ordinal = column.term_ords(address.doc_id).next()?;
        let mut value = String::new();
        column.ord_to_str(ordinal, &mut value).ok()?.then_some(value)
    }
}

/// How much a recent passage is lifted: 1.5x when brand new, halving every 90 days of age.
const RECENCY_HALF_LIFE_SECS: f64 = 90.0 * 86_400.0;

/// Soft reranks: multiply the score by a recency lift and/or a host-trust lift. Nothing is
/// filtered out; order changes only where the lifts outweigh score gaps.
pub fn apply_rerank(candidates: &mut [Candidate], rerank: &Rerank, columns: &mut SignalColumns) {
    if !rerank.is_active() {
        return;
    }
    for candidate in candidates.iter_mut() {
        let mut lift = 1.0;
        if rerank.prefer_recent {
            let instant = columns
                .number(candidate.address, "published_at")
                .or_else(|| columns.number(candidate.address, "fetched_at"))
                .unwrap_or(0.0);
            let age = (rerank.now as f64 - instant).max(0.0);
            lift *= 1.0 + 0.5 * (-age / RECENCY_HALF_LIFE_SECS * std::f64::consts::LN_2).exp();
        }
        if rerank.prefer_authority {
            let host_rank = columns.number(candidate.address, "host_rank").unwrap_or(0.0);
            lift *= 0.75 + 0.5 * host_rank.clamp(0.0, 1.0);
        }
        candidate.score *= lift;
        candidate.order = candidate.score;
    }
    sort_by_order(candidates);
}

/// Order candidates by a field, largest first; passages without the field go last.
pub fn apply_field_sort(candidates: &mut [Candidate], sort: SortBy, columns: &mut SignalColumns) {
    let Some(field) = sort.field_name() else { return };
    for candidate in candidates.iter_mut() {
        candidate.order = columns.number(candidate.address, field).unwrap_or(f64::NEG_INFINITY);
    }
    sort_by_order(candidates);
}

/// The key a collapse groups by.
fn collapse_key(candidate: &Candidate, collapse: Collapse, columns: &mut SignalColumns) -> Option<String> {
    match collapse {
        Collapse::None => None,
        Collapse::Host => columns.text(candidate.address, "host"),
        Collapse::Page => columns.text(candidate.address, "page_id"),
        Collapse::Story => columns.text(candidate.address, "story_id"),
    }
}

/// Keep the first (best) row of each group; it carries how many rows the group had.
pub fn apply_collapse(candidates: Vec<Candidate>, collapse: Collapse, columns: &mut SignalColumns) -> Vec<Candidate> {
    if collapse == Collapse::None {
        return candidates;
    }
    let mut kept: Vec<Candidate> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    for candidate in candidates {
        let Some(key) = collapse_key(&candidate, collapse, columns) else {
            kept.push(candidate);
            continue;
        };
        match group_of.get(&key) {
            Some(&index) => kept[index].group_size += 1,
            None => {
                group_of.insert(key, kept.len());
                kept.push(candidate);
            }
        }
    }
    kept
}
