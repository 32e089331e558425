//! The shard schema: every field of a Hit and a Document (SPEC 2.1, 2.3) plus what the service
//! needs internally (page id, passage number, registrable domain, owner, vector key, links).
//! Numeric and enum fields are fast fields so filters, sorts, collapses and facets read columns.

use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED, STRING,
};

use crate::analyzer::BODY_ANALYZER;

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

/// The field table: each field's name, Tantivy type and options. It makes `ShardFields`, the
/// schema of a new shard and the handles of an existing one; the records (`passage.rs`) read
/// and write these fields by name.
macro_rules! shard_fields {
    ($($name:ident: $kind:ident($options:expr)),* $(,)?) => {
        /// Handles of every field, resolved once per shard.
        #[derive(Clone, Debug)]
        pub struct ShardFields {
            $(pub $name: Field,)*
        }

        pub fn build_schema() -> (Schema, ShardFields) {
            let mut builder = Schema::builder();
            let fields = ShardFields {
                $($name: shard_fields!(@add builder, $kind, stringify!($name), $options),)*
            };
            (builder.build(), fields)
        }

        impl ShardFields {
            /// Resolve the handles of an existing index's schema (fails when a field is missing).
            pub fn from_schema(schema: &Schema) -> tantivy::Result<ShardFields> {
                Ok(ShardFields {
                    $($name: schema.get_field(stringify!($name))?,)*
                })
            }
        }
    };
    (@add $builder:ident, text, $name:expr, $options:expr) => { $builder.add_text_field($name, $options) };
    (@add $builder:ident, u64, $name:expr, $options:expr) => { $builder.add_u64_field($name, $options) };
    (@add $builder:ident, i64, $name:expr, $options:expr) => { $builder.add_i64_field($name, $options) };
    (@add $builder:ident, f64, $name:expr, $options:expr) => { $builder.add_f64_field($name, $options) };
}

shard_fields! {
    id: text(keyword()),
    page_id: text(keyword()),
    passage_no: u64(STORED | FAST),
    vector_key: u64(INDEXED | STORED | FAST),
    url: text(keyword()),
    host: text(keyword()),
    registrable_domain: text(keyword()),
    owner: text(keyword()),
    title: text(analysed_text()),
    text: text(analysed_text()),
    vertical: text(keyword()),
    lang: text(keyword()),
    host_rank: f64(INDEXED | STORED | FAST),
    quality: i64(INDEXED | STORED | FAST),
    fetched_at: i64(INDEXED | STORED | FAST),
    published_at: i64(INDEXED | STORED | FAST),
    source: text(keyword()),
    story_id: text(keyword()),
    content_type: text(keyword()),
    authority: text(keyword()),
    safety: text(keyword()),
    tld: text(keyword()),
    topics: text(keyword()),
    word_count: u64(INDEXED | STORED | FAST),
    in_degree: u64(INDEXED | STORED | FAST),
    centrality: f64(INDEXED | STORED | FAST),
    community_id: text(keyword()),
    independent_sources: u64(INDEXED | STORED | FAST),
    links: text(STORED),
    origin_type: text(keyword()),
    source_role: text(keyword()),
    role_confidence: f64(STORED | FAST),
}
