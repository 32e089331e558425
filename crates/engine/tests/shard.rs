//! A shard written and read back through the public surface, as the pool uses it.

use evidence_engine::{Deadline, Passage, SearchRequest, ShardOptions, ShardReader, ShardWriter};

fn passage(id: &str, title: &str, text: &str) -> Passage {
    Passage {
        id: id.to_string(),
        page_id: id.split(':').next().unwrap().to_string(),
        url: format!("https://example.org/{}", id.replace(':', "/")),
        host: "example.org".into(),
        registrable_domain: "example.org".into(),
        owner: "example.org".into(),
        title: title.into(),
        text: text.into(),
        vertical: "cooking".into(),
        lang: "en".into(),
        host_rank: 0.5,
        quality: 50,
        fetched_at: 1_700_000_000,
        source: "cc".into(),
        story_id: format!("s-{id}"),
        tld: "org".into(),
        word_count: text.split_whitespace().count() as u64,
        ..Default::default()
    }
}

fn corpus() -> Vec<Passage> {
    vec![
        passage("a:0", "Sourdough starter", "Feed the sourdough starter with flour and water every day."),
        passage("a:1", "Sourdough hydration", "A high hydration dough needs a strong starter and patience."),
        passage("b:0", "Rye bread", "Rye bread uses a sour starter and dense crumb without wheat."),
        passage("c:0", "Pasta", "Fresh pasta needs flour, eggs and a pinch of salt."),
    ]
}

fn search(reader: &ShardReader, query: &str, limit: usize) -> evidence_engine::ShardSearchResult {
    reader
        .search(&SearchRequest { query: query.into(), limit, deadline: Deadline::none(), ..Default::default() })
        .unwrap()
}

fn ids(result: &evidence_engine::ShardSearchResult) -> Vec<String> {
    let mut ids: Vec<String> = result.hits.iter().map(|hit| hit.id.clone()).collect();
    ids.sort();
    ids
}

fn written_shard() -> (tempfile::TempDir, ShardReader) {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&corpus()).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    (directory, reader)
}

#[test]
fn bare_terms_are_ored_and_ranked() {
    let (_dir, reader) = written_shard();
    let result = search(&reader, "sourdough pasta", 10);
    assert_eq!(result.total, 3);
    assert_eq!(ids(&result), vec!["a:0", "a:1", "c:0"]);
    assert!(result.hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
}

#[test]
fn boolean_syntax_and_phrase_and_exclusion() {
    let (_dir, reader) = written_shard();
    assert_eq!(ids(&search(&reader, "starter AND flour", 10)), vec!["a:0"]);
    assert_eq!(ids(&search(&reader, "starter -sourdough", 10)), vec!["b:0"], "a:1 says sourdough in its title");
    assert_eq!(ids(&search(&reader, "starter -rye", 10)), vec!["a:0", "a:1"]);
    assert_eq!(ids(&search(&reader, "\"sour starter\"", 10)), vec!["b:0"]);
    assert_eq!(ids(&search(&reader, "rye OR pasta", 10)), vec!["b:0", "c:0"]);
}

#[test]
fn stemming_matches_word_forms() {
    let (_dir, reader) = written_shard();
    assert_eq!(ids(&search(&reader, "feeding starters", 10)).first().map(String::as_str), Some("a:0"));
}

#[test]
fn limit_zero_counts_only_and_limit_caps_hits() {
    let (_dir, reader) = written_shard();
    let counted = search(&reader, "starter", 0);
    assert_eq!(counted.total, 3);
    assert!(counted.hits.is_empty());
    let capped = search(&reader, "starter", 1);
    assert_eq!(capped.total, 3);
    assert_eq!(capped.hits.len(), 1);
}

#[test]
fn hits_carry_stored_fields() {
    let (_dir, reader) = written_shard();
    let hit = &search(&reader, "pasta", 10).hits[0];
    assert_eq!(hit.id, "c:0");
    assert_eq!(hit.host, "example.org");
    assert_eq!(hit.vertical, "cooking");
    assert_eq!(hit.snippet, "Fresh pasta needs flour, eggs and a pinch of salt.");
    assert_eq!(hit.word_count, Some(10));
    assert!(hit.published_at.is_none());
}

#[test]
fn expired_deadline_answers_timed_out_not_error() {
    let (_dir, reader) = written_shard();
    let result = reader
        .search(&SearchRequest { query: "starter".into(), limit: 10, deadline: Deadline::expired(), ..Default::default() })
        .unwrap();
    assert!(result.timed_out);
    assert!(result.hits.is_empty());
}

#[test]
fn fetch_by_id_and_unknown_id() {
    let (_dir, reader) = written_shard();
    let document = reader.document("b:0").unwrap().unwrap();
    assert_eq!(document.title, "Rye bread");
    assert_eq!(document.lang, "en");
    assert!(reader.document("zz:9").unwrap().is_none());
}

#[test]
fn same_passages_twice_add_nothing_twice() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    assert_eq!(writer.add(&corpus()).unwrap().added, 4);
    assert_eq!(writer.add(&corpus()).unwrap().skipped, 4, "uncommitted duplicates are skipped");
    writer.commit().unwrap();
    let again = writer.add(&corpus()).unwrap();
    assert_eq!((again.added, again.skipped), (0, 4), "committed duplicates are skipped");
    writer.commit().unwrap();
    assert_eq!(writer.num_docs(), 4);
}

#[test]
fn reader_sees_commits_only_after_reload() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&corpus()[..2]).unwrap();
    writer.commit().unwrap();
    let mut reader = ShardReader::open(directory.path(), &options).unwrap();
    assert_eq!(search(&reader, "pasta", 10).total, 0);
    writer.add(&corpus()[2..]).unwrap();
    writer.commit().unwrap();
    assert_eq!(search(&reader, "pasta", 10).total, 0, "no reload, no new commit");
    let report = reader.reload().unwrap();
    assert_eq!(report.num_docs, 4);
    assert_eq!(report.vectors, 4);
    assert_eq!(search(&reader, "pasta", 10).total, 1);
}

#[test]
fn delete_removes_passage_and_vector() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&corpus()).unwrap();
    writer.commit().unwrap();
    assert_eq!(writer.delete(&["c:0".to_string(), "nope:1".to_string()]).unwrap(), 1);
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    assert_eq!(search(&reader, "pasta", 10).total, 0);
    assert!(reader.document("c:0").unwrap().is_none());
    assert_eq!(reader.vectors().len(), 3);
}

#[test]
fn second_writer_on_same_directory_is_refused() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let _writer = ShardWriter::open(directory.path(), &options).unwrap();
    let second = ShardWriter::open(directory.path(), &options);
    assert!(matches!(second, Err(evidence_engine::EngineError::Locked(_))));
}

#[test]
fn precomputed_vectors_are_used_and_checked() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions { dimensions: 4, ..Default::default() };
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    let mut with_vector = passage("v:0", "Vector", "given vector");
    with_vector.embedding = Some(vec![1.0, 0.0, 0.0, 0.0]);
    writer.add(&[with_vector]).unwrap();
    let mut wrong = passage("v:1", "Vector", "wrong size");
    wrong.embedding = Some(vec![1.0, 0.0]);
    assert!(writer.add(&[wrong]).is_err());
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    let nearest = reader.vectors().search(&[1.0, 0.0, 0.0, 0.0], 1).unwrap();
    assert_eq!(nearest[0].0, evidence_engine::vector_key("v:0"));
}

/// Supplied vectors need not be unit length: the index stores them normalised, so a neighbour's
/// distance is its cosine distance (the inner product of unit vectors), whatever their scale.
#[test]
fn supplied_vectors_of_any_length_score_by_cosine() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions { dimensions: 4, ..Default::default() };
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    let mut long = passage("v:0", "Vector", "long vector");
    long.embedding = Some(vec![30.0, 40.0, 0.0, 0.0]);
    let mut short = passage("v:1", "Vector", "short vector");
    short.embedding = Some(vec![0.0, 0.0, 0.2, 0.0]);
    writer.add(&[long, short]).unwrap();
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    let nearest = reader.vectors().search(&[6.0, 8.0, 0.0, 0.0], 2).unwrap();
    assert_eq!(nearest[0].0, evidence_engine::vector_key("v:0"));
    assert!(nearest[0].1.abs() < 1e-3, "same direction: distance {}", nearest[0].1);
    assert!((nearest[1].1 - 1.0).abs() < 1e-3, "orthogonal: distance {}", nearest[1].1);
}

/// A shard whose vectors were saved by an earlier build (cosine metric) is read with the metric
/// its file records: the same neighbours and similarities as the current index gives.
#[test]
fn vectors_saved_with_the_cosine_metric_still_read() {
    let (directory, _) = written_shard();
    // Everything in the graph, nothing left in the tail: the graph file is then the only source.
    let mut writer = ShardWriter::open(directory.path(), &ShardOptions::default()).unwrap();
    writer.build_vectors(1).unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &ShardOptions::default()).unwrap();
    assert_eq!(reader.vectors().tail_len(), 0);
    let query = SearchRequest { query: "sourdough starter".into(), mode: evidence_engine::Mode::Semantic, limit: 4, ..Default::default() };
    let current = reader.search(&query).unwrap();
    assert!(!current.hits.is_empty());
    let options = usearch::IndexOptions {
        dimensions: evidence_engine::DEFAULT_DIMENSIONS,
        metric: usearch::MetricKind::Cos,
        quantization: usearch::ScalarKind::F16,
        connectivity: 16,
        expansion_add: 96,
        expansion_search: 64,
        multi: false,
    };
    let earlier = usearch::Index::new(&options).unwrap();
    earlier.reserve(16).unwrap();
    for passage in corpus() {
        let vector = reader.passage_vector(&passage.id).unwrap().unwrap();
        earlier.add(evidence_engine::vector_key(&passage.id), &vector).unwrap();
    }
    drop(reader);
    earlier.save(directory.path().join("vectors.usearch").to_str().unwrap()).unwrap();
    let reopened = ShardReader::open(directory.path(), &ShardOptions::default()).unwrap();
    let read = reopened.search(&query).unwrap();
    let ids = |result: &evidence_engine::ShardSearchResult| result.hits.iter().map(|hit| hit.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&read), ids(&current));
    for (was, is) in current.hits.iter().zip(&read.hits) {
        // f16 storage: the two metrics round differently in the third decimal.
        assert!((was.score - is.score).abs() < 0.005, "{}: {} vs {}", was.id, was.score, is.score);
    }
}
