//! The stock ledger's arithmetic and its one write path. A movement changes the
//! balance of a product in a company: an entry moves the average cost to the
//! weighted mean of what was there and what came in; an exit leaves at the average
//! cost and never takes more than there is, unless its document was already issued
//! elsewhere (an invoiced order is a fact: the balance may go below zero and the
//! next recalculation or count fixes it). `record` locks the company balance row,
//! so concurrent movements of one product apply one after the other; in the same
//! transaction it keeps the per-location balance (`saldos_local`), writes the
//! movement row and the `erp.stock.movimento.registrado` outbox event.
//!
//! Locations: a movement without a location goes to the client's default location
//! (`localestoque.loca_padrao`), or to no location row when there is none. An exit
//! that names its location must find the quantity there ('Estoque insuficiente no
//! local de estoque.'); one that falls to the default location is checked against
//! the company balance only (stock entered before locations existed has no
//! location row to take from).

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::{Decimal, RoundingStrategy};

pub const INSUFFICIENT: &str = "Estoque insuficiente.";
pub const INSUFFICIENT_AT_LOCATION: &str = "Estoque insuficiente no local de estoque.";
/// Subject of the event each recorded movement publishes.
pub const MOVEMENT_SUBJECT: &str = "erp.stock.movimento.registrado";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Exit,
}

impl Kind {
    pub fn code(self) -> &'static str {
        match self {
            Kind::Entry => "E",
            Kind::Exit => "S",
        }
    }
    pub fn parse(code: &str) -> Result<Kind> {
        match code.trim().to_ascii_uppercase().as_str() {
            "E" => Ok(Kind::Entry),
            "S" => Ok(Kind::Exit),
            _ => Err(Error::validation(
                "Tipo de movimento inválido (E = entrada, S = saída).",
            )),
        }
    }
    pub fn opposite(self) -> Kind {
        match self {
            Kind::Entry => Kind::Exit,
            Kind::Exit => Kind::Entry,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Balance {
    pub qty: Decimal,
    pub avg_cost: Decimal,
}

impl Balance {
    /// SALDO_FINANCEIRO: the stock's value at average cost.
    pub fn value(&self) -> Decimal {
        (self.qty * self.avg_cost).round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
    }
}

fn cost(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
}

/// The balance after a movement, and the unit cost the movement carries (an exit
/// carries the average cost).
pub fn apply(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
) -> Result<(Balance, Decimal)> {
    apply_with(b, kind, qty, unit_cost, false)
}

/// `apply`, where `allow_negative` lets an exit take the balance below zero.
pub fn apply_with(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    allow_negative: bool,
) -> Result<(Balance, Decimal)> {
    if qty <= Decimal::ZERO {
        return Err(Error::validation("A quantidade deve ser maior que zero."));
    }
    match kind {
        Kind::Entry => {
            if unit_cost < Decimal::ZERO {
                return Err(Error::validation("O custo unitário não pode ser negativo."));
            }
            let new_qty = b.qty + qty;
            // Into an empty (or negative) balance the incoming cost is the average.
            let avg = if b.qty <= Decimal::ZERO {
                cost(unit_cost)
            } else {
                cost((b.qty * b.avg_cost + qty * unit_cost) / new_qty)
            };
            Ok((
                Balance {
                    qty: new_qty,
                    avg_cost: avg,
                },
                unit_cost,
            ))
        }
        Kind::Exit => {
            if qty > b.qty && !allow_negative {
                return Err(Error::Conflict(INSUFFICIENT.into()));
            }
            Ok((
                Balance {
                    qty: b.qty - qty,
                    avg_cost: b.avg_cost,
                },
                b.avg_cost,
            ))
        }
    }
}

/// Undoes an earlier movement (its document was deleted): an exit comes back at the
/// cost it left with; an entry leaves taking its own value out of the average.
pub fn reverse(b: Balance, kind: Kind, qty: Decimal, unit_cost: Decimal) -> Result<Balance> {
    reverse_with(b, kind, qty, unit_cost, false)
}

/// `reverse`, where `allow_negative` lets the undo of an entry go below zero.
pub fn reverse_with(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    allow_negative: bool,
) -> Result<Balance> {
    match kind {
        Kind::Exit => apply_with(b, Kind::Entry, qty, unit_cost, allow_negative).map(|r| r.0),
        Kind::Entry => {
            if qty > b.qty && !allow_negative {
                return Err(Error::Conflict(
                    "A entrada já foi consumida por saídas; não pode ser desfeita.".into(),
                ));
            }
            let new_qty = b.qty - qty;
            let avg = if new_qty <= Decimal::ZERO {
                b.avg_cost
            } else {
                cost(((b.qty * b.avg_cost - qty * unit_cost) / new_qty).max(Decimal::ZERO))
            };
            Ok(Balance {
                qty: new_qty,
                avg_cost: avg,
            })
        }
    }
}

pub struct Movement<'a> {
    pub emp: i64,
    pub product: i64,
    pub location: Option<i64>,
    pub kind: Kind,
    pub qty: Decimal,
    pub unit_cost: Decimal,
    pub origin: &'a str,
    pub origin_id: String,
    /// An undo of an earlier movement of the same origin.
    pub reversal: bool,
    /// The document was already issued elsewhere (an invoiced order, a service
    /// order's parts): its exit is recorded even if the balance goes below zero.
    /// Manual documents leave it false and are refused with 'Estoque insuficiente.'.
    pub allow_negative: bool,
}

impl<'a> Movement<'a> {
    /// A movement with no location, at no cost, that may not go below zero.
    pub fn new(
        emp: i64,
        product: i64,
        kind: Kind,
        qty: Decimal,
        origin: &'a str,
        origin_id: String,
    ) -> Self {
        Movement {
            emp,
            product,
            location: None,
            kind,
            qty,
            unit_cost: Decimal::ZERO,
            origin,
            origin_id,
            reversal: false,
            allow_negative: false,
        }
    }
}

/// Locks the product's company balance row (creating it at zero) for this transaction.
pub async fn lock(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Balance> {
    sqlx::query(
        "INSERT INTO stock.saldos (client_id, sald_emp_id, sald_prod_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    let (qty, avg_cost): (Decimal, Decimal) = sqlx::query_as(
        "SELECT sald_qtde, sald_custo_medio FROM stock.saldos
         WHERE client_id = $1 AND sald_emp_id = $2 AND sald_prod_id = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_one(&mut **tx)
    .await?;
    Ok(Balance { qty, avg_cost })
}

/// The client's default location, if one is marked.
pub async fn default_location(tx: &mut Tx, client: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT loca_id FROM stock.localestoque WHERE client_id = $1 AND loca_padrao LIMIT 1",
    )
    .bind(client)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Adds `delta` to the product's quantity in a location; returns the new quantity.
async fn add_at_location(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    location: i64,
    delta: Decimal,
) -> Result<Decimal> {
    Ok(sqlx::query_scalar(
        "INSERT INTO stock.saldos_local AS l (client_id, sall_emp_id, sall_prod_id, sall_loca_id, sall_qtde)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (client_id, sall_emp_id, sall_prod_id, sall_loca_id)
         DO UPDATE SET sall_qtde = l.sall_qtde + EXCLUDED.sall_qtde
         RETURNING sall_qtde",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(location)
    .bind(delta)
    .fetch_one(&mut **tx)
    .await?)
}

/// Writes the company balance to `saldos` and to the product copy (which the
/// read-only product registers list).
async fn store_balance(tx: &mut Tx, client: i64, emp: i64, product: i64, b: Balance) -> Result<()> {
    sqlx::query(
        "UPDATE stock.saldos SET sald_qtde = $4, sald_custo_medio = $5, sald_atualizado = now()
         WHERE client_id = $1 AND sald_emp_id = $2 AND sald_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(b.qty)
    .bind(b.avg_cost)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE stock.produtos SET prod_saldo = $4, prod_custo_medio = $5
         WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(b.qty)
    .bind(b.avg_cost)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes one movement and the balance it leaves, in the caller's transaction.
/// Returns the balance and the movement's unit cost.
pub async fn record(tx: &mut Tx, client: i64, m: &Movement<'_>) -> Result<(Balance, Decimal)> {
    let before = lock(tx, client, m.emp, m.product).await?;
    let (after, unit_cost) = if m.reversal {
        (
            reverse_with(
                before,
                m.kind.opposite(),
                m.qty,
                m.unit_cost,
                m.allow_negative,
            )?,
            m.unit_cost,
        )
    } else {
        apply_with(before, m.kind, m.qty, m.unit_cost, m.allow_negative)?
    };
    let location = match m.location {
        Some(l) => Some(l),
        None => default_location(tx, client).await?,
    };
    if let Some(loca) = location {
        let delta = match m.kind {
            Kind::Entry => m.qty,
            Kind::Exit => -m.qty,
        };
        let left = add_at_location(tx, client, m.emp, m.product, loca, delta).await?;
        if left < Decimal::ZERO && m.location.is_some() && m.kind == Kind::Exit && !m.allow_negative
        {
            return Err(Error::Conflict(INSUFFICIENT_AT_LOCATION.into()));
        }
    }
    store_balance(tx, client, m.emp, m.product, after).await?;
    sqlx::query(
        "INSERT INTO stock.movimentos (client_id, movi_emp_id, movi_prod_id, movi_loca_id, movi_tipo, movi_qtde,
             movi_custo_unit, movi_origem, movi_origem_id, movi_saldo_apos, movi_custo_medio_apos, movi_estorno)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(client)
    .bind(m.emp)
    .bind(m.product)
    .bind(location)
    .bind(m.kind.code())
    .bind(m.qty)
    .bind(unit_cost)
    .bind(m.origin)
    .bind(&m.origin_id)
    .bind(after.qty)
    .bind(after.avg_cost)
    .bind(m.reversal)
    .execute(&mut **tx)
    .await?;
    let event = erp_proto::stock::v1::MovimentoRegistrado {
        client_id: client,
        emp_id: m.emp,
        product_id: m.product,
        kind: m.kind.code().into(),
        quantity: m.qty.to_string(),
        unit_cost: unit_cost.to_string(),
        balance_after: after.qty.to_string(),
        average_cost_after: after.avg_cost.to_string(),
        origin: m.origin.into(),
        origin_id: m.origin_id.clone(),
        location_id: location.unwrap_or(0),
    };
    erp_platform::bus::outbox_insert(
        tx,
        crate::SCHEMA,
        MOVEMENT_SUBJECT,
        client,
        &event.encode_to_vec(),
    )
    .await?;
    Ok((after, unit_cost))
}

pub async fn balance(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Balance> {
    let row: Option<(Decimal, Decimal)> = sqlx::query_as(
        "SELECT sald_qtde, sald_custo_medio FROM stock.saldos
         WHERE client_id = $1 AND sald_emp_id = $2 AND sald_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row
        .map(|(qty, avg_cost)| Balance { qty, avg_cost })
        .unwrap_or_default())
}

/// The product's quantity in one location.
pub async fn balance_at(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    location: i64,
) -> Result<Decimal> {
    let q: Option<Decimal> = sqlx::query_scalar(
        "SELECT sall_qtde FROM stock.saldos_local
         WHERE client_id = $1 AND sall_emp_id = $2 AND sall_prod_id = $3 AND sall_loca_id = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(location)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(q.unwrap_or_default())
}

/// One stored movement, as the recalculation replays it.
#[derive(Clone, Copy, Debug)]
pub struct Replayed {
    pub kind: Kind,
    pub qty: Decimal,
    pub unit_cost: Decimal,
    pub reversal: bool,
}

/// The balance the movements lead to, in order, with the same arithmetic as
/// `record` (exits and undos are not refused here: what was written happened).
pub fn replay(moves: &[Replayed]) -> Balance {
    moves.iter().fold(Balance::default(), |b, m| {
        let next = if m.reversal {
            reverse_with(b, m.kind.opposite(), m.qty, m.unit_cost, true)
        } else {
            apply_with(b, m.kind, m.qty, m.unit_cost, true).map(|r| r.0)
        };
        // A stored movement has a positive quantity and a cost >= 0 (table checks);
        // should one not, it is skipped rather than stopping the recalculation.
        next.unwrap_or(b)
    })
}

/// Recomputes a product's balance and average cost from its movement rows and the
/// per-location balances from the movements' locations, and writes them. Returns
/// the balance before and after.
pub async fn recalculate(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
) -> Result<(Balance, Balance)> {
    let before = lock(tx, client, emp, product).await?;
    let rows: Vec<(String, Decimal, Decimal, bool)> = sqlx::query_as(
        "SELECT movi_tipo::text, movi_qtde, movi_custo_unit, movi_estorno FROM stock.movimentos
         WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3 ORDER BY movi_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_all(&mut **tx)
    .await?;
    let moves = rows
        .into_iter()
        .map(|(kind, qty, unit_cost, reversal)| {
            Ok(Replayed {
                kind: Kind::parse(&kind)?,
                qty,
                unit_cost,
                reversal,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let after = replay(&moves);
    store_balance(tx, client, emp, product, after).await?;
    sqlx::query(
        "DELETE FROM stock.saldos_local WHERE client_id = $1 AND sall_emp_id = $2 AND sall_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO stock.saldos_local (client_id, sall_emp_id, sall_prod_id, sall_loca_id, sall_qtde)
         SELECT client_id, movi_emp_id, movi_prod_id, movi_loca_id,
                sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END)
         FROM stock.movimentos
         WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3 AND movi_loca_id IS NOT NULL
         GROUP BY client_id, movi_emp_id, movi_prod_id, movi_loca_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    Ok((before, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    /// Worked by hand:
    /// | movement        | qty | avg cost                       | value  |
    /// | in 10 @ 5.00    | 10  | 5.0000                         | 50.00  |
    /// | in 5 @ 8.00     | 15  | (50 + 40) / 15 = 6.0000        | 90.00  |
    /// | out 3           | 12  | 6.0000                         | 72.00  |
    /// | in 8 @ 7.25     | 20  | (72 + 58) / 20 = 6.5000        | 130.00 |
    /// | in 3 @ 1.00     | 23  | (130 + 3) / 23 = 5.7826 (5.78260869…) | 133.00 |
    /// | out 23          | 0   | 5.7826                         | 0.00   |
    #[test]
    fn average_cost_follows_the_hand_computed_table() {
        let steps = [
            (Kind::Entry, "10", "5.00", "10", "5.0000", "50.00"),
            (Kind::Entry, "5", "8.00", "15", "6.0000", "90.00"),
            (Kind::Exit, "3", "0", "12", "6.0000", "72.00"),
            (Kind::Entry, "8", "7.25", "20", "6.5000", "130.00"),
            (Kind::Entry, "3", "1.00", "23", "5.7826", "133.00"),
            (Kind::Exit, "23", "0", "0", "5.7826", "0.00"),
        ];
        let mut b = Balance::default();
        for (kind, qty, unit, want_qty, want_avg, want_value) in steps {
            b = apply(b, kind, d(qty), d(unit))
                .map(|r| r.0)
                .expect("movement");
            assert_eq!(
                (b.qty, b.avg_cost, b.value()),
                (d(want_qty), d(want_avg), d(want_value))
            );
        }
        assert_eq!(
            apply(b, Kind::Exit, d("1"), d("0"))
                .err()
                .map(|e| e.to_string()),
            Some(INSUFFICIENT.into())
        );
    }

    #[test]
    fn reversals_restore_the_balance() {
        let b = Balance {
            qty: d("15"),
            avg_cost: d("6"),
        };
        let undone = reverse(b, Kind::Entry, d("5"), d("8")).expect("undo entry");
        assert_eq!(
            undone,
            Balance {
                qty: d("10"),
                avg_cost: d("5")
            }
        );
        let back = reverse(undone, Kind::Exit, d("3"), d("5")).expect("undo exit");
        assert_eq!(
            back,
            Balance {
                qty: d("13"),
                avg_cost: d("5")
            }
        );
        assert!(reverse(
            Balance {
                qty: d("2"),
                avg_cost: d("5")
            },
            Kind::Entry,
            d("5"),
            d("5")
        )
        .is_err());
    }

    #[test]
    fn replay_gives_the_hand_computed_balance_and_allows_invoiced_exits_below_zero() {
        let m = |kind, qty: &str, cost: &str, reversal| Replayed {
            kind,
            qty: d(qty),
            unit_cost: d(cost),
            reversal,
        };
        // in 10 @ 5, in 5 @ 8 (avg 6), out 3 @ 6, undo of the 5 @ 8 entry
        // (12 * 6 - 5 * 8) / 7 = 4.5714, out 9 (invoiced: -2), in 4 @ 3 (avg 3).
        let b = replay(&[
            m(Kind::Entry, "10", "5", false),
            m(Kind::Entry, "5", "8", false),
            m(Kind::Exit, "3", "6", false),
            m(Kind::Exit, "5", "8", true),
            m(Kind::Exit, "9", "4.5714", false),
            m(Kind::Entry, "4", "3", false),
        ]);
        assert_eq!(
            b,
            Balance {
                qty: d("2"),
                avg_cost: d("3")
            }
        );
        assert!(apply(Balance::default(), Kind::Exit, d("1"), d("0")).is_err());
        let (neg, _) =
            apply_with(Balance::default(), Kind::Exit, d("1"), d("0"), true).expect("allowed");
        assert_eq!(neg.qty, d("-1"));
    }
}
