//! evidence-engine: one index shard of the evidence search service. Tantivy holds the passages
//! (BM25 keyword search, fast-field columns for filters and sorts), usearch holds an HNSW index
//! of their vectors, made by a model-free embedder here or by a model outside the engine. No Node in here: the
//! napi-rs binding crate is a thin layer over this surface.

mod analyzer;
mod deadline;
mod embedder;
mod error;
mod facets;
mod fetch;
mod passage;
mod query_depth;
mod reader;
mod record;
mod request;
mod schema;
mod search;
mod shard;
mod stem_cache;
#[cfg(test)]
mod test_shard;
mod vectors;
mod vocabulary;
mod word_match;
mod writer;

pub use deadline::Deadline;
pub use embedder::{Embedder, HashingEmbedder, DEFAULT_DIMENSIONS};
pub use error::{EngineError, Result};
pub use passage::{Document, Hit, Passage};
pub use query_depth::{query_nesting, MAX_QUERY_NESTING};
pub use facets::FacetCounts;
pub use reader::{EmbeddingInput, ReloadReport, ShardReader};
pub use request::{Filters, Rerank, SearchRequest, VectorScoring};
pub use search::ShardSearchResult;
pub use shard::{vector_key, CommitNotice, ShardOptions, COMMIT_FILE};
pub use vocabulary::{Collapse, ContentType, Mode, OriginType, Safety, SortBy, Source, SourceRole, VectorSource, Vocabulary};
pub use vectors::{MergeReport, MERGE_AFTER_RECORDS};
pub use word_match::{analysed_words, texts_holding_any, AnalysedWord};
pub use writer::{AddReport, ShardWriter};

/// The TypeScript declarations generated from the record and vocabulary tables.
pub mod typescript;

/// Encode a result as MessagePack with named fields, the format results cross threads in.
pub fn to_msgpack<T: serde::Serialize>(value: &T) -> Result<Vec<u8>> {
    Ok(rmp_serde::to_vec_named(value)?)
}
