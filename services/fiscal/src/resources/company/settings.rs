//! Reading and saving a company's fiscal settings: the hooks that seal the
//! secrets and stamp the user, `GET /empresasservicos/filtro/{emp}` and
//! `PUT /empresasservicos/{emp}`.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{NaiveDate, Utc};
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::body_map;
use erp_platform::resource::{query, ActionHandler, Call, Hooks, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use super::{company, place, Ctx, SECRETS};

/// Longest secret the provider takes (its `maxLength`).
const SECRET_MAX: usize = 255;

/// Seals the secrets a body carries and stamps the user who saved.
pub(super) struct SettingsHooks(pub Arc<Ctx>);

#[async_trait]
impl Hooks for SettingsHooks {
    async fn prepare(
        &self,
        _tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        if caller.user_id > 0 {
            body.insert("EMPS_USR_ID".into(), Value::from(caller.user_id));
        }
        let emp = erp_platform::resource::params::company(emp)?;
        for field in SECRETS {
            let Some(Value::String(plain)) = body.get(field) else {
                continue;
            };
            let plain = plain.trim();
            if plain.is_empty() {
                continue;
            }
            if plain.chars().count() > SECRET_MAX {
                return Err(Error::validation(format!(
                    "{}: no máximo {SECRET_MAX} caracteres.",
                    secret_label(field)
                )));
            }
            let sealed = self
                .0
                .sealer
                .seal_text(plain, &place(caller.client_id, emp, field))?;
            body.insert(field.into(), Value::from(sealed));
        }
        Ok(())
    }
}

fn secret_label(field: &str) -> &'static str {
    match field {
        "EMPS_NFCE_CSC" => "CSC",
        "EMPS_NFSE_SENHA" => "Senha da Prefeitura",
        _ => "Token da Prefeitura",
    }
}

/// The company's settings row, if it has one.
pub(super) async fn load(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
) -> Result<Option<Value>> {
    match query::get(tx, res, caller, Some(emp), &[emp.to_string()]).await {
        Ok(row) => Ok(Some(row)),
        Err(Error::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The stored (sealed) secrets, opened: CSC, NFS-e password, NFS-e token.
pub(super) async fn secrets(
    tx: &mut Tx,
    ctx: &Ctx,
    client: i64,
    emp: i64,
) -> Result<[Option<String>; 3]> {
    let row: Option<(Option<String>, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT emps_nfce_csc, emps_nfse_senha, emps_nfse_token FROM fiscal.empresas_servicos
         WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    let (csc, senha, token) = row.unwrap_or_default();
    let mut out = [None, None, None];
    for (i, (sealed, field)) in [csc, senha, token].into_iter().zip(SECRETS).enumerate() {
        if let Some(s) = sealed.filter(|s| !s.is_empty()) {
            out[i] = Some(ctx.sealer.open_text(&s, &place(client, emp, field))?);
        }
    }
    Ok(out)
}

/// The row as the screen shows it: with `EMPS_CERT_VENCIDO` as of today and
/// `EMPS_CERT_SITUACAO`, the certificate's state in words.
pub(super) fn shown(mut row: Value) -> Value {
    let today = crate::certificate::brasilia_date(Utc::now());
    let until = row
        .get("EMPS_CERT_VALIDADE")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok());
    if let (Some(until), Value::Object(m)) = (until, &mut row) {
        m.insert("EMPS_CERT_VENCIDO".into(), Value::from(until < today));
        m.insert(
            "EMPS_CERT_SITUACAO".into(),
            Value::from(situation(until, today)),
        );
    }
    row
}

/// 'Válido até 01/05/2027', 'Vence em 12 dias (01/05/2027)', 'Vencido em ...'.
pub(super) fn situation(until: NaiveDate, today: NaiveDate) -> String {
    let date = until.format("%d/%m/%Y");
    let days = (until - today).num_days();
    match days {
        d if d < 0 => format!("Vencido em {date}"),
        0 => format!("Vence hoje ({date})"),
        1 => format!("Vence amanhã ({date})"),
        d if d <= 30 => format!("Vence em {d} dias ({date})"),
        _ => format!("Válido até {date}"),
    }
}

/// `GET /empresasservicos/filtro/{emp}`: the company's row, or none.
pub(super) struct Filter;

#[async_trait]
impl ActionHandler for Filter {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp, call.params)?;
        let mut rows: Vec<Value> = load(tx, call.res, call.caller, emp)
            .await?
            .map(shown)
            .into_iter()
            .collect();
        query::decorate(call.res, &mut rows);
        Ok(Value::Array(rows))
    }
}

/// Creates the row or changes it, with the engine's rules.
pub(super) async fn save(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    body: &Map<String, Value>,
) -> Result<Value> {
    match load(tx, res, caller, emp).await? {
        Some(_) => query::update(tx, res, caller, Some(emp), &[emp.to_string()], body).await,
        None => query::create(tx, res, caller, Some(emp), body).await,
    }
}

/// `PUT /empresasservicos/{emp}`: saves, creating the row when there is none
/// (the screen saves one row per company).
pub(super) struct Save;

#[async_trait]
impl ActionHandler for Save {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp, call.params)?;
        let row = save(tx, call.res, call.caller, emp, &body_map(call.body)).await?;
        Ok(shown(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_certificate_state_reads_plainly() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default();
        let today = d("2026-05-01");
        assert_eq!(situation(d("2026-04-30"), today), "Vencido em 30/04/2026");
        assert_eq!(situation(d("2026-05-01"), today), "Vence hoje (01/05/2026)");
        assert_eq!(
            situation(d("2026-05-13"), today),
            "Vence em 12 dias (13/05/2026)"
        );
        assert_eq!(situation(d("2027-05-01"), today), "Válido até 01/05/2027");
    }
}
