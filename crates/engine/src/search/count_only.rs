//! The count alone (limit 0): no candidates, the matches counted by postings or by the count
//! collector, per vertical in the same pass when asked. `WandTopK` counts the same way after
//! its top-k.

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::VerticalCounts;
use crate::request::SearchRequest;
use crate::search::collectors::{collect_segments, CountCollector};
use crate::search::plan::Counting;
use crate::search::postings_count::count_postings;
use crate::search::queries::KeywordQueries;
use crate::search::{Ranked, ShardView};

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, counting: Counting, deadline: Deadline) -> Result<Ranked> {
    let (counted, timed_out) = count(shard, &queries, &counting, request.vertical_counts, deadline)?;
    Ok(Ranked::counted(Vec::new(), counted, request.vertical_counts, timed_out, queries.matching))
}

/// The counting pass (no scoring), split per vertical when `per_vertical`.
pub fn count(shard: &ShardView, queries: &KeywordQueries, counting: &Counting, per_vertical: bool, deadline: Deadline) -> Result<(VerticalCounts, bool)> {
    let counter = CountCollector { verticals: per_vertical.then_some(shard.verticals) };
    match counting {
        Counting::Postings(terms) => count_postings(&shard.searcher, terms, queries.mask.as_deref().unwrap_or(shard.live), &counter, deadline),
        Counting::MatchSet => collect_segments(&shard.searcher, queries.matching.as_ref(), &counter, deadline, false),
    }
}
