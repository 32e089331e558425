//! The vector tail and the graph built behind the writer, through the public surface: vectors
//! are searchable at commit, the same after the merge, and the tail's removals and replacements
//! win over what the graph still holds.

use evidence_engine::{vector_key, Passage, ShardOptions, ShardReader, ShardWriter};

const DIMENSIONS: usize = 4;

fn options() -> ShardOptions {
    ShardOptions { dimensions: DIMENSIONS, ..Default::default() }
}

fn passage(id: &str, vector: [f32; DIMENSIONS]) -> Passage {
    Passage {
        id: id.to_string(),
        page_id: id.to_string(),
        url: format!("https://example.org/{id}"),
        host: "example.org".into(),
        registrable_domain: "example.org".into(),
        owner: "example.org".into(),
        title: id.into(),
        text: format!("passage {id}"),
        host_rank: 0.5,
        embedding: Some(vector.to_vec()),
        ..Default::default()
    }
}

/// The shard's tail segment files.
fn tail_paths(directory: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().unwrap().to_string_lossy().starts_with("vectors.tail."))
        .collect()
}

fn tail_files(directory: &std::path::Path) -> usize {
    tail_paths(directory).len()
}

/// A writer on a new shard in `directory` that has added and committed `passages`.
fn written(directory: &std::path::Path, passages: &[Passage]) -> ShardWriter {
    let mut writer = ShardWriter::open(directory, &options()).unwrap();
    writer.add(passages).unwrap();
    writer.commit().unwrap();
    writer
}

fn nearest(reader: &ShardReader, query: [f32; DIMENSIONS], count: usize) -> Vec<u64> {
    reader.vectors().search(&query, count).unwrap().into_iter().map(|(key, _)| key).collect()
}

#[test]
fn vectors_are_searchable_at_commit_and_the_same_after_the_build() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = written(directory.path(), &[passage("x", [1.0, 0.0, 0.0, 0.0]), passage("y", [0.0, 1.0, 0.0, 0.0]), passage("xy", [1.0, 1.0, 0.0, 0.0])]);
    assert_eq!(writer.vector_tail().unwrap().0, 3);
    let mut reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 3);
    assert_eq!(reader.vectors().len(), 3);
    assert_eq!(reader.embedded(), 3);
    let before = nearest(&reader, [1.0, 0.1, 0.0, 0.0], 2);
    assert_eq!(before, vec![vector_key("x"), vector_key("xy")]);

    let report = writer.build_vectors(2).unwrap();
    assert_eq!((report.segments, report.records, report.graph_vectors), (1, 3, 3));
    assert_eq!(tail_files(directory.path()), 0);
    assert_eq!(writer.vector_tail().unwrap().0, 0);
    // A reader that has not reloaded still answers from what it read; after a reload, the graph.
    assert_eq!(nearest(&reader, [1.0, 0.1, 0.0, 0.0], 2), before);
    reader.reload().unwrap();
    assert_eq!(reader.vectors().tail_len(), 0);
    assert_eq!(reader.vectors().len(), 3);
    assert_eq!(nearest(&reader, [1.0, 0.1, 0.0, 0.0], 2), before);
}

#[test]
fn the_tail_replaces_and_removes_what_the_graph_holds() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = written(directory.path(), &[passage("x", [1.0, 0.0, 0.0, 0.0]), passage("y", [0.0, 1.0, 0.0, 0.0]), passage("z", [0.0, 0.0, 1.0, 0.0])]);
    writer.build_vectors(1).unwrap();
    // y turns to point where x does; z is deleted. The graph still holds the old y and z.
    writer.replace(&[passage("y", [1.0, 0.0, 0.0, 0.0])]).unwrap();
    writer.delete(&["z".to_string()]).unwrap();
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), 2);
    assert!(!reader.vectors().contains(vector_key("z")));
    assert!(reader.vectors().get(vector_key("z")).unwrap().is_none());
    assert_eq!(reader.vectors().get(vector_key("y")).unwrap().unwrap(), vec![1.0, 0.0, 0.0, 0.0]);
    let mut found = nearest(&reader, [1.0, 0.0, 0.0, 0.0], 3);
    found.sort_unstable();
    let mut expected = vec![vector_key("x"), vector_key("y")];
    expected.sort_unstable();
    assert_eq!(found, expected, "the old y and the removed z are not neighbours");
    assert!(!nearest(&reader, [0.0, 0.0, 1.0, 0.0], 3).contains(&vector_key("z")));

    writer.build_vectors(1).unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 0);
    assert_eq!(reader.vectors().len(), 2);
    assert!(!reader.vectors().contains(vector_key("z")));
    let mut found = nearest(&reader, [1.0, 0.0, 0.0, 0.0], 3);
    found.sort_unstable();
    assert_eq!(found, expected);
}

/// A crash while appending leaves a record cut short: readers and the next writer keep every
/// whole record before it, and the next writer appends to a segment of its own.
#[test]
fn a_record_cut_short_ends_its_segment() {
    let directory = tempfile::tempdir().unwrap();
    let writer = written(directory.path(), &[passage("x", [1.0, 0.0, 0.0, 0.0]), passage("y", [0.0, 1.0, 0.0, 0.0])]);
    drop(writer);
    let segment = tail_paths(directory.path()).remove(0);
    let mut bytes = std::fs::read(&segment).unwrap();
    let whole = bytes.len();
    // Half of a third record, then a flipped byte in the second one's vector.
    bytes.extend_from_within(whole - 32..whole - 16);
    std::fs::write(&segment, &bytes).unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), 2);
    bytes.truncate(whole);
    bytes[whole - 1] ^= 0x40;
    std::fs::write(&segment, &bytes).unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), 1, "the damaged second record is not read");
    assert!(reader.vectors().contains(vector_key("x")));

    let mut writer = written(directory.path(), &[passage("w", [0.0, 0.0, 0.0, 1.0])]);
    assert_eq!(tail_files(directory.path()), 2);
    let report = writer.build_vectors(1).unwrap();
    assert_eq!((report.records, report.graph_vectors), (2, 2));
}

/// Enough committed vectors make a commit start a merge behind the writer; the writer goes on
/// appending, and every vector stays searchable throughout.
#[test]
fn a_long_tail_is_merged_behind_the_writer() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    let total = evidence_engine::MERGE_AFTER_RECORDS as usize + 100;
    let passages: Vec<Passage> = (0..total).map(|at| passage(&format!("p{at}"), [1.0, (at % 97) as f32, (at % 89) as f32, 1.0])).collect();
    for batch in passages.chunks(8192) {
        writer.add(batch).unwrap();
        writer.commit().unwrap();
    }
    // Sealed segments hold at least MERGE_AFTER_RECORDS by now: a merge runs behind the writer.
    let waited = std::time::Instant::now();
    while writer.vector_tail().unwrap().0 >= total as u64 {
        assert!(waited.elapsed().as_secs() < 120, "no merge started behind the writer");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    writer.add(&[passage("last", [0.0, 0.0, 0.0, 1.0])]).unwrap();
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), total + 1);
    let report = writer.build_vectors(1).unwrap();
    assert_eq!(writer.vector_tail().unwrap(), (0, None));
    assert_eq!(report.graph_vectors as usize, total + 1);
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), total + 1);
    assert_eq!(reader.vectors().tail_len(), 0);
}

/// A reader that lives across merges and writers: the segment a merge deleted is never mistaken
/// for one a later writer makes, and what the reader read before the merge does not linger.
#[test]
fn a_long_lived_reader_follows_merges_and_new_writers() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = written(directory.path(), &[passage("x", [1.0, 0.0, 0.0, 0.0]), passage("y", [0.0, 1.0, 0.0, 0.0])]);
    let mut reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 2);
    writer.build_vectors(1).unwrap();
    drop(writer);
    // The next writer's first segment: y now points elsewhere, z is new.
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    writer.replace(&[passage("y", [0.0, 0.0, 1.0, 0.0])]).unwrap();
    writer.add(&[passage("z", [0.0, 0.0, 0.0, 1.0])]).unwrap();
    writer.commit().unwrap();
    reader.reload().unwrap();
    assert_eq!(reader.vectors().len(), 3);
    assert_eq!(reader.vectors().tail_len(), 2);
    assert_eq!(reader.vectors().get(vector_key("y")).unwrap().unwrap(), vec![0.0, 0.0, 1.0, 0.0]);
    assert_eq!(reader.vectors().get(vector_key("z")).unwrap().unwrap(), vec![0.0, 0.0, 0.0, 1.0]);
    let closest = reader.vectors().search(&[0.0, 1.0, 0.0, 0.0], 1).unwrap()[0];
    assert!(closest.1 > 0.5, "nothing points where the old y did (the old y does not linger): {closest:?}");
}

/// A merge that dies after saving the graph but before deleting the segments it merged leaves
/// both: readers apply the segments again over the graph (the same vectors), and the next merge
/// deletes them. A temporary graph file left by a merge that died earlier is ignored.
#[test]
fn a_merge_cut_off_before_its_deletions_leaves_the_same_vectors() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = written(directory.path(), &[passage("x", [1.0, 0.0, 0.0, 0.0]), passage("y", [0.0, 1.0, 0.0, 0.0])]);
    writer.build_vectors(1).unwrap();
    writer.replace(&[passage("y", [0.0, 0.0, 1.0, 0.0])]).unwrap();
    writer.delete(&["x".to_string()]).unwrap();
    writer.add(&[passage("z", [0.0, 0.0, 0.0, 1.0])]).unwrap();
    writer.commit().unwrap();
    let segments: Vec<(std::path::PathBuf, Vec<u8>)> = tail_paths(directory.path())
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    assert_eq!(segments.len(), 1);
    let expected = |reader: &ShardReader| {
        assert_eq!(reader.vectors().len(), 2);
        assert!(!reader.vectors().contains(vector_key("x")));
        assert_eq!(reader.vectors().get(vector_key("y")).unwrap().unwrap(), vec![0.0, 0.0, 1.0, 0.0]);
        assert_eq!(reader.vectors().get(vector_key("z")).unwrap().unwrap(), vec![0.0, 0.0, 0.0, 1.0]);
    };
    writer.build_vectors(1).unwrap();
    drop(writer);
    // The crash: the merged segment is back, and a half-written graph lies beside the real one.
    for (path, bytes) in &segments {
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::write(directory.path().join("vectors.usearch.tmp"), b"half a graph").unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 2, "the segment is read again");
    expected(&reader);
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    let report = writer.build_vectors(1).unwrap();
    assert_eq!(report.segments, 1);
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 0);
    expected(&reader);
}

/// A reader reloading without pause while a writer adds, replaces and merges: it never sees a
/// vector go back to an older version, never loses one it saw, and never sees more than was
/// committed; at the end it sees exactly what was written.
#[test]
fn a_reader_racing_writes_and_merges_sees_only_whole_states() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let directory = tempfile::tempdir().unwrap();
    let versioned = |id: usize, version: usize| passage(&format!("p{id}"), [1.0, version as f32, 0.0, 0.0]);
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    writer.add(&(0..200).map(|id| versioned(id, 1)).collect::<Vec<_>>()).unwrap();
    writer.commit().unwrap();
    let written = Arc::new(AtomicUsize::new(200));
    let done = Arc::new(AtomicBool::new(false));
    let reader_thread = {
        let (path, written, done) = (directory.path().to_path_buf(), written.clone(), done.clone());
        std::thread::spawn(move || {
            let mut reader = ShardReader::open(&path, &options()).unwrap();
            let mut seen_len = 0;
            let mut seen_version = vec![0usize; 200];
            let mut reloads = 0;
            while !done.load(Ordering::SeqCst) {
                let ceiling = written.load(Ordering::SeqCst);
                reader.reload().unwrap();
                let len = reader.vectors().len();
                assert!(len >= seen_len, "lost vectors: {len} after {seen_len}");
                assert!(len <= ceiling.max(written.load(Ordering::SeqCst)), "{len} vectors, at most {ceiling} written");
                seen_len = len;
                for (id, seen) in seen_version.iter_mut().enumerate().step_by(7) {
                    let vector = reader.vectors().get(vector_key(&format!("p{id}"))).unwrap().expect("a vector of the first commit");
                    let version = (vector[1] / vector[0]).round() as usize;
                    assert!(version >= *seen, "p{id} went back from version {seen} to {version}");
                    *seen = version;
                }
                reloads += 1;
            }
            reloads
        })
    };
    for round in 0..30 {
        let start = 200 + round * 1000;
        // The ceiling rises before the commit: a reader can never see more than it says.
        written.fetch_add(1000, Ordering::SeqCst);
        writer.add(&(start..start + 1000).map(|id| versioned(id, 1)).collect::<Vec<_>>()).unwrap();
        writer.replace(&(0..200).map(|id| versioned(id, round + 2)).collect::<Vec<_>>()).unwrap();
        writer.commit().unwrap();
        writer.build_vectors(2).unwrap();
    }
    done.store(true, Ordering::SeqCst);
    let reloads = reader_thread.join().expect("the reader's checks held");
    assert!(reloads > 10, "the reader raced the writer ({reloads} reloads)");
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.vectors().len(), 200 + 30 * 1000);
    let vector = reader.vectors().get(vector_key("p5")).unwrap().unwrap();
    assert_eq!((vector[1] / vector[0]).round() as usize, 31);
}
