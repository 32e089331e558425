//! The second phase of a search: the stored fields of the final rows only, turned into hits.

use tantivy::{Searcher, TantivyDocument};

use crate::error::Result;
use crate::passage::{Hit, StoredReader};
use crate::search::ranking::Candidate;
use crate::schema::ShardFields;

/// Second phase: read stored fields of the final rows only.
pub fn fetch_hits(searcher: &Searcher, fields: &ShardFields, candidates: &[Candidate], collapsed: bool) -> Result<Vec<Hit>> {
    let mut hits = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let doc: TantivyDocument = searcher.doc(candidate.address)?;
        let mut hit = StoredReader { doc: &doc, fields }.hit(candidate.score);
        if collapsed {
            hit.group_size = Some(candidate.group_size);
        }
        hits.push(hit);
    }
    Ok(hits)
}
