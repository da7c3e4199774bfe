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
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::Value;

use super::emission;
use super::store::{self, Nfe, KIND};
use super::Ctx;
use crate::resources::call_body::{body_int, body_text};
use crate::resources::company::provider::{client, provider_error};
use crate::resources::dfe;
use crate::resources::dfe::events::{self, len_between};

const SHORT_CORRECTION: &str =
    "A correção da carta de correção deve ter entre 15 e 1000 caracteres.";

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        call.emp
            .or_else(|| id_param(call.params, "emp").ok())
            .or_else(|| body_int(&call.body, "PEXM_EMP_ID")),
    )
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
        emission::emit(db, nf, call.res, call.caller, emp, pedf, &serie, nature).await
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

/// The company and the NF-e of a call (`{PEXM_ID}/{emp}` paths).
pub(super) fn locate(call: &Call<'_>) -> Result<(i64, i64)> {
    Ok((company_of(call)?, id_param(call.params, "PEXM_ID")?))
}

/// `POST /pedidofatxml/cancelar/{PEXM_ID}/{emp}` {JUSTIFICATIVA}.
pub struct Cancel(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Cancel {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "PEXM_ID")?;
        let text = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
        events::justification(&text)?;
        let nf = client(&self.0.company)?;
        let c = call.caller.client_id;
        let doc = dfe::store::by_id(tx, &KIND, c, emp, id, true).await?;
        let nuvem_id = events::authorised(&KIND, &doc, "cancelar")?;
        let ev = nf
            .cancelar_nfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        events::cancelled(tx, nf, &Nfe, c, &doc, &nuvem_id, &text, ev).await?;
        Ok(dfe::store::answer(
            &KIND,
            store::row(tx, c, emp, id).await?,
            vec![],
        ))
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
        let doc = dfe::store::by_id(tx, &KIND, c, emp, id, true).await?;
        let nuvem_id = events::authorised(&KIND, &doc, "corrigir")?;
        let ev = nf
            .carta_correcao_nfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        events::registered(
            &KIND,
            "A carta de correção",
            ev.status,
            ev.codigo_status,
            ev.motivo_status.as_deref(),
        )?;
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
