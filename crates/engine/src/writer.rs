//! The shard writer: adds passages in batches (skipping ids already present, so ingesting the
//! same record twice adds nothing twice), deletes by id, commits vectors then the index. Vectors
//! go to the shard's vector tail; the HNSW graph is built behind the writer (`vectors/`).
//! One writer per shard directory: Tantivy's lock file refuses a second one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use tantivy::collector::Count;
use tantivy::query::TermQuery;
use tantivy::schema::IndexRecordOption;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, TantivyError, Term};

use crate::embedder::{embedding_input, Embedder, HashingEmbedder};
use crate::error::{EngineError, Result};
use crate::passage::Passage;
use crate::schema::ShardFields;
use crate::shard::{create_or_open_index, vector_key, write_commit_notice, CommitNotice, ShardOptions, VectorSource};
use crate::vectors::{MergeReport, VectorWriter};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AddReport {
    pub added: u64,
    pub skipped: u64,
}

pub struct ShardWriter {
    directory: PathBuf,
    index: Index,
    fields: ShardFields,
    writer: IndexWriter<TantivyDocument>,
    committed: IndexReader,
    vectors: VectorWriter,
    /// The hashing embedder, or None when vectors come from outside the engine (see
    /// `VectorSource::External`): a passage without a precomputed vector then waits for
    /// `add_vectors`.
    embedder: Option<Box<dyn Embedder>>,
    uncommitted_ids: HashSet<String>,
}

impl ShardWriter {
    pub fn open(directory: &Path, options: &ShardOptions) -> Result<Self> {
        let (index, fields) = create_or_open_index(directory)?;
        let writer = index
            .writer_with_num_threads(options.writer_threads.max(1), options.writer_memory_bytes)
            .map_err(|error| match error {
                TantivyError::LockFailure(..) => EngineError::Locked(directory.to_path_buf()),
                other => EngineError::Index(other),
            })?;
        let committed = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let vectors = VectorWriter::open(directory, options.dimensions)?;
        Ok(ShardWriter {
            directory: directory.to_path_buf(),
            index,
            fields,
            writer,
            committed,
            vectors,
            embedder: match options.vectors {
                VectorSource::Hashing => Some(Box::new(HashingEmbedder::new(options.dimensions))),
                VectorSource::External => None,
            },
            uncommitted_ids: HashSet::new(),
        })
    }

    fn id_term(&self, id: &str) -> Term {
        Term::from_field_text(self.fields.id, id)
    }

    /// Whether a live passage with this id is committed or added since the last commit.
    pub fn contains(&self, id: &str) -> Result<bool> {
        if self.uncommitted_ids.contains(id) {
            return Ok(true);
        }
        let searcher = self.committed.searcher();
        if searcher.num_docs() == 0 {
            return Ok(false);
        }
        let query = TermQuery::new(self.id_term(id), IndexRecordOption::Basic);
        Ok(searcher.search(&query, &Count)? > 0)
    }

    pub fn add(&mut self, passages: &[Passage]) -> Result<AddReport> {
        let mut report = AddReport::default();
        for passage in passages {
            validate(passage)?;
            if self.contains(&passage.id)? {
                report.skipped += 1;
                continue;
            }
            self.index_passage(passage, false)?;
            report.added += 1;
        }
        Ok(report)
    }

    /// Write passages whether or not their ids exist: an existing passage with the same id is
    /// replaced (used when derived signals of indexed passages change). Tantivy applies a
    /// delete only to documents added before it, so the new version survives the commit.
    pub fn replace(&mut self, passages: &[Passage]) -> Result<u64> {
        for passage in passages {
            validate(passage)?;
            self.writer.delete_term(self.id_term(&passage.id));
            self.index_passage(passage, true)?;
        }
        Ok(passages.len() as u64)
    }

    /// Vector and document of one passage. A rewrite whose text is unchanged keeps the vector
    /// it already has (the embedders are deterministic), sparing an HNSW remove + insert.
    fn index_passage(&mut self, passage: &Passage, keep_existing_vector: bool) -> Result<()> {
        let key = vector_key(&passage.id);
        match (&passage.embedding, &self.embedder) {
            (Some(vector), _) => self.vectors.add(key, vector)?,
            (None, _) if keep_existing_vector && self.vectors.contains(key) => {}
            (None, Some(embedder)) => self.vectors.add(key, &embedder.embed(&embedding_input(&passage.title, &passage.text)))?,
            (None, None) => {}
        }
        self.writer.add_document(passage.to_document(&self.fields, key))?;
        self.uncommitted_ids.insert(passage.id.clone());
        Ok(())
    }

    /// Store vectors made outside the engine for passages already written (committed or not):
    /// `vectors` holds one vector of the shard's dimensions per id, in order. An id that is no
    /// longer live (deleted since it was read) is skipped. Returns how many were stored.
    pub fn add_vectors(&mut self, ids: &[String], vectors: &[f32]) -> Result<u64> {
        let dimensions = self.vectors.dimensions();
        if vectors.len() != ids.len() * dimensions {
            return Err(EngineError::InvalidRequest(format!(
                "{} ids need {} numbers ({} dimensions each), got {}",
                ids.len(),
                ids.len() * dimensions,
                dimensions,
                vectors.len()
            )));
        }
        let mut stored = 0;
        for (id, vector) in ids.iter().zip(vectors.chunks_exact(dimensions)) {
            if self.contains(id)? {
                self.vectors.add(vector_key(id), vector)?;
                stored += 1;
            }
        }
        Ok(stored)
    }

    /// Delete passages by id; returns how many of the ids were live.
    pub fn delete(&mut self, ids: &[String]) -> Result<u64> {
        let mut deleted = 0;
        for id in ids {
            if self.contains(id)? {
                deleted += 1;
            }
            self.writer.delete_term(self.id_term(id));
            self.vectors.remove(vector_key(id));
            self.uncommitted_ids.remove(id);
        }
        Ok(deleted)
    }

    /// Make everything added or deleted durable and visible to readers that reload.
    /// Vectors are synced first: a crash in between leaves vectors without documents, which
    /// searches skip, never documents that lost the vectors they had.
    pub fn commit(&mut self) -> Result<CommitNotice> {
        self.vectors.commit()?;
        let opstamp = self.writer.commit()?;
        self.committed.reload()?;
        self.uncommitted_ids.clear();
        let notice = CommitNotice {
            opstamp,
            num_docs: self.committed.searcher().num_docs(),
            committed_at_ms: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0),
        };
        write_commit_notice(&self.directory, &notice)?;
        Ok(notice)
    }

    pub fn num_docs(&self) -> u64 {
        self.committed.searcher().num_docs()
    }

    /// Put every committed vector into the HNSW graph now (`threads` inserting threads), after
    /// any merge running behind the writer; searches scan the tail exactly until then.
    pub fn build_vectors(&mut self, threads: usize) -> Result<MergeReport> {
        self.vectors.build(threads)
    }

    /// Committed vectors not yet in the graph, and why the last merge behind the writer failed.
    pub fn vector_tail(&self) -> Result<(u64, Option<String>)> {
        Ok((self.vectors.tail_records()?, self.vectors.merge_failure().map(str::to_string)))
    }

    pub fn index(&self) -> &Index {
        &self.index
    }
}

fn validate(passage: &Passage) -> Result<()> {
    let invalid = |reason: &str| EngineError::InvalidPassage { id: passage.id.clone(), reason: reason.to_string() };
    if passage.id.is_empty() {
        return Err(invalid("id is empty"));
    }
    if passage.url.is_empty() {
        return Err(invalid("url is empty"));
    }
    if !(0.0..=1.0).contains(&passage.host_rank) {
        return Err(invalid("host_rank must be within 0..1"));
    }
    Ok(())
}
