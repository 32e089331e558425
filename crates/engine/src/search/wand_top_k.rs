//! Relevance over bare words: the top-k alone, so Tantivy's block-max WAND skips the blocks
//! that cannot enter it (a pass that also counted could not skip), then a count that scores
//! nothing (`count_only::count`, from postings). The words run over the filter mask when it is
//! broad; the k-th score carries over from segment to segment, so later segments prune from
//! the start.

use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, Score, Searcher};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::request::SearchRequest;
use crate::search::collectors::{admitted, TopKCollector};
use crate::search::count_only;
use crate::search::filter_mask::FilterMask;
use crate::search::plan::Counting;
use crate::search::queries::KeywordQueries;
use crate::search::{Ranked, ShardView};

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, counting: Counting, depth: usize, deadline: Deadline) -> Result<Ranked> {
    let (ranked_query, mask) = queries.ranked();
    let (top, top_timed_out) = top_k(&shard.searcher, ranked_query, mask, depth, deadline)?;
    let (counted, count_timed_out) = count_only::count(shard, &queries, &counting, request.vertical_counts, deadline)?;
    Ok(Ranked::counted(Ranked::scored(top), counted, request.vertical_counts, top_timed_out || count_timed_out, queries.matching))
}

/// The `k` best-scoring documents of `query` that `mask` admits (every live one without a
/// mask), best first; Tantivy prunes with block-max WAND when `query` is a disjunction of terms.
fn top_k(searcher: &Searcher, query: &dyn Query, mask: Option<&FilterMask>, k: usize, deadline: Deadline) -> Result<(Vec<(Score, DocAddress)>, bool)> {
    let mut top = TopKCollector::new(k);
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        weight.for_each_pruning(top.threshold(), reader, &mut |doc, score| {
            if admitted(mask, alive, segment_ord, doc) {
                top.collect(segment_ord, doc, score);
            }
            top.threshold()
        })?;
        Ok(())
    })?;
    Ok((top.harvest(), timed_out))
}
