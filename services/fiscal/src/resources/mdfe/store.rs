//! The MDF-e header rows (`fiscal.mdfe`) as the calls see them: locking one,
//! reading it as the register's JSON, and writing what the provider answered
//! (its id, the SEFAZ's status with the rejection explained, the files, the
//! cancel and the closing).

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::rejections;
use super::MISSING;
use crate::nuvemfiscal::types::{Dfe, DfeStatus};

/// What the calls need of a row besides its JSON.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Doc {
    pub mdfe_id: i64,
    pub mdfe_serie: Option<i32>,
    pub mdfe_numero: Option<i64>,
    pub mdfe_ambiente: Option<i32>,
    pub mdfe_tentativa: i32,
    pub mdfe_referencia: Option<String>,
    pub mdfe_id_fiscal: Option<String>,
    pub mdfe_situacao: String,
    pub mdfe_chave: Option<String>,
}

const DOC_COLS: &str = "mdfe_id, mdfe_serie, mdfe_numero, mdfe_ambiente, mdfe_tentativa, \
    mdfe_referencia, mdfe_id_fiscal, mdfe_situacao, mdfe_chave";

pub async fn by_id(tx: &mut Tx, client: i64, emp: i64, id: i64, lock: bool) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.mdfe WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(MISSING.into()))
}

/// The register's row as the generic get reads it, plus whether the XML
/// (`MDFE_XML`) and the DAMDFE (`MDFE_PDF`) are stored.
pub async fn row(tx: &mut Tx, res: &Resource, caller: &Caller, emp: i64, id: i64) -> Result<Value> {
    let mut row = query::get(tx, res, caller, Some(emp), &[id.to_string()])
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(MISSING.into()),
            other => other,
        })?;
    let (xml, pdf): (bool, bool) = sqlx::query_as(
        "SELECT mdfe_xml IS NOT NULL, mdfe_pdf IS NOT NULL FROM fiscal.mdfe
         WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
    )
    .bind(caller.client_id)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or_default();
    if let Value::Object(m) = &mut row {
        m.insert("MDFE_XML".into(), Value::from(xml));
        m.insert("MDFE_PDF".into(), Value::from(pdf));
    }
    Ok(row)
}

/// The provider took the emission: its id, before anything waits on it.
pub async fn sent(tx: &mut Tx, client: i64, emp: i64, id: i64, dfe: &Dfe) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.mdfe SET mdfe_id_fiscal = $4, mdfe_situacao = 'pendente', mdfe_chave = coalesce($5, mdfe_chave)
         WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
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
        "UPDATE fiscal.mdfe SET mdfe_situacao = 'erro', mdfe_motivo = $4, mdfe_cstat = NULL, mdfe_explicacao = NULL
         WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(message)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the document's final answer and the files that could be fetched.
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
            rejections::explain(
                &c_stat.map(|c| c.to_string()).unwrap_or_default(),
                motivo.as_deref().unwrap_or_default(),
            )
            .explanation,
        ),
        _ => None,
    };
    sqlx::query(
        "UPDATE fiscal.mdfe p SET mdfe_situacao = $4, mdfe_cstat = $5, mdfe_motivo = $6, mdfe_explicacao = $7,
             mdfe_protocolo = coalesce($8, p.mdfe_protocolo), mdfe_chave = coalesce($9, p.mdfe_chave),
             mdfe_dta_autorizacao = CASE WHEN $4 IN ('autorizado', 'encerrado', 'cancelado')
                                         THEN coalesce(p.mdfe_dta_autorizacao, now()) ELSE p.mdfe_dta_autorizacao END,
             mdfe_xml = coalesce($10, p.mdfe_xml), mdfe_pdf = coalesce($11, p.mdfe_pdf)
         WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(dfe.status.as_str())
    .bind(c_stat)
    .bind(motivo)
    .bind(explicacao)
    .bind(aut.and_then(|a| a.numero_protocolo.clone()))
    .bind(dfe.chave.as_deref())
    .bind(files.0)
    .bind(files.1)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The answer of a call on a row: the row, and for a rejected MDF-e the
/// SEFAZ's code and text with the plain explanation (`cStat`, `xMotivo`,
/// `explicacao`, `campo`, `tela`) and `msg`.
pub fn answer(mut row: Value, notices: Vec<String>) -> Value {
    let status = row["MDFE_SITUACAO"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let Value::Object(m) = &mut row else {
        return row;
    };
    let msg = match status.as_str() {
        "rejeitado" | "denegado" => {
            let c_stat = m
                .get("MDFE_CSTAT")
                .filter(|v| !v.is_null())
                .map(|v| v.to_string())
                .unwrap_or_default();
            let x_motivo = m
                .get("MDFE_MOTIVO")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let e = rejections::explain(&c_stat, &x_motivo);
            let msg = format!(
                "MDF-e {status} pela SEFAZ ({}): {}",
                e.c_stat, e.explanation
            );
            m.insert("cStat".into(), Value::from(e.c_stat));
            m.insert("xMotivo".into(), Value::from(e.x_motivo));
            m.insert("explicacao".into(), Value::from(e.explanation));
            m.insert("campo".into(), json!(e.field));
            m.insert("tela".into(), json!(e.route));
            Some(msg)
        }
        "autorizado" => Some("MDF-e autorizado.".to_string()),
        "pendente" | "enviando" => {
            Some("MDF-e enviado: a SEFAZ ainda não respondeu. Consulte-o em instantes.".to_string())
        }
        "cancelado" => Some("MDF-e cancelado.".to_string()),
        "encerrado" => Some("MDF-e encerrado.".to_string()),
        "erro" => m
            .get("MDFE_MOTIVO")
            .and_then(Value::as_str)
            .map(|s| format!("MDF-e não enviado: {s}")),
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
