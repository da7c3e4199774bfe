//! Money as a Brazilian reads it in a message (`R$ 1.234,56`), and decimal columns
//! read straight from SQL into an answer's struct, written as the typed calls write
//! them (`Dec`: a JSON number, normalized; `Money`: a JSON number with two places),
//! with `#[serde(serialize_with = "…")]` beside `#[schemars(with = "Dec")]`.

use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Money;
use erp_platform::resource::document::arithmetic::money;
use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

/// A decimal as `Dec` writes it (a JSON number, normalized).
pub fn dec_out<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
    decimal_out(d, s)
}

/// An optional decimal as `Option<Dec>` writes it.
pub fn opt_dec_out<S: Serializer>(d: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => decimal_out(d, s),
        None => s.serialize_none(),
    }
}

/// An amount as `Money` writes it (a JSON number with two places).
pub fn money_out<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
    Money(*d).serialize(s)
}

/// An optional amount as `Option<Money>` writes it.
pub fn opt_money_out<S: Serializer>(d: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => Money(*d).serialize(s),
        None => s.serialize_none(),
    }
}

/// `R$ 1.234,56` (two places, rounded like every amount of a document; a negative
/// amount reads `-R$ 200,00`).
pub fn brl(d: Decimal) -> String {
    let d = money(d);
    let text = format!("{:.2}", d.abs());
    let (int, cents) = text.split_once('.').unwrap_or((text.as_str(), "00"));
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    let sign = if d < Decimal::ZERO { "-" } else { "" };
    format!("{sign}R$ {grouped},{cents}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn amounts_read_as_in_brazil() {
        let b = |s: &str| brl(Decimal::from_str(s).expect("decimal"));
        assert_eq!(b("0"), "R$ 0,00");
        assert_eq!(b("0.005"), "R$ 0,01");
        assert_eq!(b("200"), "R$ 200,00");
        assert_eq!(b("1000"), "R$ 1.000,00");
        assert_eq!(b("1234.5"), "R$ 1.234,50");
        assert_eq!(b("1234567.891"), "R$ 1.234.567,89");
        assert_eq!(b("-200"), "-R$ 200,00");
        assert_eq!(b("-1000.1"), "-R$ 1.000,10");
    }
}
