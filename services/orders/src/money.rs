//! Money as a Brazilian reads it in a message (`R$ 1.234,56`), and decimal columns
//! read straight from SQL into an answer's struct, written as the typed calls write
//! them (`Dec`: a JSON number, normalized; `Money`: a JSON number with two places),
//! with `#[serde(serialize_with = "…")]` beside `#[schemars(with = "Dec")]`.

use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Money;
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

pub use erp_platform::resource::document::arithmetic::brl;

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
