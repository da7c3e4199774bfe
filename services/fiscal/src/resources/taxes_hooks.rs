//! Rules of the fiscal registers beyond single fields: CFOPs are stored as digits
//! and must fit the operation (an exit inside the state is 5xxx, to another state
//! 6xxx, abroad 7xxx; entries 1, 2, 3), a tax rule has a CST or a CSOSN, and a
//! numbering gets a description from its model and series.

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use super::codes::model_name;

fn text(body: &Map<String, Value>, f: &str) -> Option<String> {
    match body.get(f)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn blank(body: &Map<String, Value>, f: &str) -> bool {
    text(body, f).is_none_or(|s| s.is_empty())
}

/// Keeps only the digits of a CFOP typed as `5.102`; refuses anything that is not
/// four digits starting with 1 to 7.
fn normalise_cfop(
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

pub struct TaxRuleHooks;

#[async_trait]
impl Hooks for TaxRuleHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        normalise_cfop(body, "TICM_CFOP", "CFOP")?;
        // On an update only a body that names both and clears both is refused; the
        // table's check covers the rest.
        let names_both =
            op == Op::Create || (body.contains_key("TICM_CST") && body.contains_key("TICM_CSOSN"));
        if names_both && blank(body, "TICM_CST") && blank(body, "TICM_CSOSN") {
            return Err(Error::validation("Informe o CST ou o CSOSN."));
        }
        Ok(())
    }
}

pub struct NatureHooks;

#[async_trait]
impl Hooks for NatureHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let kind = text(body, "NATO_TIPO").map(|s| s.to_ascii_uppercase());
        for (field, label, offset) in [
            ("NATO_CFOP_ESTADUAL", "CFOP Dentro do Estado", 0u8),
            ("NATO_CFOP_INTERESTADUAL", "CFOP Fora do Estado", 1),
            ("NATO_CFOP_EXTERIOR", "CFOP Exterior", 2),
        ] {
            let Some(cfop) = normalise_cfop(body, field, label)? else {
                continue;
            };
            let base = match kind.as_deref() {
                Some("E") => b'1',
                Some("S") => b'5',
                _ => continue,
            };
            let expected = base + offset;
            if cfop.as_bytes()[0] != expected {
                let op = if base == b'1' { "Entrada" } else { "Saída" };
                return Err(Error::validation(format!(
                    "{label}: para {op} o CFOP deve começar com {}.",
                    char::from(expected)
                )));
            }
        }
        Ok(())
    }
}

pub struct NumberingHooks;

#[async_trait]
impl Hooks for NumberingHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if !blank(body, "NUM_DESCRICAO") {
            return Ok(());
        }
        if op == Op::Create {
            let model = text(body, "NUM_MODELO").unwrap_or_default();
            if let (Some(name), Some(serie)) = (model_name(&model), text(body, "NUM_SERIE")) {
                body.insert(
                    "NUM_DESCRICAO".into(),
                    Value::from(format!("{name} série {serie}")),
                );
            }
        } else {
            // A description cleared on an edit form keeps the stored one.
            body.remove("NUM_DESCRICAO");
        }
        Ok(())
    }
}
