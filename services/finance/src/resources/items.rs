//! The lists of a call's body whose elements are an id alone or an object that
//! names it (`TITULOS: [12, {"ID": 13, "VALOR": "10.00"}]`): each element is read
//! as leniently as the rest of the body (an id as a number or numeric text), and
//! a refused value of an object is answered with the message of its field
//! ('Valor aceita no máximo 2 casas decimais.').

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use erp_platform::resource::call::input::Problem;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// An element of such a list: the id alone, or the object.
#[derive(Clone, Debug, PartialEq)]
pub enum IdOr<T> {
    Id(i64),
    Fields(T),
}

/// The key under which an exact JSON number reaches a map visitor (serde_json's
/// arbitrary precision, which the engine's body reader keeps).
const NUMBER: &str = "$serde_json::private::Number";

impl<'de, T: Deserialize<'de>> Deserialize<'de> for IdOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Element(PhantomData))
    }
}

struct Element<T>(PhantomData<fn() -> T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Element<T> {
    type Value = IdOr<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an id or an object")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IdOr<T>, E> {
        Ok(IdOr::Id(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IdOr<T>, E> {
        i64::try_from(v)
            .map(IdOr::Id)
            .map_err(|_| Problem::Invalid.error())
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IdOr<T>, E> {
        v.trim()
            .parse()
            .map(IdOr::Id)
            .map_err(|_| Problem::Invalid.error())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IdOr<T>, A::Error> {
        let first: Option<String> = map.next_key()?;
        if first.as_deref() == Some(NUMBER) {
            let digits: String = map.next_value()?;
            return digits
                .parse()
                .map(IdOr::Id)
                .map_err(|_| Problem::Invalid.error());
        }
        T::deserialize(MapAccessDeserializer::new(Rest { first, map })).map(IdOr::Fields)
    }
}

/// The object's entries with its first key, already read, given back first (the
/// values are still read through the body's own reader, so a refusal names its
/// field).
struct Rest<A> {
    first: Option<String>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(k) => seed.deserialize(k.into_deserializer()).map(Some),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// The object's schema first: a refused field of an element is named by the
/// object's field titles.
impl<T: JsonSchema> JsonSchema for IdOr<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("IdOr_{}", T::schema_name()).into()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [gen.subschema_for::<T>(), {"type": "integer", "format": "int64"}]})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use erp_platform::resource::call::Money;
    use serde_json::json;
    use std::collections::HashMap;

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    struct Item {
        #[serde(rename = "ID", default)]
        id: Option<i64>,
        #[serde(rename = "VALOR", default)]
        #[schemars(title = "Valor")]
        value: Option<Money>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Body {
        #[serde(rename = "TITULOS", default)]
        titles: Vec<IdOr<Item>>,
    }

    fn parse(v: serde_json::Value) -> Result<Body, String> {
        let schema = serde_json::to_value(
            erp_platform::resource::call::schema_generator().into_root_schema_for::<Body>(),
        )
        .unwrap_or_default();
        erp_platform::resource::call::input::parse(&HashMap::new(), &v, &schema)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn ids_and_objects_read_leniently_with_their_fields_messages() {
        let b = parse(json!({"TITULOS": [12, "13", {"VALOR": "1,50", "ID": "14"}, {}]}))
            .expect("reads");
        assert_eq!(b.titles.len(), 4);
        assert_eq!(b.titles[0], IdOr::Id(12));
        assert_eq!(b.titles[1], IdOr::Id(13));
        assert!(
            matches!(&b.titles[2], IdOr::Fields(Item { id: Some(14), value: Some(m) }) if m.0.to_string() == "1.50")
        );
        assert_eq!(b.titles[3], IdOr::Fields(Item { id: None, value: None }));
        assert_eq!(
            parse(json!({"TITULOS": [{"ID": 1, "VALOR": "1,005"}]}))
                .err()
                .as_deref(),
            Some("Valor aceita no máximo 2 casas decimais.")
        );
        assert_eq!(
            parse(json!({"TITULOS": [{"VALOR": "-1"}]}))
                .err()
                .as_deref(),
            Some("Valor não pode ser negativo.")
        );
        assert!(parse(json!({"TITULOS": ["x"]})).is_err());
    }
}
