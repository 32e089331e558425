//! The live documents a request's filters admit, one bitset per segment, and the keyword passes
//! that read it.
//!
//! A filter (and `safe`, on by default) used to be a clause of the keyword query: the words AND
//! the filters AND NOT the exclusions. Tantivy's block-max WAND only drives a bare disjunction
//! of terms, so any filter made the top-k pass score every match, and the counting pass fell
//! back from the postings bitset to a union scorer. With the filters as a mask, both passes run
//! on the bare words and skip what the mask refuses: the same documents, the same scores (a
//! filter clause scores 0). Masks are cached per reader generation, since most traffic repeats
//! the same few filter sets (`safe` alone above all).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Arc, Mutex};

use tantivy::fastfield::AliveBitSet;
use tantivy::query::{EnableScoring, Occur, Query};
use tantivy::{DocAddress, DocId, Score, Searcher};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::{VerticalCounts, VerticalTable, VerticalTally};
use crate::search::filters::{everything, filtered};

/// Masks kept per reader generation; past this the cache starts over.
const CACHED_MASKS_MAX: usize = 64;

/// Below this share of the shard admitted, the intersection of words and filters is cheaper
/// than running the words and skipping refused documents.
const MASK_SHARE_MIN: u64 = 4;

/// Live documents admitted by a set of filter clauses: one bitset per segment.
pub struct FilterMask {
    segments: Vec<Vec<u64>>,
    admitted: u64,
}

impl FilterMask {
    /// Run the filter clauses (no words) once over every segment.
    pub fn build(searcher: &Searcher, clauses: Vec<(Occur, Box<dyn Query>)>) -> Result<FilterMask> {
        let query = filtered(everything(), clauses);
        let weight = query.weight(EnableScoring::disabled_from_searcher(searcher))?;
        let mut segments = Vec::with_capacity(searcher.segment_readers().len());
        let mut admitted = 0u64;
        for reader in searcher.segment_readers() {
            let mut bits = vec![0u64; (reader.max_doc() as usize).div_ceil(64)];
            let alive = reader.alive_bitset();
            weight.for_each_no_score(reader, &mut |docs| {
                for &doc in docs {
                    if alive.is_none_or(|alive| alive.is_alive(doc)) {
                        bits[(doc >> 6) as usize] |= 1u64 << (doc & 63);
                        admitted += 1;
                    }
                }
            })?;
            segments.push(bits);
        }
        Ok(FilterMask { segments, admitted })
    }

    /// The words of one segment's bitset.
    pub fn segment(&self, segment_ord: usize) -> &[u64] {
        &self.segments[segment_ord]
    }

    #[inline]
    pub fn admits(&self, segment_ord: usize, doc: DocId) -> bool {
        self.segments[segment_ord].get((doc >> 6) as usize).is_some_and(|word| word & (1u64 << (doc & 63)) != 0)
    }

    /// Whether the mask admits enough of `documents` that running the bare words and skipping
    /// refused matches beats intersecting words and filters.
    pub fn is_broad(&self, documents: u64) -> bool {
        self.admitted.saturating_mul(MASK_SHARE_MIN) >= documents
    }
}

/// Masks of the current reader generation, by filter set (cleared on reload).
#[derive(Default)]
pub struct MaskCache {
    masks: Mutex<HashMap<String, Arc<FilterMask>>>,
}

impl MaskCache {
    /// The mask of `key`'s filters, built by `build` the first time.
    pub fn get_or_build(&self, key: String, build: impl FnOnce() -> Result<FilterMask>) -> Result<Arc<FilterMask>> {
        if let Some(mask) = self.masks.lock().expect("mask cache").get(&key) {
            return Ok(mask.clone());
        }
        let mask = Arc::new(build()?);
        let mut masks = self.masks.lock().expect("mask cache");
        if masks.len() >= CACHED_MASKS_MAX {
            masks.clear();
        }
        masks.insert(key, mask.clone());
        Ok(mask)
    }

    pub fn clear(&self) {
        self.masks.lock().expect("mask cache").clear();
    }
}

/// A scored document in the top-k heap: the heap's top is the worst kept one (lowest score;
/// among equal scores the later address, so earlier documents win ties as in `TopDocs`).
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

/// The `k` best-scoring documents of `query` that `mask` admits (every live one without a
/// mask), best first; tantivy prunes with block-max WAND when `query` is a disjunction of terms.
/// The k-th score carries over from segment to segment, so later segments prune from the start.
pub fn top_k_masked(searcher: &Searcher, query: &dyn Query, mask: Option<&FilterMask>, k: usize, deadline: Deadline) -> Result<(Vec<(Score, DocAddress)>, bool)> {
    let mut heap: BinaryHeap<Kept> = BinaryHeap::with_capacity(k + 1);
    if k == 0 {
        return Ok((Vec::new(), false));
    }
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        let mut threshold = if heap.len() == k { heap.peek().map_or(Score::MIN, |worst| worst.score) } else { Score::MIN };
        weight.for_each_pruning(threshold, reader, &mut |doc, score| {
            if counts(mask, alive, segment_ord, doc) {
                keep(&mut heap, k, score, segment_ord, doc);
                if heap.len() == k {
                    threshold = heap.peek().map_or(Score::MIN, |worst| worst.score);
                }
            }
            threshold
        })?;
        Ok(())
    })?;
    Ok((sorted_best_first(heap), timed_out))
}

/// One pass for a query block-max WAND cannot drive (a phrase among the words, which is what a
/// hyphenated word parses to; required or excluded words; words intersected with narrow
/// filters): every match is scored once, kept when it ranks in the top `k`, and counted (per
/// vertical when `verticals` is given). The two passes of a WAND query would evaluate such a
/// query twice, and its phrases dominate its cost. Same ranking and ties as `top_k_masked`.
pub fn top_k_and_count(
    searcher: &Searcher,
    query: &dyn Query,
    mask: Option<&FilterMask>,
    k: usize,
    verticals: Option<&VerticalTable>,
    deadline: Deadline,
) -> Result<(Vec<(Score, DocAddress)>, VerticalCounts, bool)> {
    let mut heap: BinaryHeap<Kept> = BinaryHeap::with_capacity(k + 1);
    let mut counted = VerticalCounts::default();
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        let mut tally = verticals.map_or_else(VerticalTally::total_only, |table| table.tally(segment_ord));
        weight.for_each(reader, &mut |doc, score| {
            if !counts(mask, alive, segment_ord, doc) {
                return;
            }
            tally.add(doc);
            if k > 0 && (heap.len() < k || heap.peek().is_some_and(|worst| score > worst.score)) {
                keep(&mut heap, k, score, segment_ord, doc);
            }
        })?;
        counted.merge(tally.counts());
        Ok(())
    })?;
    Ok((sorted_best_first(heap), counted, timed_out))
}

/// Whether a match of the words counts: the mask admits it (a mask holds live documents only),
/// or, without a mask, it is not deleted.
fn counts(mask: Option<&FilterMask>, alive: Option<&AliveBitSet>, segment_ord: usize, doc: DocId) -> bool {
    match mask {
        Some(mask) => mask.admits(segment_ord, doc),
        None => alive.is_none_or(|alive| alive.is_alive(doc)),
    }
}

/// Add a document to a top-`k` heap; past `k` the worst (lowest score, then latest) goes.
fn keep(heap: &mut BinaryHeap<Kept>, k: usize, score: Score, segment_ord: usize, doc: DocId) {
    heap.push(Kept { score, address: DocAddress::new(segment_ord as u32, doc) });
    if heap.len() > k {
        heap.pop();
    }
}

fn sorted_best_first(heap: BinaryHeap<Kept>) -> Vec<(Score, DocAddress)> {
    let mut top: Vec<(Score, DocAddress)> = heap.into_iter().map(|kept| (kept.score, kept.address)).collect();
    top.sort_by(|left, right| right.0.partial_cmp(&left.0).unwrap_or(Ordering::Equal).then_with(|| left.1.cmp(&right.1)));
    top
}

/// A cache key for a filter set: its debug form (every field, in declaration order).
pub fn mask_key<T: std::fmt::Debug>(filters: &T) -> String {
    format!("{filters:?}")
}
