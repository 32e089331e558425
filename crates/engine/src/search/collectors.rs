//! Per-segment collection. A strategy walks the segments in order (the deadline is checked
//! between segments), feeds each match of a segment to its collectors, and merges what they
//! gathered, as Tantivy's collectors do; each collector has one job:
//!
//! - `TopKCollector`: the `k` best-scoring matches across segments, with the score a match must
//!   beat carried from segment to segment (block-max WAND prunes with it).
//! - `CountCollector`: how many matches, in all and, given the vertical table, per vertical (the
//!   router's split in the same pass). A Tantivy collector too, so any query can be counted.
//!
//! `collect_segments` runs a Tantivy collector (counts, facets, a top-k by field) segment by
//! segment; `admitted` is the one test of whether a match counts (filter mask or deletions).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use tantivy::collector::Collector;
use tantivy::fastfield::AliveBitSet;
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, DocId, Score, Searcher, SegmentOrdinal, SegmentReader};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::{VerticalCounts, VerticalTable, VerticalTally};
use crate::search::filter_mask::FilterMask;

/// The `k` best-scoring matches seen so far, over every segment walked.
pub struct TopKCollector {
    k: usize,
    heap: BinaryHeap<Kept>,
}

impl TopKCollector {
    pub fn new(k: usize) -> Self {
        debug_assert!(k > 0, "a limit of 0 asks for the count alone, which runs without a top-k");
        TopKCollector { k, heap: BinaryHeap::with_capacity(k + 1) }
    }

    /// The score a match must beat to enter: the k-th best once `k` are kept, else none.
    #[inline]
    pub fn threshold(&self) -> Score {
        if self.heap.len() == self.k {
            self.heap.peek().map_or(Score::MIN, |worst| worst.score)
        } else {
            Score::MIN
        }
    }

    /// Keep a match when it ranks among the `k` best so far; past `k` the worst goes. Matches
    /// arrive in address order, so among equal scores the earlier document stays (as in
    /// Tantivy's `TopDocs`).
    #[inline]
    pub fn collect(&mut self, segment_ord: usize, doc: DocId, score: Score) {
        if self.heap.len() < self.k || self.heap.peek().is_some_and(|worst| score > worst.score) {
            self.heap.push(Kept { score, address: DocAddress::new(segment_ord as u32, doc) });
            if self.heap.len() > self.k {
                self.heap.pop();
            }
        }
    }

    /// The kept matches, best first (ties by address).
    pub fn harvest(self) -> Vec<(Score, DocAddress)> {
        let mut top: Vec<(Score, DocAddress)> = self.heap.into_iter().map(|kept| (kept.score, kept.address)).collect();
        top.sort_by(|left, right| right.0.partial_cmp(&left.0).unwrap_or(Ordering::Equal).then_with(|| left.1.cmp(&right.1)));
        top
    }
}

/// A scored document in the top-k heap: the heap's top is the worst kept one (lowest score;
/// among equal scores the later address).
#[derive(Clone, Copy, PartialEq)]
struct Kept {
    score: Score,
    address: DocAddress,
}

impl Eq for Kept {}

impl Ord for Kept {
    fn cmp(&self, other: &Self) -> Ordering {
        other.score.partial_cmp(&self.score).unwrap_or(Ordering::Equal).then_with(|| self.address.cmp(&other.address))
    }
}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Counts matches in all and, with the vertical table, per vertical. Each segment is counted
/// by a `VerticalTally`; `merge_fruits` sums them.
#[derive(Clone, Copy)]
pub struct CountCollector<'a> {
    pub verticals: Option<&'a VerticalTable>,
}

impl CountCollector<'_> {
    /// The tally of one segment's matches.
    pub fn segment(&self, segment_ord: usize) -> VerticalTally {
        self.verticals.map_or_else(VerticalTally::total_only, |table| table.tally(segment_ord))
    }
}

impl Collector for CountCollector<'_> {
    type Fruit = VerticalCounts;
    type Child = VerticalTally;

    fn for_segment(&self, segment: SegmentOrdinal, _reader: &SegmentReader) -> tantivy::Result<VerticalTally> {
        Ok(self.segment(segment as usize))
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<VerticalCounts>) -> tantivy::Result<VerticalCounts> {
        let mut merged = VerticalCounts::default();
        for fruit in fruits {
            merged.merge(fruit);
        }
        Ok(merged)
    }
}

/// Whether a match counts: the mask admits it (a mask holds live documents only), or, without
/// a mask, it is not deleted.
#[inline]
pub fn admitted(mask: Option<&FilterMask>, alive: Option<&AliveBitSet>, segment_ord: usize, doc: DocId) -> bool {
    match mask {
        Some(mask) => mask.admits(segment_ord, doc),
        None => alive.is_none_or(|alive| alive.is_alive(doc)),
    }
}

/// Run a Tantivy collector segment by segment, stopping at the deadline (Tantivy's own search
/// runs all segments at once). Returns the merged fruit and whether the deadline cut it short.
pub fn collect_segments<C: Collector>(searcher: &Searcher, query: &dyn Query, collector: &C, deadline: Deadline, scoring: bool) -> Result<(C::Fruit, bool)> {
    let enable_scoring = if scoring {
        EnableScoring::enabled_from_searcher(searcher)
    } else {
        EnableScoring::disabled_from_searcher(searcher)
    };
    let weight = query.weight(enable_scoring)?;
    let mut fruits = Vec::with_capacity(searcher.segment_readers().len());
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        fruits.push(collector.collect_segment(weight.as_ref(), segment_ord as u32, reader)?);
        Ok(())
    })?;
    Ok((collector.merge_fruits(fruits)?, timed_out))
}
