//! The napi-rs surface over evidence-engine: declarations only. Conversions live in
//! `options.rs`, error mapping in `error.rs`.
#![deny(clippy::all)]

mod analysis;
mod error;
mod options;
mod reader;
mod vocabulary;
mod writer;

use napi::bindgen_prelude::Float32Array;
use napi_derive::napi;

pub use reader::ShardReader;
pub use writer::ShardWriter;

/// The default embedder's vector for a text (deterministic, model-free).
#[napi]
pub fn embed(text: String, dimensions: Option<u32>) -> napi::Result<Float32Array> {
    use evidence_engine::Embedder;
    error::guarded(|| {
        let dimensions = dimensions.map(|value| value as usize).unwrap_or(evidence_engine::DEFAULT_DIMENSIONS);
        Ok(Float32Array::new(evidence_engine::HashingEmbedder::new(dimensions).embed(&text)))
    })
}

/// Diagnostics of the binding's panic guard: panics with `message` inside it and so fails with
/// the `EPANIC` error any engine panic becomes, instead of aborting the process. Tests call it.
#[napi]
pub fn panic_inside_guard(message: String) -> napi::Result<()> {
    error::guarded(|| panic!("{message}"))
}

/// Version of the engine crate, to check the addon a process loaded.
#[napi]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
