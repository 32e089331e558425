//! The scores a query gives a known, short list of documents (hybrid fusion scores the nearest
//! neighbours the keyword top-k missed), and which of them it matches at all.
//!
//! A disjunction (bare query words, a hyphenated word's phrase among them: the common query) is
//! scored clause by clause: one scorer per clause and segment seeks from listed document to
//! listed document (a skip-list jump) and the clause scores are summed, which is what the union
//! scorer adds up. Seeking the union scorer itself refilled a 4,096-document window per listed
//! document, decoding every clause's postings across it; for 200 scattered neighbours on a
//! 1M-passage shard that cost more than the keyword ranking. Anything else (required or
//! excluded clauses) is sought with its own scorer.

use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, DocSet, Searcher, TERMINATED};

use crate::error::Result;
use crate::search::query_shape::disjuncts;
use crate::search::ranking::Candidate;

/// The listed documents `query` matches, with their scores, in (segment, document) order.
pub fn scores_at(searcher: &Searcher, query: &dyn Query, addresses: &mut [DocAddress]) -> Result<Vec<Candidate>> {
    if addresses.is_empty() {
        return Ok(Vec::new());
    }
    addresses.sort_by_key(|address| (address.segment_ord, address.doc_id));
    summed_scores(searcher, &summands(query), addresses)
}

/// The clauses whose scores add up to the query's: those of a disjunction (any one may match),
/// else the query itself.
fn summands(query: &dyn Query) -> Vec<&dyn Query> {
    match disjuncts(query) {
        Some(clauses) => clauses.iter().map(|(_, clause)| clause.as_ref()).collect(),
        None => vec![query],
    }
}

/// Each listed document that at least one of `queries` matches, scored with the sum of their
/// scores (added in the order of `queries`). `addresses` must be sorted.
fn summed_scores(searcher: &Searcher, queries: &[&dyn Query], addresses: &[DocAddress]) -> Result<Vec<Candidate>> {
    let scoring = EnableScoring::enabled_from_searcher(searcher);
    let weights = queries.iter().map(|query| query.weight(scoring)).collect::<tantivy::Result<Vec<_>>>()?;
    let mut sums: Vec<Option<f32>> = vec![None; addresses.len()];
    let mut start = 0;
    for segment in addresses.chunk_by(|left, right| left.segment_ord == right.segment_ord) {
        let reader = searcher.segment_reader(segment[0].segment_ord);
        for weight in &weights {
            let mut scorer = weight.scorer(reader, 1.0)?;
            for (offset, address) in segment.iter().enumerate() {
                let doc = if scorer.doc() < address.doc_id { scorer.seek(address.doc_id) } else { scorer.doc() };
                if doc == TERMINATED {
                    break;
                }
                if doc == address.doc_id {
                    let sum = &mut sums[start + offset];
                    *sum = Some(sum.unwrap_or(0.0) + scorer.score());
                }
            }
        }
        start += segment.len();
    }
    Ok(addresses
        .iter()
        .zip(sums)
        .filter_map(|(address, sum)| sum.map(|score| Candidate::scored(*address, score as f64)))
        .collect())
}
