//! The live documents a request's filters admit, one bitset per segment, which the keyword
//! strategies read.
//!
//! A filter (and `safe`, on by default) used to be a clause of the keyword query: the words AND
//! the filters AND NOT the exclusions. Tantivy's block-max WAND only drives a bare disjunction
//! of terms, so any filter made the top-k pass score every match, and the counting pass fell
//! back from the postings bitset to a union scorer. With the filters as a mask, both passes run
//! on the bare words and skip what the mask refuses: the same documents, the same scores (a
//! filter clause scores 0). Masks are cached per reader generation, since most traffic repeats
//! the same few filter sets (`safe` alone above all).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tantivy::query::{EnableScoring, Occur, Query};
use tantivy::{DocId, Searcher};

use crate::error::Result;
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

    /// The live documents of every segment (an empty filter set): what a count without filters
    /// intersects its matches with. The reader builds it once per generation.
    pub fn live(searcher: &Searcher) -> Result<FilterMask> {
        FilterMask::build(searcher, Vec::new())
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

/// A cache key for a filter set: its debug form (every field, in declaration order).
pub fn mask_key<T: std::fmt::Debug>(filters: &T) -> String {
    format!("{filters:?}")
}
