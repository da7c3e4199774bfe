//! Value types of declared calls' inputs and outputs, each with its JSON Schema and
//! its pt-BR refusal: exact decimals ([`Dec`], [`Money`]), API dates ([`Date`]), the
//! stored file of an upload ([`Upload`]), a file to answer ([`File`], or
//! [`Answer`] when a call answers data or a file by its input), and a register's
//! row as the engine wrote it ([`Row`]).

use std::borrow::Cow;
use std::str::FromStr;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::input::Problem;
use crate::resource::values::{parse_date, parse_decimal};

/// An exact decimal: read from a JSON number (all its digits) or a numeric text
/// (`1234.56` or pt-BR `1.234,56`), written as a JSON number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dec(pub Decimal);

impl Dec {
    pub fn get(self) -> Decimal {
        self.0
    }
}

impl From<Decimal> for Dec {
    fn from(d: Decimal) -> Self {
        Dec(d)
    }
}

impl From<Dec> for Decimal {
    fn from(d: Dec) -> Self {
        d.0
    }
}

fn decimal_in<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
    // Through `Value`: a number keeps its digits (arbitrary precision).
    let v = Value::deserialize(d)?;
    parse_decimal(&v).ok_or_else(|| Problem::Invalid.error())
}

/// A decimal as a JSON number (normalized: `10.5`, not `10.50`).
pub fn decimal_out<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
    match serde_json::Number::from_str(&d.normalize().to_string()) {
        Ok(n) => n.serialize(s),
        Err(_) => s.serialize_none(),
    }
}

impl<'de> Deserialize<'de> for Dec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        decimal_in(d).map(Dec)
    }
}

impl Serialize for Dec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        decimal_out(&self.0, s)
    }
}

/// A decimal in a call's schema: a JSON number, or its exact text (what a client
/// that keeps money out of floating point sends; answers are always numbers).
fn decimal_schema(extra: Value) -> Schema {
    let mut number = json_schema!({"type": "number"});
    if let Value::Object(m) = extra {
        for (k, v) in m {
            number.insert(k, v);
        }
    }
    json_schema!({"anyOf": [
        number,
        {"type": "string", "pattern": "^-?[0-9]+([.][0-9]+)?$"}
    ]})
}

impl JsonSchema for Dec {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Decimal".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        decimal_schema(serde_json::json!({}))
    }
}

/// Money as a call takes it: an exact decimal, not negative, at most 2 places
/// ('Juros não pode ser negativo.', 'Valor aceita no máximo 2 casas decimais.',
/// with the field's title).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(pub Decimal);

impl Money {
    pub fn get(self) -> Decimal {
        self.0
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = decimal_in(d)?;
        if v < Decimal::ZERO {
            return Err(Problem::Negative.error());
        }
        if v.normalize().scale() > 2 {
            return Err(Problem::Scale(2).error());
        }
        Ok(Money(v))
    }
}

/// Money is written with its two places (`200.00`), as the legacy answers do.
impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut d = self.0.round_dp(2);
        d.rescale(2);
        match serde_json::Number::from_str(&d.to_string()) {
            Ok(n) => n.serialize(s),
            Err(_) => s.serialize_none(),
        }
    }
}

impl JsonSchema for Money {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Money".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        decimal_schema(serde_json::json!({"minimum": 0, "multipleOf": 0.01}))
    }
}

/// A date as the API writes it (`yyyy-MM-dd`; an ISO timestamp keeps its date and
/// `dd/MM/yyyy` is read from old clients).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub NaiveDate);

impl Date {
    pub fn get(self) -> NaiveDate {
        self.0
    }
}

impl From<NaiveDate> for Date {
    fn from(d: NaiveDate) -> Self {
        Date(d)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        parse_date(&s)
            .map(Date)
            .map_err(|e| Problem::Says(e.to_string()).error())
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0.format("%Y-%m-%d"))
    }
}

impl JsonSchema for Date {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Date".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "format": "date"})
    }
}

/// The file part of an upload call as the gateway stored it: the server-made
/// name, the name it had on the user's machine, its size and where it is served.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Upload {
    /// The stored name (made by the server).
    pub nome: String,
    pub original: Option<String>,
    pub tamanho: Option<i64>,
    pub url: Option<String>,
}

/// A file part of a form call (`Resource::form_call`), whole: the name it had on
/// the user's machine, the content type the browser declared (a claim, not a
/// fact: the owning service checks the bytes) and its bytes, which travel in the
/// body as base64 (`conteudo`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct FormFile {
    pub nome: String,
    #[serde(default)]
    pub tipo: Option<String>,
    #[serde(with = "base64_bytes")]
    #[schemars(with = "String")]
    pub conteudo: Vec<u8>,
}

impl FormFile {
    pub fn new(nome: &str, tipo: Option<&str>, conteudo: Vec<u8>) -> FormFile {
        FormFile { nome: nome.into(), tipo: tipo.map(String::from), conteudo }
    }
}

mod base64_bytes {
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Problem;

    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(b))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|_| Problem::Invalid.error())
    }
}

/// A file a call answers (a PDF, an XML, a spreadsheet): the gateway sends its
/// bytes with `Content-Type` and `Content-Disposition: inline; filename="…"`.
#[derive(Clone, Debug)]
pub struct File {
    pub content_type: String,
    pub name: String,
    pub bytes: Vec<u8>,
}

impl File {
    pub fn new(content_type: &str, name: &str, bytes: Vec<u8>) -> File {
        File { content_type: content_type.into(), name: name.into(), bytes }
    }
}

/// What a call that answers by its input's format answers: the data, or a file.
#[derive(Clone, Debug)]
pub enum Answer<T> {
    Data(T),
    File(File),
}

/// A register's row as the engine wrote it (legacy column names). Its schema is
/// the row schema in openapi.json (`{register}.row`) of the register the call is
/// declared on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row(pub Value);

impl Row {
    /// The marker the openapi builder replaces by the register's row schema.
    pub const MARK: &'static str = "x-row";

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    pub fn into_value(self) -> Value {
        self.0
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(Row)
    }
}

impl JsonSchema for Row {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Row".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "x-row": true})
    }
}

/// A register named in a call's types (its rows' schema is `{NAME}.row`).
pub trait Register: Send + Sync + 'static {
    const NAME: &'static str;
}

/// A row of another register than the call's (a conversion answers the document
/// it created).
pub struct RowOf<R: Register>(pub Value, std::marker::PhantomData<fn() -> R>);

impl<R: Register> RowOf<R> {
    pub fn new(v: Value) -> Self {
        RowOf(v, std::marker::PhantomData)
    }
}

impl<R: Register> Serialize for RowOf<R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<R: Register> JsonSchema for RowOf<R> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("RowOf_{}", R::NAME).into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "x-row": R::NAME})
    }
}

/// The input of a call that takes nothing but its path (its company, the legacy
/// screen's parameters it answers the same whatever they are).
#[derive(Clone, Copy, Debug, Default, Deserialize, JsonSchema)]
pub struct Nothing {}

/// The legacy `{code, msg}` answer of a call that did something and has nothing
/// else to say.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Done {
    pub code: u16,
    pub msg: String,
}

impl Done {
    pub fn ok(msg: impl Into<String>) -> Done {
        Done { code: 200, msg: msg.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decimals_keep_every_digit_both_ways() {
        let d: Dec = serde_json::from_str("12345678901234567.89").expect("number");
        assert_eq!(d.0.to_string(), "12345678901234567.89");
        let d: Dec = serde_json::from_value(json!("1.234,56")).expect("pt-BR text");
        assert_eq!(d.0.to_string(), "1234.56");
        assert_eq!(
            serde_json::to_string(&Dec(Decimal::new(1050, 2))).expect("writes"),
            "10.5"
        );
        assert!(serde_json::from_value::<Dec>(json!("dez")).is_err());
    }

    #[test]
    fn money_refuses_negatives_and_fractions_of_a_cent() {
        assert!(serde_json::from_value::<Money>(json!(10.25)).is_ok());
        let e = serde_json::from_value::<Money>(json!(-1))
            .err()
            .map(|e| e.to_string());
        assert_eq!(e, Some(Problem::Negative.text()));
        let e = serde_json::from_value::<Money>(json!("1.001"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(e, Some(Problem::Scale(2).text()));
        let m = Money(Decimal::new(2, 0));
        assert_eq!(serde_json::to_string(&m).ok().as_deref(), Some("2.00"));
    }

    #[test]
    fn form_files_travel_as_base64() {
        let f = FormFile::new("nota.pdf", Some("application/pdf"), b"%PDF-1.7".to_vec());
        let v = serde_json::to_value(&f).expect("writes");
        assert_eq!(v["conteudo"], json!("JVBERi0xLjc="));
        let back: FormFile = serde_json::from_value(v).expect("reads");
        assert_eq!(back.conteudo, b"%PDF-1.7");
        assert!(
            serde_json::from_value::<FormFile>(json!({"nome": "x", "conteudo": "@@"})).is_err()
        );
    }

    #[test]
    fn dates_read_api_and_br_forms() {
        let d: Date = serde_json::from_value(json!("2026-12-07")).expect("api");
        assert_eq!(serde_json::to_value(d).ok(), Some(json!("2026-12-07")));
        let d: Date = serde_json::from_value(json!("07/12/2026")).expect("br");
        assert_eq!(d.0, NaiveDate::from_ymd_opt(2026, 12, 7).expect("date"));
        assert!(serde_json::from_value::<Date>(json!("2026-13-01")).is_err());
    }
}
