//! The TypeScript the engine's tables generate is committed; this fails when a committed file
//! differs from what the tables make now (the snapshot of the Rust -> TypeScript boundary).
//! `UPDATE_GENERATED=1 cargo test -p evidence-engine --test generated_typescript` rewrites them.

use std::path::PathBuf;

fn check(relative: &str, generated: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == generated, "{relative} is not what the engine's tables generate; rerun with UPDATE_GENERATED=1 and commit it");
}

#[test]
fn record_declarations_match_the_tables() {
    check("packages/native/src/records.generated.ts", evidence_engine::typescript::records());
}

#[test]
fn vocabulary_declarations_match_the_tables() {
    check("packages/schemas/src/vocabulary.generated.ts", evidence_engine::typescript::vocabularies());
}
