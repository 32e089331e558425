//! The records that go in (Passage) and come out (Hit, Document) of a shard, each one table of
//! fields (`record.rs` makes the struct, the stored-document conversions and the TypeScript
//! declaration from it). Hit and Document serialise with the field names of SPEC 2.1 and 2.3,
//! so the server can pass them through without renaming; optional fields are absent, never null.

use serde::Serialize;

use crate::record::record;
use crate::vocabulary::{ContentType, OriginType, Safety, Source, SourceRole};

record! {
    /// One retrievable unit of a page, as the ingest derived it.
    #[derive(Clone, Debug, Default, Serialize, PartialEq)]
    pub struct Passage {
        pub id: String = stored,
        pub page_id: String = stored,
        pub passage_no: u64 = stored,
        pub url: String = stored,
        pub host: String = stored,
        pub registrable_domain: String = stored,
        pub owner: String = stored,
        pub title: String = stored,
        pub text: String = stored,
        pub vertical: String = stored,
        pub lang: String = stored,
        pub host_rank: f64 = stored,
        pub quality: i64 = stored,
        pub fetched_at: i64 = stored,
        pub published_at: Option<i64> = stored,
        pub source: String = stored as Source,
        pub story_id: String = stored,
        pub content_type: Option<String> = stored as ContentType,
        pub authority: Option<String> = stored,
        pub safety: Option<String> = stored as Safety,
        pub tld: String = stored,
        pub topics: Vec<String> = stored,
        pub word_count: u64 = stored,
        pub in_degree: Option<u64> = stored,
        pub centrality: Option<f64> = stored,
        pub community_id: Option<String> = stored,
        pub independent_sources: Option<u64> = stored,
        pub links: Vec<String> = stored,
        /// Provenance at ingest.
        pub origin_type: Option<String> = stored as OriginType,
        pub source_role: Option<String> = stored as SourceRole,
        pub role_confidence: Option<f64> = stored,
        /// A precomputed vector; the shard's embedder computes one when absent.
        pub embedding: Option<Vec<f32>> = computed,
    }
}

record! {
    /// One passage in a result (SPEC 2.1), with the internal provenance the evidence layer reads
    /// (`lang` onwards: the server projects hits to the SPEC fields).
    #[derive(Clone, Debug, Serialize, PartialEq)]
    pub struct Hit {
        pub id: String = stored,
        pub url: String = stored,
        pub host: String = stored,
        pub title: String = stored,
        pub vertical: String = stored,
        pub host_rank: f64 = stored,
        pub quality: i64 = stored,
        pub fetched_at: i64 = stored,
        pub source: String = stored as Source,
        pub story_id: String = stored,
        pub score: f64 = computed,
        /// The passage text.
        pub snippet: String = stored(text),
        pub authority: Option<String> = stored,
        pub centrality: Option<f64> = stored,
        pub community_id: Option<String> = stored,
        pub content_type: Option<String> = stored as ContentType,
        /// Present when collapse folded rows: how many rows the group had.
        pub group_size: Option<u64> = computed,
        pub in_degree: Option<u64> = stored,
        pub independent_sources: Option<u64> = stored,
        pub published_at: Option<i64> = stored,
        pub safety: Option<String> = stored as Safety,
        pub tld: Option<String> = stored,
        pub topics: Vec<String> = stored,
        pub word_count: Option<u64> = stored,
        pub lang: String = stored,
        pub page_id: String = stored,
        pub registrable_domain: String = stored,
        pub owner: String = stored,
        pub origin_type: Option<String> = stored as OriginType,
        pub source_role: Option<String> = stored as SourceRole,
        pub role_confidence: Option<f64> = stored,
    }
}

record! {
    /// Full text of a passage (SPEC 2.3) plus the internal provenance fields the evidence layer reads.
    #[derive(Clone, Debug, Serialize, PartialEq)]
    pub struct Document {
        pub id: String = stored,
        pub url: String = stored,
        pub host: String = stored,
        pub title: String = stored,
        pub vertical: String = stored,
        pub lang: String = stored,
        pub host_rank: f64 = stored,
        pub quality: i64 = stored,
        pub text: String = stored,
        pub page_id: String = stored,
        pub passage_no: u64 = stored,
        pub registrable_domain: String = stored,
        pub owner: String = stored,
        pub fetched_at: i64 = stored,
        pub published_at: Option<i64> = stored,
        pub source: String = stored as Source,
        pub story_id: String = stored,
        pub links: Vec<String> = stored,
        pub origin_type: Option<String> = stored as OriginType,
        pub source_role: Option<String> = stored as SourceRole,
        pub role_confidence: Option<f64> = stored,
        pub content_type: Option<String> = stored as ContentType,
        pub independent_sources: Option<u64> = stored,
    }
}

/// One stored document, read into the records that leave a shard.
pub(crate) struct StoredReader<'a> {
    pub doc: &'a tantivy::TantivyDocument,
    pub fields: &'a crate::schema::ShardFields,
}

impl StoredReader<'_> {
    /// A result row, with the score the search gave it.
    pub fn hit(&self, score: f64) -> Hit {
        Hit { score, ..Hit::from_stored(self.doc, self.fields) }
    }

    pub fn document(&self) -> Document {
        Document::from_stored(self.doc, self.fields)
    }
}

impl Passage {
    pub(crate) fn to_document(&self, fields: &crate::schema::ShardFields, vector_key: u64) -> tantivy::TantivyDocument {
        let mut doc = tantivy::TantivyDocument::default();
        self.store(&mut doc, fields);
        doc.add_u64(fields.vector_key, vector_key);
        doc
    }
}
