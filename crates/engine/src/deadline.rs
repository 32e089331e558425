//! A deadline every engine call carries. Work is bounded by checking it between units
//! (segments, fetches) instead of by killing threads: a late shard answers what it has with
//! `timed_out` set, and the pool reports the answer as partial.

use std::time::{Duration, Instant};

use tantivy::{Searcher, SegmentReader};

use crate::error::Result;

#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at: Option<Instant>,
}

impl Deadline {
    pub fn none() -> Self {
        Deadline { at: None }
    }

    /// A deadline `millis` from now; 0 means no deadline.
    pub fn after_millis(millis: u64) -> Self {
        if millis == 0 {
            return Deadline::none();
        }
        Deadline { at: Some(Instant::now() + Duration::from_millis(millis)) }
    }

    /// A deadline already passed (for tests and for work queued past its time).
    pub fn expired() -> Self {
        Deadline { at: Some(Instant::now()) }
    }

    pub fn is_expired(&self) -> bool {
        match self.at {
            Some(at) => Instant::now() >= at,
            None => false,
        }
    }

    /// Visit the searcher's segments in order (with their ordinals), checking the deadline
    /// before each; returns whether it cut the walk short.
    pub fn walk_segments(&self, searcher: &Searcher, mut visit: impl FnMut(usize, &SegmentReader) -> Result<()>) -> Result<bool> {
        for (segment_ord, reader) in searcher.segment_readers().iter().enumerate() {
            if self.is_expired() {
                return Ok(true);
            }
            visit(segment_ord, reader)?;
        }
        Ok(false)
    }
}
