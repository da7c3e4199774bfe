//! `Decimal` as a JSON number (`1234.56`, not `"1234.56"`), for the `number`
//! properties of the Nuvem Fiscal API.
//!
//! The digits are written as the decimal holds them: the value goes from
//! `Decimal::to_string` into a `serde_json::Number`, which keeps the text
//! because the workspace builds serde_json with `arbitrary_precision`. Nothing
//! here converts through `f64` (`rust_decimal::serde::float` would), so a
//! `vUnCom` with ten decimal places or a total above 2^53 cents keeps every
//! digit (`tests/json.rs` fails if the workspace ever drops that feature).
//! Reading accepts a JSON number or a numeric string.
//!
//! Use: `use crate::nuvemfiscal::number as num;`, then
//! `#[serde(with = "num")]` on a `Decimal` and
//! `#[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]`
//! on an `Option<Decimal>`.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    to_number(value)
        .map_err(serde::ser::Error::custom)?
        .serialize(serializer)
}

pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
    NumberOrText::deserialize(deserializer)?
        .into_decimal()
        .map_err(serde::de::Error::custom)
}

/// The same for `Option<Decimal>` (use with `default` and
/// `skip_serializing_if = "Option::is_none"`).
pub mod opt {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => super::to_number(v)
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        Option::<super::NumberOrText>::deserialize(d)?
            .map(super::NumberOrText::into_decimal)
            .transpose()
            .map_err(serde::de::Error::custom)
    }
}

fn to_number(value: &Decimal) -> Result<serde_json::Number, String> {
    // The scale the caller chose stays: 10.00 is written 10.00.
    serde_json::Number::from_str(&value.to_string()).map_err(|e| format!("{value}: {e}"))
}

/// What the API sends for a `number`: a JSON number (read through
/// `serde_json::Value`, whose number keeps its text under
/// `arbitrary_precision`) or, leniently, a numeric string.
struct NumberOrText(serde_json::Value);

impl<'de> Deserialize<'de> for NumberOrText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(NumberOrText)
    }
}

impl NumberOrText {
    fn into_decimal(self) -> Result<Decimal, String> {
        let text = match self.0 {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(t) => t,
            other => return Err(format!("esperado um número, veio {other}")),
        };
        Decimal::from_str(&text)
            .or_else(|_| Decimal::from_scientific(&text))
            .map_err(|e| format!("número inválido '{text}': {e}"))
    }
}
