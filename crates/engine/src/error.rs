//! The one error type of the engine. The binding converts it to a JS error in one place.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("index error: {0}")]
    Index(#[from] tantivy::TantivyError),
    #[error("query syntax error: {0}")]
    QuerySyntax(#[from] tantivy::query::QueryParserError),
    #[error("index directory error: {0}")]
    Directory(#[from] tantivy::directory::error::OpenDirectoryError),
    #[error("io error: {0}")]
    Io(#[from] std::io::Error),
    #[error("vector index error: {0}")]
    Vectors(String),
    #[error("encoding error: {0}")]
    Encoding(String),
    #[error("invalid passage {id}: {reason}")]
    InvalidPassage { id: String, reason: String },
    #[error("shard at {0} is locked by another writer")]
    Locked(PathBuf),
    #[error("deadline exceeded before the call started")]
    DeadlineExceeded,
    #[error("closed: the shard {0} was closed")]
    Closed(&'static str),
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    #[error("query syntax error: {depth} nested groups, at most {max} are accepted")]
    QueryTooDeep { depth: usize, max: usize },
    #[error("no shard at {0}: its directory or index is missing (only ingest creates shards)")]
    ShardMissing(PathBuf),
}

impl From<cxx::Exception> for EngineError {
    fn from(exception: cxx::Exception) -> Self {
        EngineError::Vectors(exception.what().to_string())
    }
}

impl From<rmp_serde::encode::Error> for EngineError {
    fn from(error: rmp_serde::encode::Error) -> Self {
        EngineError::Encoding(error.to_string())
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;
