//! Merging the sealed tail into the graph, behind the writer: load the graph, apply the sealed
//! segments' records (the last record of a key wins; inserts from several threads at once), save
//! the graph durably, then delete the merged segments oldest first (see `tail.rs` for why that
//! order keeps every reader's view whole). HNSW insertion is the dear part of indexing a vector
//! (about 0.2 ms each on one core), which is why it runs here and not in the writer's add.
//!
//! One merge at a time per shard: the merge holds `vectors.lock` (an OS file lock, released if
//! the process dies); a crash mid-merge leaves the old graph and every segment in place.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::time::Instant;

use crate::error::{EngineError, Result};
use crate::vectors::graph::VectorGraph;
use crate::vectors::tail::{list_segments, segment_path, SegmentReader};

const LOCK_FILE: &str = "vectors.lock";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeReport {
    /// Segments merged and deleted.
    pub segments: u64,
    /// Records applied (adds and removes, before the last-one-wins reduction).
    pub records: u64,
    /// Vectors in the graph after the merge.
    pub graph_vectors: u64,
    pub seconds: f64,
}

/// Hold the shard's merge lock: waiting for it (`wait`), or None when another merge holds it.
fn lock(directory: &Path, wait: bool) -> Result<Option<File>> {
    let file = File::options().create(true).truncate(false).write(true).open(directory.join(LOCK_FILE))?;
    if wait {
        file.lock()?;
        return Ok(Some(file));
    }
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(error)) => Err(error.into()),
    }
}

/// Merge every segment older than `below` into the graph with `threads` inserting threads.
/// With `wait` false, returns an empty report at once when another merge is running.
pub fn merge_sealed(directory: &Path, dimensions: usize, below: u64, threads: usize, wait: bool) -> Result<MergeReport> {
    let started = Instant::now();
    let Some(_lock) = lock(directory, wait)? else {
        return Ok(MergeReport::default());
    };
    let seqs: Vec<u64> = list_segments(directory)?.into_iter().filter(|seq| *seq < below).collect();
    if seqs.is_empty() {
        return Ok(MergeReport::default());
    }
    // The final state of each key across the merged segments: Some(row of `vectors`) or None (removed).
    let mut latest: HashMap<u64, Option<usize>> = HashMap::new();
    let mut vectors: Vec<f32> = Vec::new();
    let mut records = 0u64;
    for seq in &seqs {
        let mut reader = SegmentReader::new(*seq, dimensions);
        let read = reader.read_more(directory, |record| {
            match record.vector {
                Some(vector) => {
                    let row = match latest.get(&record.key) {
                        Some(Some(row)) => *row,
                        _ => {
                            vectors.extend_from_slice(vector);
                            vectors.len() / dimensions - 1
                        }
                    };
                    vectors[row * dimensions..(row + 1) * dimensions].copy_from_slice(vector);
                    latest.insert(record.key, Some(row));
                }
                None => {
                    latest.insert(record.key, None);
                }
            }
            records += 1;
        })?;
        if read.is_none() {
            return Err(EngineError::Vectors(format!("tail segment {seq:016x} vanished while the merge held the lock")));
        }
    }
    let graph = VectorGraph::open_for_write(directory, dimensions)?;
    let mut additions: Vec<(u64, usize)> = Vec::with_capacity(latest.len());
    for (key, row) in &latest {
        graph.remove(*key)?;
        if let Some(row) = row {
            additions.push((*key, *row));
        }
    }
    // Inserted in the order the tail first saw each key.
    additions.sort_unstable_by_key(|(_, row)| *row);
    let threads = threads.clamp(1, 64);
    graph.reserve(additions.len(), threads)?;
    let chunk = additions.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = additions
            .chunks(chunk)
            .map(|part| {
                let graph = &graph;
                let vectors = &vectors;
                scope.spawn(move || -> Result<()> {
                    for (key, row) in part {
                        graph.add_unit(*key, &vectors[row * dimensions..(row + 1) * dimensions])?;
                    }
                    Ok(())
                })
            })
            .collect();
        for worker in workers {
            worker.join().map_err(|_| EngineError::Vectors("a graph insertion thread panicked".to_string()))??;
        }
        Ok(())
    })?;
    graph.save(directory)?;
    for seq in &seqs {
        std::fs::remove_file(segment_path(directory, *seq))?;
    }
    Ok(MergeReport { segments: seqs.len() as u64, records, graph_vectors: graph.len() as u64, seconds: started.elapsed().as_secs_f64() })
}
