//! Customers' credit: the limit catalog gives a customer (`CLI_LIMITE_CREDITO`,
//! copied by `copies`) against what the customer owes in open and partly paid
//! receivables.
//!
//! - **Per company**: customers are registered per company (`CLI_EMP_ID`), so a
//!   customer id names a customer only inside its company; the position of
//!   customer `c` of company `e` counts the receivables of company `e` only.
//! - **The open balance is kept, not summed on every question**: the trigger of
//!   `contasreceber` (migration `20261126000000`) moves `finance.clientes.aberto`
//!   in the transaction of every receivable write (made from an invoice, typed,
//!   settled, reversed, cancelled, removed), so the credit check before invoicing
//!   reads one row. [`realign`] (`GET /clientes/alinhacontasreceber`) derives the
//!   balances from the titles again and corrects the rows that differ: what a
//!   trigger cannot know about (titles loaded with triggers off, a restored
//!   table). It is idempotent: a second run corrects nothing.
//! - **No limit**: a limit that is empty or zero means no limit (the legacy column
//!   holds 0 for every customer nobody gave a limit to); any amount may then be
//!   invoiced.

use std::collections::BTreeMap;

use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;

/// A customer's credit in a company.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Catalog's customer fact arrived (name, situation and limit are known).
    pub known: bool,
    pub name: Option<String>,
    /// 1 active, 2 blocked.
    pub situation: Option<i32>,
    pub limit: Option<Decimal>,
    /// Balance of the customer's open and partly paid receivables.
    pub open: Decimal,
}

impl Position {
    pub fn has_limit(&self) -> bool {
        self.limit.is_some_and(|l| l > Decimal::ZERO)
    }

    /// The limit, zero when there is none.
    pub fn limit_or_zero(&self) -> Decimal {
        self.limit.unwrap_or_default()
    }

    /// Limit minus what is open (negative when the customer is over the limit);
    /// zero when there is no limit.
    pub fn available(&self) -> Decimal {
        if self.has_limit() {
            self.limit_or_zero() - self.open
        } else {
            Decimal::ZERO
        }
    }
}

type PositionRow = (bool, Option<String>, Option<i32>, Option<Decimal>, Decimal);

/// The credit of customer `customer` of company `emp`; a customer finance has
/// neither a copy nor a title of is unknown, with nothing open.
pub async fn position(tx: &mut Tx, client: i64, emp: i64, customer: i64) -> Result<Position> {
    let row: Option<PositionRow> = sqlx::query_as(
        "SELECT copiado AND NOT excluido, descricao, situacao, limite, aberto FROM finance.clientes
             WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(customer)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(match row {
        None => Position::default(),
        Some((known, name, situation, limit, open)) => {
            Position { known, name, situation, limit, open }
        }
    })
}

/// Locks the balance rows of `customers` of company `emp` in key order (creating
/// missing ones), so a settlement of several customers' titles and a concurrent
/// one never take them in opposite orders.
pub async fn lock_customers(tx: &mut Tx, client: i64, emp: i64, customers: &[i64]) -> Result<()> {
    let mut ids = customers.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() < 2 {
        // One row is taken by the trigger alone: no order to keep.
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO finance.clientes AS c (client_id, emp_id, cli_id)
         SELECT $1, $2, id FROM unnest($3::bigint[]) AS id ORDER BY id
         ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET aberto = c.aberto",
    )
    .bind(client)
    .bind(emp)
    .bind(&ids)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What [`realign`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Realigned {
    /// Customers with a balance row or a receivable in the company.
    pub customers: usize,
    /// Rows whose balance differed from their titles and was corrected.
    pub corrected: usize,
}

/// Derives every customer's open balance in company `emp` from the receivables
/// and corrects the rows that differ. The company's balance rows are locked
/// first; a receivable written meanwhile and not yet committed is left out of the
/// sums and its own change applies on top, because a correction is written as
/// the difference from the value seen under the lock.
pub async fn realign(tx: &mut Tx, client: i64, emp: i64) -> Result<Realigned> {
    let stored: Vec<(i64, Decimal)> = sqlx::query_as(
        "SELECT cli_id, aberto FROM finance.clientes WHERE client_id = $1 AND emp_id = $2
         ORDER BY cli_id FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .fetch_all(&mut **tx)
    .await?;
    let derived: Vec<(i64, Decimal)> = sqlx::query_as(
        "SELECT tit_pessoa_id, sum(tit_saldo) FROM finance.contasreceber
         WHERE client_id = $1 AND tit_emp_id = $2 AND NOT tit_cancelado GROUP BY tit_pessoa_id",
    )
    .bind(client)
    .bind(emp)
    .fetch_all(&mut **tx)
    .await?;
    let mut diff: BTreeMap<i64, Decimal> = BTreeMap::new();
    for (id, v) in &stored {
        *diff.entry(*id).or_default() -= *v;
    }
    for (id, v) in &derived {
        *diff.entry(*id).or_default() += *v;
    }
    let customers = diff.len();
    let (ids, deltas): (Vec<i64>, Vec<Decimal>) =
        diff.into_iter().filter(|(_, d)| !d.is_zero()).unzip();
    if !ids.is_empty() {
        sqlx::query(
            "INSERT INTO finance.clientes AS c (client_id, emp_id, cli_id, aberto)
             SELECT $1, $2, d.id, d.delta FROM unnest($3::bigint[], $4::numeric[]) AS d(id, delta) ORDER BY d.id
             ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET aberto = c.aberto + EXCLUDED.aberto",
        )
        .bind(client)
        .bind(emp)
        .bind(&ids)
        .bind(&deltas)
        .execute(&mut **tx)
        .await?;
    }
    Ok(Realigned { customers, corrected: ids.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_is_the_limit_less_what_is_open() {
        let p = |limit: Option<i64>, open: i64| Position {
            limit: limit.map(|l| Decimal::new(l, 2)),
            open: Decimal::new(open, 2),
            ..Position::default()
        };
        assert_eq!(
            p(Some(100_000), 80_000).available(),
            Decimal::new(20_000, 2)
        );
        assert_eq!(
            p(Some(100_000), 120_000).available(),
            Decimal::new(-20_000, 2)
        );
        assert!(!p(Some(0), 5_000).has_limit());
        assert!(!p(None, 5_000).has_limit());
        assert_eq!(p(None, 5_000).available(), Decimal::ZERO);
    }
}
