//! The one parse of a declared call's input: the path parameters and the JSON body
//! read together into the call's `In` type, leniently where the legacy clients are
//! (an integer sent as `"12"`, a flag as `"S"`, a blank for nothing), and every
//! failure answered in pt-BR, naming the field by the label its type declares.
//!
//! The path parameters come first and a body key of the same name cannot change
//! them. Values of the body are read through [`Lenient`], which accepts what the
//! old screens send and refuses the rest with a [`Problem`]; the error is turned
//! into a message by [`message`] from the problem, the field's place (path or
//! body) and the field's schema (its `title`, or its `x-invalid` / `x-missing`
//! message when the type declares one).

use std::collections::HashMap;
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};
use serde_json::{Map, Value};

use crate::{Error, Result};

/// Why a value was refused, carried through serde's error text (serde errors are
/// strings): a marker, a code and an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not a value of the field's type.
    Invalid,
    /// A money or quantity below zero.
    Negative,
    /// More decimal places than the field takes.
    Scale(u32),
    /// A message of its own, sent as it is ('Data inválida').
    Says(String),
}

const MARK: char = '\u{1}';

impl Problem {
    /// The text serde carries; [`Problem::of`] reads it back.
    pub fn text(&self) -> String {
        match self {
            Problem::Invalid => format!("{MARK}invalid"),
            Problem::Negative => format!("{MARK}negative"),
            Problem::Scale(n) => format!("{MARK}scale:{n}"),
            Problem::Says(s) => format!("{MARK}says:{s}"),
        }
    }

    pub fn error<E: de::Error>(&self) -> E {
        E::custom(self.text())
    }

    /// The problem a serde error text carries: ours, a missing field, or any other
    /// refusal of serde's (a wrong type, an unknown variant), which is invalid.
    fn of(text: &str) -> Parsed {
        if let Some(rest) = text.strip_prefix(MARK) {
            return Parsed::Problem(match rest.split_once(':') {
                Some(("scale", n)) => Problem::Scale(n.parse().unwrap_or(2)),
                Some(("says", s)) => Problem::Says(s.to_string()),
                _ if rest == "negative" => Problem::Negative,
                _ => Problem::Invalid,
            });
        }
        if let Some(name) = text
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
        {
            return Parsed::Missing(name.to_string());
        }
        Parsed::Problem(Problem::Invalid)
    }
}

enum Parsed {
    Problem(Problem),
    Missing(String),
}

/// A serde error of the input deserializers.
#[derive(Debug)]
pub struct InputError(String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

impl de::Error for InputError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        InputError(msg.to_string())
    }
}

fn invalid() -> InputError {
    Problem::Invalid.error()
}

/// Reads `T` from the path parameters and the body (`{}` when empty); a body that
/// is not an object is refused.
pub fn parse<T: DeserializeOwned>(
    params: &HashMap<String, String>,
    body: &Value,
    schema: &Value,
) -> Result<T> {
    let empty = Map::new();
    let body = match body {
        Value::Object(m) => m,
        Value::Null => &empty,
        _ => {
            return Err(Error::validation(
                "O corpo da requisição deve ser um objeto JSON.",
            ))
        }
    };
    let input = Input { params, body };
    serde_path_to_error::deserialize(input).map_err(|e| {
        let path: Vec<Seg> = e.path().iter().map(Seg::of).collect();
        let inner = e.into_inner();
        Error::validation(message(&path, &inner.0, params, schema))
    })
}

/// A step of the path to the failing value.
#[derive(Clone, Debug, PartialEq)]
enum Seg {
    Key(String),
    Index,
}

impl Seg {
    fn of(s: &serde_path_to_error::Segment) -> Seg {
        match s {
            serde_path_to_error::Segment::Map { key } => Seg::Key(key.clone()),
            serde_path_to_error::Segment::Seq { .. } => Seg::Index,
            serde_path_to_error::Segment::Enum { variant } => Seg::Key(variant.clone()),
            serde_path_to_error::Segment::Unknown => Seg::Index,
        }
    }
}

/// The pt-BR message of a refused input.
fn message(path: &[Seg], text: &str, params: &HashMap<String, String>, schema: &Value) -> String {
    let parsed = Problem::of(text);
    // A missing field is reported at its parent: the path names the object.
    let (path, field) = match &parsed {
        Parsed::Missing(name) => {
            let mut p = path.to_vec();
            p.push(Seg::Key(name.clone()));
            (p, name.clone())
        }
        Parsed::Problem(_) => (
            path.to_vec(),
            path.iter()
                .rev()
                .find_map(|s| match s {
                    Seg::Key(k) => Some(k.clone()),
                    Seg::Index => None,
                })
                .unwrap_or_default(),
        ),
    };
    let top_param = path.len() == 1 && params.contains_key(&field);
    let prop = property(schema, &path);
    let says = |key: &str| {
        prop.and_then(|p| p.get(key))
            .and_then(Value::as_str)
            .map(String::from)
    };
    if top_param {
        return match parsed {
            Parsed::Missing(_) => format!("Parâmetro {field} não informado."),
            Parsed::Problem(Problem::Says(s)) => s,
            Parsed::Problem(_) => {
                says("x-invalid").unwrap_or(format!("Parâmetro {field} inválido."))
            }
        };
    }
    let label = prop
        .and_then(|p| p.get("title"))
        .and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_else(|| field.clone());
    match parsed {
        Parsed::Missing(_) if params.is_empty() || !params.contains_key(&field) => {
            says("x-missing").unwrap_or(format!("Informe {label}."))
        }
        Parsed::Missing(_) => format!("Parâmetro {field} não informado."),
        Parsed::Problem(Problem::Says(s)) => s,
        Parsed::Problem(Problem::Negative) => format!("{label} não pode ser negativo."),
        Parsed::Problem(Problem::Scale(n)) => {
            format!("{label} aceita no máximo {n} casas decimais.")
        }
        Parsed::Problem(Problem::Invalid) => {
            says("x-invalid").unwrap_or(format!("Valor inválido para {label}."))
        }
    }
}

/// The schema of the value at `path` (through `$ref`s, nullable wrappers and
/// arrays), if the schema says.
fn property<'a>(root: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    let defs = root
        .get("components")
        .and_then(|c| c.get("schemas"))
        .or_else(|| root.get("definitions"))
        .or_else(|| root.get("$defs"));
    let resolve = |mut s: &'a Value| -> &'a Value {
        for _ in 0..8 {
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                let name = r.rsplit('/').next().unwrap_or(r);
                match defs.and_then(|d| d.get(name)) {
                    Some(t) => s = t,
                    None => return s,
                }
            } else if let Some(alt) = s
                .get("anyOf")
                .or_else(|| s.get("allOf"))
                .or_else(|| s.get("oneOf"))
                .and_then(Value::as_array)
            {
                match alt
                    .iter()
                    .find(|a| a.get("type") != Some(&Value::from("null")))
                {
                    Some(a) => s = a,
                    None => return s,
                }
            } else {
                return s;
            }
        }
        s
    };
    let mut cur = root;
    for seg in path {
        let here = resolve(cur);
        cur = match seg {
            Seg::Key(k) => here.get("properties")?.get(k)?,
            Seg::Index => here.get("items")?,
        };
        // The property's own title/messages sit on it, not on what it refers to.
        if cur.get("title").is_none() && cur.get("x-invalid").is_none() {
            let r = resolve(cur);
            if r.get("title").is_some() || r.get("x-invalid").is_some() {
                cur = r;
            }
        }
    }
    Some(cur)
}

/// The path parameters and the body as one map.
struct Input<'a> {
    params: &'a HashMap<String, String>,
    body: &'a Map<String, Value>,
}

impl<'de> Deserializer<'de> for Input<'de> {
    type Error = InputError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        let params: Vec<(&'de str, &'de str)> = self
            .params
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let body: Vec<(&'de str, &'de Value)> = self
            .body
            .iter()
            .filter(|(k, _)| !self.params.contains_key(k.as_str()))
            .map(|(k, v)| (k.as_str(), v))
            .collect();
        visitor.visit_map(InputMap {
            params: params.into_iter(),
            body: body.into_iter(),
            next: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

enum Pending<'a> {
    Param(&'a str),
    Body(&'a Value),
}

struct InputMap<'a> {
    params: std::vec::IntoIter<(&'a str, &'a str)>,
    body: std::vec::IntoIter<(&'a str, &'a Value)>,
    next: Option<Pending<'a>>,
}

impl<'de> MapAccess<'de> for InputMap<'de> {
    type Error = InputError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, InputError> {
        if let Some((k, v)) = self.params.next() {
            self.next = Some(Pending::Param(v));
            return seed.deserialize(k.into_deserializer()).map(Some);
        }
        if let Some((k, v)) = self.body.next() {
            self.next = Some(Pending::Body(v));
            return seed.deserialize(k.into_deserializer()).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.next.take() {
            Some(Pending::Param(p)) => seed.deserialize(Param(p)),
            Some(Pending::Body(v)) => seed.deserialize(Lenient(v)),
            None => Err(<InputError as de::Error>::custom("value without a key")),
        }
    }
}

/// Is a text "nothing" (the old screens send 'undefined' and 'null' for it)?
fn blank(s: &str) -> bool {
    let s = s.trim();
    s.is_empty() || s == "undefined" || s == "null"
}

/// A flag as the legacy contract writes it: S/N, 1/0, true/false.
fn flag(s: &str) -> Option<bool> {
    match s.trim() {
        "S" | "s" | "1" | "true" | "TRUE" | "True" | "sim" | "Sim" => Some(true),
        "N" | "n" | "0" | "false" | "FALSE" | "False" | "nao" | "não" | "Não" => Some(false),
        _ => None,
    }
}

/// One path parameter: text that reads as the type asked.
struct Param<'a>(&'a str);

macro_rules! param_int {
    ($($m:ident $v:ident $t:ty),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> std::result::Result<V::Value, InputError> {
            visitor.$v(self.0.trim().parse::<$t>().map_err(|_| invalid())?)
        }
    )*};
}

impl<'de, 'a> Deserializer<'de> for Param<'a> {
    type Error = InputError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_str(self.0)
    }

    param_int!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32,
        deserialize_i64 visit_i64 i64, deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);

    fn deserialize_bool<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_bool(flag(self.0).ok_or_else(invalid)?)
    }

    fn deserialize_option<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        if blank(self.0) {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_enum(self.0.trim().into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// A body value read leniently: integers and decimals from numbers or numeric text,
/// text from text or numbers, flags from booleans or S/N, and null or a blank text
/// as nothing.
pub struct Lenient<'a>(pub &'a Value);

macro_rules! lenient_int {
    ($($m:ident $v:ident $t:ty),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> std::result::Result<V::Value, InputError> {
            let n: Option<$t> = match self.0 {
                Value::Number(n) => n.to_string().parse().ok(),
                Value::String(s) => s.trim().parse().ok(),
                _ => None,
            };
            visitor.$v(n.ok_or_else(invalid)?)
        }
    )*};
}

impl<'de> Deserializer<'de> for Lenient<'de> {
    type Error = InputError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::Array(a) => visitor.visit_seq(LenientSeq(a.iter())),
            Value::Object(m) => visitor.visit_map(LenientMap { iter: m.iter(), next: None }),
            Value::String(s) => visitor.visit_str(s),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Null => visitor.visit_unit(),
            // Integers arrive as integers; other numbers keep their exact digits
            // (arbitrary precision).
            Value::Number(n) if n.as_i64().is_some() => {
                visitor.visit_i64(n.as_i64().unwrap_or_default())
            }
            Value::Number(n) if n.as_u64().is_some() => {
                visitor.visit_u64(n.as_u64().unwrap_or_default())
            }
            v @ Value::Number(_) => v
                .deserialize_any(visitor)
                .map_err(|e| InputError(e.to_string())),
        }
    }

    lenient_int!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32,
        deserialize_i64 visit_i64 i64, deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);

    fn deserialize_bool<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        let b = match self.0 {
            Value::Bool(b) => Some(*b),
            Value::String(s) => flag(s),
            Value::Number(n) => match n.as_i64() {
                Some(1) => Some(true),
                Some(0) => Some(false),
                _ => None,
            },
            _ => None,
        };
        visitor.visit_bool(b.ok_or_else(invalid)?)
    }

    fn deserialize_str<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::String(s) => visitor.visit_str(s),
            Value::Number(n) => visitor.visit_string(n.to_string()),
            _ => Err(invalid()),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            Value::String(s) if blank(s) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            _ => Err(invalid()),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::Array(a) => visitor.visit_seq(LenientSeq(a.iter())),
            _ => Err(invalid()),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::Object(m) => visitor.visit_map(LenientMap { iter: m.iter(), next: None }),
            _ => Err(invalid()),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.trim().into_deserializer()),
            Value::Number(n) => visitor.visit_enum(n.to_string().into_deserializer()),
            v => v
                .deserialize_enum(name, variants, visitor)
                .map_err(|e| InputError(e.to_string())),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, InputError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i128 u128 f32 f64 char bytes byte_buf unit_struct tuple tuple_struct identifier
    }
}

struct LenientSeq<'a>(std::slice::Iter<'a, Value>);

impl<'de> SeqAccess<'de> for LenientSeq<'de> {
    type Error = InputError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> std::result::Result<Option<T::Value>, InputError> {
        match self.0.next() {
            Some(v) => seed.deserialize(Lenient(v)).map(Some),
            None => Ok(None),
        }
    }
}

struct LenientMap<'a> {
    iter: serde_json::map::Iter<'a>,
    next: Option<&'a Value>,
}

impl<'de> MapAccess<'de> for LenientMap<'de> {
    type Error = InputError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, InputError> {
        match self.iter.next() {
            Some((k, v)) => {
                self.next = Some(v);
                seed.deserialize(k.as_str().into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> std::result::Result<V::Value, InputError> {
        match self.next.take() {
            Some(v) => seed.deserialize(Lenient(v)),
            None => Err(<InputError as de::Error>::custom("value without a key")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug, PartialEq)]
    struct In {
        id: i64,
        #[serde(rename = "SERIE")]
        serie: String,
        #[serde(rename = "QTD", default)]
        qty: Option<i64>,
        #[serde(rename = "FLAG", default)]
        flag: bool,
        #[serde(rename = "ITENS", default)]
        items: Vec<Item>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Item {
        #[serde(rename = "ID")]
        id: i64,
    }

    fn params(p: &[(&str, &str)]) -> HashMap<String, String> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "id": {"type": "integer"},
            "SERIE": {"type": "string", "title": "Série"},
            "QTD": {"type": "integer", "title": "Quantidade"},
            "ITENS": {"type": "array", "items": {"$ref": "#/definitions/Item"}}},
            "definitions": {"Item": {"type": "object", "properties": {"ID": {"type": "integer", "title": "Título", "x-missing": "Informe o título a baixar."}}}}})
    }

    #[test]
    fn path_and_body_read_together_leniently() {
        let p = params(&[("id", " 12 "), ("SERIE", "1")]);
        let body = json!({"SERIE": "ignored: the path wins", "QTD": "7", "FLAG": "S", "ITENS": [{"ID": "3"}, 4.0]});
        // An element that is not an object is refused with the item's place.
        let e = parse::<In>(&p, &body, &schema())
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("Valor inválido para ITENS."));
        let body = json!({"QTD": "7", "FLAG": "S", "ITENS": [{"ID": "3"}]});
        let got: In = parse(&p, &body, &schema()).expect("parses");
        assert_eq!(
            got,
            In {
                id: 12,
                serie: "1".into(),
                qty: Some(7),
                flag: true,
                items: vec![Item { id: 3 }]
            }
        );
        let got: In = parse(&p, &json!({"QTD": " "}), &schema()).expect("blank is none");
        assert_eq!(got.qty, None);
    }

    #[test]
    fn each_refusal_has_its_pt_br_message() {
        let msg = |p: &[(&str, &str)], body: Value| {
            parse::<In>(&params(p), &body, &schema())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert_eq!(
            msg(&[("id", "x"), ("SERIE", "1")], json!({})),
            "Parâmetro id inválido."
        );
        assert_eq!(msg(&[("SERIE", "1")], json!({})), "Informe id.");
        assert_eq!(
            msg(&[("id", "1"), ("SERIE", "1")], json!({"QTD": "dez"})),
            "Valor inválido para Quantidade."
        );
        assert_eq!(
            msg(&[("id", "1"), ("SERIE", "1")], json!({"ITENS": [{"X": 1}]})),
            "Informe o título a baixar."
        );
        assert_eq!(msg(&[("id", "1")], json!({})), "Informe Série.");
        assert_eq!(
            msg(&[("id", "1"), ("SERIE", "1")], json!({"FLAG": "talvez"})),
            "Valor inválido para FLAG."
        );
        assert_eq!(
            parse::<In>(&params(&[]), &json!([1]), &schema())
                .err()
                .map(|e| e.to_string()),
            Some("O corpo da requisição deve ser um objeto JSON.".into())
        );
    }
}
