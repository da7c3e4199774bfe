//! Service orders' facts: `erp.orders.ordemservico.finalizada`
//! ([`FinishedServiceOrder`]) keeps the finished order once (`ordensservico`)
//! with its lines (`ordensservicoitens`: services with their sector and
//! mechanic, parts), each line dated with the order's closing day.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::OrdemServicoFinalizada;

use super::{date, dec, decode, opt, text};

pub struct FinishedServiceOrder;

#[async_trait]
impl Effect for FinishedServiceOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: OrdemServicoFinalizada =
            decode(msg, client_id, |e: &OrdemServicoFinalizada| e.client_id)?;
        if ev.emp_id <= 0 || ev.ordem_id <= 0 || ev.customer_id <= 0 || ev.serie.trim().is_empty() {
            return Err(Error::validation(
                "Evento sem empresa, ordem de serviço ou cliente.",
            ));
        }
        let entered = date("Data de entrada", &ev.entered_on)?;
        let closed = date("Data de saída", &ev.closed_on)?;
        let inserted = sqlx::query(
            "INSERT INTO reports.ordensservico (client_id, emp_id, ords_id, serie, cli_id, cli_nome, veic_id, km,
                 cola_id, dta_entrada, dta_saida, servicos, pecas, acrescimos, descontos, total, usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
             ON CONFLICT DO NOTHING",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.ordem_id)
        .bind(ev.serie.trim())
        .bind(ev.customer_id)
        .bind(text(&ev.customer_name))
        .bind(opt(ev.vehicle_id))
        .bind(Some(ev.odometer).filter(|k| *k > 0))
        .bind(opt(ev.responsible_id))
        .bind(entered)
        .bind(closed)
        .bind(dec("Total de serviços", &ev.services_total)?)
        .bind(dec("Total de peças", &ev.products_total)?)
        .bind(dec("Acréscimos", &ev.surcharges)?)
        .bind(dec("Descontos", &ev.discounts)?)
        .bind(dec("Total", &ev.total)?)
        .bind(opt(ev.user_id))
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            // A finished order is finished once: the same fact again changes nothing.
            return Ok(());
        }
        for l in &ev.lines {
            if l.kind != "S" && l.kind != "P" {
                return Err(Error::validation(format!(
                    "Tipo de item inválido: '{}'.",
                    l.kind
                )));
            }
            sqlx::query(
                "INSERT INTO reports.ordensservicoitens (client_id, emp_id, ords_id, serie, tipo, item, item_id,
                     descricao, qtde, vlr_unit, desconto, acrescimo, total, sets_id, cola_id, dta_saida)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
            )
            .bind(client_id)
            .bind(ev.emp_id)
            .bind(ev.ordem_id)
            .bind(ev.serie.trim())
            .bind(&l.kind)
            .bind(l.item)
            .bind(l.item_id)
            .bind(text(&l.description))
            .bind(dec("Quantidade", &l.quantity)?)
            .bind(dec("Valor unitário", &l.unit_price)?)
            .bind(dec("Desconto", &l.discount)?)
            .bind(dec("Acréscimo", &l.surcharge)?)
            .bind(dec("Total do item", &l.total)?)
            .bind(opt(l.sector_id))
            .bind(opt(l.mechanic_id))
            .bind(closed)
            .execute(&mut **tx)
            .await?;
        }
        crate::live::figures_moved(tx, client_id, ev.emp_id, crate::live::SERVICE_ORDERS).await?;
        Ok(())
    }
}
