//! The CT-e rows as the emission and the calls write them: locking one, the
//! provider's id, the SEFAZ's answer (a rejection explained), the files, and
//! the answers of the calls (the register's row plus `msg`, `cStat`,
//! `xMotivo`, `explicacao`).

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::MISSING;
use crate::nuvemfiscal::types::{Dfe, DfeStatus};
use crate::rejections;

/// What the calls need of a row besides its JSON.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Doc {
    pub cte_id: i64,
    pub cte_emp_id: i64,
    pub cte_situacao: String,
    pub cte_ambiente: i32,
    pub cte_serie: Option<i32>,
    pub cte_numero: Option<i64>,
    pub cte_tentativa: i32,
    pub cte_referencia: Option<String>,
    pub cte_id_fiscal: Option<String>,
    pub cte_chave: Option<String>,
}

const DOC_COLS: &str =
    "cte_id, cte_emp_id, cte_situacao, cte_ambiente, cte_serie, cte_numero, cte_tentativa, \
    cte_referencia, cte_id_fiscal, cte_chave";

pub async fn by_id(tx: &mut Tx, client: i64, emp: i64, id: i64, lock: bool) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.cte WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(MISSING.into()))
}

/// The row of a provider id (the client's only), locked.
pub async fn by_fiscal_id(tx: &mut Tx, client: i64, fiscal_id: &str) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.cte WHERE client_id = $1 AND cte_id_fiscal = $2 FOR UPDATE"
    ))
    .bind(client)
    .bind(fiscal_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(MISSING.into()))
}

/// The register's row.
pub async fn row(tx: &mut Tx, res: &Resource, caller: &Caller, emp: i64, id: i64) -> Result<Value> {
    query::get(tx, res, caller, Some(emp), &[id.to_string()])
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(MISSING.into()),
            other => other,
        })
}

/// The provider took the emission: its id, before anything waits on it.
pub async fn sent(tx: &mut Tx, client: i64, emp: i64, id: i64, dfe: &Dfe) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.cte SET cte_id_fiscal = $4, cte_situacao = 'pendente', cte_chave = coalesce($5, cte_chave)
         WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(&dfe.id)
    .bind(dfe.chave.as_deref())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The emission never reached the SEFAZ.
pub async fn failed(tx: &mut Tx, client: i64, emp: i64, id: i64, message: &str) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.cte SET cte_situacao = 'erro', cte_motivo = $4, cte_cstat = NULL, cte_explicacao = NULL
         WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(message)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the SEFAZ's answer; `files` are the XML and the DACTE when fetched.
pub async fn settle(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    dfe: &Dfe,
    files: (Option<Vec<u8>>, Option<Vec<u8>>),
) -> Result<()> {
    let aut = dfe.autorizacao.as_ref();
    let c_stat = aut.and_then(|a| a.codigo_status);
    let motivo = aut.and_then(|a| a.motivo_status.clone());
    let explicacao = match dfe.status {
        DfeStatus::Rejeitado | DfeStatus::Denegado | DfeStatus::Erro => Some(
            rejections::explain_cte(
                &c_stat.map(|c| c.to_string()).unwrap_or_default(),
                motivo.as_deref().unwrap_or_default(),
            )
            .explanation,
        ),
        _ => None,
    };
    let status = match dfe.status {
        DfeStatus::Encerrado => "autorizado",
        s => s.as_str(),
    };
    let xml = files.0.map(|b| String::from_utf8_lossy(&b).into_owned());
    sqlx::query(
        "UPDATE fiscal.cte SET cte_situacao = $4, cte_cstat = $5, cte_motivo = $6, cte_explicacao = $7,
             cte_protocolo = coalesce($8, cte_protocolo), cte_chave = coalesce($9, cte_chave),
             cte_dta_autorizacao = CASE WHEN $4 = 'autorizado' THEN coalesce(cte_dta_autorizacao, now())
                                        ELSE cte_dta_autorizacao END,
             cte_nfe_xml = coalesce($10, cte_nfe_xml), cte_pdf = coalesce($11, cte_pdf)
         WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(status)
    .bind(c_stat)
    .bind(motivo)
    .bind(explicacao)
    .bind(aut.and_then(|a| a.numero_protocolo.clone()))
    .bind(dfe.chave.as_deref())
    .bind(xml)
    .bind(files.1)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The answer of a call on a CT-e: the row, and for a rejected one the
/// SEFAZ's code and text with the plain explanation (`cStat`, `xMotivo`,
/// `explicacao`, `campo`, `tela`) and `msg`.
pub fn answer(mut row: Value, notices: Vec<String>) -> Value {
    let status = row["CTE_SITUACAO"].as_str().unwrap_or_default().to_string();
    let Value::Object(m) = &mut row else {
        return row;
    };
    let msg = match status.as_str() {
        "rejeitado" | "denegado" => {
            let c_stat = m
                .get("CTE_CSTAT")
                .filter(|v| !v.is_null())
                .map(|v| v.to_string())
                .unwrap_or_default();
            let x_motivo = m
                .get("CTE_MOTIVO")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let e = rejections::explain_cte(&c_stat, &x_motivo);
            let msg = format!("CT-e {status} pela SEFAZ ({}): {}", e.c_stat, e.explanation);
            m.insert("cStat".into(), Value::from(e.c_stat));
            m.insert("xMotivo".into(), Value::from(e.x_motivo));
            m.insert("explicacao".into(), Value::from(e.explanation));
            m.insert("campo".into(), json!(e.field));
            m.insert("tela".into(), json!(e.route));
            Some(msg)
        }
        "autorizado" => Some("CT-e autorizado.".to_string()),
        "pendente" | "enviando" => {
            Some("CT-e enviado: a SEFAZ ainda não respondeu. Consulte-o em instantes.".to_string())
        }
        "cancelado" => Some("CT-e cancelado.".to_string()),
        "erro" => m
            .get("CTE_MOTIVO")
            .and_then(Value::as_str)
            .map(|t| format!("O CT-e não chegou à SEFAZ: {t}")),
        _ => None,
    };
    if let Some(msg) = msg {
        m.insert("msg".into(), Value::from(msg));
    }
    if !notices.is_empty() {
        m.insert("aviso".into(), Value::from(notices.join(" ")));
    }
    row
}
