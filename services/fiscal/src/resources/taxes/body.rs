//! Reading a hook's body: codes and numbers typed as text or sent as JSON numbers.

use serde_json::{Map, Value};

/// A text or number value of the body, trimmed; `None` when absent or of another
/// kind.
pub(crate) fn text(body: &Map<String, Value>, f: &str) -> Option<String> {
    match body.get(f)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

pub(crate) fn blank(body: &Map<String, Value>, f: &str) -> bool {
    text(body, f).is_none_or(|s| s.is_empty())
}
