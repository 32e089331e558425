use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::error::{guarded, IntoJs};
use crate::options::{EmbeddingInput, ReloadReport, SearchRequest, ShardOptions};

/// A reader of one shard, owned by one worker thread. It reloads only when told to.
#[napi]
pub struct ShardReader {
    inner: Option<evidence_engine::ShardReader>,
}

/// MessagePack bytes in a buffer the JS heap owns. An external buffer over the Rust `Vec` would
/// be freed only by a finalizer after a garbage collection the engine's allocations never
/// prompt (V8 is not told of them): a worker thread then kept every result it had answered.
fn js_owned<'env>(env: &'env Env, bytes: Vec<u8>) -> napi::Result<BufferSlice<'env>> {
    BufferSlice::copy_from(env, bytes)
}

#[napi]
impl ShardReader {
    /// Open the existing shard in `directory`; a missing directory or index is an `EMISSING`
    /// error (only a writer creates a shard).
    #[napi(factory)]
    pub fn open(directory: String, options: Option<ShardOptions>) -> napi::Result<Self> {
        guarded(|| {
            let reader = evidence_engine::ShardReader::open(directory.as_ref(), &crate::options::engine_options(options)?).into_js()?;
            Ok(ShardReader { inner: Some(reader) })
        })
    }

    fn reader(&self) -> napi::Result<&evidence_engine::ShardReader> {
        self.inner.as_ref().ok_or_else(|| crate::error::to_js_error(evidence_engine::EngineError::Closed("reader")))
    }

    /// Pick up the latest commit.
    #[napi]
    pub fn reload(&mut self) -> napi::Result<ReloadReport> {
        guarded(|| {
            let reader = self
                .inner
                .as_mut()
                .ok_or_else(|| crate::error::to_js_error(evidence_engine::EngineError::Closed("reader")))?;
            let report = reader.reload().into_js()?;
            Ok(ReloadReport {
                num_docs: report.num_docs as i64,
                segments: report.segments as u32,
                vectors: report.vectors as i64,
                embedded: report.embedded as i64,
                vector_tail: report.vector_tail as i64,
            })
        })
    }

    /// Live passages that have a vector, as of the last reload.
    #[napi]
    pub fn embedded(&self) -> napi::Result<i64> {
        guarded(|| Ok(self.reader()?.embedded() as i64))
    }

    /// Up to `limit` live passages without a vector, in index order, with the text to embed.
    #[napi]
    pub fn passages_without_vectors(&self, limit: u32) -> napi::Result<Vec<EmbeddingInput>> {
        guarded(|| {
            let inputs = self.reader()?.passages_without_vectors(limit as usize).into_js()?;
            Ok(inputs.into_iter().map(|input| EmbeddingInput { id: input.id, text: input.text }).collect())
        })
    }

    /// Search (keyword, semantic or hybrid, with filters, sort, collapse and facets); returns a
    /// MessagePack-encoded `{ hits, total, timed_out, elapsed_us, facets? }` with hits in SPEC
    /// field names, in a buffer that can move to another thread.
    #[napi(ts_return_type = "Buffer")]
    pub fn search<'env>(&self, env: &'env Env, request: SearchRequest) -> napi::Result<BufferSlice<'env>> {
        let bytes = guarded(|| {
            let request = crate::options::engine_request(request)?;
            let result = self.reader()?.search(&request).into_js()?;
            evidence_engine::to_msgpack(&result).into_js()
        })?;
        js_owned(env, bytes)
    }

    /// Full text and provenance of one passage as MessagePack, or null for an unknown id.
    #[napi(ts_return_type = "Buffer | null")]
    pub fn document<'env>(&self, env: &'env Env, id: String) -> napi::Result<Option<BufferSlice<'env>>> {
        let bytes = guarded(|| match self.reader()?.document(&id).into_js()? {
            Some(document) => Ok(Some(evidence_engine::to_msgpack(&document).into_js()?)),
            None => Ok(None),
        })?;
        bytes.map(|bytes| js_owned(env, bytes)).transpose()
    }

    /// The vector of a passage (the seed of a similarity search), or null for an unknown id.
    #[napi]
    pub fn passage_vector(&self, id: String) -> napi::Result<Option<Vec<f64>>> {
        guarded(|| {
            let vector = self.reader()?.passage_vector(&id).into_js()?;
            Ok(vector.map(|vector| vector.into_iter().map(f64::from).collect()))
        })
    }

    #[napi]
    pub fn num_docs(&self) -> napi::Result<i64> {
        guarded(|| Ok(self.reader()?.num_docs() as i64))
    }

    #[napi]
    pub fn close(&mut self) {
        self.inner = None;
    }
}
