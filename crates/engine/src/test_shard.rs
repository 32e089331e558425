//! Test support: a shard written into a temporary directory and opened for reading, as the
//! unit tests of several modules need one.

use crate::{Passage, ShardOptions, ShardReader, ShardWriter};

/// A shard holding `segments` (each added and committed on its own), then with the passages
/// `deleted` names deleted and committed; the directory lives as long as the returned guard.
pub(crate) fn written_shard(segments: &[&[Passage]], deleted: &[String]) -> (tempfile::TempDir, ShardReader) {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    for passages in segments {
        writer.add(passages).unwrap();
        writer.commit().unwrap();
    }
    if !deleted.is_empty() {
        writer.delete(deleted).unwrap();
        writer.commit().unwrap();
    }
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    (directory, reader)
}
