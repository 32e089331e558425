//! The TypeScript declarations the tables generate: the records a shard's MessagePack answers
//! hold (`packages/native/src/records.generated.ts`) and the closed vocabularies
//! (`packages/schemas/src/vocabulary.generated.ts`). `tests/generated_typescript.rs` checks the
//! committed files against these (and rewrites them with `UPDATE_GENERATED=1`).

use crate::facets::FacetCounts;
use crate::passage::{Document, Hit};
use crate::search::ShardSearchResult;
use crate::record::{TsField, TsInterface, TsRecord, TsType};
use crate::vocabulary::{typescript_declaration, Collapse, ContentType, Mode, OriginType, Safety, SortBy, Source, SourceRole, VectorSource, Vocabulary};

const GENERATED_BY: &str = "Generated from the engine's tables (crates/engine/src/typescript.rs) by `cargo test -p evidence-engine --test generated_typescript`; UPDATE_GENERATED=1 rewrites it. Do not edit.";

fn field<T: TsType>(name: &'static str, docs: &'static [&'static str]) -> TsField {
    TsField { name, docs, ts_type: T::ts_type(), optional: T::OPTIONAL }
}

impl TsRecord for FacetCounts {
    fn ts_interface() -> TsInterface {
        type Counts = std::collections::HashMap<String, u64>;
        TsInterface {
            name: "ShardFacets",
            docs: &["Facet counts over a match set (exact per shard; summed across shards)."],
            fields: vec![
                field::<Counts>("host", &[]),
                field::<Counts>("vertical", &[]),
                field::<Counts>("source", &[]),
                field::<Counts>("content_type", &[]),
                field::<Counts>("authority", &[]),
                field::<Counts>("topics", &[]),
                field::<Counts>("published_year", &["publish year (UTC) -> passages; undated passages are not counted"]),
            ],
        }
    }
}

impl TsRecord for ShardSearchResult {
    fn ts_interface() -> TsInterface {
        TsInterface {
            name: "ShardSearchResult",
            docs: &["What `ShardReader.search` encodes (MessagePack), once `decodeSearchResult` has turned its hits' rows (`HitRow`) into hits."],
            fields: vec![
                TsField { name: "hits", docs: &[], ts_type: "Hit[]".to_string(), optional: false },
                field::<u64>("total", &["Exact number of live matches in the segments searched."]),
                field::<bool>("timed_out", &["The deadline cut the search short: `total` and `hits` cover only part of the shard."]),
                field::<u64>("elapsed_us", &[]),
                TsField { name: "facets", docs: &[], ts_type: "ShardFacets".to_string(), optional: true },
                field::<Option<std::collections::HashMap<String, u64>>>("vertical_counts", &["Matches per vertical, when asked for (the router's input)."]),
                field::<u64>("passages", &["Live passages of the shard."]),
                field::<u64>("embedded", &["How many of them have a vector (semantic and hybrid rankings reach only these)."]),
            ],
        }
    }
}

/// `packages/native/src/records.generated.ts`.
pub fn records() -> String {
    let vocabularies = [Source::TS_TYPE, ContentType::TS_TYPE, Safety::TS_TYPE, OriginType::TS_TYPE, SourceRole::TS_TYPE];
    let mut text = format!("/* {GENERATED_BY} */\n");
    text.push_str(&format!("import type {{ {} }} from '@evidence/schemas';\n", vocabularies.join(", ")));
    let hit = Hit::ts_interface();
    for interface in [&hit, &Document::ts_interface(), &FacetCounts::ts_interface(), &ShardSearchResult::ts_interface()] {
        text.push('\n');
        text.push_str(&interface.render());
    }
    text.push('\n');
    text.push_str(&hit.render_row());
    text
}

/// `packages/schemas/src/vocabulary.generated.ts`.
pub fn vocabularies() -> String {
    let mut text = format!("/* {GENERATED_BY} */\n");
    for declaration in [
        typescript_declaration::<Mode>(),
        typescript_declaration::<SortBy>(),
        typescript_declaration::<Collapse>(),
        typescript_declaration::<VectorSource>(),
        typescript_declaration::<Source>(),
        typescript_declaration::<ContentType>(),
        typescript_declaration::<Safety>(),
        typescript_declaration::<OriginType>(),
        typescript_declaration::<SourceRole>(),
    ] {
        text.push('\n');
        text.push_str(&declaration);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded_fields<T: serde::Serialize>(value: &T) -> Vec<String> {
        match serde_json::to_value(value).unwrap() {
            serde_json::Value::Object(map) => map.keys().cloned().collect(),
            other => panic!("not an object: {other}"),
        }
    }

    fn declared_fields<T: TsRecord>() -> Vec<String> {
        let mut names: Vec<String> = T::ts_interface().fields.iter().map(|field| field.name.to_string()).collect();
        names.sort();
        names
    }

    /// The result and facet declarations are written beside their structs, not from a table:
    /// they must name exactly the fields the structs encode.
    #[test]
    fn result_and_facet_declarations_name_what_is_encoded() {
        let result = ShardSearchResult { facets: Some(FacetCounts::default()), vertical_counts: Some(Default::default()), ..Default::default() };
        assert_eq!(encoded_fields(&result), declared_fields::<ShardSearchResult>());
        assert_eq!(encoded_fields(&FacetCounts::default()), declared_fields::<FacetCounts>());
    }
}
