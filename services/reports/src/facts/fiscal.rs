//! Fiscal's facts about the NF-e of invoiced orders: `erp.fiscal.nfe.autorizada`
//! ([`NfeIssued`]) keeps its number, series, key and protocol
//! (`vendasnfe`, apart from the sale, so that either may arrive first);
//! `erp.fiscal.nfe.cancelada` ([`NfeVoided`]) flags it cancelled. Both are whole
//! states: applying one again changes nothing. `erp.fiscal.nfe.rejeitada`
//! ([`NfeRefused`]) keeps nothing: it is counted in the business figures.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada, NfeRejeitada};

use super::{decode, text};

pub struct NfeIssued;

#[async_trait]
impl Effect for NfeIssued {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeAutorizada = decode(msg, client_id, |e: &NfeAutorizada| e.client_id)?;
        if ev.emp_id <= 0 || ev.pedido_id <= 0 || ev.numero <= 0 {
            return Err(Error::validation(
                "Evento sem empresa, pedido ou número da NF-e.",
            ));
        }
        sqlx::query(
            "INSERT INTO reports.vendasnfe (client_id, emp_id, pedf_id, serie, numero, nfe_serie, chave, protocolo)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (client_id, emp_id, pedf_id, serie) DO UPDATE
             SET numero = EXCLUDED.numero, nfe_serie = EXCLUDED.nfe_serie, chave = EXCLUDED.chave,
                 protocolo = EXCLUDED.protocolo, cancelada = false",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(ev.serie.trim())
        .bind(ev.numero)
        .bind(ev.nfe_serie)
        .bind(text(&ev.chave))
        .bind(text(&ev.protocolo))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::nfe_authorised(client_id, msgs);
    }
}

pub struct NfeVoided;

#[async_trait]
impl Effect for NfeVoided {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeCancelada = decode(msg, client_id, |e: &NfeCancelada| e.client_id)?;
        if ev.emp_id <= 0 || ev.pedido_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou pedido."));
        }
        sqlx::query(
            "UPDATE reports.vendasnfe SET cancelada = true
             WHERE client_id = $1 AND emp_id = $2 AND pedf_id = $3 AND serie = $4",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(ev.serie.trim())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::nfe_cancelled(client_id, msgs);
    }
}

/// An NF-e the SEFAZ rejected or denied: nothing of the read model changes; the
/// business figures count it once, after its batch commits.
pub struct NfeRefused;

#[async_trait]
impl Effect for NfeRefused {
    async fn apply(&self, _tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeRejeitada = decode(msg, client_id, |e: &NfeRejeitada| e.client_id)?;
        if ev.emp_id <= 0 {
            return Err(Error::validation("Evento sem empresa."));
        }
        Ok(())
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::nfe_rejected(client_id, msgs);
    }
}
