//! Option and record objects of the binding. Their doc comments become the JSDoc of the
//! generated `addon.d.cts`, the one source of the native types.

use napi_derive::napi;

/// How a shard is opened.
#[napi(object)]
#[derive(Default)]
pub struct ShardOptions {
    /// Vector dimensions of the embedder and of precomputed vectors (default 128).
    pub dimensions: Option<u32>,
    /// Indexing threads of a writer (default 1).
    pub writer_threads: Option<u32>,
    /// Memory budget of a writer in MiB (default 256).
    pub writer_memory_mb: Option<u32>,
}

/// Options with the engine's defaults filled in.
pub fn engine_options(options: Option<ShardOptions>) -> evidence_engine::ShardOptions {
    {
        let options = options.unwrap_or_default();
        let defaults = evidence_engine::ShardOptions::default();
        evidence_engine::ShardOptions {
            dimensions: options.dimensions.map(|value| value as usize).unwrap_or(defaults.dimensions),
            writer_threads: options.writer_threads.map(|value| value as usize).unwrap_or(defaults.writer_threads),
            writer_memory_bytes: options
                .writer_memory_mb
                .map(|value| value as usize * 1024 * 1024)
                .unwrap_or(defaults.writer_memory_bytes),
        }
    }
}

/// One passage as the ingest derived it (every field the shard stores).
#[napi(object)]
pub struct Passage {
    /// `page:no`
    pub id: String,
    pub page_id: String,
    pub passage_no: u32,
    pub url: String,
    pub host: String,
    pub registrable_domain: String,
    pub owner: String,
    pub title: String,
    pub text: String,
    pub vertical: String,
    pub lang: String,
    /// 0..1
    pub host_rank: f64,
    pub quality: i64,
    /// unix seconds
    pub fetched_at: i64,
    /// unix seconds, when the page declares it
    pub published_at: Option<i64>,
    /// `cc` or `delta`
    pub source: String,
    pub story_id: String,
    pub content_type: Option<String>,
    pub authority: Option<String>,
    pub safety: Option<String>,
    pub tld: String,
    pub topics: Option<Vec<String>>,
    pub word_count: u32,
    pub in_degree: Option<u32>,
    pub centrality: Option<f64>,
    pub community_id: Option<String>,
    pub independent_sources: Option<u32>,
    pub links: Option<Vec<String>>,
    /// A precomputed vector; the shard embeds title and text when absent.
    pub embedding: Option<Vec<f64>>,
}

impl From<Passage> for evidence_engine::Passage {
    fn from(passage: Passage) -> Self {
        evidence_engine::Passage {
            id: passage.id,
            page_id: passage.page_id,
            passage_no: passage.passage_no as u64,
            url: passage.url,
            host: passage.host,
            registrable_domain: passage.registrable_domain,
            owner: passage.owner,
            title: passage.title,
            text: passage.text,
            vertical: passage.vertical,
            lang: passage.lang,
            host_rank: passage.host_rank,
            quality: passage.quality,
            fetched_at: passage.fetched_at,
            published_at: passage.published_at,
            source: passage.source,
            story_id: passage.story_id,
            content_type: passage.content_type,
            authority: passage.authority,
            safety: passage.safety,
            tld: passage.tld,
            topics: passage.topics.unwrap_or_default(),
            word_count: passage.word_count as u64,
            in_degree: passage.in_degree.map(u64::from),
            centrality: passage.centrality,
            community_id: passage.community_id,
            independent_sources: passage.independent_sources.map(u64::from),
            links: passage.links.unwrap_or_default(),
            embedding: passage.embedding.map(|vector| vector.into_iter().map(|value| value as f32).collect()),
        }
    }
}

/// A keyword search of one shard.
#[napi(object)]
pub struct SearchRequest {
    /// AND, OR, -term, "exact phrase"; bare terms are OR-ed and ranked by BM25.
    pub query: String,
    /// Hits to return; 0 counts matches only.
    pub limit: u32,
    /// Milliseconds the shard may spend; 0 or absent = no deadline.
    pub timeout_ms: Option<u32>,
}

/// What one `add` did.
#[napi(object)]
pub struct AddReport {
    pub added: u32,
    /// Passages whose id was already in the shard.
    pub skipped: u32,
}

/// Written to `commit.json` after each commit; readers reload when it changes.
#[napi(object)]
pub struct CommitNotice {
    pub opstamp: i64,
    pub num_docs: i64,
    pub committed_at_ms: i64,
}

/// What a reader holds after `reload`.
#[napi(object)]
pub struct ReloadReport {
    pub num_docs: i64,
    pub segments: u32,
    pub vectors: i64,
}
