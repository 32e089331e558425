//! A keyword search sorted by a field (recency, host rank, quality, published, words,
//! centrality): the top `depth` matches by the field's fast-field column, largest first
//! (missing values last), counted in the same pass; each row still reports its BM25 as its
//! score when there are words.

use tantivy::collector::TopDocs;
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, Order, Searcher};

use crate::deadline::Deadline;
use crate::error::{EngineError, Result};
use crate::facets::VerticalCounts;
use crate::request::SearchRequest;
use crate::search::collectors::{collect_segments, CountCollector};
use crate::search::queries::KeywordQueries;
use crate::search::ranking::Candidate;
use crate::search::{Ranked, ShardView};

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, field: &'static str, depth: usize, deadline: Deadline) -> Result<Ranked> {
    let searcher = &shard.searcher;
    let query = queries.matching;
    let counter = CountCollector { verticals: request.vertical_counts.then_some(shard.verticals) };
    let (ordered, counted, timed_out) = top_by_field(searcher, query.as_ref(), field, depth, counter, deadline)?;
    let weight = if request.query.trim().is_empty() {
        None
    } else {
        Some(query.weight(EnableScoring::enabled_from_searcher(searcher))?)
    };
    let mut candidates = Vec::with_capacity(ordered.len());
    for (order, address) in ordered {
        let score = match &weight {
            Some(weight) => weight.explain(searcher.segment_reader(address.segment_ord), address.doc_id)?.value() as f64,
            None => 0.0,
        };
        candidates.push(Candidate { address, score, order, group_size: 1 });
    }
    Ok(Ranked::counted(candidates, counted, request.vertical_counts, timed_out, query))
}

/// Rows by a field's value, largest first.
type FieldRows = Vec<(f64, DocAddress)>;

/// Top `depth` matches by a numeric fast field, largest first (missing values last), and the
/// matches counted.
fn top_by_field(
    searcher: &Searcher,
    query: &dyn Query,
    field: &str,
    depth: usize,
    counter: CountCollector,
    deadline: Deadline,
) -> Result<(FieldRows, VerticalCounts, bool)> {
    fn widen<T: Copy>(rows: Vec<(Option<T>, DocAddress)>, to_f64: impl Fn(T) -> f64) -> FieldRows {
        rows.into_iter().map(|(value, address)| (value.map(&to_f64).unwrap_or(f64::NEG_INFINITY), address)).collect()
    }
    Ok(match field {
        "fetched_at" | "published_at" | "quality" => {
            let collector = (top_docs(depth)?.order_by_fast_field::<i64>(field, Order::Desc), counter);
            let ((rows, counted), timed_out) = collect_segments(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value as f64), counted, timed_out)
        }
        "host_rank" | "centrality" => {
            let collector = (top_docs(depth)?.order_by_fast_field::<f64>(field, Order::Desc), counter);
            let ((rows, counted), timed_out) = collect_segments(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value), counted, timed_out)
        }
        _ => {
            let collector = (top_docs(depth)?.order_by_fast_field::<u64>(field, Order::Desc), counter);
            let ((rows, counted), timed_out) = collect_segments(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value as f64), counted, timed_out)
        }
    })
}

/// Tantivy's top-k collector, which panics on a limit of 0: refused here as an error instead
/// (a limit of 0 asks for the count alone, which the plan runs without a top-k).
fn top_docs(limit: usize) -> Result<TopDocs> {
    if limit == 0 {
        return Err(EngineError::InvalidRequest("a top-k collector needs a limit of at least 1".to_string()));
    }
    Ok(TopDocs::with_limit(limit))
}
