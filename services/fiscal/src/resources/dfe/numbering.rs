//! The next number of a document's series (`fiscal.numeracao`, by model:
//! 55 NF-e, 57 CT-e, 58 MDF-e). An emission takes it with the numbering row
//! locked until the row holding the number is committed: concurrent
//! emissions get consecutive numbers, none twice, none lost.

use chrono::{DateTime, FixedOffset};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};

use super::emission::{now_brt, referencia};
use super::Doc;

/// Where the number comes from and who the request is (its `referencia`).
#[derive(Debug, Clone)]
pub struct Numbering {
    pub serie: i32,
    pub numero: i64,
    pub referencia: String,
    pub dh_emi: DateTime<FixedOffset>,
}

/// The number row `doc` is sent with: its own (a rejected document goes
/// again with it), else the next of `model` ([`take`]); and its new attempt,
/// whose `referencia` (`tag`: `cte`) names the request at the provider.
#[allow(clippy::too_many_arguments)]
pub async fn for_emission(
    tx: &mut Tx,
    doc: &Doc,
    tag: &str,
    client: i64,
    emp: i64,
    model: &str,
    serie: Option<i32>,
    missing: &str,
) -> Result<(Numbering, i32)> {
    let (serie, numero) = match (doc.serie, doc.numero) {
        (Some(s), Some(n)) => (s, n),
        _ => take(tx, client, emp, model, serie, missing).await?,
    };
    let attempt = doc.tentativa + 1;
    let n = Numbering {
        serie,
        numero,
        referencia: referencia(tag, client, emp, doc.id, attempt),
        dh_emi: now_brt(),
    };
    Ok((n, attempt))
}

/// The numbering row (id, series, next number) of document model `model`:
/// series `serie`, else the company's first active one of the model; locked
/// when `lock`.
pub async fn of_model(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    model: &str,
    serie: Option<i32>,
    lock: bool,
) -> Result<Option<(i64, i32, i64)>> {
    let sql = format!(
        "SELECT num_id, num_serie, num_proximo FROM fiscal.numeracao
         WHERE client_id = $1 AND num_emp_id = $2 AND num_modelo = $4 AND num_situacao = 1
           AND ($3::int IS NULL OR num_serie = $3)
         ORDER BY num_serie LIMIT 1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    Ok(sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(serie)
        .bind(model)
        .fetch_optional(&mut **tx)
        .await?)
}

/// The series and number the next emission of `model` would take, unlocked;
/// `missing` when the company has no numbering of it.
pub async fn peek(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    model: &str,
    serie: Option<i32>,
    missing: &str,
) -> Result<(i32, i64)> {
    let (_, s, next) = of_model(tx, client, emp, model, serie, false)
        .await?
        .ok_or_else(|| Error::validation(missing))?;
    Ok((s, next))
}

/// Takes the next number of `model`: the numbering row stays locked until
/// `tx` ends (the caller commits the row holding the number in it).
pub async fn take(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    model: &str,
    serie: Option<i32>,
    missing: &str,
) -> Result<(i32, i64)> {
    let (num_id, s, next) = of_model(tx, client, emp, model, serie, true)
        .await?
        .ok_or_else(|| Error::validation(missing))?;
    sqlx::query(
        "UPDATE fiscal.numeracao SET num_proximo = num_proximo + 1
         WHERE client_id = $1 AND num_emp_id = $2 AND num_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(num_id)
    .execute(&mut **tx)
    .await?;
    Ok((s, next))
}

/// The company's series of a document type in its fiscal settings
/// (`emps_cte_serie`, `emps_mdfe_serie`...), if set.
pub async fn settings_serie(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    column: &str,
) -> Result<Option<i32>> {
    Ok(sqlx::query_scalar(&format!(
        "SELECT {column} FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2"
    ))
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .flatten())
}
