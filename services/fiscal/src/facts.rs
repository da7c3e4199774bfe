//! The invoiced orders (`erp.orders.pedido.faturado`, [`InvoicedOrder`]): the
//! header and the sale lines, with each line's surcharge and freight, written
//! once per order into `fiscal.pedidos` and `fiscal.pedidos_itens`, the orders
//! an NF-e can be issued for. A second fact about the same order changes
//! nothing. An undecodable fact, another tenant's, or a value that is not a
//! decimal is refused for good.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::bus::facts::{dec, invoiced_order, line_kind, record_invoiced};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;

pub struct InvoicedOrder;

#[async_trait]
impl Effect for InvoicedOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, day) = invoiced_order(msg, client_id)?;
        let serie = ev.serie.trim().to_string();
        if !record_invoiced(tx, "fiscal.pedidos", "dta_emissao", client_id, &ev, day).await? {
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
            let kind = line_kind(&l.kind)?;
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
