//! A shard whose vectors come from a model outside the engine: the writer stores no vector of
//! its own, the reader lists the passages still waiting for one, `add_vectors` stores them, and
//! semantic and hybrid searches need the query vector and reach only embedded passages.

use evidence_engine::{Mode, Passage, SearchRequest, ShardOptions, ShardReader, ShardWriter, VectorScoring, VectorSource};

const DIMENSIONS: usize = 4;

fn passage(id: &str, text: &str) -> Passage {
    Passage {
        id: id.to_string(),
        page_id: id.split(':').next().unwrap().to_string(),
        url: format!("https://example.org/{}", id.replace(':', "/")),
        host: "example.org".into(),
        registrable_domain: "example.org".into(),
        owner: "example.org".into(),
        title: format!("title {id}"),
        text: text.into(),
        vertical: "reference".into(),
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

fn options() -> ShardOptions {
    ShardOptions { dimensions: DIMENSIONS, vectors: VectorSource::External, ..ShardOptions::default() }
}

fn request(mode: Mode, query: &str, vector: Option<Vec<f32>>) -> SearchRequest {
    SearchRequest { mode, query: query.into(), vector, limit: 10, vector_scoring: VectorScoring { min_similarity: 0.5, ..VectorScoring::default() }, ..SearchRequest::default() }
}

#[test]
fn passages_wait_for_their_vectors_and_searches_reach_only_embedded_ones() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    let mut precomputed = passage("c:0", "carrots and beets");
    precomputed.embedding = Some(vec![0.0, 0.0, 1.0, 0.0]);
    writer.add(&[passage("a:0", "apples in autumn"), passage("b:0", "bicycles and tyres"), precomputed]).unwrap();
    writer.commit().unwrap();
    drop(writer);

    let mut reader = ShardReader::open(directory.path(), &options()).unwrap();
    assert_eq!(reader.embedded(), 1, "only the precomputed vector is stored at write");
    let waiting = reader.passages_without_vectors(10).unwrap();
    let mut ids: Vec<&str> = waiting.iter().map(|input| input.id.as_str()).collect();
    ids.sort();
    assert_eq!(ids, ["a:0", "b:0"]);
    assert!(waiting.iter().any(|input| input.text == "title a:0\napples in autumn"));
    assert_eq!(reader.passages_without_vectors(1).unwrap().len(), 1, "the limit holds");

    // No query vector: the engine has no embedder of its own to make one.
    let refused = reader.search(&request(Mode::Hybrid, "bicycles", None)).unwrap_err();
    assert!(refused.to_string().contains("need the query vector"), "{refused}");
    // Keyword needs none, and reaches every passage at once.
    assert_eq!(reader.search(&request(Mode::Keyword, "bicycles", None)).unwrap().total, 1);
    // A passage without a vector has no vector seed either (None, not a hashing vector).
    assert_eq!(reader.passage_vector("b:0").unwrap(), None);

    // Semantic before b:0 has a vector: it cannot be reached; the result says what it covered.
    let before = reader.search(&request(Mode::Semantic, "", Some(vec![0.0, 1.0, 0.0, 0.0]))).unwrap();
    assert!(before.hits.is_empty());
    assert_eq!((before.embedded, before.passages), (1, 3));

    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    let stored = writer
        .add_vectors(&["a:0".to_string(), "b:0".to_string(), "gone:0".to_string()], &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0][..8])
        .unwrap_err();
    assert!(stored.to_string().contains("3 ids need 12 numbers"), "{stored}");
    let stored = writer
        .add_vectors(&["a:0".to_string(), "b:0".to_string(), "gone:0".to_string()], &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0])
        .unwrap();
    assert_eq!(stored, 2, "an id that is not live is skipped");
    writer.commit().unwrap();
    drop(writer);

    let report = reader.reload().unwrap();
    assert_eq!((report.embedded, report.num_docs), (3, 3));
    assert!(reader.passages_without_vectors(10).unwrap().is_empty());
    let after = reader.search(&request(Mode::Semantic, "", Some(vec![0.0, 1.0, 0.0, 0.0]))).unwrap();
    assert_eq!(after.hits.first().map(|hit| hit.id.as_str()), Some("b:0"));
    assert_eq!(after.hits.len(), 1, "a:0 and c:0 are below min_similarity 0.5");
    assert_eq!((after.embedded, after.passages), (3, 3));
}

#[test]
fn fusion_weights_come_with_the_request() {
    let directory = tempfile::tempdir().unwrap();
    let mut writer = ShardWriter::open(directory.path(), &options()).unwrap();
    // "words" matches a:0 by keyword; b:0 only by vector.
    let mut by_words = passage("a:0", "words words words");
    by_words.embedding = Some(vec![0.0, 1.0, 0.0, 0.0]);
    let mut by_meaning = passage("b:0", "something else entirely");
    by_meaning.embedding = Some(vec![1.0, 0.0, 0.0, 0.0]);
    writer.add(&[by_words, by_meaning]).unwrap();
    writer.commit().unwrap();
    let reader = ShardReader::open(directory.path(), &options()).unwrap();
    let query = vec![0.9, 0.1, 0.0, 0.0];
    let first = |scoring: VectorScoring| {
        let request = SearchRequest { vector_scoring: scoring, ..request(Mode::Hybrid, "words", Some(query.clone())) };
        reader.search(&request).unwrap().hits.first().map(|hit| hit.id.clone())
    };
    let lexical = VectorScoring { min_similarity: 0.0, keyword_weight: 1.0, cosine_weight: 0.01, cosine_floor: 0.0 };
    let by_vector = VectorScoring { min_similarity: 0.0, keyword_weight: 0.01, cosine_weight: 1.0, cosine_floor: 0.0 };
    assert_eq!(first(lexical).as_deref(), Some("a:0"));
    assert_eq!(first(by_vector).as_deref(), Some("b:0"));
}
