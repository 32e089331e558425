//! The search of one shard.

pub mod address_set;
pub mod filter_mask;
pub mod filters;
pub mod point_scores;
pub mod postings_count;
pub mod query_shape;
pub mod ranking;
