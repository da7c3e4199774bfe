//! What upload calls read from the body the gateway sends after storing a file
//! (its storage name comes from `erp_platform::resource::uploaded_file`).

use serde_json::Value;

/// The URL the gateway serves the stored file from, answered so the screen can
/// show it at once.
pub(crate) fn file_url(body: &Value) -> Value {
    body.get("arquivo")
        .and_then(|f| f.get("url"))
        .cloned()
        .unwrap_or(Value::Null)
}
