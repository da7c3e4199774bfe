//! Normalisation of reference codes before validation: codes are typed with the dots
//! and dashes of their printed form (NCM 0101.21.00, CNAE 0111-3/01) but stored as
//! digits, so searches and keys match whatever the user typed.

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::values::parse_date;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

pub fn digits_only(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// The CNAE section (letter) of a two-digit division (CNAE 2.x structure).
pub fn cnae_section(division: &str) -> Option<&'static str> {
    let d: u32 = division.parse().ok()?;
    Some(match d {
        1..=3 => "A",
        5..=9 => "B",
        10..=33 => "C",
        35 => "D",
        36..=39 => "E",
        41..=43 => "F",
        45..=47 => "G",
        49..=53 => "H",
        55..=56 => "I",
        58..=63 => "J",
        64..=66 => "K",
        68 => "L",
        69..=75 => "M",
        77..=82 => "N",
        84 => "O",
        85 => "P",
        86..=88 => "Q",
        90..=93 => "R",
        94..=96 => "S",
        97 => "T",
        99 => "U",
        _ => return None,
    })
}

#[derive(Clone, Copy)]
pub enum Rule {
    /// Only the digits are kept, and there must be exactly this many.
    Digits(&'static str, &'static str, usize),
    /// Upper case, spaces removed.
    Upper(&'static str),
    /// The second date may not come before the first (start, end, end's label).
    DateOrder(&'static str, &'static str, &'static str),
}

pub struct Normalize {
    pub rules: &'static [Rule],
    /// CNAE: fills section, division, group and class from the code.
    pub cnae: bool,
}

fn text(body: &Map<String, Value>, field: &str) -> Option<String> {
    match body.get(field)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `{label}: informe {n} dígitos.` for a code with the wrong number of digits.
pub fn digits_message(label: &str, n: usize) -> String {
    format!("{label}: informe {n} dígitos.")
}

#[async_trait]
impl Hooks for Normalize {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        for rule in self.rules {
            match *rule {
                Rule::Digits(field, label, n) => {
                    let Some(raw) = text(body, field) else {
                        continue;
                    };
                    if raw.trim().is_empty() {
                        continue;
                    }
                    let d = digits_only(&raw);
                    if d.len() != n {
                        return Err(Error::validation(digits_message(label, n)));
                    }
                    body.insert(field.into(), Value::from(d));
                }
                Rule::Upper(field) => {
                    if let Some(raw) = text(body, field) {
                        let up: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
                        body.insert(field.into(), Value::from(up.to_uppercase()));
                    }
                }
                Rule::DateOrder(start, end, label) => {
                    let date = |f: &str| {
                        text(body, f)
                            .filter(|s| !s.trim().is_empty())
                            .and_then(|s| parse_date(&s).ok())
                    };
                    if let (Some(a), Some(b)) = (date(start), date(end)) {
                        if b < a {
                            return Err(Error::validation(format!(
                                "{label} deve ser igual ou posterior à data de início."
                            )));
                        }
                    }
                }
            }
        }
        if self.cnae {
            // Derived from the code only: a body never sets them on its own.
            for f in ["CNAE_SECAO", "CNAE_DIVISAO", "CNAE_GRUPO", "CNAE_CLASSE"] {
                body.remove(f);
            }
            if let Some(code) = text(body, "CNAE_CODIGO").filter(|c| c.len() == 7) {
                body.insert("CNAE_DIVISAO".into(), Value::from(&code[..2]));
                body.insert("CNAE_GRUPO".into(), Value::from(&code[..3]));
                body.insert("CNAE_CLASSE".into(), Value::from(&code[..5]));
                body.insert(
                    "CNAE_SECAO".into(),
                    cnae_section(&code[..2])
                        .map(Value::from)
                        .unwrap_or(Value::Null),
                );
            }
        }
        Ok(())
    }
}
