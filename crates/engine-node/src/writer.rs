use napi::bindgen_prelude::Float32Array;
use napi_derive::napi;

use crate::error::{guarded, IntoJs};
use crate::options::{AddReport, CommitNotice, Passage, ShardOptions, VectorBuildReport, VectorTail};

/// The single writer of one shard directory (a second one is refused with ELOCKED).
#[napi]
pub struct ShardWriter {
    inner: Option<evidence_engine::ShardWriter>,
}

#[napi]
impl ShardWriter {
    /// Open (or create) the shard in `directory` for writing.
    #[napi(factory)]
    pub fn open(directory: String, options: Option<ShardOptions>) -> napi::Result<Self> {
        guarded(|| {
            let writer = evidence_engine::ShardWriter::open(directory.as_ref(), &crate::options::engine_options(options)?).into_js()?;
            Ok(ShardWriter { inner: Some(writer) })
        })
    }

    fn writer(&mut self) -> napi::Result<&mut evidence_engine::ShardWriter> {
        self.inner.as_mut().ok_or_else(|| crate::error::to_js_error(evidence_engine::EngineError::Closed("writer")))
    }

    /// Add passages; ids already present are skipped, not added twice.
    #[napi]
    pub fn add(&mut self, passages: Vec<Passage>) -> napi::Result<AddReport> {
        guarded(|| {
            let passages: Vec<evidence_engine::Passage> = passages.into_iter().map(Into::into).collect();
            let report = self.writer()?.add(&passages).into_js()?;
            Ok(AddReport { added: report.added as u32, skipped: report.skipped as u32 })
        })
    }

    /// Write passages, replacing any with the same id (for re-derived signals).
    #[napi]
    pub fn replace(&mut self, passages: Vec<Passage>) -> napi::Result<u32> {
        guarded(|| {
            let passages: Vec<evidence_engine::Passage> = passages.into_iter().map(Into::into).collect();
            Ok(self.writer()?.replace(&passages).into_js()? as u32)
        })
    }

    /// Store vectors made outside the engine for passages already written: `vectors` holds one
    /// vector per id, in order, flat. Ids no longer live are skipped; returns how many were stored.
    #[napi]
    pub fn add_vectors(&mut self, ids: Vec<String>, vectors: Float32Array) -> napi::Result<u32> {
        guarded(|| Ok(self.writer()?.add_vectors(&ids, &vectors).into_js()? as u32))
    }

    /// Put every committed vector into the HNSW graph now, with `threads` inserting threads
    /// (default 1), after any merge running behind the writer. Until then searches scan the
    /// vectors not yet in the graph exactly. Takes about 0.2 ms of CPU per vector.
    #[napi]
    pub fn build_vectors(&mut self, threads: Option<u32>) -> napi::Result<VectorBuildReport> {
        guarded(|| {
            let report = self.writer()?.build_vectors(threads.unwrap_or(1).max(1) as usize).into_js()?;
            Ok(VectorBuildReport {
                segments: report.segments as u32,
                records: report.records as i64,
                graph_vectors: report.graph_vectors as i64,
                seconds: report.seconds,
            })
        })
    }

    /// Committed vectors not yet in the HNSW graph.
    #[napi]
    pub fn vector_tail(&mut self) -> napi::Result<VectorTail> {
        guarded(|| {
            let (records, merge_failure) = self.writer()?.vector_tail().into_js()?;
            Ok(VectorTail { records: records as i64, merge_failure })
        })
    }

    /// Delete passages by id; returns how many were live.
    #[napi]
    pub fn delete(&mut self, ids: Vec<String>) -> napi::Result<u32> {
        guarded(|| {
            Ok(self.writer()?.delete(&ids).into_js()? as u32)
        })
    }

    /// Whether a passage id is committed or added since the last commit.
    #[napi]
    pub fn contains(&mut self, id: String) -> napi::Result<bool> {
        guarded(|| {
            self.writer()?.contains(&id).into_js()
        })
    }

    /// Make everything durable and announce it in `commit.json`.
    #[napi]
    pub fn commit(&mut self) -> napi::Result<CommitNotice> {
        guarded(|| {
            let notice = self.writer()?.commit().into_js()?;
            Ok(CommitNotice {
                opstamp: notice.opstamp as i64,
                num_docs: notice.num_docs as i64,
                committed_at_ms: notice.committed_at_ms as i64,
            })
        })
    }

    #[napi]
    pub fn num_docs(&mut self) -> napi::Result<i64> {
        guarded(|| {
            Ok(self.writer()?.num_docs() as i64)
        })
    }

    /// Release the writer lock; uncommitted work is dropped.
    #[napi]
    pub fn close(&mut self) {
        self.inner = None;
    }
}
