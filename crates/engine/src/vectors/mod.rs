//! A shard's vectors: the HNSW graph (`graph.rs`) and the tail of vectors added or removed since
//! the graph's last merge (`tail.rs`), which a search scans exactly beside the graph. Writers
//! only append to the tail (cheap, synced at commit); the graph is built behind them
//! (`merge.rs`): by a thread a commit starts once the sealed tail is long enough, and by
//! `VectorWriter::build`, which an ingest run calls at its end to report when its vectors are
//! fully in the graph.
//!
//! `VectorStore` is a reader's view (graph + tail, reloaded on a commit notice); `VectorWriter`
//! is a writer's (the graph's keys + the tail's, to know which passages have a vector).

mod graph;
mod merge;
mod tail;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use crate::embedder::normalise;
use crate::error::{EngineError, Result};
use graph::{graph_path, VectorGraph};
pub use merge::MergeReport;
use merge::merge_sealed;
use tail::{encode, list_segments, records_by_size, take_seq, Record, RecordKind, SegmentAppender, SegmentReader, SEGMENT_RECORDS};

/// Sealed tail records at which a writer's commit starts a merge behind it. The tail a search
/// scans exactly stays about this long (about 4 ms a query at 128 dimensions on one core).
pub const MERGE_AFTER_RECORDS: u64 = 32_768;

fn unit(vector: &[f32]) -> Vec<f32> {
    let mut unit = vector.to_vec();
    normalise(&mut unit);
    unit
}

fn check_dimensions(vector: &[f32], dimensions: usize) -> Result<()> {
    if vector.len() != dimensions {
        return Err(EngineError::Vectors(format!("vector has {} dimensions, the shard expects {dimensions}", vector.len())));
    }
    Ok(())
}

/// Read the present segments in order into `segments`/`apply`, then list them again: None when
/// one it read (or listed) is gone by then, i.e. a merge moved it into the graph meanwhile (the
/// caller starts over from a fresh listing). New segments are appended to `segments`.
fn read_segments(directory: &Path, dimensions: usize, segments: &mut Vec<SegmentReader>, mut apply: impl FnMut(Record)) -> Result<Option<()>> {
    let listed = list_segments(directory)?;
    if segments.iter().any(|segment| !listed.contains(&segment.seq)) {
        return Ok(None);
    }
    for seq in listed {
        if !segments.iter().any(|segment| segment.seq == seq) {
            segments.push(SegmentReader::new(seq, dimensions));
        }
    }
    for segment in segments.iter_mut() {
        if segment.read_more(directory, &mut apply)?.is_none() {
            return Ok(None);
        }
    }
    Ok(Some(()))
}

/// Whether every segment read is still present (so the graph opened after them cannot hold
/// records newer than theirs for the keys they decide).
fn still_present(directory: &Path, segments: &[SegmentReader]) -> Result<bool> {
    let listed = list_segments(directory)?;
    Ok(segments.iter().all(|segment| listed.contains(&segment.seq)))
}

/// How many times a reload starts over when merges keep deleting what it reads.
const RELOAD_ATTEMPTS: usize = 16;

/// The whole tail read afresh, then the graph: what `apply` built from every present segment,
/// the segments (to read on from), the graph and its stamp. Starts over while a merge deletes
/// segments under it; the graph opened after the segments were read holds whatever they lost.
fn read_whole<T: Default>(directory: &Path, dimensions: usize, mut apply: impl FnMut(&mut T, Record)) -> Result<(T, Vec<SegmentReader>, VectorGraph, Option<GraphStamp>)> {
    for _ in 0..RELOAD_ATTEMPTS {
        let mut built = T::default();
        let mut segments = Vec::new();
        if read_segments(directory, dimensions, &mut segments, |record| apply(&mut built, record))?.is_none() {
            continue;
        }
        let stamp = graph_stamp(directory);
        let graph = VectorGraph::open_view(directory, dimensions)?;
        if still_present(directory, &segments)? {
            return Ok((built, segments, graph, stamp));
        }
    }
    Err(EngineError::Vectors("the vector tail kept changing while it was read".to_string()))
}

/// The tail's vectors as a search scans them: one row per key whose last record adds it.
#[derive(Default)]
struct TailVectors {
    keys: Vec<u64>,
    vectors: Vec<f32>,
    rows: HashMap<u64, usize>,
    /// Keys whose last record removes them.
    removed: HashSet<u64>,
}

impl TailVectors {
    fn apply(&mut self, record: Record, dimensions: usize) {
        let key = record.key;
        match record.vector {
            Some(vector) => {
                self.removed.remove(&key);
                match self.rows.get(&key) {
                    Some(row) => self.vectors[row * dimensions..(row + 1) * dimensions].copy_from_slice(vector),
                    None => {
                        self.rows.insert(key, self.keys.len());
                        self.keys.push(key);
                        self.vectors.extend_from_slice(vector);
                    }
                }
            }
            None => {
                if let Some(row) = self.rows.remove(&key) {
                    let last = self.keys.len() - 1;
                    if row != last {
                        self.keys[row] = self.keys[last];
                        self.vectors.copy_within(last * dimensions..(last + 1) * dimensions, row * dimensions);
                        self.rows.insert(self.keys[row], row);
                    }
                    self.keys.pop();
                    self.vectors.truncate(last * dimensions);
                }
                self.removed.insert(key);
            }
        }
    }

    /// Whether the tail decides this key (so the graph's entry, if any, is stale).
    fn decides(&self, key: u64) -> bool {
        self.rows.contains_key(&key) || self.removed.contains(&key)
    }

    /// The `count` nearest rows to a unit vector by exact inner product, as (key, distance).
    fn nearest(&self, unit: &[f32], count: usize, dimensions: usize) -> Vec<(u64, f32)> {
        let mut scored: Vec<(u64, f32)> = self
            .keys
            .iter()
            .zip(self.vectors.chunks_exact(dimensions))
            .map(|(key, vector)| (*key, 1.0 - vector.iter().zip(unit).map(|(a, b)| a * b).sum::<f32>()))
            .collect();
        if scored.len() > count {
            scored.select_nth_unstable_by(count, |a, b| a.1.total_cmp(&b.1));
            scored.truncate(count);
        }
        scored
    }
}

/// What identifies a saved graph file (a merge renames a new file over it; a reader's mapping
/// holds the old inode, so the number cannot be reused while the reader uses it).
type GraphStamp = (u64, u64);

fn graph_stamp(directory: &Path) -> Option<GraphStamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(graph_path(directory)).ok()?;
    Some((meta.dev(), meta.ino()))
}

/// A reader's view of a shard's vectors.
pub struct VectorStore {
    directory: PathBuf,
    dimensions: usize,
    graph: VectorGraph,
    graph_stamp: Option<GraphStamp>,
    segments: Vec<SegmentReader>,
    tail: TailVectors,
    /// Vectors in graph and tail together (the tail's decisions applied).
    len: usize,
}

impl VectorStore {
    pub fn open(directory: &Path, dimensions: usize) -> Result<Self> {
        let (tail, segments, graph, graph_stamp) = read_whole(directory, dimensions, |tail: &mut TailVectors, record| tail.apply(record, dimensions))?;
        let mut store = VectorStore { directory: directory.to_path_buf(), dimensions, graph, graph_stamp, segments, tail, len: 0 };
        store.count();
        Ok(store)
    }

    /// Take in what was appended, merged or saved since the last reload. On an error the store
    /// keeps the view it had (whole, if older).
    pub fn reload(&mut self) -> Result<()> {
        let dimensions = self.dimensions;
        // Only new records: applied in place (an error part way leaves an older, whole view).
        if read_segments(&self.directory, dimensions, &mut self.segments, |record| self.tail.apply(record, dimensions))?.is_some() {
            let stamp = graph_stamp(&self.directory);
            if stamp.is_none() || stamp != self.graph_stamp {
                self.graph = VectorGraph::open_view(&self.directory, dimensions)?;
                self.graph_stamp = stamp;
            }
            if still_present(&self.directory, &self.segments)? {
                self.count();
                return Ok(());
            }
        }
        // A merge moved segments into the graph: read what is left afresh, beside the old view.
        (self.tail, self.segments, self.graph, self.graph_stamp) =
            read_whole(&self.directory, dimensions, |tail: &mut TailVectors, record| tail.apply(record, dimensions))?;
        self.count();
        Ok(())
    }

    fn count(&mut self) {
        let stale = self.tail.rows.keys().chain(&self.tail.removed).filter(|key| self.graph.contains(**key)).count();
        self.len = self.graph.len() - stale + self.tail.keys.len();
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Vectors in the tail (searched exactly until a merge puts them in the graph).
    pub fn tail_len(&self) -> usize {
        self.tail.keys.len()
    }

    pub fn contains(&self, key: u64) -> bool {
        if self.tail.decides(key) {
            return self.tail.rows.contains_key(&key);
        }
        self.graph.contains(key)
    }

    /// The stored (unit) vector of a key.
    pub fn get(&self, key: u64) -> Result<Option<Vec<f32>>> {
        if let Some(row) = self.tail.rows.get(&key) {
            return Ok(Some(self.tail.vectors[row * self.dimensions..(row + 1) * self.dimensions].to_vec()));
        }
        if self.tail.removed.contains(&key) {
            return Ok(None);
        }
        self.graph.get(key)
    }

    /// Nearest keys with their cosine distance (0 = same direction): the graph's approximate
    /// neighbours (its stale entries left out) and the tail's exact ones, merged.
    pub fn search(&self, query: &[f32], count: usize) -> Result<Vec<(u64, f32)>> {
        check_dimensions(query, self.dimensions)?;
        if count == 0 {
            return Ok(Vec::new());
        }
        let unit = unit(query);
        let tail_decides = |key: u64| self.tail.decides(key);
        let skip: Option<&dyn Fn(u64) -> bool> = if self.tail.rows.is_empty() && self.tail.removed.is_empty() { None } else { Some(&tail_decides) };
        let mut found = self.graph.search(&unit, count, skip)?;
        found.extend(self.tail.nearest(&unit, count, self.dimensions));
        found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        found.truncate(count);
        Ok(found)
    }
}

/// A writer's side of a shard's vectors: appends to the tail and starts merges behind it.
pub struct VectorWriter {
    directory: PathBuf,
    dimensions: usize,
    /// A view of the graph as it was at open (a merge since only moved tail records into it).
    graph: VectorGraph,
    /// The tail's last word per key, read at open and kept up with this writer's own records.
    tail_keys: HashMap<u64, bool>,
    pending: Vec<u8>,
    pending_records: u64,
    segment: Option<SegmentAppender>,
    /// The sequence number the next new segment takes (past every segment present at open).
    next_seq: u64,
    merging: Option<JoinHandle<Result<MergeReport>>>,
    /// The last merge behind this writer that failed (its segments stay; the next merge retries).
    merge_failure: Option<String>,
}

impl VectorWriter {
    pub fn open(directory: &Path, dimensions: usize) -> Result<Self> {
        let (tail_keys, segments, graph, _) = read_whole(directory, dimensions, |keys: &mut HashMap<u64, bool>, record| {
            keys.insert(record.key, record.vector.is_some());
        })?;
        if graph.len() > 0 && graph.dimensions() != dimensions {
            return Err(EngineError::Vectors(format!(
                "saved vectors have {} dimensions, the shard is configured for {dimensions}",
                graph.dimensions()
            )));
        }
        let next_seq = segments.iter().map(|segment| segment.seq + 1).max().unwrap_or(1);
        Ok(VectorWriter {
            directory: directory.to_path_buf(),
            dimensions,
            graph,
            tail_keys,
            pending: Vec::new(),
            pending_records: 0,
            segment: None,
            next_seq,
            merging: None,
            merge_failure: None,
        })
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    pub fn contains(&self, key: u64) -> bool {
        match self.tail_keys.get(&key) {
            Some(present) => *present,
            None => self.graph.contains(key),
        }
    }

    /// Queue a vector for the key (replacing any it has); durable at `commit`.
    pub fn add(&mut self, key: u64, vector: &[f32]) -> Result<()> {
        check_dimensions(vector, self.dimensions)?;
        encode(&mut self.pending, key, RecordKind::Add, Some(&unit(vector)), self.dimensions);
        self.pending_records += 1;
        self.tail_keys.insert(key, true);
        Ok(())
    }

    /// Queue the removal of the key's vector, if it has one.
    pub fn remove(&mut self, key: u64) {
        if self.contains(key) {
            encode(&mut self.pending, key, RecordKind::Remove, None, self.dimensions);
            self.pending_records += 1;
            self.tail_keys.insert(key, false);
        }
    }

    /// The first segment number no merge may touch: this writer's open segment, or the next.
    fn unsealed(&self) -> u64 {
        self.segment.as_ref().map_or(self.next_seq, |segment| segment.seq)
    }

    /// Append the queued records and sync them; then, when the sealed tail is long enough and no
    /// merge of this writer is running, start one behind it.
    pub fn commit(&mut self) -> Result<()> {
        if self.pending_records > 0 {
            if self.segment.is_none() {
                let seq = take_seq(&self.directory, self.next_seq)?;
                self.next_seq = seq + 1;
                self.segment = Some(SegmentAppender::create(&self.directory, seq, self.dimensions)?);
            }
            let segment = self.segment.as_mut().expect("opened above");
            if let Err(error) = segment.append(&self.pending, self.pending_records) {
                // It may end torn: a retry appends to a segment of its own.
                self.segment = None;
                return Err(error);
            }
            self.pending.clear();
            self.pending_records = 0;
            if segment.records >= SEGMENT_RECORDS {
                self.segment = None;
            }
        }
        self.collect_merge();
        if self.merging.is_none() && self.records_below(self.unsealed())? >= MERGE_AFTER_RECORDS {
            let (directory, dimensions, below) = (self.directory.clone(), self.dimensions, self.unsealed());
            self.merging = Some(std::thread::spawn(move || merge_sealed(&directory, dimensions, below, 1, false)));
        }
        Ok(())
    }

    /// Take in a finished merge's outcome.
    fn collect_merge(&mut self) {
        if self.merging.as_ref().is_some_and(|handle| handle.is_finished()) {
            self.merge_failure = match self.merging.take().map(JoinHandle::join) {
                Some(Ok(Err(error))) => Some(error.to_string()),
                Some(Err(_)) => Some("the merge thread panicked".to_string()),
                _ => None,
            };
        }
    }

    /// Records in the segments numbered below `below`.
    fn records_below(&self, below: u64) -> Result<u64> {
        Ok(list_segments(&self.directory)?.into_iter().filter(|seq| *seq < below).map(|seq| records_by_size(&self.directory, seq, self.dimensions)).sum())
    }

    /// Records waiting in the tail (committed, not yet in the graph).
    pub fn tail_records(&self) -> Result<u64> {
        self.records_below(u64::MAX)
    }

    /// Put every committed vector into the graph now, with `threads` inserting threads: seals
    /// the open segment, waits for a merge running behind this writer, then merges the rest.
    /// Vectors queued since the last commit stay queued.
    pub fn build(&mut self, threads: usize) -> Result<MergeReport> {
        // Sealed: the next append opens a new segment (next_seq is already past this one).
        self.segment = None;
        if let Some(handle) = self.merging.take() {
            let _ = handle.join();
        }
        let report = merge_sealed(&self.directory, self.dimensions, self.next_seq, threads, true)?;
        self.merge_failure = None;
        Ok(report)
    }

    /// The failure of the last merge behind this writer, if it failed.
    pub fn merge_failure(&self) -> Option<&str> {
        self.merge_failure.as_deref()
    }
}
