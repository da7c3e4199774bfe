//! What finance tells orders of a purchase's payables (`erp.finance.titulo.situacao`,
//! `TituloSituacao`): after each settlement, offset or reversal of a payable that
//! came from a purchase (origin "compra"), what it adds up to.
//!
//! Orders keeps each such title's standing (`orders.compra_titulos`: paid, balance,
//! status) and shows it on the purchase's instalment: finance numbers a purchase's
//! payables 1..n over the instalments in CMPD_ID order (one payable for the total
//! when the purchase has none), so title n is the n-th instalment. An instalment of
//! which anything was paid is settled (CMPD_BAIXADO, CMPD_VLR_PAGO, CMPD_DTA_BAIXA:
//! the day orders learned it); a reversal back to nothing paid reopens it. Cancelling
//! a purchase with anything paid is refused (`resources::purchases`).
//!
//! Each fact carries the title's whole standing, so applying one again changes
//! nothing; the consumer's inbox applies each once anyway. Receivables, titles of
//! other origins and facts whose payload names another tenant than the one they
//! were recorded for are left alone.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::finance::v1::TituloSituacao;
use prost::Message as _;
use rust_decimal::Decimal;
use std::str::FromStr;

pub struct PurchasePayables;

fn money(what: &str, s: &str) -> Result<Decimal> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Decimal::ZERO);
    }
    Decimal::from_str(s).map_err(|_| Error::validation(format!("Evento com {what} inválido: {s}.")))
}

#[async_trait]
impl Effect for PurchasePayables {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev = TituloSituacao::decode(msg.payload.as_ref())
            .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))?;
        if ev.client_id != 0 && ev.client_id != client_id {
            return Err(Error::validation("Evento de outro cliente."));
        }
        if ev.kind != "P" || !ev.origin.eq_ignore_ascii_case("compra") || ev.origin_id <= 0 {
            return Ok(());
        }
        let emp = if ev.origin_emp > 0 {
            ev.origin_emp
        } else {
            ev.emp_id
        };
        let paid = money("valor pago", &ev.paid)?;
        let balance = money("saldo", &ev.balance)?;
        sqlx::query(
            "INSERT INTO orders.compra_titulos
                 (client_id, emp_id, comp_id, title_id, parcela, vlr_pago, saldo, situacao, dta_alteracao)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
             ON CONFLICT (client_id, emp_id, title_id) DO UPDATE
             SET comp_id = EXCLUDED.comp_id, parcela = EXCLUDED.parcela, vlr_pago = EXCLUDED.vlr_pago,
                 saldo = EXCLUDED.saldo, situacao = EXCLUDED.situacao, dta_alteracao = now()",
        )
        .bind(client_id)
        .bind(emp)
        .bind(ev.origin_id)
        .bind(ev.title_id)
        .bind(ev.instalment)
        .bind(paid)
        .bind(balance)
        .bind(&ev.status)
        .execute(&mut **tx)
        .await?;
        // The n-th instalment (CMPD_ID order) is finance's title n.
        sqlx::query(
            "UPDATE orders.compra_pagamentos p
             SET cmpd_vlr_pago = $5, cmpd_baixado = $5 > 0,
                 cmpd_dta_baixa = CASE WHEN $5 <= 0 THEN NULL
                                       ELSE coalesce(p.cmpd_dta_baixa, (now() AT TIME ZONE 'America/Sao_Paulo')::date) END
             FROM (SELECT cmpd_id, row_number() OVER (ORDER BY cmpd_id) AS n
                   FROM orders.compra_pagamentos
                   WHERE client_id = $1 AND cmpd_emp_id = $2 AND cmpd_comp_id = $3) o
             WHERE p.client_id = $1 AND p.cmpd_emp_id = $2 AND p.cmpd_comp_id = $3
               AND p.cmpd_id = o.cmpd_id AND o.n = $4",
        )
        .bind(client_id)
        .bind(emp)
        .bind(ev.origin_id)
        .bind(i64::from(ev.instalment))
        .bind(paid)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
