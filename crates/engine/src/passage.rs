//! The records that go in (Passage) and come out (Hit, Document) of a shard.
//! Hit and Document serialise with the field names of SPEC 2.1 and 2.3, so the server can pass
//! them through without renaming; optional fields are absent, never null.

use serde::Serialize;
use tantivy::schema::Value;
use tantivy::TantivyDocument;

use crate::schema::ShardFields;

/// One retrievable unit of a page, as the ingest derived it.
#[derive(Clone, Debug, Default)]
pub struct Passage {
    pub id: String,
    pub page_id: String,
    pub passage_no: u64,
    pub url: String,
    pub host: String,
    pub registrable_domain: String,
    pub owner: String,
    pub title: String,
    pub text: String,
    pub vertical: String,
    pub lang: String,
    pub host_rank: f64,
    pub quality: i64,
    pub fetched_at: i64,
    pub published_at: Option<i64>,
    pub source: String,
    pub story_id: String,
    pub content_type: Option<String>,
    pub authority: Option<String>,
    pub safety: Option<String>,
    pub tld: String,
    pub topics: Vec<String>,
    pub word_count: u64,
    pub in_degree: Option<u64>,
    pub centrality: Option<f64>,
    pub community_id: Option<String>,
    pub independent_sources: Option<u64>,
    pub links: Vec<String>,
    /// `original`, `wire`, `press_release`, `republish` or `unknown` (provenance at ingest).
    pub origin_type: Option<String>,
    /// `official`, `primary`, `secondary`, `aggregator`, `ugc` or `unknown`.
    pub source_role: Option<String>,
    pub role_confidence: Option<f64>,
    /// A precomputed vector; the shard's embedder computes one when absent.
    pub embedding: Option<Vec<f32>>,
}

/// One passage in a result (SPEC 2.1).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Hit {
    pub id: String,
    pub url: String,
    pub host: String,
    pub title: String,
    pub vertical: String,
    pub host_rank: f64,
    pub quality: i64,
    pub fetched_at: i64,
    pub source: String,
    pub story_id: String,
    pub score: f64,
    pub snippet: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authority: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centrality: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub community_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Present when collapse folded rows: how many rows the group had.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_degree: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub independent_sources: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_at: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safety: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tld: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub word_count: Option<u64>,
    /// Internal provenance for the evidence layer; not part of a SPEC hit (the server projects
    /// hits to SPEC fields).
    pub lang: String,
    pub page_id: String,
    pub registrable_domain: String,
    pub owner: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role_confidence: Option<f64>,
}

/// Full text of a passage (SPEC 2.3) plus the internal provenance fields the evidence layer reads.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Document {
    pub id: String,
    pub url: String,
    pub host: String,
    pub title: String,
    pub vertical: String,
    pub lang: String,
    pub host_rank: f64,
    pub quality: i64,
    pub text: String,
    pub page_id: String,
    pub passage_no: u64,
    pub registrable_domain: String,
    pub owner: String,
    pub fetched_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_at: Option<i64>,
    pub source: String,
    pub story_id: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role_confidence: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub independent_sources: Option<u64>,
}

/// Reads stored values of one document.
pub(crate) struct StoredReader<'a> {
    pub doc: &'a TantivyDocument,
    pub fields: &'a ShardFields,
}

impl StoredReader<'_> {
    fn text(&self, field: tantivy::schema::Field) -> Option<String> {
        self.doc.get_first(field).and_then(|value| value.as_str().map(str::to_string))
    }
    fn text_or_empty(&self, field: tantivy::schema::Field) -> String {
        self.text(field).unwrap_or_default()
    }
    fn texts(&self, field: tantivy::schema::Field) -> Vec<String> {
        self.doc.get_all(field).filter_map(|value| value.as_str().map(str::to_string)).collect()
    }
    fn u64(&self, field: tantivy::schema::Field) -> Option<u64> {
        self.doc.get_first(field).and_then(|value| value.as_u64())
    }
    fn i64(&self, field: tantivy::schema::Field) -> Option<i64> {
        self.doc.get_first(field).and_then(|value| value.as_i64())
    }
    fn f64(&self, field: tantivy::schema::Field) -> Option<f64> {
        self.doc.get_first(field).and_then(|value| value.as_f64())
    }

    pub fn hit(&self, score: f64) -> Hit {
        let fields = self.fields;
        Hit {
            id: self.text_or_empty(fields.id),
            url: self.text_or_empty(fields.url),
            host: self.text_or_empty(fields.host),
            title: self.text_or_empty(fields.title),
            vertical: self.text_or_empty(fields.vertical),
            host_rank: self.f64(fields.host_rank).unwrap_or(0.0),
            quality: self.i64(fields.quality).unwrap_or(0),
            fetched_at: self.i64(fields.fetched_at).unwrap_or(0),
            source: self.text_or_empty(fields.source),
            story_id: self.text_or_empty(fields.story_id),
            score,
            snippet: self.text_or_empty(fields.text),
            authority: self.text(fields.authority),
            centrality: self.f64(fields.centrality),
            community_id: self.text(fields.community_id),
            content_type: self.text(fields.content_type),
            group_size: None,
            in_degree: self.u64(fields.in_degree),
            independent_sources: self.u64(fields.independent_sources),
            published_at: self.i64(fields.published_at),
            safety: self.text(fields.safety),
            tld: self.text(fields.tld),
            topics: self.texts(fields.topics),
            word_count: self.u64(fields.word_count),
            lang: self.text_or_empty(fields.lang),
            page_id: self.text_or_empty(fields.page_id),
            registrable_domain: self.text_or_empty(fields.registrable_domain),
            owner: self.text_or_empty(fields.owner),
            origin_type: self.text(fields.origin_type),
            source_role: self.text(fields.source_role),
            role_confidence: self.f64(fields.role_confidence),
        }
    }

    pub fn document(&self) -> Document {
        let fields = self.fields;
        Document {
            id: self.text_or_empty(fields.id),
            url: self.text_or_empty(fields.url),
            host: self.text_or_empty(fields.host),
            title: self.text_or_empty(fields.title),
            vertical: self.text_or_empty(fields.vertical),
            lang: self.text_or_empty(fields.lang),
            host_rank: self.f64(fields.host_rank).unwrap_or(0.0),
            quality: self.i64(fields.quality).unwrap_or(0),
            text: self.text_or_empty(fields.text),
            page_id: self.text_or_empty(fields.page_id),
            passage_no: self.u64(fields.passage_no).unwrap_or(0),
            registrable_domain: self.text_or_empty(fields.registrable_domain),
            owner: self.text_or_empty(fields.owner),
            fetched_at: self.i64(fields.fetched_at).unwrap_or(0),
            published_at: self.i64(fields.published_at),
            source: self.text_or_empty(fields.source),
            story_id: self.text_or_empty(fields.story_id),
            links: self.texts(fields.links),
            origin_type: self.text(fields.origin_type),
            source_role: self.text(fields.source_role),
            role_confidence: self.f64(fields.role_confidence),
            content_type: self.text(fields.content_type),
            independent_sources: self.u64(fields.independent_sources),
        }
    }
}

impl Passage {
    pub(crate) fn to_document(&self, fields: &ShardFields, vector_key: u64) -> TantivyDocument {
        let mut doc = TantivyDocument::default();
        doc.add_text(fields.id, &self.id);
        doc.add_text(fields.page_id, &self.page_id);
        doc.add_u64(fields.passage_no, self.passage_no);
        doc.add_u64(fields.vector_key, vector_key);
        doc.add_text(fields.url, &self.url);
        doc.add_text(fields.host, &self.host);
        doc.add_text(fields.registrable_domain, &self.registrable_domain);
        doc.add_text(fields.owner, &self.owner);
        doc.add_text(fields.title, &self.title);
        doc.add_text(fields.text, &self.text);
        doc.add_text(fields.vertical, &self.vertical);
        doc.add_text(fields.lang, &self.lang);
        doc.add_f64(fields.host_rank, self.host_rank);
        doc.add_i64(fields.quality, self.quality);
        doc.add_i64(fields.fetched_at, self.fetched_at);
        if let Some(published_at) = self.published_at {
            doc.add_i64(fields.published_at, published_at);
        }
        doc.add_text(fields.source, &self.source);
        doc.add_text(fields.story_id, &self.story_id);
        let optional_texts = [
            (fields.content_type, &self.content_type),
            (fields.authority, &self.authority),
            (fields.safety, &self.safety),
            (fields.community_id, &self.community_id),
        ];
        for (field, value) in optional_texts {
            if let Some(value) = value {
                doc.add_text(field, value);
            }
        }
        doc.add_text(fields.tld, &self.tld);
        for topic in &self.topics {
            doc.add_text(fields.topics, topic);
        }
        doc.add_u64(fields.word_count, self.word_count);
        if let Some(in_degree) = self.in_degree {
            doc.add_u64(fields.in_degree, in_degree);
        }
        if let Some(centrality) = self.centrality {
            doc.add_f64(fields.centrality, centrality);
        }
        if let Some(independent_sources) = self.independent_sources {
            doc.add_u64(fields.independent_sources, independent_sources);
        }
        for link in &self.links {
            doc.add_text(fields.links, link);
        }
        if let Some(origin_type) = &self.origin_type {
            doc.add_text(fields.origin_type, origin_type);
        }
        if let Some(source_role) = &self.source_role {
            doc.add_text(fields.source_role, source_role);
        }
        if let Some(role_confidence) = self.role_confidence {
            doc.add_f64(fields.role_confidence, role_confidence);
        }
        doc
    }
}
