//! Relevance over a query block-max WAND cannot drive (phrases alone; required or excluded
//! words; a phrase with slop; words intersected with narrow filters; browsing; words with plain
//! phrases among them go to `phrase_union.rs`): every match is scored once, kept when it ranks
//! in the top `k`, and counted (per vertical when asked). The two passes of `WandTopK` would
//! evaluate such a query twice, and its phrases dominate its cost. Same ranking and ties as
//! `WandTopK`.

use tantivy::query::EnableScoring;

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::VerticalCounts;
use crate::request::SearchRequest;
use crate::search::collectors::{admitted, CountCollector, TopKCollector};
use crate::search::queries::KeywordQueries;
use crate::search::{Ranked, ShardView};

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, depth: usize, deadline: Deadline) -> Result<Ranked> {
    let searcher = &shard.searcher;
    let (query, mask) = queries.ranked();
    let mut top = TopKCollector::new(depth);
    let counter = CountCollector { verticals: request.vertical_counts.then_some(shard.verticals) };
    let mut counted = VerticalCounts::default();
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        let mut tally = counter.segment(segment_ord);
        weight.for_each(reader, &mut |doc, score| {
            if !admitted(mask, alive, segment_ord, doc) {
                return;
            }
            tally.add(doc);
            top.collect(segment_ord, doc, score);
        })?;
        counted.merge(tally.counts());
        Ok(())
    })?;
    Ok(Ranked::counted(Ranked::scored(top.harvest()), counted, request.vertical_counts, timed_out, queries.matching))
}
