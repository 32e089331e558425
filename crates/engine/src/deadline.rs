//! A deadline every engine call carries. Work is bounded by checking it between units
//! (segments, fetches) instead of by killing threads: a late shard answers what it has with
//! `timed_out` set, and the pool reports the answer as partial.

use std::time::{Duration, Instant};

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
}
