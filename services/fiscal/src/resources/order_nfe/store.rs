//! The NF-e rows (`fiscal.pedidofatxml`): reading one as the register's JSON,
//! locking one, and writing what the provider answered: its id, the SEFAZ's
//! status (with the rejection explained), the files, and the fact that tells
//! orders (`NfeAutorizada`, `NfeCancelada`, through the outbox in the same
//! transaction).

use chrono::Utc;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada};
use prost::Message as _;
use serde_json::{json, Value};

use crate::nuvemfiscal::types::{Dfe, DfeStatus};
use crate::rejections;

pub const NOT_FOUND: &str = "NF-e não encontrada.";

/// The register's fields of one row.
const ROW: &str = "jsonb_build_object(
    'PEXM_ID', pexm_id, 'PEXM_EMP_ID', pexm_emp_id, 'PEXM_PEDF_ID', pexm_pedf_id, 'PEXM_SERIE', pexm_serie,
    'PEXM_USR_ID', pexm_usr_id, 'PEXM_DTA_CAD', pexm_dta_cad, 'PEXM_MODELO', pexm_modelo,
    'PEXM_NFE_SERIE', pexm_nfe_serie, 'PEXM_NUMERO', pexm_numero, 'PEXM_AMBIENTE', pexm_ambiente,
    'PEXM_TENTATIVA', pexm_tentativa, 'PEXM_REFERENCIA', pexm_referencia, 'PEXM_NUVEM_ID', pexm_nuvem_id,
    'PEXM_SITUACAO', pexm_situacao, 'PEXM_CHAVE', pexm_chave, 'PEXM_PROTOCOLO', pexm_protocolo,
    'PEXM_CSTAT', pexm_cstat, 'PEXM_MOTIVO', pexm_motivo, 'PEXM_EXPLICACAO', pexm_explicacao,
    'PEXM_VALOR', pexm_valor::text, 'PEXM_DTA_EMISSAO', pexm_dta_emissao,
    'PEXM_DTA_AUTORIZACAO', pexm_dta_autorizacao, 'PEXM_XML', pexm_xml IS NOT NULL, 'PEXM_PDF', pexm_pdf IS NOT NULL,
    'PEXM_CANCEL_JUSTIFICATIVA', pexm_cancel_justificativa, 'PEXM_CANCEL_PROTOCOLO', pexm_cancel_protocolo,
    'PEXM_DTA_CANCELAMENTO', pexm_dta_cancelamento, 'PEXM_CCE_SEQ', pexm_cce_seq,
    'PEXM_CCE_CORRECAO', pexm_cce_correcao, 'PEXM_CCE_PROTOCOLO', pexm_cce_protocolo, 'PEXM_DTA_CCE', pexm_dta_cce)";

/// What the calls need of a row besides its JSON.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Doc {
    pub pexm_id: i64,
    pub pexm_pedf_id: i64,
    pub pexm_serie: String,
    pub pexm_nfe_serie: i32,
    pub pexm_numero: i64,
    pub pexm_ambiente: i32,
    pub pexm_tentativa: i32,
    pub pexm_referencia: String,
    pub pexm_nuvem_id: Option<String>,
    pub pexm_situacao: String,
    pub pexm_chave: Option<String>,
}

const DOC_COLS: &str =
    "pexm_id, pexm_pedf_id, pexm_serie, pexm_nfe_serie, pexm_numero, pexm_ambiente, \
    pexm_tentativa, pexm_referencia, pexm_nuvem_id, pexm_situacao, pexm_chave";

pub async fn row(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Value> {
    sqlx::query_scalar::<_, Value>(&format!(
        "SELECT {ROW} FROM fiscal.pedidofatxml WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3"
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))
}

/// The rows issued (authorised or cancelled) in a period, for the accountant.
pub async fn issued_between(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    from: chrono::NaiveDate,
    to: chrono::NaiveDate,
) -> Result<Vec<Value>> {
    Ok(sqlx::query_scalar::<_, Value>(&format!(
        "SELECT {ROW} FROM fiscal.pedidofatxml
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_situacao IN ('autorizado', 'cancelado')
           AND (pexm_dta_emissao AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN $3 AND $4
         ORDER BY pexm_nfe_serie, pexm_numero"
    ))
    .bind(client)
    .bind(emp)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?)
}

pub async fn by_id(tx: &mut Tx, client: i64, emp: i64, id: i64, lock: bool) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.pedidofatxml WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))
}

pub async fn by_order(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
) -> Result<Option<Doc>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.pedidofatxml
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_pedf_id = $3 AND pexm_serie = $4 FOR UPDATE"
    ))
    .bind(client)
    .bind(emp)
    .bind(pedf_id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The provider took the emission: its id, before anything waits on it.
pub async fn sent(tx: &mut Tx, client: i64, emp: i64, id: i64, dfe: &Dfe) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.pedidofatxml SET pexm_nuvem_id = $4, pexm_situacao = 'pendente', pexm_chave = coalesce($5, pexm_chave)
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
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

/// The emission never reached the SEFAZ (refused by the provider, or the
/// provider said it has no document of this reference).
pub async fn failed(tx: &mut Tx, client: i64, emp: i64, id: i64, message: &str) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.pedidofatxml SET pexm_situacao = 'erro', pexm_motivo = $4, pexm_cstat = NULL,
             pexm_explicacao = NULL
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(message)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the document's answer; an authorisation also writes the fact for
/// orders (once: only when the row was not authorised yet). `files` are the
/// XML and the DANFE when they could be fetched.
pub async fn settle(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    doc: &Doc,
    dfe: &Dfe,
    files: (Option<Vec<u8>>, Option<Vec<u8>>),
) -> Result<()> {
    let aut = dfe.autorizacao.as_ref();
    let c_stat = aut.and_then(|a| a.codigo_status);
    let motivo = aut.and_then(|a| a.motivo_status.clone());
    let explicacao = match dfe.status {
        DfeStatus::Rejeitado | DfeStatus::Denegado | DfeStatus::Erro => {
            let e = rejections::explain(
                &c_stat.map(|c| c.to_string()).unwrap_or_default(),
                motivo.as_deref().unwrap_or_default(),
            );
            Some(e.explanation)
        }
        _ => None,
    };
    let protocolo = aut.and_then(|a| a.numero_protocolo.clone());
    let status = match dfe.status {
        DfeStatus::Encerrado => "autorizado",
        s => s.as_str(),
    };
    let newly_authorised: Option<bool> = sqlx::query_scalar(
        "UPDATE fiscal.pedidofatxml p SET pexm_situacao = $4, pexm_cstat = $5, pexm_motivo = $6, pexm_explicacao = $7,
             pexm_protocolo = coalesce($8, p.pexm_protocolo), pexm_chave = coalesce($9, p.pexm_chave),
             pexm_dta_autorizacao = CASE WHEN $4 = 'autorizado' THEN coalesce(p.pexm_dta_autorizacao, now())
                                         ELSE p.pexm_dta_autorizacao END,
             pexm_xml = coalesce($10, p.pexm_xml), pexm_pdf = coalesce($11, p.pexm_pdf)
         FROM (SELECT pexm_situacao AS antes FROM fiscal.pedidofatxml
               WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3 FOR UPDATE) a
         WHERE p.client_id = $1 AND p.pexm_emp_id = $2 AND p.pexm_id = $3
         RETURNING $4 = 'autorizado' AND a.antes <> 'autorizado'",
    )
    .bind(client)
    .bind(emp)
    .bind(doc.pexm_id)
    .bind(status)
    .bind(c_stat)
    .bind(motivo)
    .bind(explicacao)
    .bind(&protocolo)
    .bind(dfe.chave.as_deref())
    .bind(files.0)
    .bind(files.1)
    .fetch_optional(&mut **tx)
    .await?;
    if newly_authorised == Some(true) {
        let fact = NfeAutorizada {
            client_id: client,
            emp_id: emp,
            pedido_id: doc.pexm_pedf_id,
            serie: doc.pexm_serie.clone(),
            chave: dfe.chave.clone().unwrap_or_default(),
            protocolo: protocolo.unwrap_or_default(),
            numero: doc.pexm_numero,
            nfe_serie: doc.pexm_nfe_serie,
            authorised_at: Utc::now().to_rfc3339(),
        };
        erp_platform::bus::outbox_insert(
            tx,
            crate::SCHEMA,
            erp_proto::subjects::NFE_AUTORIZADA,
            client,
            &fact.encode_to_vec(),
        )
        .await?;
    }
    Ok(())
}

/// The cancel the SEFAZ registered, and the fact for orders.
pub async fn cancelled(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    doc: &Doc,
    justificativa: &str,
    protocolo: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "UPDATE fiscal.pedidofatxml SET pexm_situacao = 'cancelado', pexm_cancel_justificativa = $4,
             pexm_cancel_protocolo = $5, pexm_dta_cancelamento = now()
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(doc.pexm_id)
    .bind(justificativa)
    .bind(protocolo)
    .execute(&mut **tx)
    .await?;
    let fact = NfeCancelada {
        client_id: client,
        emp_id: emp,
        pedido_id: doc.pexm_pedf_id,
        serie: doc.pexm_serie.clone(),
        chave: doc.pexm_chave.clone().unwrap_or_default(),
        protocolo: protocolo.unwrap_or_default().to_string(),
    };
    erp_platform::bus::outbox_insert(
        tx,
        crate::SCHEMA,
        erp_proto::subjects::NFE_CANCELADA,
        client,
        &fact.encode_to_vec(),
    )
    .await?;
    Ok(())
}

/// The answer of a call on a row: the row, and for a rejected NF-e the SEFAZ's
/// code and text with the plain explanation (`cStat`, `xMotivo`,
/// `explicacao`, `campo`, `tela`) and `msg`.
pub fn answer(mut row: Value, notices: Vec<String>) -> Value {
    let status = row["PEXM_SITUACAO"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let Value::Object(m) = &mut row else {
        return row;
    };
    match status.as_str() {
        "rejeitado" | "denegado" => {
            let c_stat = m
                .get("PEXM_CSTAT")
                .map(|v| v.to_string())
                .unwrap_or_default();
            let x_motivo = m
                .get("PEXM_MOTIVO")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let e = rejections::explain(&c_stat, &x_motivo);
            m.insert(
                "msg".into(),
                Value::from(format!(
                    "NF-e {status} pela SEFAZ ({}): {}",
                    e.c_stat, e.explanation
                )),
            );
            m.insert("cStat".into(), Value::from(e.c_stat));
            m.insert("xMotivo".into(), Value::from(e.x_motivo));
            m.insert("explicacao".into(), Value::from(e.explanation));
            m.insert("campo".into(), json!(e.field));
            m.insert("tela".into(), json!(e.route));
        }
        "autorizado" => {
            m.insert("msg".into(), Value::from("NF-e autorizada."));
        }
        "pendente" | "enviando" => {
            m.insert(
                "msg".into(),
                Value::from("NF-e enviada: a SEFAZ ainda não respondeu. Consulte-a em instantes."),
            );
        }
        "cancelado" => {
            m.insert("msg".into(), Value::from("NF-e cancelada."));
        }
        _ => {}
    }
    if !notices.is_empty() {
        m.insert("aviso".into(), Value::from(notices.join(" ")));
    }
    row
}
