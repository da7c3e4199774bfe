//! The declared calls of `pedidofatxml`: emit, preview, consult, cancel,
//! correction letter, the XML and DANFE downloads and the accountant's list.
//!
//! Cancel, correction letter and consult lock the row in the call's own
//! transaction while they ask the provider, so two of them on one NF-e go one
//! after the other. The emission commits in steps (`emission`) through the
//! service's pool.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{company, id_param};
use erp_platform::resource::{file_reply, ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::Value;

use super::emission;
use super::store;
use super::Ctx;
use crate::nuvemfiscal::types::EventoStatus;
use crate::rejections;
use crate::resources::company::provider::{client, provider_error, provider_message};

const NOT_AUTHORISED: &str = "Só é possível {} uma NF-e autorizada.";
const SHORT_JUSTIFICATION: &str =
    "A justificativa do cancelamento deve ter entre 15 e 255 caracteres.";
const SHORT_CORRECTION: &str =
    "A correção da carta de correção deve ter entre 15 e 1000 caracteres.";

fn not_authorised(what: &str) -> Error {
    Error::Conflict(NOT_AUTHORISED.replace("{}", what))
}

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        call.emp
            .or_else(|| id_param(call.params, "emp").ok())
            .or_else(|| body_int(&call.body, "PEXM_EMP_ID")),
    )
}

pub(crate) fn body_int(body: &Value, key: &str) -> Option<i64> {
    match body.get(key)? {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

pub(crate) fn body_text(body: &Value, key: &str) -> Option<String> {
    match body.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

pub(crate) fn len_between(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.chars().count())
}

/// `POST /pedidofatxml` {PEXM_PEDF_ID, PEXM_EMP_ID, PEXM_SERIE, NATO_ID?}.
pub struct Emit(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Emit {
    async fn run(&self, _tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let pedf = body_int(&call.body, "PEXM_PEDF_ID")
            .filter(|id| *id > 0)
            .ok_or_else(|| Error::validation("Informe o pedido (PEXM_PEDF_ID)."))?;
        let serie = body_text(&call.body, "PEXM_SERIE")
            .ok_or_else(|| Error::validation("Informe a série do pedido (PEXM_SERIE)."))?;
        let nature = body_int(&call.body, "NATO_ID");
        let nf = client(&self.0.company)?;
        let db = self.0.db()?;
        emission::emit(
            db,
            nf,
            call.caller.client_id,
            call.caller.user_id,
            emp,
            pedf,
            &serie,
            nature,
        )
        .await
    }
}

/// `GET /pedidofatxml/previa/{id}/{emp}/{serie}`: the exact request, unsent.
pub struct Preview;

#[async_trait]
impl ActionHandler for Preview {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let pedf = id_param(call.params, "id")?;
        let serie = call
            .params
            .get("serie")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| Error::validation("Informe a série do pedido."))?;
        let nature = body_int(&call.body, "NATO_ID");
        let pedido =
            emission::preview(tx, call.caller.client_id, emp, pedf, &serie, nature).await?;
        serde_json::to_value(pedido).map_err(Error::internal)
    }
}

/// `GET /pedidofatxml/consultar/{PEXM_ID}/{emp}`: synchronises with the SEFAZ
/// and waits for a final status; an emission whose answer was lost is found
/// by its reference first.
pub struct Consult(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Consult {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "PEXM_ID")?;
        let nf = client(&self.0.company)?;
        let db = self.0.db()?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, false).await?;
        let nuvem_id = match (&doc.pexm_nuvem_id, doc.pexm_situacao.as_str()) {
            (Some(n), _) => n.clone(),
            (None, "enviando") => {
                let cnpj: Option<String> = sqlx::query_scalar(
                    "SELECT cnpj FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2",
                )
                .bind(c)
                .bind(emp)
                .fetch_optional(&mut **tx)
                .await?
                .flatten();
                let cnpj = cnpj
                    .ok_or_else(|| Error::validation("Informe o CNPJ da empresa em Empresas."))?;
                match emission::recover(db, nf, c, emp, &doc, &cnpj).await? {
                    Some(dfe) => dfe.id,
                    None => return Ok(store::answer(store::row(tx, c, emp, id).await?, vec![])),
                }
            }
            (None, _) => return Ok(store::answer(store::row(tx, c, emp, id).await?, vec![])),
        };
        if let Err(e) = nf.sincronizar_nfe(&nuvem_id).await {
            tracing::warn!(id, error = %e, "NF-e synchronisation failed");
        }
        emission::follow(db, nf, c, emp, &doc, &nuvem_id).await
    }
}

/// `POST /pedidofatxml/cancelar/{PEXM_ID}/{emp}` {JUSTIFICATIVA}.
pub struct Cancel(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Cancel {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "PEXM_ID")?;
        let text = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
        if !len_between(&text, 15, 255) {
            return Err(Error::validation(SHORT_JUSTIFICATION));
        }
        let nf = client(&self.0.company)?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, true).await?;
        let nuvem_id = match (doc.pexm_situacao.as_str(), &doc.pexm_nuvem_id) {
            ("autorizado", Some(n)) => n.clone(),
            _ => return Err(not_authorised("cancelar")),
        };
        let ev = nf
            .cancelar_nfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        if ev.status != Some(EventoStatus::Registrado) {
            return Err(event_refused(
                "O cancelamento",
                ev.codigo_status,
                ev.motivo_status,
            ));
        }
        store::cancelled(tx, c, emp, &doc, &text, ev.numero_protocolo.as_deref()).await?;
        // The cancelled NF-e's XML (with its event) replaces the authorised one.
        if let Ok(xml) = nf.baixar_xml_nfe(&nuvem_id).await {
            sqlx::query(
                "UPDATE fiscal.pedidofatxml SET pexm_xml = $4 WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
            )
            .bind(c)
            .bind(emp)
            .bind(id)
            .bind(xml)
            .execute(&mut **tx)
            .await?;
        }
        Ok(store::answer(store::row(tx, c, emp, id).await?, vec![]))
    }
}

/// `POST /pedidofatxml/cartacorrecao/{PEXM_ID}/{emp}` {CORRECAO}.
pub struct Correct(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Correct {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "PEXM_ID")?;
        let text = body_text(&call.body, "CORRECAO").unwrap_or_default();
        if !len_between(&text, 15, 1000) {
            return Err(Error::validation(SHORT_CORRECTION));
        }
        let nf = client(&self.0.company)?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, true).await?;
        let nuvem_id = match (doc.pexm_situacao.as_str(), &doc.pexm_nuvem_id) {
            ("autorizado", Some(n)) => n.clone(),
            _ => return Err(not_authorised("corrigir")),
        };
        let ev = nf
            .carta_correcao_nfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        if ev.status != Some(EventoStatus::Registrado) {
            return Err(event_refused(
                "A carta de correção",
                ev.codigo_status,
                ev.motivo_status,
            ));
        }
        sqlx::query(
            "UPDATE fiscal.pedidofatxml SET pexm_cce_seq = coalesce($4, pexm_cce_seq + 1), pexm_cce_correcao = $5,
                 pexm_cce_protocolo = $6, pexm_dta_cce = now()
             WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
        )
        .bind(c)
        .bind(emp)
        .bind(id)
        .bind(ev.numero_sequencial)
        .bind(&text)
        .bind(ev.numero_protocolo)
        .execute(&mut **tx)
        .await?;
        let mut row = store::row(tx, c, emp, id).await?;
        if let Value::Object(m) = &mut row {
            m.insert("msg".into(), Value::from("Carta de correção registrada."));
        }
        Ok(row)
    }
}

pub(crate) fn event_refused(what: &str, c_stat: Option<i32>, motivo: Option<String>) -> Error {
    let c_stat = c_stat.map(|c| c.to_string()).unwrap_or_default();
    let e = rejections::explain(&c_stat, motivo.as_deref().unwrap_or_default());
    Error::validation(format!(
        "{what} foi rejeitado pela SEFAZ ({} - {}): {}",
        e.c_stat, e.x_motivo, e.explanation
    ))
}

/// Which file a download call answers.
#[derive(Clone, Copy)]
pub enum File {
    Xml,
    Danfe,
}

/// `GET /pedidofatxml/xml/{PEXM_ID}/{emp}` and `/danfe/...`: the stored file,
/// fetched from the provider (and stored) when it is not there yet.
pub struct Download(pub Arc<Ctx>, pub File);

#[async_trait]
impl ActionHandler for Download {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "PEXM_ID")?;
        let c = call.caller.client_id;
        let col = match self.1 {
            File::Xml => "pexm_xml",
            File::Danfe => "pexm_pdf",
        };
        let (stored, status, chave, nuvem_id): (
            Option<Vec<u8>>,
            String,
            Option<String>,
            Option<String>,
        ) = sqlx::query_as(&format!(
            "SELECT {col}, pexm_situacao, pexm_chave, pexm_nuvem_id FROM fiscal.pedidofatxml
                 WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3 FOR UPDATE"
        ))
        .bind(c)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(store::NOT_FOUND.into()))?;
        let bytes = match (stored, nuvem_id) {
            (Some(b), _) => b,
            (None, Some(n)) if matches!(status.as_str(), "autorizado" | "cancelado") => {
                let nf = client(&self.0.company)?;
                let fetched = match self.1 {
                    File::Xml => nf.baixar_xml_nfe(&n).await,
                    File::Danfe => nf.baixar_pdf_nfe(&n).await,
                }
                .map_err(|e| Error::Unavailable(provider_message(&e)))?;
                sqlx::query(&format!(
                    "UPDATE fiscal.pedidofatxml SET {col} = $4 WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3"
                ))
                .bind(c)
                .bind(emp)
                .bind(id)
                .bind(&fetched)
                .execute(&mut **tx)
                .await?;
                fetched
            }
            _ => {
                return Err(Error::Conflict(
                    "Os arquivos existem apenas para NF-e autorizada ou cancelada.".into(),
                ))
            }
        };
        let name = chave.unwrap_or_else(|| id.to_string());
        Ok(match self.1 {
            File::Xml => file_reply("application/xml", &format!("{name}-nfe.xml"), &bytes),
            File::Danfe => file_reply("application/pdf", &format!("{name}-danfe.pdf"), &bytes),
        })
    }
}

/// `POST /pedidofatxml/filtrocontador/{emp}` {DATA_INI, DATA_FIM}: the NF-e
/// authorised or cancelled in the period (issue date), for the accountant.
pub struct Accountant;

#[async_trait]
impl ActionHandler for Accountant {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let date = |k: &str| -> Result<chrono::NaiveDate> {
            let raw = body_text(&call.body, k)
                .ok_or_else(|| Error::validation(format!("Informe {k} (AAAA-MM-DD).")))?;
            chrono::NaiveDate::parse_from_str(raw.get(..10).unwrap_or(&raw), "%Y-%m-%d")
                .map_err(|_| Error::validation(format!("{k} inválida: '{raw}'.")))
        };
        let (from, to) = (date("DATA_INI")?, date("DATA_FIM")?);
        if to < from {
            return Err(Error::validation(
                "DATA_FIM deve ser igual ou posterior a DATA_INI.",
            ));
        }
        let rows = store::issued_between(tx, call.caller.client_id, emp, from, to).await?;
        Ok(Value::Array(rows))
    }
}
