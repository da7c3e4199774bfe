//! The stock side of purchases: what stock does with orders' facts
//! `erp.orders.compra.finalizada` ([`FinalizedPurchase`], consumer
//! `stock-compra-finalizada`) and `erp.orders.compra.cancelada`
//! ([`CancelledPurchase`], `stock-compra-cancelada`).
//!
//! - A finalized purchase enters stock: one entry movement per item (origin
//!   `COMPRA`, origin id `{compra}/{item}`, the stock card's document 'Compra
//!   {compra}, item {item}') in the purchase's company (`emp_id`), in the item's
//!   location or the default one, at the item's landed unit cost. The average cost
//!   takes the item's landed total exactly: (qty before x average before + landed
//!   total) / (qty before + qty), not quantity x the unit cost rounded to 4 places
//!   (the movement keeps the total, so its undo and the recalculation use it too).
//! - Grid: an item with quantities per grid variant (`PurchaseItem.variants`,
//!   catalog's PRGR_ID, in the stock unit) enters as one movement per variant (the
//!   variant's quantity enters its balance too) and one for what is left without a
//!   variant, each at the item's landed unit cost; the item's landed total is split
//!   among them by quantity, rounded to the cent cumulatively, so the parts add up
//!   to the total exactly and the average cost takes all of it. The grid adding up
//!   to more than the item, or naming an invalid variant, refuses the fact.
//! - A cancelled purchase leaves stock: the entries its finalization wrote, read
//!   from the ledger (not from the cancellation's items), are undone in reverse
//!   order, each an exit of the same quantity, location and cost marked as an undo,
//!   whose average cost is recomputed as every undo of an entry is
//!   (`ledger::reverse_valued`). The cancellation is a fact: the undo is recorded
//!   even when the entered goods were sold meanwhile and the balance goes below
//!   zero (as issued exits are).
//! - Exactly once: the inbox skips a redelivered event; `stock.compras` (one row
//!   per purchase: 'F' entered, 'C' cancelled) skips a second fact about the same
//!   purchase under another event id. The two consumers are independent, so a
//!   cancellation may be applied before its finalization (one consumer behind the
//!   other): it then writes no movement (there is nothing to undo, and no phantom
//!   negative stock is created) but records the purchase as cancelled, and the
//!   finalization that comes after enters nothing. Both are logged.
//! - Locks: a batch first claims (finalization) or locks (cancellation) its
//!   purchases' rows in key order in one statement, then `ledger::record_many`
//!   locks each product's balance row once, in key order, and writes one movement
//!   per item. Every writer takes purchase rows before balance rows, each level in
//!   key order, so the consumers never deadlock with each other or with the exits.
//! - Refused for good (logged, counted in `erp_events_refused_total`, acknowledged):
//!   an undecodable payload, another tenant's, no company or purchase id, an item
//!   without a product, with a quantity or cost that is not a decimal, a negative
//!   quantity or cost. Items with quantity zero enter nothing.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada, PurchaseItem};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::ledger::{self, Movement};
use crate::payload::{decode, quantity, same_tenant};

pub use erp_proto::subjects::{COMPRA_CANCELADA, COMPRA_FINALIZADA};

/// The movements' origin.
pub const ORIGIN: &str = "COMPRA";

/// A purchase: (company, purchase id).
type Key = (i64, i64);

/// An entry a finalization wrote, as its undo reads it.
#[derive(sqlx::FromRow)]
struct Written {
    emp: i64,
    product: i64,
    location: Option<i64>,
    variant: Option<i64>,
    qty: Decimal,
    unit_cost: Decimal,
    /// The landed total (or its part of it).
    value: Option<Decimal>,
    origin_id: String,
}

fn money(item: i64, what: &str, s: &str) -> Result<Option<Decimal>> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    let v = Decimal::from_str(s).map_err(|_| {
        Error::validation(format!("Item {item} da compra: {what} inválido: '{s}'."))
    })?;
    if v < Decimal::ZERO {
        return Err(Error::validation(format!(
            "Item {item} da compra: {what} negativo."
        )));
    }
    Ok(Some(v))
}

/// The ledger keeps unit costs with 4 places.
fn unit(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
}

fn key_of(client_id: i64, payload_client: i64, emp: i64, compra: i64) -> Result<Key> {
    same_tenant(client_id, payload_client)?;
    if emp <= 0 || compra <= 0 {
        return Err(Error::validation(
            "Evento de compra sem empresa ou sem compra.",
        ));
    }
    Ok((emp, compra))
}

/// `total` split among `parts` (quantities adding up to `qty`) by quantity: each
/// part's value is the cumulative share rounded to the cent minus the previous
/// one, never above the total, so the parts are never negative and add up to
/// exactly `total` (the last part takes what rounding left).
pub fn split_value(total: Decimal, parts: &[Decimal], qty: Decimal) -> Vec<Decimal> {
    let mut out = Vec::with_capacity(parts.len());
    let (mut cumulative, mut given) = (Decimal::ZERO, Decimal::ZERO);
    for (i, part) in parts.iter().enumerate() {
        cumulative += *part;
        let upto = if i + 1 == parts.len() || qty.is_zero() {
            total
        } else {
            (total * cumulative / qty)
                .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
                .min(total)
        };
        out.push(upto - given);
        given = upto;
    }
    out
}

/// An item's grid: (variant, quantity) per variant in the given order, refused when
/// a variant is not a positive id, a quantity not a positive decimal or the sum
/// more than the item's quantity.
fn grid(ev: &CompraFinalizada, it: &PurchaseItem, qty: Decimal) -> Result<Vec<(i64, Decimal)>> {
    let mut out = Vec::with_capacity(it.variants.len());
    for v in &it.variants {
        let q = quantity(&v.quantity)?;
        if v.variant_id <= 0 || q < Decimal::ZERO {
            return Err(Error::validation(format!(
                "Item {} da compra {}: grade inválida.",
                it.item, ev.compra_id
            )));
        }
        if !q.is_zero() {
            out.push((v.variant_id, q));
        }
    }
    if out.iter().map(|v| v.1).sum::<Decimal>() > qty {
        return Err(Error::validation(format!(
            "Item {} da compra {}: a grade soma mais que a quantidade do item.",
            it.item, ev.compra_id
        )));
    }
    Ok(out)
}

/// One entry per item with a quantity, in item order, at the landed unit cost
/// (or the landed total over the quantity when the unit cost is missing), carrying
/// the landed total when given; an item with a grid enters as one entry per
/// variant and one for the rest (see the module's doc).
pub fn entries(ev: &CompraFinalizada) -> Result<Vec<Movement<'static>>> {
    let mut items: Vec<&PurchaseItem> = ev.items.iter().collect();
    items.sort_by_key(|i| i.item);
    let mut out = Vec::with_capacity(items.len());
    for it in items {
        if it.product_id <= 0 {
            return Err(Error::validation(format!(
                "Item {} da compra {} sem produto.",
                it.item, ev.compra_id
            )));
        }
        let qty = quantity(&it.quantity)?;
        if qty < Decimal::ZERO {
            return Err(Error::validation(format!(
                "Item {} da compra {}: quantidade negativa.",
                it.item, ev.compra_id
            )));
        }
        if qty.is_zero() {
            continue;
        }
        let total = money(it.item, "custo total", &it.landed_total)?;
        let unit_cost = match (money(it.item, "custo unitário", &it.unit_cost)?, total) {
            (Some(u), _) => unit(u),
            (None, Some(t)) => unit(t / qty),
            (None, None) => {
                return Err(Error::validation(format!(
                    "Item {} da compra {} sem custo.",
                    it.item, ev.compra_id
                )))
            }
        };
        let mut parts: Vec<(Option<i64>, Decimal)> = grid(ev, it, qty)?
            .into_iter()
            .map(|(v, q)| (Some(v), q))
            .collect();
        let rest = qty - parts.iter().map(|p| p.1).sum::<Decimal>();
        if !rest.is_zero() {
            parts.push((None, rest));
        }
        let quantities: Vec<Decimal> = parts.iter().map(|p| p.1).collect();
        let values: Vec<Option<Decimal>> = match total {
            Some(t) => split_value(t, &quantities, qty)
                .into_iter()
                .map(Some)
                .collect(),
            None => vec![None; parts.len()],
        };
        for ((variant, q), value) in parts.into_iter().zip(values) {
            let mut m = Movement::new(
                ev.emp_id,
                it.product_id,
                ledger::Kind::Entry,
                q,
                ORIGIN,
                format!("{}/{}", ev.compra_id, it.item),
            );
            m.location = (it.location_id > 0).then_some(it.location_id);
            m.variant = variant;
            m.unit_cost = unit_cost;
            m.value = value;
            out.push(m);
        }
    }
    Ok(out)
}

/// `erp.orders.compra.finalizada`: the purchase's items enter stock at landed cost.
pub struct FinalizedPurchase;

#[async_trait]
impl Effect for FinalizedPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        self.apply_batch(tx, client_id, &[msg]).await
    }

    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        // Decoded and checked first: a bad event fails the batch before any write.
        let mut docs: Vec<(Key, CompraFinalizada, Vec<Movement<'static>>)> = Vec::new();
        for msg in msgs {
            let ev: CompraFinalizada = decode(msg)?;
            let key = key_of(client_id, ev.client_id, ev.emp_id, ev.compra_id)?;
            let moves = entries(&ev)?;
            docs.push((key, ev, moves));
        }
        // One row per purchase (the first fact of a purchase in the batch), in key
        // order; the ones already there (entered by another fact, or cancelled
        // first) enter nothing.
        let mut firsts: HashMap<Key, usize> = HashMap::new();
        for (i, (key, _, _)) in docs.iter().enumerate() {
            firsts.entry(*key).or_insert(i);
        }
        let mut claim: Vec<usize> = firsts.values().copied().collect();
        claim.sort_unstable_by_key(|i| docs[*i].0);
        let claimed: HashSet<Key> = sqlx::query_as::<_, (i64, i64)>(
            "INSERT INTO stock.compras AS c (client_id, comp_emp_id, comp_id, comp_situacao, comp_numero,
                 comp_serie, comp_fornecedor, comp_itens, comp_finalizada)
             SELECT $1, e, i, 'F', n, s, f, q, now()
             FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::int[])
                  WITH ORDINALITY AS v(e, i, n, s, f, q, o)
             ORDER BY o
             ON CONFLICT (client_id, comp_emp_id, comp_id) DO NOTHING
             RETURNING c.comp_emp_id, c.comp_id",
        )
        .bind(client_id)
        .bind(claim.iter().map(|i| docs[*i].0 .0).collect::<Vec<_>>())
        .bind(claim.iter().map(|i| docs[*i].0 .1).collect::<Vec<_>>())
        .bind(claim.iter().map(|i| docs[*i].1.number.as_str()).collect::<Vec<_>>())
        .bind(claim.iter().map(|i| docs[*i].1.serie.as_str()).collect::<Vec<_>>())
        .bind(claim.iter().map(|i| docs[*i].1.supplier_name.as_str()).collect::<Vec<_>>())
        .bind(
            claim
                .iter()
                .map(|i| i32::try_from(docs[*i].2.len()).unwrap_or(i32::MAX))
                .collect::<Vec<_>>(),
        )
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .collect();
        let mut moves = Vec::new();
        for (i, (key, _, items)) in docs.into_iter().enumerate() {
            if claimed.contains(&key) && firsts.get(&key) == Some(&i) {
                moves.extend(items);
            } else {
                tracing::warn!(
                    client_id,
                    emp = key.0,
                    compra = key.1,
                    "purchase already entered or cancelled in stock: nothing entered"
                );
            }
        }
        ledger::record_many(tx, client_id, &moves).await?;
        Ok(())
    }
}

/// `erp.orders.compra.cancelada`: the entries of the purchase are undone.
pub struct CancelledPurchase;

#[async_trait]
impl Effect for CancelledPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        self.apply_batch(tx, client_id, &[msg]).await
    }

    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        let mut keys = Vec::with_capacity(msgs.len());
        for msg in msgs {
            let ev: CompraCancelada = decode(msg)?;
            keys.push(key_of(client_id, ev.client_id, ev.emp_id, ev.compra_id)?);
        }
        keys.sort_unstable();
        keys.dedup();
        // Locks every purchase's row in key order, creating it as cancelled when
        // stock never saw the purchase entered; answers the state before this
        // cancellation ('F': entered, to undo).
        let states: Vec<(i64, i64, String, bool)> = sqlx::query_as(
            "INSERT INTO stock.compras AS c (client_id, comp_emp_id, comp_id, comp_situacao, comp_cancelada)
             SELECT $1, e, i, 'C', now()
             FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS v(e, i, o)
             ORDER BY o
             ON CONFLICT (client_id, comp_emp_id, comp_id)
             DO UPDATE SET comp_cancelada = coalesce(c.comp_cancelada, EXCLUDED.comp_cancelada)
             RETURNING c.comp_emp_id, c.comp_id, c.comp_situacao::text, c.comp_finalizada IS NULL",
        )
        .bind(client_id)
        .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
        .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
        .fetch_all(&mut **tx)
        .await?;
        let mut undo: Vec<Key> = Vec::new();
        for (emp, compra, state, never_entered) in states {
            if state == "F" {
                undo.push((emp, compra));
            } else if never_entered {
                tracing::warn!(
                    client_id,
                    emp,
                    compra,
                    "purchase cancelled before stock entered it: nothing to undo; its entries will not be written"
                );
            }
        }
        if undo.is_empty() {
            return Ok(());
        }
        undo.sort_unstable();
        // What the finalizations wrote, last first.
        let written: Vec<Written> = sqlx::query_as(
            "SELECT m.movi_emp_id AS emp, m.movi_prod_id AS product, m.movi_loca_id AS location,
                        m.movi_prgr_id AS variant, m.movi_qtde AS qty, m.movi_custo_unit AS unit_cost,
                        m.movi_custo_total AS value, m.movi_origem_id AS origin_id
                 FROM stock.movimentos m
                 JOIN unnest($2::bigint[], $3::text[]) AS k(e, i)
                   ON m.movi_emp_id = k.e AND split_part(m.movi_origem_id, '/', 1) = k.i
                 WHERE m.client_id = $1 AND m.movi_origem = 'COMPRA' AND m.movi_tipo = 'E'
                   AND NOT m.movi_estorno
                 ORDER BY m.movi_id DESC",
        )
        .bind(client_id)
        .bind(undo.iter().map(|k| k.0).collect::<Vec<_>>())
        .bind(undo.iter().map(|k| k.1.to_string()).collect::<Vec<_>>())
        .fetch_all(&mut **tx)
        .await?;
        let moves: Vec<Movement<'static>> = written
            .into_iter()
            .map(|w| {
                let mut m = Movement::new(
                    w.emp,
                    w.product,
                    ledger::Kind::Exit,
                    w.qty,
                    ORIGIN,
                    w.origin_id,
                );
                m.location = w.location;
                m.variant = w.variant;
                m.unit_cost = w.unit_cost;
                m.value = w.value;
                m.reversal = true;
                m.allow_negative = true;
                m
            })
            .collect();
        ledger::record_many(tx, client_id, &moves).await?;
        sqlx::query(
            "UPDATE stock.compras SET comp_situacao = 'C'
             WHERE client_id = $1 AND (comp_emp_id, comp_id) IN
                   (SELECT e, i FROM unnest($2::bigint[], $3::bigint[]) AS k(e, i))",
        )
        .bind(client_id)
        .bind(undo.iter().map(|k| k.0).collect::<Vec<_>>())
        .bind(undo.iter().map(|k| k.1).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    fn item(product: i64, item: i64, qty: &str, unit: &str, total: &str) -> PurchaseItem {
        PurchaseItem {
            product_id: product,
            product_emp_id: 1,
            quantity: qty.into(),
            unit_cost: unit.into(),
            landed_total: total.into(),
            item,
            location_id: 0,
            variants: Vec::new(),
        }
    }

    fn purchase(items: Vec<PurchaseItem>) -> CompraFinalizada {
        CompraFinalizada { client_id: 1, emp_id: 1, compra_id: 123, items, ..Default::default() }
    }

    #[test]
    fn one_entry_per_item_in_item_order_at_landed_cost() {
        let mut located = item(8, 1, "2", "1.5", "3.00");
        located.location_id = 4;
        let ev = purchase(vec![
            item(7, 3, "3", "", "10.00"),
            located,
            item(9, 2, "0", "1", "0"),
        ]);
        let got: Vec<_> = entries(&ev)
            .expect("entries")
            .into_iter()
            .map(|m| {
                (
                    m.product,
                    m.origin_id,
                    m.qty,
                    m.unit_cost,
                    m.value,
                    m.location,
                    m.kind,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    8,
                    String::from("123/1"),
                    d("2"),
                    d("1.5"),
                    Some(d("3.00")),
                    Some(4),
                    ledger::Kind::Entry
                ),
                // No unit cost: the landed total over the quantity, 4 places.
                (
                    7,
                    String::from("123/3"),
                    d("3"),
                    d("3.3333"),
                    Some(d("10.00")),
                    None,
                    ledger::Kind::Entry
                ),
            ]
        );
    }

    #[test]
    fn bad_items_are_refused() {
        for (it, why) in [
            (item(0, 1, "1", "1", "1"), "sem produto"),
            (item(7, 1, "x", "1", "1"), "Quantidade inválida"),
            (item(7, 1, "-1", "1", "1"), "quantidade negativa"),
            (item(7, 1, "1", "abc", "1"), "custo unitário inválido"),
            (item(7, 1, "1", "-2", ""), "custo unitário negativo"),
            (item(7, 1, "1", "", ""), "sem custo"),
        ] {
            let e = entries(&purchase(vec![it])).err().map(|e| e.to_string());
            assert!(
                e.as_deref().is_some_and(|e| e.contains(why)),
                "{why}: {e:?}"
            );
        }
    }

    /// Item 1: 10 in the stock unit landed at 100.01, a grid of 3 (variant 41) and
    /// 4 (variant 42): 3/10 of 100.01 = 30.003 -> 30.00; 7/10 = 70.007 -> 70.01,
    /// minus 30.00 = 40.01; the 3 left without a variant take 100.01 - 70.01 =
    /// 30.00. The parts add up to 100.01.
    #[test]
    fn a_grid_item_enters_per_variant_and_the_rest_with_its_total_split() {
        let mut it = item(8, 1, "10", "10.001", "100.01");
        it.variants = vec![
            erp_proto::orders::v1::VariantQuantity { variant_id: 41, quantity: "3".into() },
            erp_proto::orders::v1::VariantQuantity { variant_id: 42, quantity: "4".into() },
        ];
        let got: Vec<_> = entries(&purchase(vec![it]))
            .expect("entries")
            .into_iter()
            .map(|m| (m.variant, m.qty, m.unit_cost, m.value, m.origin_id))
            .collect();
        let one = String::from("123/1");
        assert_eq!(
            got,
            vec![
                (Some(41), d("3"), d("10.001"), Some(d("30.00")), one.clone()),
                (Some(42), d("4"), d("10.001"), Some(d("40.01")), one.clone()),
                (None, d("3"), d("10.001"), Some(d("30.00")), one),
            ]
        );
        assert_eq!(
            split_value(d("0.01"), &[d("1"), d("1"), d("1")], d("3")),
            vec![d("0.00"), d("0.01"), d("0.00")]
        );
        let mut over = item(8, 1, "2", "1", "2");
        over.variants =
            vec![erp_proto::orders::v1::VariantQuantity { variant_id: 41, quantity: "3".into() }];
        let e = entries(&purchase(vec![over])).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("Item 1 da compra 123: a grade soma mais que a quantidade do item.")
        );
        let mut bad = item(8, 1, "2", "1", "2");
        bad.variants =
            vec![erp_proto::orders::v1::VariantQuantity { variant_id: 0, quantity: "1".into() }];
        assert!(entries(&purchase(vec![bad])).is_err());
    }

    /// By hand: 10 at 5.00 (50.00), purchase of 20 landed at 130.00 (6.50 each):
    /// (50 + 130) / 30 = 6.00; undone: (30 x 6 - 130) / 10 = 5.00. With a landed
    /// total that is not quantity x unit cost (3 for 10.00, 3.3333 each) the total
    /// is what counts: (50 + 10) / 13 = 4.6154 (4.615384...), and its undo gives
    /// (13 x 4.6154 - 10) / 10 = 5.0000 (5.00002).
    #[test]
    fn the_landed_total_moves_the_average_and_its_undo_takes_it_out() {
        let b = ledger::Balance { qty: d("10"), avg_cost: d("5") };
        let (after, cost) = ledger::apply_valued(
            b,
            ledger::Kind::Entry,
            d("20"),
            d("6.5"),
            Some(d("130.00")),
            false,
        )
        .expect("entry");
        assert_eq!(
            (after.qty, after.avg_cost, cost),
            (d("30"), d("6"), d("6.5"))
        );
        let back = ledger::reverse_valued(
            after,
            ledger::Kind::Entry,
            d("20"),
            d("6.5"),
            Some(d("130.00")),
            true,
        )
        .expect("undo");
        assert_eq!(back, b);

        let (odd, _) = ledger::apply_valued(
            b,
            ledger::Kind::Entry,
            d("3"),
            d("3.3333"),
            Some(d("10.00")),
            false,
        )
        .expect("entry");
        assert_eq!(odd, ledger::Balance { qty: d("13"), avg_cost: d("4.6154") });
        let back = ledger::reverse_valued(
            odd,
            ledger::Kind::Entry,
            d("3"),
            d("3.3333"),
            Some(d("10.00")),
            true,
        )
        .expect("undo");
        assert_eq!(back, b);
        // Into an empty balance the average is the landed total over the quantity.
        let (first, _) = ledger::apply_valued(
            ledger::Balance::default(),
            ledger::Kind::Entry,
            d("3"),
            d("3.3333"),
            Some(d("10.00")),
            false,
        )
        .expect("entry");
        assert_eq!(first.avg_cost, d("3.3333"));
        // The undo of a purchase whose goods were sold meanwhile goes below zero.
        let sold = ledger::Balance { qty: d("5"), avg_cost: d("6") };
        let neg = ledger::reverse_valued(
            sold,
            ledger::Kind::Entry,
            d("20"),
            d("6.5"),
            Some(d("130.00")),
            true,
        )
        .expect("undo below zero");
        assert_eq!(neg, ledger::Balance { qty: d("-15"), avg_cost: d("6") });
    }
}
