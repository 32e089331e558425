//! What a caller may ask one shard for (SPEC 4.1): mode, filters, sort, collapse, facets and
//! soft reranks. The pool sends the same request to every shard and merges the answers.

use crate::deadline::Deadline;
pub use crate::vocabulary::{Collapse, Mode, SortBy};

impl SortBy {
    /// The fast field a non-relevance sort reads.
    pub fn field_name(&self) -> Option<&'static str> {
        match self {
            SortBy::Relevance => None,
            SortBy::Recency => Some("fetched_at"),
            SortBy::HostRank => Some("host_rank"),
            SortBy::Quality => Some("quality"),
            SortBy::Published => Some("published_at"),
            SortBy::Words => Some("word_count"),
            SortBy::Centrality => Some("centrality"),
        }
    }
}

/// Every filter of SPEC 4.1. Empty lists and `None` mean "no constraint".
#[derive(Clone, Debug, Default)]
pub struct Filters {
    pub vertical: Option<String>,
    pub site: Option<String>,
    pub exclude_site: Vec<String>,
    pub tld: Vec<String>,
    /// `lang` and `langs` together: a passage in any of these languages.
    pub langs: Vec<String>,
    pub content_type: Vec<String>,
    pub authority: Vec<String>,
    pub topic: Vec<String>,
    pub community: Vec<String>,
    pub source: Option<String>,
    pub fetched_from: Option<i64>,
    pub fetched_to: Option<i64>,
    pub published_from: Option<i64>,
    pub published_to: Option<i64>,
    pub min_host_rank: Option<f64>,
    pub min_quality: Option<i64>,
    pub min_words: Option<u64>,
    pub max_words: Option<u64>,
    pub min_centrality: Option<f64>,
    pub min_independent_sources: Option<u64>,
    /// Only passages carrying this exact (analysed) term.
    pub term: Option<String>,
    /// Drop explicit content.
    pub safe: bool,
    /// Passage ids never to return (e.g. the seed of a similarity search).
    pub exclude_ids: Vec<String>,
    /// Only passages of these stories (story expansion in the evidence layer).
    pub story_ids: Vec<String>,
    /// Only passages of these exact URLs (URL look-ups in the evidence layer).
    pub urls: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Rerank {
    pub prefer_recent: bool,
    pub prefer_authority: bool,
    /// Unix seconds that ages are measured from.
    pub now: i64,
}

impl Rerank {
    pub fn is_active(&self) -> bool {
        self.prefer_recent || self.prefer_authority
    }
}

#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// How cosine similarities count: they depend on the embedder that made the vectors.
    pub vector_scoring: VectorScoring,
    /// Query text; empty browses (every passage that passes the filters).
    pub query: String,
    /// A query vector for semantic ranking (similarity search); otherwise the query text is embedded.
    pub vector: Option<Vec<f32>>,
    pub mode: Mode,
    /// Hits to return; 0 counts matches only.
    pub limit: usize,
    pub filters: Filters,
    pub sort: SortBy,
    pub collapse: Collapse,
    pub rerank: Rerank,
    pub facets: bool,
    /// Also count matches per vertical (the router reads these).
    pub vertical_counts: bool,
    pub deadline: Deadline,
}

/// How an embedder's cosine similarities enter a ranking. Each embedder spreads its cosines over
/// a band of its own (the hashing embedder's unrelated texts land near 0, a transformer's near
/// 0.3-0.5), so the values belong to the embedder; the defaults are the hashing embedder's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VectorScoring {
    /// Cosine below which a neighbour is not a semantic match at all.
    pub min_similarity: f64,
    /// Hybrid: fused = keyword_weight x BM25 / scale + cosine_weight x max(0, (cosine - cosine_floor) / (1 - cosine_floor)).
    pub keyword_weight: f64,
    pub cosine_weight: f64,
    pub cosine_floor: f64,
}

impl Default for VectorScoring {
    fn default() -> Self {
        VectorScoring { min_similarity: 0.1, keyword_weight: 1.0, cosine_weight: 0.3, cosine_floor: 0.0 }
    }
}

impl VectorScoring {
    /// The cosine rescaled over the embedder's band: 0 at `cosine_floor` or below, 1 at 1.
    pub fn rescaled(&self, cosine: f64) -> f64 {
        if self.cosine_floor >= 1.0 {
            return 0.0;
        }
        ((cosine - self.cosine_floor) / (1.0 - self.cosine_floor)).max(0.0)
    }
}

impl Default for SearchRequest {
    fn default() -> Self {
        SearchRequest {
            vector_scoring: VectorScoring::default(),
            query: String::new(),
            vector: None,
            mode: Mode::Keyword,
            limit: 10,
            filters: Filters { safe: false, ..Default::default() },
            sort: SortBy::Relevance,
            collapse: Collapse::None,
            rerank: Rerank::default(),
            facets: false,
            vertical_counts: false,
            deadline: Deadline::none(),
        }
    }
}
