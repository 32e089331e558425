//! Option and record objects of the binding. Their doc comments become the JSDoc of the
//! generated `addon.d.cts`, the one source of the native types.

use napi_derive::napi;

use crate::vocabulary::{CollapseBy, ContentTypeName, OriginType, SafetyLevel, SearchMode, SearchSort, SourceName, SourceRole, VectorSourceName};

/// How a shard is opened.
#[napi(object)]
#[derive(Default)]
pub struct ShardOptions {
    /// Vector dimensions of the embedder and of precomputed vectors (default 128).
    pub dimensions: Option<u32>,
    /// Where the vectors come from (default `hashing`).
    pub vectors: Option<VectorSourceName>,
    /// Indexing threads of a writer (default 1).
    pub writer_threads: Option<u32>,
    /// Memory budget of a writer in MiB (default 256).
    pub writer_memory_mb: Option<u32>,
}

/// Options with the engine's defaults filled in.
pub fn engine_options(options: Option<ShardOptions>) -> napi::Result<evidence_engine::ShardOptions> {
    Ok({
        let options = options.unwrap_or_default();
        let defaults = evidence_engine::ShardOptions::default();
        evidence_engine::ShardOptions {
            dimensions: options.dimensions.map(|value| value as usize).unwrap_or(defaults.dimensions),
            vectors: options.vectors.map(Into::into).unwrap_or(defaults.vectors),
            writer_threads: options.writer_threads.map(|value| value as usize).unwrap_or(defaults.writer_threads),
            writer_memory_bytes: options
                .writer_memory_mb
                .map(|value| value as usize * 1024 * 1024)
                .unwrap_or(defaults.writer_memory_bytes),
        }
    })
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
    pub source: SourceName,
    pub story_id: String,
    pub content_type: Option<ContentTypeName>,
    pub authority: Option<String>,
    pub safety: Option<SafetyLevel>,
    pub tld: String,
    pub topics: Option<Vec<String>>,
    pub word_count: u32,
    pub in_degree: Option<u32>,
    pub centrality: Option<f64>,
    pub community_id: Option<String>,
    pub independent_sources: Option<u32>,
    pub links: Option<Vec<String>>,
    pub origin_type: Option<OriginType>,
    pub source_role: Option<SourceRole>,
    /// 0..1
    pub role_confidence: Option<f64>,
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
            source: passage.source.as_str().to_string(),
            story_id: passage.story_id,
            content_type: passage.content_type.map(|value| value.as_str().to_string()),
            authority: passage.authority,
            safety: passage.safety.map(|value| value.as_str().to_string()),
            tld: passage.tld,
            topics: passage.topics.unwrap_or_default(),
            word_count: passage.word_count as u64,
            in_degree: passage.in_degree.map(u64::from),
            centrality: passage.centrality,
            community_id: passage.community_id,
            independent_sources: passage.independent_sources.map(u64::from),
            links: passage.links.unwrap_or_default(),
            origin_type: passage.origin_type.map(|value| value.as_str().to_string()),
            source_role: passage.source_role.map(|value| value.as_str().to_string()),
            role_confidence: passage.role_confidence,
            embedding: passage.embedding.map(|vector| vector.into_iter().map(|value| value as f32).collect()),
        }
    }
}

/// Filters of SPEC 4.1; absent or empty means no constraint.
#[napi(object)]
#[derive(Default)]
pub struct SearchFilters {
    pub vertical: Option<String>,
    /// Exact host.
    pub site: Option<String>,
    pub exclude_site: Option<Vec<String>>,
    pub tld: Option<Vec<String>>,
    /// Any of these languages (`lang` and `langs` together).
    pub langs: Option<Vec<String>>,
    pub content_type: Option<Vec<ContentTypeName>>,
    pub authority: Option<Vec<String>>,
    pub topic: Option<Vec<String>>,
    pub community: Option<Vec<String>>,
    pub source: Option<SourceName>,
    /// fetched_at bounds, unix seconds, inclusive
    pub fetched_from: Option<i64>,
    pub fetched_to: Option<i64>,
    /// published_at bounds, unix seconds, inclusive
    pub published_from: Option<i64>,
    pub published_to: Option<i64>,
    pub min_host_rank: Option<f64>,
    pub min_quality: Option<i64>,
    pub min_words: Option<u32>,
    pub max_words: Option<u32>,
    pub min_centrality: Option<f64>,
    pub min_independent_sources: Option<u32>,
    /// Only passages carrying this exact (analysed) term or phrase.
    pub term: Option<String>,
    /// Drop explicit content.
    pub safe: Option<bool>,
    /// Passage ids never to return.
    pub exclude_ids: Option<Vec<String>>,
    /// Only passages of these stories.
    pub story_ids: Option<Vec<String>>,
    /// Only passages of these exact URLs.
    pub urls: Option<Vec<String>>,
}

/// How an embedder's cosine similarities count (defaults: the hashing embedder's).
#[napi(object)]
pub struct VectorScoring {
    /// Cosine below which a neighbour is not a semantic match (default 0.1).
    pub min_similarity: Option<f64>,
    /// Hybrid: keyword_weight x BM25 / scale + cosine_weight x max(0, (cosine - cosine_floor) / (1 - cosine_floor)); defaults 1, 0.3, 0.
    pub keyword_weight: Option<f64>,
    pub cosine_weight: Option<f64>,
    pub cosine_floor: Option<f64>,
}

fn vector_scoring_of(scoring: Option<VectorScoring>) -> evidence_engine::VectorScoring {
    let defaults = evidence_engine::VectorScoring::default();
    match scoring {
        None => defaults,
        Some(scoring) => evidence_engine::VectorScoring {
            min_similarity: scoring.min_similarity.unwrap_or(defaults.min_similarity),
            keyword_weight: scoring.keyword_weight.unwrap_or(defaults.keyword_weight),
            cosine_weight: scoring.cosine_weight.unwrap_or(defaults.cosine_weight),
            cosine_floor: scoring.cosine_floor.unwrap_or(defaults.cosine_floor),
        },
    }
}

/// A search of one shard.
#[napi(object)]
pub struct SearchRequest {
    /// How cosine similarities count, for the embedder of the shard's vectors.
    pub vector_scoring: Option<VectorScoring>,
    /// AND, OR, -term, "exact phrase"; bare terms are OR-ed and ranked by BM25. Empty browses.
    pub query: String,
    /// Default `keyword`.
    pub mode: Option<SearchMode>,
    /// A query vector for semantic ranking (similarity search) instead of embedding the query.
    pub vector: Option<Vec<f64>>,
    /// Hits to return; 0 counts matches only.
    pub limit: u32,
    pub filters: Option<SearchFilters>,
    /// Default `relevance`.
    pub sort: Option<SearchSort>,
    /// Default `none`.
    pub collapse: Option<CollapseBy>,
    pub prefer_recent: Option<bool>,
    pub prefer_authority: Option<bool>,
    /// Unix seconds ages are measured from (prefer_recent); default now.
    pub now: Option<i64>,
    /// Also count host, vertical, source, content type and publish year over the match set.
    pub facets: Option<bool>,
    /// Also count matches per vertical (the router's input).
    pub vertical_counts: Option<bool>,
    /// Milliseconds the shard may spend; 0 or absent = no deadline.
    pub timeout_ms: Option<u32>,
}

fn filters_of(filters: Option<SearchFilters>) -> evidence_engine::Filters {
    let filters = filters.unwrap_or_default();
    evidence_engine::Filters {
        vertical: filters.vertical,
        site: filters.site,
        exclude_site: filters.exclude_site.unwrap_or_default(),
        tld: filters.tld.unwrap_or_default(),
        langs: filters.langs.unwrap_or_default(),
        content_type: filters.content_type.unwrap_or_default().into_iter().map(|value| value.as_str().to_string()).collect(),
        authority: filters.authority.unwrap_or_default(),
        topic: filters.topic.unwrap_or_default(),
        community: filters.community.unwrap_or_default(),
        source: filters.source.map(|value| value.as_str().to_string()),
        fetched_from: filters.fetched_from,
        fetched_to: filters.fetched_to,
        published_from: filters.published_from,
        published_to: filters.published_to,
        min_host_rank: filters.min_host_rank,
        min_quality: filters.min_quality,
        min_words: filters.min_words.map(u64::from),
        max_words: filters.max_words.map(u64::from),
        min_centrality: filters.min_centrality,
        min_independent_sources: filters.min_independent_sources.map(u64::from),
        term: filters.term,
        safe: filters.safe.unwrap_or(false),
        exclude_ids: filters.exclude_ids.unwrap_or_default(),
        story_ids: filters.story_ids.unwrap_or_default(),
        urls: filters.urls.unwrap_or_default(),
    }
}

/// The engine's request from the binding's.
pub fn engine_request(request: SearchRequest) -> napi::Result<evidence_engine::SearchRequest> {
    let now = request.now.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
    });
    Ok(evidence_engine::SearchRequest {
        vector_scoring: vector_scoring_of(request.vector_scoring),
        query: request.query,
        vector: request.vector.map(|vector| vector.into_iter().map(|value| value as f32).collect()),
        mode: request.mode.map(Into::into).unwrap_or_default(),
        limit: request.limit as usize,
        filters: filters_of(request.filters),
        sort: request.sort.map(Into::into).unwrap_or_default(),
        collapse: request.collapse.map(Into::into).unwrap_or_default(),
        rerank: evidence_engine::Rerank {
            prefer_recent: request.prefer_recent.unwrap_or(false),
            prefer_authority: request.prefer_authority.unwrap_or(false),
            now,
        },
        facets: request.facets.unwrap_or(false),
        vertical_counts: request.vertical_counts.unwrap_or(false),
        deadline: evidence_engine::Deadline::after_millis(request.timeout_ms.unwrap_or(0) as u64),
    })
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
    /// Live passages that have a vector (semantic search reaches only these).
    pub embedded: i64,
    /// Vectors in the tail, searched exactly until a merge puts them in the HNSW graph.
    pub vector_tail: i64,
}

/// What `buildVectors` merged into the HNSW graph.
#[napi(object)]
pub struct VectorBuildReport {
    /// Tail segments merged (and deleted).
    pub segments: u32,
    /// Tail records applied (adds and removes).
    pub records: i64,
    /// Vectors in the graph afterwards.
    pub graph_vectors: i64,
    pub seconds: f64,
}

/// Committed vectors not yet in the HNSW graph, and why the last merge behind the writer failed.
#[napi(object)]
pub struct VectorTail {
    pub records: i64,
    pub merge_failure: Option<String>,
}

/// A passage waiting for its vector: its id and the text to embed (title and body).
#[napi(object)]
pub struct EmbeddingInput {
    pub id: String,
    pub text: String,
}
