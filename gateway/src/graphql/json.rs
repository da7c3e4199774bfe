//! The `JSON` scalar for register rows. Rows hold exact decimals (serde_json's
//! arbitrary precision), which async-graphql's generic serializer would turn into
//! objects; this scalar converts value by value, keeping numbers as numbers.

use async_graphql::{InputValueResult, Name, Scalar, ScalarType, Value as GqlValue};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(transparent)]
pub struct Json(pub Value);

fn to_gql(v: &Value) -> GqlValue {
    match v {
        Value::Null => GqlValue::Null,
        Value::Bool(b) => GqlValue::Boolean(*b),
        Value::Number(n) => GqlValue::Number(n.clone()),
        Value::String(s) => GqlValue::String(s.clone()),
        Value::Array(a) => GqlValue::List(a.iter().map(to_gql).collect()),
        Value::Object(m) => {
            GqlValue::Object(m.iter().map(|(k, v)| (Name::new(k), to_gql(v))).collect())
        }
    }
}

fn from_gql(v: GqlValue) -> Value {
    match v {
        GqlValue::Null => Value::Null,
        GqlValue::Boolean(b) => Value::Bool(b),
        GqlValue::Number(n) => Value::Number(n),
        GqlValue::String(s) => Value::String(s),
        GqlValue::Enum(e) => Value::String(e.to_string()),
        GqlValue::Binary(b) => Value::String(String::from_utf8_lossy(&b).into_owned()),
        GqlValue::List(l) => Value::Array(l.into_iter().map(from_gql).collect()),
        GqlValue::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.to_string(), from_gql(v)))
                .collect(),
        ),
    }
}

#[Scalar(name = "JSON")]
impl ScalarType for Json {
    fn parse(value: GqlValue) -> InputValueResult<Self> {
        Ok(Json(from_gql(value)))
    }

    fn to_value(&self) -> GqlValue {
        to_gql(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_decimals_stay_numbers() {
        let v: Value = serde_json::from_str(r#"{"EMP_ID": 1, "VLR": 1234.56, "X": [0.1]}"#)
            .unwrap_or_default();
        let out = serde_json::to_string(&Json(v).to_value()).unwrap_or_default();
        assert_eq!(out, r#"{"EMP_ID":1,"VLR":1234.56,"X":[0.1]}"#);
    }
}
