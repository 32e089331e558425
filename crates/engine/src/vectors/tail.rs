//! The vector tail of a shard: append-only segment files holding the vectors added and removed
//! since the graph was last merged (`merge.rs`). A writer appends its records at commit (synced
//! before the index commits, so a committed passage never lacks the vector it was given); readers
//! search the tail exactly beside the graph, so a vector is searchable as soon as its passage is.
//!
//! Files: `vectors.tail.<seq>` (seq in 16 hex digits, so names sort by seq). A writer starts a new
//! segment when it first appends and after a segment grows past `SEGMENT_RECORDS`; a segment with
//! a newer one beside it is sealed (no writer appends to it again). The merge deletes merged
//! segments in ascending order, after the graph that holds them is saved: so whenever a segment
//! is present, every newer one is too, and the graph plus every present segment, applied in
//! order, is the shard's vector set (applying a record the graph already holds changes nothing).
//!
//! A segment is a 16-byte header (magic, dimensions) then fixed-size records: key (u64), kind
//! (u32: add or remove), checksum (u32, of the other bytes), the unit vector (f32 each; zeros for
//! a remove). A record cut short or failing its checksum (a crash while appending) ends the
//! segment for every reader.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::Xxh3;

use crate::error::{EngineError, Result};

const MAGIC: &[u8; 8] = b"EVTAIL1\0";
pub const HEADER_BYTES: u64 = 16;
const PREFIX: &str = "vectors.tail.";
/// A writer moves to a new segment at the commit after its segment holds this many records (half
/// of `MERGE_AFTER_RECORDS`, so a long ingest's merges start every two segments).
pub const SEGMENT_RECORDS: u64 = 16_384;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Add = 1,
    Remove = 2,
}

/// One record read back: the key and, for an add, its unit vector.
pub struct Record<'a> {
    pub key: u64,
    pub vector: Option<&'a [f32]>,
}

pub fn record_bytes(dimensions: usize) -> u64 {
    16 + 4 * dimensions as u64
}

pub fn segment_path(directory: &Path, seq: u64) -> PathBuf {
    directory.join(format!("{PREFIX}{seq:016x}"))
}

/// The last sequence number a writer took, kept so that none is taken twice (a merge may leave
/// no segment behind to count from).
const SEQ_FILE: &str = "vectors.seq";

/// Take the next segment number: past `at_least - 1`, past every number taken before (durably
/// recorded before the segment is made).
pub fn take_seq(directory: &Path, at_least: u64) -> Result<u64> {
    let taken = std::fs::read_to_string(directory.join(SEQ_FILE)).ok().and_then(|text| text.trim().parse::<u64>().ok()).unwrap_or(0);
    let seq = at_least.max(taken + 1);
    let temporary = directory.join(format!("{SEQ_FILE}.tmp"));
    {
        let mut file = File::create(&temporary)?;
        file.write_all(seq.to_string().as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(&temporary, directory.join(SEQ_FILE))?;
    Ok(seq)
}

/// The sequence numbers of the segments present, ascending.
pub fn list_segments(directory: &Path) -> Result<Vec<u64>> {
    let mut seqs = Vec::new();
    for entry in std::fs::read_dir(directory)? {
        let name = entry?.file_name();
        let Some(hex) = name.to_str().and_then(|name| name.strip_prefix(PREFIX)) else { continue };
        if hex.len() == 16 {
            if let Ok(seq) = u64::from_str_radix(hex, 16) {
                seqs.push(seq);
            }
        }
    }
    seqs.sort_unstable();
    Ok(seqs)
}

/// Records a segment file holds by its size (whole records only; checksums are not read).
pub fn records_by_size(directory: &Path, seq: u64, dimensions: usize) -> u64 {
    std::fs::metadata(segment_path(directory, seq))
        .map(|meta| meta.len().saturating_sub(HEADER_BYTES) / record_bytes(dimensions))
        .unwrap_or(0)
}

fn checksum(record: &[u8]) -> u32 {
    let mut hasher = Xxh3::new();
    hasher.update(&record[..12]);
    hasher.update(&record[16..]);
    hasher.digest() as u32
}

/// Append one record's bytes to `buffer`.
pub fn encode(buffer: &mut Vec<u8>, key: u64, kind: RecordKind, unit: Option<&[f32]>, dimensions: usize) {
    let start = buffer.len();
    buffer.extend_from_slice(&key.to_le_bytes());
    buffer.extend_from_slice(&(kind as u32).to_le_bytes());
    buffer.extend_from_slice(&[0; 4]);
    match unit {
        Some(unit) => unit.iter().for_each(|value| buffer.extend_from_slice(&value.to_le_bytes())),
        None => buffer.resize(buffer.len() + 4 * dimensions, 0),
    }
    let sum = checksum(&buffer[start..]);
    buffer[start + 12..start + 16].copy_from_slice(&sum.to_le_bytes());
}

/// The records of a segment read so far, decoded; `read_more` picks up what was appended since.
pub struct SegmentReader {
    pub seq: u64,
    dimensions: usize,
    /// The file first read (device, inode): a file of the same name made since is another one.
    identity: Option<(u64, u64)>,
    /// Bytes consumed: the header and every whole, valid record.
    consumed: u64,
    /// Set at the first bad record (or a damaged header): nothing after it is read.
    ended: bool,
}

impl SegmentReader {
    pub fn new(seq: u64, dimensions: usize) -> Self {
        SegmentReader { seq, dimensions, identity: None, consumed: 0, ended: false }
    }

    /// Read the records appended since the last call and hand each to `apply`, in order. Returns
    /// None when the file is gone (merged and deleted since it was listed) or is not the file
    /// read before.
    pub fn read_more(&mut self, directory: &Path, mut apply: impl FnMut(Record)) -> Result<Option<u64>> {
        use std::os::unix::fs::MetadataExt;
        let mut file = match File::open(segment_path(directory, self.seq)) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        if *self.identity.get_or_insert(identity) != identity {
            return Ok(None);
        }
        if self.ended {
            return Ok(Some(0));
        }
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(self.consumed))?;
        file.read_to_end(&mut bytes)?;
        let mut at = 0usize;
        if self.consumed == 0 {
            if bytes.len() < HEADER_BYTES as usize {
                return Ok(Some(0));
            }
            if &bytes[..8] != MAGIC {
                // A header lost in a crash (it is synced before any record): nothing was committed here.
                self.ended = true;
                return Ok(Some(0));
            }
            let dimensions = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
            if dimensions != self.dimensions {
                return Err(EngineError::Vectors(format!(
                    "vector tail segment {:016x} has {dimensions} dimensions, the shard is configured for {}",
                    self.seq, self.dimensions
                )));
            }
            at = HEADER_BYTES as usize;
        }
        let size = record_bytes(self.dimensions) as usize;
        let mut read = 0;
        let mut vector = vec![0f32; self.dimensions];
        while at + size <= bytes.len() {
            let record = &bytes[at..at + size];
            let stored = u32::from_le_bytes(record[12..16].try_into().unwrap());
            let kind = u32::from_le_bytes(record[8..12].try_into().unwrap());
            if stored != checksum(record) || !(kind == RecordKind::Add as u32 || kind == RecordKind::Remove as u32) {
                self.ended = true;
                break;
            }
            let key = u64::from_le_bytes(record[..8].try_into().unwrap());
            if kind == RecordKind::Add as u32 {
                for (value, chunk) in vector.iter_mut().zip(record[16..].chunks_exact(4)) {
                    *value = f32::from_le_bytes(chunk.try_into().unwrap());
                }
                apply(Record { key, vector: Some(&vector) });
            } else {
                apply(Record { key, vector: None });
            }
            at += size;
            read += 1;
        }
        self.consumed += at as u64;
        Ok(Some(read))
    }
}

/// A writer's open segment: created on the first append, synced at every append.
pub struct SegmentAppender {
    pub seq: u64,
    file: File,
    pub records: u64,
}

impl SegmentAppender {
    /// Create segment `seq` (it must not exist: each writer takes seq numbers past every present one).
    pub fn create(directory: &Path, seq: u64, dimensions: usize) -> Result<Self> {
        let mut file = OpenOptions::new().create_new(true).append(true).open(segment_path(directory, seq))?;
        let mut header = Vec::with_capacity(HEADER_BYTES as usize);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&(dimensions as u32).to_le_bytes());
        header.extend_from_slice(&[0; 4]);
        file.write_all(&header)?;
        file.sync_all()?;
        File::open(directory)?.sync_all()?;
        Ok(SegmentAppender { seq, file, records: 0 })
    }

    /// Append encoded records and make them durable. After an error the segment may end in a
    /// torn record, which ends it for every reader: the caller appends nothing more to it.
    pub fn append(&mut self, encoded: &[u8], records: u64) -> Result<()> {
        self.file.write_all(encoded)?;
        self.file.sync_data()?;
        self.records += records;
        Ok(())
    }
}
