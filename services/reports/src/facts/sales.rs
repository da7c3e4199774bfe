//! The sales facts: `erp.orders.pedido.faturado` ([`InvoicedOrder`]) writes the
//! order's header (`vendas`), its lines (`vendasitens`) and adds them to the
//! rollups (`vendasdia` per day, item and customer; `vendasitemdia` per day and
//! item; `vendasdecendio` per ten days and item; `vendasmes` per month and item; `vendasformadia` per day and payment
//! method) in the consumer's transaction, once per order (the header's
//! key; a second fact about the same order under another event id changes
//! nothing). A batch of facts writes each order's header and lines and then
//! adds all its new orders to the rollups at once, one row per key. An
//! undecodable fact, another tenant's, or a value that is not a decimal is
//! refused for good.

use async_trait::async_trait;
use erp_platform::bus::facts::{invoiced_order, line_kind, record_invoiced};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::Result;

use super::dec;

pub struct InvoicedOrder;

/// An order recorded by this batch, whose lines still have to go into the
/// rollups.
struct Recorded {
    emp_id: i64,
    pedido_id: i64,
    serie: String,
}

#[async_trait]
impl Effect for InvoicedOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        self.apply_batch(tx, client_id, &[msg]).await
    }

    /// Each order's header and lines are written as it comes; the rollups take
    /// the batch's new orders at the end, summed per key, so that a key a
    /// hundred orders of the batch share is updated once and not a hundred times.
    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        let mut recorded = Vec::with_capacity(msgs.len());
        for msg in msgs {
            if let Some(r) = record(tx, client_id, msg).await? {
                crate::business_metrics::order_recorded(&msg.id);
                recorded.push(r);
            }
        }
        if recorded.is_empty() {
            return Ok(());
        }
        let mut emps: Vec<i64> = recorded.iter().map(|r| r.emp_id).collect();
        emps.sort_unstable();
        emps.dedup();
        for emp in emps {
            crate::live::figures_moved(tx, client_id, emp, crate::live::SALES).await?;
        }
        fold(tx, client_id, &recorded).await
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::invoiced(client_id, msgs);
    }
}

/// Writes an order's header and lines; `None` when the order was already
/// recorded (a second fact about it changes nothing).
async fn record(tx: &mut Tx, client_id: i64, msg: &Message) -> Result<Option<Recorded>> {
    let (ev, day) = invoiced_order(msg, client_id)?;
    let serie = ev.serie.trim().to_string();
    if !record_invoiced(tx, "reports.vendas", "dta", client_id, &ev, day).await? {
        return Ok(None);
    }
    let n = ev.sale_lines.len();
    let (mut kinds, mut items, mut ids, mut qty, mut unit, mut disc, mut total) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for l in &ev.sale_lines {
        let kind = line_kind(&l.kind)?;
        kinds.push(kind);
        items.push(l.item);
        ids.push(l.item_id);
        qty.push(dec("Quantidade", &l.quantity)?);
        unit.push(dec("Valor unitário", &l.unit_price)?);
        disc.push(dec("Desconto", &l.discount)?);
        total.push(dec("Total do item", &l.total)?);
    }
    sqlx::query(
        "INSERT INTO reports.vendasitens (client_id, emp_id, pedf_id, serie, tipo, item, item_id, dta, cli_id, qtde,
             vlr_unit, vlr_desconto, vlr_total)
         SELECT $1, $2, $3, $4, u.tipo, u.item, u.item_id, $5, $6, u.qtde, u.unit, u.disc, u.total
         FROM UNNEST($7::text[], $8::bigint[], $9::bigint[], $10::numeric[], $11::numeric[], $12::numeric[],
                     $13::numeric[]) AS u(tipo, item, item_id, qtde, unit, disc, total)",
    )
    .bind(client_id)
    .bind(ev.emp_id)
    .bind(ev.pedido_id)
    .bind(&serie)
    .bind(day)
    .bind(ev.customer_id)
    .bind(&kinds)
    .bind(&items)
    .bind(&ids)
    .bind(&qty)
    .bind(&unit)
    .bind(&disc)
    .bind(&total)
    .execute(&mut **tx)
    .await?;
    Ok(Some(Recorded {
        emp_id: ev.emp_id,
        pedido_id: ev.pedido_id,
        serie,
    }))
}

/// The recorded orders' lines summed into the rollups, and their headers into
/// the payment methods' day, in one statement: one row per key for the whole
/// batch.
async fn fold(tx: &mut Tx, client_id: i64, orders: &[Recorded]) -> Result<()> {
    let emps: Vec<i64> = orders.iter().map(|r| r.emp_id).collect();
    let ids: Vec<i64> = orders.iter().map(|r| r.pedido_id).collect();
    let series: Vec<&str> = orders.iter().map(|r| r.serie.as_str()).collect();
    sqlx::query(
        "WITH o AS (SELECT * FROM UNNEST($2::bigint[], $3::bigint[], $4::text[]) AS o(emp_id, pedf_id, serie)),
         l AS (
             SELECT i.emp_id, i.dta, i.tipo, i.item_id, i.cli_id, sum(i.qtde) AS q, sum(i.vlr_total) AS v,
                    count(*)::int AS n
             FROM reports.vendasitens i JOIN o USING (emp_id, pedf_id, serie)
             WHERE i.client_id = $1
             GROUP BY i.emp_id, i.dta, i.tipo, i.item_id, i.cli_id),
         by_customer AS (
             INSERT INTO reports.vendasdia AS d (client_id, emp_id, dta, tipo, item_id, cli_id, qtde, valor, linhas)
             SELECT $1, emp_id, dta, tipo, item_id, cli_id, q, v, n FROM l
             ON CONFLICT (client_id, emp_id, dta, tipo, item_id, cli_id) DO UPDATE
             SET qtde = d.qtde + EXCLUDED.qtde, valor = d.valor + EXCLUDED.valor, linhas = d.linhas + EXCLUDED.linhas),
         by_day AS (
             INSERT INTO reports.vendasitemdia AS d (client_id, emp_id, dta, tipo, item_id, qtde, valor, linhas)
             SELECT $1, emp_id, dta, tipo, item_id, sum(q), sum(v), sum(n) FROM l GROUP BY emp_id, dta, tipo, item_id
             ON CONFLICT (client_id, emp_id, dta, tipo, item_id) DO UPDATE
             SET qtde = d.qtde + EXCLUDED.qtde, valor = d.valor + EXCLUDED.valor, linhas = d.linhas + EXCLUDED.linhas),
         by_ten_days AS (
             INSERT INTO reports.vendasdecendio AS d (client_id, emp_id, inicio, tipo, item_id, qtde, valor, linhas)
             SELECT $1, emp_id, reports.decendio(dta), tipo, item_id, sum(q), sum(v), sum(n) FROM l
             GROUP BY emp_id, reports.decendio(dta), tipo, item_id
             ON CONFLICT (client_id, emp_id, inicio, tipo, item_id) DO UPDATE
             SET qtde = d.qtde + EXCLUDED.qtde, valor = d.valor + EXCLUDED.valor, linhas = d.linhas + EXCLUDED.linhas),
         by_month AS (
             INSERT INTO reports.vendasmes AS d (client_id, emp_id, mes, tipo, item_id, qtde, valor, linhas)
             SELECT $1, emp_id, date_trunc('month', dta)::date, tipo, item_id, sum(q), sum(v), sum(n) FROM l
             GROUP BY emp_id, date_trunc('month', dta)::date, tipo, item_id
             ON CONFLICT (client_id, emp_id, mes, tipo, item_id) DO UPDATE
             SET qtde = d.qtde + EXCLUDED.qtde, valor = d.valor + EXCLUDED.valor, linhas = d.linhas + EXCLUDED.linhas)
         INSERT INTO reports.vendasformadia AS d (client_id, emp_id, dta, frmp_id, total, pedidos)
         SELECT $1, v.emp_id, v.dta, coalesce(v.frmp_id, 0), sum(v.total), count(*)::int
         FROM reports.vendas v JOIN o USING (emp_id, pedf_id, serie)
         WHERE v.client_id = $1
         GROUP BY v.emp_id, v.dta, coalesce(v.frmp_id, 0)
         ON CONFLICT (client_id, emp_id, dta, frmp_id) DO UPDATE
         SET total = d.total + EXCLUDED.total, pedidos = d.pedidos + EXCLUDED.pedidos",
    )
    .bind(client_id)
    .bind(&emps)
    .bind(&ids)
    .bind(&series)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
