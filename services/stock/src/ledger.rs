//! The stock ledger's arithmetic and its one write path. A movement changes the
//! balance of a product in a company: an entry moves the average cost to the
//! weighted mean of what was there and what came in; an exit leaves at the average
//! cost and never takes more than there is. `record` locks the balance row, so
//! concurrent movements of one product apply one after the other.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::{Decimal, RoundingStrategy};

pub const INSUFFICIENT: &str = "Estoque insuficiente.";

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
    if qty <= Decimal::ZERO {
        return Err(Error::validation("A quantidade deve ser maior que zero."));
    }
    match kind {
        Kind::Entry => {
            if unit_cost < Decimal::ZERO {
                return Err(Error::validation("O custo unitário não pode ser negativo."));
            }
            let new_qty = b.qty + qty;
            let avg = cost((b.qty * b.avg_cost + qty * unit_cost) / new_qty);
            Ok((
                Balance {
                    qty: new_qty,
                    avg_cost: avg,
                },
                unit_cost,
            ))
        }
        Kind::Exit => {
            if qty > b.qty {
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
    match kind {
        Kind::Exit => apply(b, Kind::Entry, qty, unit_cost).map(|r| r.0),
        Kind::Entry => {
            if qty > b.qty {
                return Err(Error::Conflict(
                    "A entrada já foi consumida por saídas; não pode ser desfeita.".into(),
                ));
            }
            let new_qty = b.qty - qty;
            let avg = if new_qty.is_zero() {
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
}

async fn locked_balance(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Balance> {
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

/// Writes one movement and the balance it leaves, in the caller's transaction.
/// Returns the balance and the movement's unit cost.
pub async fn record(tx: &mut Tx, client: i64, m: &Movement<'_>) -> Result<(Balance, Decimal)> {
    let before = locked_balance(tx, client, m.emp, m.product).await?;
    let (after, unit_cost) = if m.reversal {
        (
            reverse(before, m.kind.opposite(), m.qty, m.unit_cost)?,
            m.unit_cost,
        )
    } else {
        apply(before, m.kind, m.qty, m.unit_cost)?
    };
    sqlx::query(
        "UPDATE stock.saldos SET sald_qtde = $4, sald_custo_medio = $5, sald_atualizado = now()
         WHERE client_id = $1 AND sald_emp_id = $2 AND sald_prod_id = $3",
    )
    .bind(client)
    .bind(m.emp)
    .bind(m.product)
    .bind(after.qty)
    .bind(after.avg_cost)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO stock.movimentos (client_id, movi_emp_id, movi_prod_id, movi_loca_id, movi_tipo, movi_qtde,
             movi_custo_unit, movi_origem, movi_origem_id, movi_saldo_apos, movi_custo_medio_apos)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(client)
    .bind(m.emp)
    .bind(m.product)
    .bind(m.location)
    .bind(m.kind.code())
    .bind(m.qty)
    .bind(unit_cost)
    .bind(m.origin)
    .bind(&m.origin_id)
    .bind(after.qty)
    .bind(after.avg_cost)
    .execute(&mut **tx)
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
}
