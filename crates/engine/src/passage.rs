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

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value};

    use super::Passage;
    use crate::test_shard::written_shard;
    use crate::SearchRequest;

    fn object<T: serde::Serialize>(record: &T) -> Map<String, Value> {
        match serde_json::to_value(record).unwrap() {
            Value::Object(fields) => fields,
            other => panic!("a record serialises as an object, not {other}"),
        }
    }

    /// The records are projections of the one field table (`schema.rs`): every stored field of
    /// a Hit and a Document reads back, through a real shard, the value the Passage wrote under
    /// the same name. A record field whose type disagrees with the schema's (a u64 read from an
    /// i64 column, a list from a single value) reads back empty and fails here.
    #[test]
    fn every_stored_field_reads_back_what_the_passage_wrote() {
        let passage = Passage {
            id: "page-1:0".into(),
            page_id: "page-1".into(),
            passage_no: 3,
            url: "https://bakery.example.org/rye".into(),
            host: "bakery.example.org".into(),
            registrable_domain: "example.org".into(),
            owner: "Example Bakers".into(),
            title: "Rye starter".into(),
            text: "A rye starter doubles in six hours at warm room temperature.".into(),
            vertical: "cooking".into(),
            lang: "en".into(),
            host_rank: 0.75,
            quality: 4,
            fetched_at: 1_700_000_123,
            published_at: Some(1_690_000_000),
            source: "delta".into(),
            story_id: "story-9".into(),
            content_type: Some("how-to".into()),
            authority: Some("expert".into()),
            safety: Some("safe".into()),
            tld: "org".into(),
            topics: vec!["baking".into(), "fermentation".into()],
            word_count: 11,
            in_degree: Some(7),
            centrality: Some(0.125),
            community_id: Some("c-4".into()),
            independent_sources: Some(2),
            links: vec!["https://flour.example.net/".into(), "https://bakery.example.org/".into()],
            origin_type: Some("original".into()),
            source_role: Some("primary".into()),
            role_confidence: Some(0.5),
            embedding: None,
        };
        let (_directory, reader) = written_shard(&[std::slice::from_ref(&passage)], &[]);

        let written = object(&passage);
        let result = reader.search(&SearchRequest { query: "rye".into(), limit: 1, ..Default::default() }).unwrap();
        let hit = object(&result.hits[0]);
        let document = object(&reader.document("page-1:0").unwrap().unwrap());
        for (record, fields, computed) in [("Hit", &hit, &["score"][..]), ("Document", &document, &[][..])] {
            for (name, value) in fields.iter() {
                if computed.contains(&name.as_str()) {
                    continue;
                }
                let stored_as = if name == "snippet" { "text" } else { name.as_str() };
                assert_eq!(Some(value), written.get(stored_as), "{record}.{name} reads back what Passage.{stored_as} wrote");
            }
        }
        // Every field the Passage wrote is present in one of the two records (none is dropped).
        for name in written.keys() {
            let read = hit.contains_key(name) || document.contains_key(name) || (name == "text" && hit.contains_key("snippet"));
            assert!(read, "Passage.{name} is read back by a Hit or a Document");
        }
    }

    /// A search answer writes its hits as rows, which the generated `hitFromRow` reads by
    /// position in the order of `Hit`'s TypeScript declaration: each position must hold the
    /// field of that name, and an absent field (left out of the map form) must be nil there.
    #[test]
    fn a_hit_row_holds_each_field_where_the_declaration_puts_it() {
        use crate::record::{Row, TsRecord};
        let passage = |id: &str, text: &str, full: bool| Passage {
            id: id.into(),
            page_id: id.into(),
            url: format!("https://example.org/{id}"),
            host: "example.org".into(),
            title: "Rye".into(),
            text: text.into(),
            vertical: "cooking".into(),
            lang: "en".into(),
            host_rank: 0.5,
            quality: 3,
            fetched_at: 1_700_000_000,
            source: "delta".into(),
            story_id: id.into(),
            published_at: full.then_some(1_690_000_000),
            authority: full.then(|| "expert".into()),
            topics: if full { vec!["baking".into()] } else { vec![] },
            in_degree: full.then_some(3),
            ..Default::default()
        };
        let (_directory, reader) = written_shard(&[&[passage("full", "rye rye rye starter", true), passage("bare", "rye starter", false)]], &[]);
        let result = reader.search(&SearchRequest { query: "rye".into(), limit: 2, ..Default::default() }).unwrap();
        assert_eq!(result.hits.len(), 2);
        let declared: Vec<&str> = super::Hit::ts_interface().fields.iter().map(|field| field.name).collect();
        let mut absent_seen = 0;
        for hit in &result.hits {
            let map = object(hit);
            let Value::Array(row) = serde_json::to_value(Row(hit)).unwrap() else { panic!("a row is an array") };
            assert_eq!(row.len(), declared.len(), "one position per declared field");
            for (position, name) in declared.iter().enumerate() {
                assert_eq!(&row[position], map.get(*name).unwrap_or(&Value::Null), "{}: position {position} holds {name}", hit.id);
                absent_seen += usize::from(row[position].is_null());
            }
        }
        assert!(absent_seen > 0, "the bare passage leaves optional fields out");
        // The answer itself carries its hits as rows.
        let Value::Object(answer) = serde_json::to_value(&result).unwrap() else { panic!("an answer is an object") };
        let Value::Array(hits) = &answer["hits"] else { panic!("hits is a list") };
        assert!(hits.iter().all(Value::is_array), "each hit is written as a row");
    }
}
