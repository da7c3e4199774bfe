//! What fiscal tells orders of a billing order's NF-e (`erp.fiscal.nfe.autorizada`,
//! `NfeAutorizada`; `erp.fiscal.nfe.cancelada`, `NfeCancelada`): the order keeps
//! the access key of its authorised NF-e in `PEDF_NFE_XML`, and loses it when
//! that NF-e is cancelled (a key of another NF-e is left alone).
//!
//! Applying a fact again changes nothing; facts naming another tenant than the
//! one they were recorded for are refused for good.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada};

fn decode<T: prost::Message + Default>(msg: &Message) -> Result<T> {
    T::decode(msg.payload.as_ref())
        .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))
}

fn same_tenant(event_client: i64, client_id: i64) -> Result<()> {
    if event_client != 0 && event_client != client_id {
        return Err(Error::validation("Evento de outro cliente."));
    }
    Ok(())
}

pub struct NfeAuthorised;

#[async_trait]
impl Effect for NfeAuthorised {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeAutorizada = decode(msg)?;
        same_tenant(ev.client_id, client_id)?;
        if ev.chave.trim().is_empty() {
            return Err(Error::validation("Evento sem chave de acesso."));
        }
        sqlx::query(
            "UPDATE orders.pedido SET pedf_nfe_xml = $5
             WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $4",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(ev.serie.trim())
        .bind(ev.chave.trim())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct NfeCancelled;

#[async_trait]
impl Effect for NfeCancelled {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeCancelada = decode(msg)?;
        same_tenant(ev.client_id, client_id)?;
        sqlx::query(
            "UPDATE orders.pedido SET pedf_nfe_xml = NULL
             WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $4
               AND pedf_nfe_xml = $5",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(ev.serie.trim())
        .bind(ev.chave.trim())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
