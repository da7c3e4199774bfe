//! Purchases' facts: `erp.orders.compra.finalizada` ([`FinalizedPurchase`])
//! keeps the purchase's header once (`compras`); `erp.orders.compra.cancelada`
//! ([`CancelledPurchase`]) flags it (it stays, so the supplier's ledger can show
//! what was cancelled).

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada};

use super::{date, dec, decode, opt, text};

pub struct FinalizedPurchase;

#[async_trait]
impl Effect for FinalizedPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: CompraFinalizada = decode(msg, client_id, |e: &CompraFinalizada| e.client_id)?;
        if ev.emp_id <= 0 || ev.compra_id <= 0 || ev.supplier_id <= 0 {
            return Err(Error::validation(
                "Evento sem empresa, compra ou fornecedor.",
            ));
        }
        let issued = date("Data de emissão", &ev.issued_on)?;
        let entered = if ev.entered_on.trim().is_empty() {
            issued
        } else {
            date("Data de entrada", &ev.entered_on)?
        };
        sqlx::query(
            "INSERT INTO reports.compras (client_id, emp_id, comp_id, forn_id, forn_nome, numero, serie, modelo,
                 dta_emis, dta_entrada, total, itens, hisp_id, usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT DO NOTHING",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.compra_id)
        .bind(ev.supplier_id)
        .bind(text(&ev.supplier_name))
        .bind(text(&ev.number))
        .bind(text(&ev.serie))
        .bind(text(&ev.model))
        .bind(issued)
        .bind(entered)
        .bind(dec("Total", &ev.total)?)
        .bind(i32::try_from(ev.items.len()).unwrap_or(i32::MAX))
        .bind(opt(ev.cost_centre_id))
        .bind(opt(ev.user_id))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct CancelledPurchase;

#[async_trait]
impl Effect for CancelledPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: CompraCancelada = decode(msg, client_id, |e: &CompraCancelada| e.client_id)?;
        if ev.emp_id <= 0 || ev.compra_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou compra."));
        }
        sqlx::query(
            "UPDATE reports.compras SET cancelada = true WHERE client_id = $1 AND emp_id = $2 AND comp_id = $3",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.compra_id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
