//! The texts of a request's fields as the registers keep them (optional,
//! typed by people): blank is none, a required one is a pt-BR message naming
//! where to fill it, IE and codes are digits, lengths are the layout's.

use erp_platform::{Error, Result};

/// The trimmed text, `None` when absent or blank.
pub fn blank(v: &Option<String>) -> Option<String> {
    v.as_ref()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The trimmed text, else `message` (400).
pub fn need(v: &Option<String>, message: &str) -> Result<String> {
    blank(v).ok_or_else(|| Error::validation(message))
}

/// At most `n` characters.
pub fn cut(s: String, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The digits of the text, `None` when it has none.
pub fn digits(v: &Option<String>) -> Option<String> {
    blank(v)
        .map(|s| s.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|s| !s.is_empty())
}

/// A state registration: `ISENTO` (any case), else its digits.
pub fn ie_of(v: &Option<String>) -> Option<String> {
    let raw = blank(v)?;
    if raw.eq_ignore_ascii_case("ISENTO") {
        return Some("ISENTO".into());
    }
    digits(&Some(raw))
}
