//! CFOPs (Código Fiscal de Operações e Prestações): the field as typed (`5.102`)
//! and its stored form, four digits starting with 1 to 7.

use erp_platform::resource::Field;
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use super::body::text;

pub(crate) fn cfop(name: &str, label: &str) -> Field {
    Field::text(name, label).len(4).mask("#.###").width(3)
}

/// Keeps only the digits of a CFOP typed as `5.102`; refuses anything that is not
/// four digits starting with 1 to 7.
pub(crate) fn normalise_cfop(
    body: &mut Map<String, Value>,
    field: &str,
    label: &str,
) -> Result<Option<String>> {
    let Some(raw) = text(body, field).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
    let ok = digits.len() == 4 && matches!(digits.as_bytes()[0], b'1'..=b'7');
    if !ok {
        return Err(Error::validation(format!(
            "{label}: informe 4 dígitos iniciados por 1 a 7."
        )));
    }
    body.insert(field.into(), Value::from(digits.clone()));
    Ok(Some(digits))
}
