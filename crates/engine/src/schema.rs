//! The shard schema: every field of a Hit and a Document (SPEC 2.1, 2.3) plus what the service
//! needs internally (page id, passage number, registrable domain, owner, vector key, links).
//! Numeric and enum fields are fast fields so filters, sorts, collapses and facets read columns.

use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED, STRING,
};

use crate::analyzer::BODY_ANALYZER;

/// Handles of every field, resolved once per shard.
#[derive(Clone, Debug)]
pub struct ShardFields {
    pub id: Field,
    pub page_id: Field,
    pub passage_no: Field,
    pub vector_key: Field,
    pub url: Field,
    pub host: Field,
    pub registrable_domain: Field,
    pub owner: Field,
    pub title: Field,
    pub text: Field,
    pub vertical: Field,
    pub lang: Field,
    pub host_rank: Field,
    pub quality: Field,
    pub fetched_at: Field,
    pub published_at: Field,
    pub source: Field,
    pub story_id: Field,
    pub content_type: Field,
    pub authority: Field,
    pub safety: Field,
    pub tld: Field,
    pub topics: Field,
    pub word_count: Field,
    pub in_degree: Field,
    pub centrality: Field,
    pub community_id: Field,
    pub independent_sources: Field,
    pub links: Field,
    pub origin_type: Field,
    pub source_role: Field,
    pub role_confidence: Field,
}

/// Exact-match keyword: indexed untokenised, stored, and a fast column.
fn keyword() -> TextOptions {
    STRING | STORED | FAST
}

fn analysed_text() -> TextOptions {
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(BODY_ANALYZER)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    TextOptions::default().set_indexing_options(indexing).set_stored()
}

pub fn build_schema() -> (Schema, ShardFields) {
    let mut builder = Schema::builder();
    let fields = ShardFields {
        id: builder.add_text_field("id", keyword()),
        page_id: builder.add_text_field("page_id", keyword()),
        passage_no: builder.add_u64_field("passage_no", STORED | FAST),
        vector_key: builder.add_u64_field("vector_key", INDEXED | STORED | FAST),
        url: builder.add_text_field("url", keyword()),
        host: builder.add_text_field("host", keyword()),
        registrable_domain: builder.add_text_field("registrable_domain", keyword()),
        owner: builder.add_text_field("owner", keyword()),
        title: builder.add_text_field("title", analysed_text()),
        text: builder.add_text_field("text", analysed_text()),
        vertical: builder.add_text_field("vertical", keyword()),
        lang: builder.add_text_field("lang", keyword()),
        host_rank: builder.add_f64_field("host_rank", INDEXED | STORED | FAST),
        quality: builder.add_i64_field("quality", INDEXED | STORED | FAST),
        fetched_at: builder.add_i64_field("fetched_at", INDEXED | STORED | FAST),
        published_at: builder.add_i64_field("published_at", INDEXED | STORED | FAST),
        source: builder.add_text_field("source", keyword()),
        story_id: builder.add_text_field("story_id", keyword()),
        content_type: builder.add_text_field("content_type", keyword()),
        authority: builder.add_text_field("authority", keyword()),
        safety: builder.add_text_field("safety", keyword()),
        tld: builder.add_text_field("tld", keyword()),
        topics: builder.add_text_field("topics", keyword()),
        word_count: builder.add_u64_field("word_count", INDEXED | STORED | FAST),
        in_degree: builder.add_u64_field("in_degree", INDEXED | STORED | FAST),
        centrality: builder.add_f64_field("centrality", INDEXED | STORED | FAST),
        community_id: builder.add_text_field("community_id", keyword()),
        independent_sources: builder.add_u64_field("independent_sources", INDEXED | STORED | FAST),
        links: builder.add_text_field("links", STORED),
        origin_type: builder.add_text_field("origin_type", keyword()),
        source_role: builder.add_text_field("source_role", keyword()),
        role_confidence: builder.add_f64_field("role_confidence", STORED | FAST),
    };
    (builder.build(), fields)
}

impl ShardFields {
    /// Resolve the handles of an existing index's schema (fails when a field is missing).
    pub fn from_schema(schema: &Schema) -> tantivy::Result<ShardFields> {
        let get = |name: &str| schema.get_field(name);
        Ok(ShardFields {
            id: get("id")?,
            page_id: get("page_id")?,
            passage_no: get("passage_no")?,
            vector_key: get("vector_key")?,
            url: get("url")?,
            host: get("host")?,
            registrable_domain: get("registrable_domain")?,
            owner: get("owner")?,
            title: get("title")?,
            text: get("text")?,
            vertical: get("vertical")?,
            lang: get("lang")?,
            host_rank: get("host_rank")?,
            quality: get("quality")?,
            fetched_at: get("fetched_at")?,
            published_at: get("published_at")?,
            source: get("source")?,
            story_id: get("story_id")?,
            content_type: get("content_type")?,
            authority: get("authority")?,
            safety: get("safety")?,
            tld: get("tld")?,
            topics: get("topics")?,
            word_count: get("word_count")?,
            in_degree: get("in_degree")?,
            centrality: get("centrality")?,
            community_id: get("community_id")?,
            independent_sources: get("independent_sources")?,
            links: get("links")?,
            origin_type: get("origin_type")?,
            source_role: get("source_role")?,
            role_confidence: get("role_confidence")?,
        })
    }
}
