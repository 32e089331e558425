//! The one place engine errors become JS errors. The message keeps the engine's wording and
//! the cause chain, flattened; the code says which kind it was.

use std::error::Error as _;

use evidence_engine::EngineError;

pub fn to_js_error(error: EngineError) -> napi::Error {
    let code = match &error {
        EngineError::Locked(_) => "ELOCKED",
        EngineError::InvalidPassage { .. } => "EINVALID",
        EngineError::QuerySyntax(_) => "EQUERY",
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



pub trait IntoJs<T> {
    fn into_js(self) -> napi::Result<T>;
}

impl<T> IntoJs<T> for evidence_engine::Result<T> {
    fn into_js(self) -> napi::Result<T> {
        self.map_err(to_js_error)
    }
}
