//! The invoiced orders (`erp.orders.pedido.faturado`, [`InvoicedOrder`]): the
//! header and the sale lines, with each line's surcharge and freight, written
//! once per order into `fiscal.pedidos` and `fiscal.pedidos_itens`, the orders
//! an NF-e can be issued for. A second fact about the same order changes
//! nothing. An undecodable fact, another tenant's, or a value that is not a
//! decimal is refused for good.

use std::collections::HashMap;
use std::str::FromStr;

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::PedidoFaturado;
use prost::Message as _;
use rust_decimal::Decimal;

fn dec(what: &str, s: &str) -> Result<Decimal> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Decimal::ZERO);
    }
    Decimal::from_str(s).map_err(|_| Error::validation(format!("{what} inválido: '{s}'.")))
}

pub struct InvoicedOrder;

#[async_trait]
impl Effect for InvoicedOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev = PedidoFaturado::decode(msg.payload.as_ref())
            .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))?;
        if ev.client_id != 0 && ev.client_id != client_id {
            return Err(Error::validation("Evento de outro cliente."));
        }
        if ev.emp_id <= 0 || ev.pedido_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou pedido."));
        }
        let day = NaiveDate::parse_from_str(ev.issued_on.trim(), "%Y-%m-%d").map_err(|_| {
            Error::validation(format!("Data de emissão inválida: '{}'.", ev.issued_on))
        })?;
        let serie = ev.serie.trim().to_string();
        let new = sqlx::query(
            "INSERT INTO fiscal.pedidos (client_id, emp_id, pedf_id, serie, cli_id, cli_nome, dta_emissao, total,
                 tot_prod, tot_serv, frmp_id, cndp_id, usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT DO NOTHING",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(&serie)
        .bind(ev.customer_id)
        .bind(Some(ev.customer_name.trim()).filter(|s| !s.is_empty()))
        .bind(day)
        .bind(dec("Total", &ev.total)?)
        .bind(dec("Total dos produtos", &ev.products_total)?)
        .bind(dec("Total dos serviços", &ev.services_total)?)
        .bind((ev.payment_method_id > 0).then_some(ev.payment_method_id))
        .bind((ev.payment_condition_id > 0).then_some(ev.payment_condition_id))
        .bind((ev.user_id > 0).then_some(ev.user_id))
        .execute(&mut **tx)
        .await?
        .rows_affected()
            == 1;
        if !new {
            tracing::info!(
                client_id,
                emp = ev.emp_id,
                pedido = ev.pedido_id,
                "order already recorded"
            );
            return Ok(());
        }
        let mut charges: HashMap<(String, i64), (Decimal, Decimal)> = HashMap::new();
        for c in &ev.line_charges {
            charges.insert(
                (c.kind.trim().to_string(), c.item),
                (dec("Acréscimo", &c.surcharge)?, dec("Frete", &c.freight)?),
            );
        }
        let n = ev.sale_lines.len();
        let mut cols: (Vec<String>, Vec<i64>, Vec<i64>) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut values: [Vec<Decimal>; 6] = Default::default();
        for l in &ev.sale_lines {
            let kind = match l.kind.trim() {
                k @ ("P" | "S") => k.to_string(),
                other => {
                    return Err(Error::validation(format!(
                        "Tipo de item inválido: '{other}'."
                    )))
                }
            };
            let (surcharge, freight) = charges
                .get(&(kind.clone(), l.item))
                .copied()
                .unwrap_or_default();
            cols.0.push(kind);
            cols.1.push(l.item);
            cols.2.push(l.item_id);
            for (v, x) in values.iter_mut().zip([
                dec("Quantidade", &l.quantity)?,
                dec("Valor unitário", &l.unit_price)?,
                dec("Desconto", &l.discount)?,
                surcharge,
                freight,
                dec("Total do item", &l.total)?,
            ]) {
                v.push(x);
            }
        }
        let [qty, unit, disc, surcharge, freight, total] = values;
        sqlx::query(
            "INSERT INTO fiscal.pedidos_itens (client_id, emp_id, pedf_id, serie, tipo, item, item_id, qtde, vlr_unit,
                 vlr_desconto, vlr_acrescimo, vlr_frete, vlr_total)
             SELECT $1, $2, $3, $4, u.tipo, u.item, u.item_id, u.qtde, u.unit, u.disc, u.acre, u.frete, u.total
             FROM UNNEST($5::text[], $6::bigint[], $7::bigint[], $8::numeric[], $9::numeric[], $10::numeric[],
                         $11::numeric[], $12::numeric[], $13::numeric[])
                  AS u(tipo, item, item_id, qtde, unit, disc, acre, frete, total)",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(&serie)
        .bind(&cols.0)
        .bind(&cols.1)
        .bind(&cols.2)
        .bind(&qty)
        .bind(&unit)
        .bind(&disc)
        .bind(&surcharge)
        .bind(&freight)
        .bind(&total)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
