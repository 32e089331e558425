//! Opening a shard directory: the Tantivy index with our schema and analyser, and the file that
//! announces each commit to readers in other threads and processes.

use std::path::Path;

use serde::Serialize;
use tantivy::directory::MmapDirectory;
use tantivy::Index;

use crate::analyzer;
use crate::error::{EngineError, Result};
use crate::schema::{build_schema, ShardFields};
pub use crate::vocabulary::VectorSource;

/// Written (atomically) after every commit; readers reload when it changes.
pub const COMMIT_FILE: &str = "commit.json";

#[derive(Clone, Debug)]
pub struct ShardOptions {
    /// Vector dimensions of the embedder (and of any precomputed vectors).
    pub dimensions: usize,
    pub vectors: VectorSource,
    /// Indexing threads of the writer.
    pub writer_threads: usize,
    /// Memory budget of the writer across its threads, in bytes.
    pub writer_memory_bytes: usize,
}

impl Default for ShardOptions {
    fn default() -> Self {
        ShardOptions {
            dimensions: crate::embedder::DEFAULT_DIMENSIONS,
            vectors: VectorSource::Hashing,
            writer_threads: 1,
            writer_memory_bytes: 256 * 1024 * 1024,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct CommitNotice {
    pub opstamp: u64,
    pub num_docs: u64,
    pub committed_at_ms: u64,
}

/// Open the index in `directory` for writing, creating the directory and an empty index when
/// missing: only a writer (ingest, or the creation of a new index) makes a shard.
pub fn create_or_open_index(directory: &Path) -> Result<(Index, ShardFields)> {
    std::fs::create_dir_all(directory)?;
    let (schema, _) = build_schema();
    let index = Index::open_or_create(MmapDirectory::open(directory)?, schema)?;
    with_analyzer(index)
}

/// Open the existing index in `directory` for reading. A missing directory or index is an
/// error, never an empty shard made in its place: a shard lost while the service was down must
/// read as down (its answers partial), not as a shard that holds nothing.
pub fn open_existing_index(directory: &Path) -> Result<(Index, ShardFields)> {
    if !directory.join(TANTIVY_META_FILE).is_file() {
        return Err(EngineError::ShardMissing(directory.to_path_buf()));
    }
    with_analyzer(Index::open(MmapDirectory::open(directory)?)?)
}

/// The file Tantivy writes when it creates an index (and rewrites at each commit).
const TANTIVY_META_FILE: &str = "meta.json";

fn with_analyzer(index: Index) -> Result<(Index, ShardFields)> {
    analyzer::register(&index);
    let fields = ShardFields::from_schema(&index.schema())?;
    Ok((index, fields))
}

pub fn write_commit_notice(directory: &Path, notice: &CommitNotice) -> Result<()> {
    let body = serde_json::to_vec(notice).map_err(|error| crate::EngineError::Encoding(error.to_string()))?;
    let temporary = directory.join(format!("{COMMIT_FILE}.tmp"));
    std::fs::write(&temporary, body)?;
    std::fs::rename(&temporary, directory.join(COMMIT_FILE))?;
    Ok(())
}

/// The stable key of a passage in the vector index.
pub fn vector_key(passage_id: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(passage_id.as_bytes())
}
