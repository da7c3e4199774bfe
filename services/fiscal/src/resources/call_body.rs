//! Reading a declared call's JSON body: numbers and texts typed as text or
//! sent as JSON numbers.

use serde_json::Value;

/// An integer of the body, sent as a number or as text.
pub(crate) fn body_int(body: &Value, key: &str) -> Option<i64> {
    match body.get(key)? {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

/// A text (or number) of the body, trimmed; `None` when absent or blank.
pub(crate) fn body_text(body: &Value, key: &str) -> Option<String> {
    match body.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}
