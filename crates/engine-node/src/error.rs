//! The one place engine errors become JS errors. The message keeps the engine's wording and
//! the cause chain, flattened; the code says which kind it was.

use std::error::Error as _;

use evidence_engine::EngineError;

pub fn to_js_error(error: EngineError) -> napi::Error {
    let code = match &error {
        EngineError::Locked(_) => "ELOCKED",
        EngineError::InvalidPassage { .. } => "EINVALID",
        EngineError::QuerySyntax(_) | EngineError::QueryTooDeep { .. } => "EQUERY",
        EngineError::InvalidRequest(_) => "EREQUEST",
        EngineError::ShardMissing(_) => "EMISSING",
        EngineError::DeadlineExceeded => "EDEADLINE",
        EngineError::Closed(_) => "ECLOSED",
        _ => "EENGINE",
    };
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !message.contains(&cause_text) {
            message.push_str(": ");
            message.push_str(&cause_text);
        }
        source = cause.source();
    }
    napi::Error::new(napi::Status::GenericFailure, format!("{code}: {message}"))
}


/// Run one binding call with panics caught. A panic cannot unwind across the napi boundary: left
/// alone it aborts the process (every shard, every connection). Caught, it fails this call alone
/// with `EPANIC`, which the service answers as an internal error.
pub fn guarded<T>(call: impl FnOnce() -> napi::Result<T>) -> napi::Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|text| text.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            Err(napi::Error::new(napi::Status::GenericFailure, format!("EPANIC: the engine panicked: {message}")))
        }
    }
}

pub trait IntoJs<T> {
    fn into_js(self) -> napi::Result<T>;
}

impl<T> IntoJs<T> for evidence_engine::Result<T> {
    fn into_js(self) -> napi::Result<T> {
        self.map_err(to_js_error)
    }
}
