//! Bank movements (`movimentacaobancaria`): the one write path of an account's
//! balance. An account's `bco_movimentos` is the signed sum of its movements
//! (credits add, debits subtract), changed in the same transaction as the movement
//! under the account's row lock, so `BCO_SALDO` (initial balance + movements) always
//! equals the initial balance plus the sum of the movements.
//!
//! Lock order, the same in every writer so none waits on another in a circle:
//! titles, then the id counters (settlements, movements), then the account. A
//! settlement reserves its movements' ids before it writes anything that checks the
//! account's key, and the engine numbers a manual movement before the register's
//! hooks lock the accounts.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

/// Credit ('C', money in) or debit ('D', money out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Credit,
    Debit,
}

impl Direction {
    pub fn code(self) -> &'static str {
        match self {
            Direction::Credit => "C",
            Direction::Debit => "D",
        }
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Credit => Direction::Debit,
            Direction::Debit => Direction::Credit,
        }
    }

    pub fn from_code(c: &str) -> Option<Direction> {
        match c.trim() {
            "C" => Some(Direction::Credit),
            "D" => Some(Direction::Debit),
            _ => None,
        }
    }

    fn signed(self, v: Decimal) -> Decimal {
        match self {
            Direction::Credit => v,
            Direction::Debit => -v,
        }
    }
}

/// A movement a settlement or its reversal writes.
#[derive(Clone, Debug)]
pub struct Movement {
    pub emp: i64,
    pub bank: i64,
    pub date: NaiveDate,
    pub direction: Direction,
    pub value: Decimal,
    pub history: String,
    pub document: Option<String>,
    pub cost_centre: Option<i64>,
    pub method: Option<i64>,
    /// `BAIXA`, `ESTORNO`, `MANUAL` (a collection fee), `TRANSFERENCIA` or
    /// `CONCILIACAO`.
    pub origin: &'static str,
    pub settlement: Option<i64>,
    pub user: i64,
}

pub const UNKNOWN_ACCOUNT: &str = "Conta bancária não encontrada.";

/// Refuses a movement dated `date` when that day, or a later one, is closed.
pub async fn check_open(tx: &mut Tx, client: i64, emp: i64, date: NaiveDate) -> Result<()> {
    let closed: Option<NaiveDate> = sqlx::query_scalar(
        "SELECT max(movd_dta_mov) FROM finance.movdiario WHERE client_id = $1 AND movd_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_one(&mut **tx)
    .await?;
    match closed {
        Some(last) if date <= last => Err(Error::Conflict(format!(
            "O movimento diário está fechado até {}: reabra o dia para lançar movimentos em {}.",
            last.format("%d/%m/%Y"),
            date.format("%d/%m/%Y")
        ))),
        _ => Ok(()),
    }
}

/// Locks the account's row (the balance's lock); refuses an account the company
/// does not have.
pub async fn lock_account(tx: &mut Tx, client: i64, emp: i64, bank: i64) -> Result<()> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT bco_id FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_optional(&mut **tx)
    .await?;
    found
        .map(|_| ())
        .ok_or_else(|| Error::validation(UNKNOWN_ACCOUNT))
}

/// The next `n` ids of a finance table in a company, from the counters the
/// resource engine numbers the same table's registers with; returns the first.
pub async fn next_ids(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    table: &'static str,
    id_col: &'static str,
    emp_col: &'static str,
    n: i64,
) -> Result<i64> {
    let sql = format!(
        "INSERT INTO finance.id_counters (client_id, emp_id, resource, last_id)
         VALUES ($1, $2, $3, (SELECT coalesce(max({id_col}), 0) + $4 FROM finance.{table}
                              WHERE client_id = $1 AND {emp_col} = $2))
         ON CONFLICT (client_id, emp_id, resource) DO UPDATE
         SET last_id = greatest(finance.id_counters.last_id + $4, EXCLUDED.last_id)
         RETURNING last_id"
    );
    let last: i64 = sqlx::query_scalar(&sql)
        .bind(client)
        .bind(emp)
        .bind(table)
        .bind(n)
        .fetch_one(&mut **tx)
        .await?;
    Ok(last - n + 1)
}

/// Reserves `n` movement ids of a company. A writer reserves its movements' ids
/// before it touches an account (the engine numbers a manual movement before its
/// hooks lock the accounts): counters first, accounts after, in every writer.
pub async fn reserve(tx: &mut Tx, client: i64, emp: i64, n: i64) -> Result<i64> {
    next_ids(
        tx,
        client,
        emp,
        "movimentacaobancaria",
        "mbca_id",
        "mbca_emp_id",
        n,
    )
    .await
}

/// Writes movement `id` (reserved with [`reserve`]) and moves its account's
/// balance under the account's lock.
pub async fn record(tx: &mut Tx, client: i64, id: i64, m: &Movement) -> Result<()> {
    if m.value <= Decimal::ZERO {
        return Err(Error::internal("a bank movement moves a positive value"));
    }
    check_open(tx, client, m.emp, m.date).await?;
    lock_account(tx, client, m.emp, m.bank).await?;
    sqlx::query(
        "INSERT INTO finance.movimentacaobancaria
             (client_id, mbca_emp_id, mbca_id, mbca_bco_id, mbca_dta_mov, mbca_tipo, mbca_valor,
              mbca_historico, mbca_documento, mbca_hisp_id, mbca_frmp_id, mbca_origem, mbca_baix_id, mbca_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(client)
    .bind(m.emp)
    .bind(id)
    .bind(m.bank)
    .bind(m.date)
    .bind(m.direction.code())
    .bind(m.value)
    .bind(&m.history)
    .bind(&m.document)
    .bind(m.cost_centre)
    .bind(m.method)
    .bind(m.origin)
    .bind(m.settlement)
    .bind((m.user > 0).then_some(m.user))
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE finance.banco SET bco_movimentos = bco_movimentos + $4
         WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3",
    )
    .bind(client)
    .bind(m.emp)
    .bind(m.bank)
    .bind(m.direction.signed(m.value))
    .execute(&mut **tx)
    .await?;
    crate::facts::movements(tx, client, m.emp, &[id], "criado").await
}

/// Sets the company's account balances to the sum of their movements (after a
/// manual movement was written, changed or removed by the register): each account
/// locked first, in key order, then summed in a statement that sees every
/// movement committed before the lock was taken.
pub async fn refresh(tx: &mut Tx, client: i64, emp: i64) -> Result<()> {
    sqlx::query(
        "SELECT bco_id FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 ORDER BY bco_id FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .fetch_all(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE finance.banco b SET bco_movimentos = coalesce((
             SELECT sum(CASE m.mbca_tipo WHEN 'C' THEN m.mbca_valor ELSE -m.mbca_valor END)
             FROM finance.movimentacaobancaria m
             WHERE m.client_id = b.client_id AND m.mbca_emp_id = b.bco_emp_id AND m.mbca_bco_id = b.bco_id), 0)
         WHERE b.client_id = $1 AND b.bco_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An account's balance and the sum of its movements (what tests and the
/// reconciliation compare): (initial + movements kept, initial + movements summed).
pub async fn balance(tx: &mut Tx, client: i64, emp: i64, bank: i64) -> Result<(Decimal, Decimal)> {
    let row: Option<(Decimal, Decimal)> = sqlx::query_as(
        "SELECT b.bco_saldo,
                b.bco_saldo_inicial + coalesce((SELECT sum(CASE mbca_tipo WHEN 'C' THEN mbca_valor ELSE -mbca_valor END)
                                                FROM finance.movimentacaobancaria m
                                                WHERE m.client_id = b.client_id AND m.mbca_emp_id = b.bco_emp_id
                                                  AND m.mbca_bco_id = b.bco_id), 0)
         FROM finance.banco b WHERE b.client_id = $1 AND b.bco_emp_id = $2 AND b.bco_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_optional(&mut **tx)
    .await?;
    row.ok_or_else(|| Error::validation(UNKNOWN_ACCOUNT))
}

/// A transfer between two accounts of a company.
#[derive(Clone, Debug)]
pub struct Transfer {
    pub emp: i64,
    pub from: i64,
    pub to: i64,
    pub date: NaiveDate,
    pub value: Decimal,
    pub history: Option<String>,
    pub user: i64,
}

/// Writes a transfer: a debit on `from` and a credit on `to`, each naming the
/// other (`mbca_transf_id`), in the caller's transaction; answers their ids.
pub async fn transfer(tx: &mut Tx, client: i64, t: &Transfer) -> Result<(i64, i64)> {
    if t.from == t.to {
        return Err(Error::validation(
            "As contas de origem e destino devem ser diferentes.",
        ));
    }
    if t.value <= Decimal::ZERO {
        return Err(Error::validation(
            "O valor da transferência deve ser maior que zero.",
        ));
    }
    let names: Vec<(i64, String)> = sqlx::query_as(
        "SELECT bco_id, bco_descricao FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = ANY($3)",
    )
    .bind(client)
    .bind(t.emp)
    .bind([t.from, t.to])
    .fetch_all(&mut **tx)
    .await?;
    let name = |id: i64| names.iter().find(|(i, _)| *i == id).map(|(_, n)| n.clone());
    let (Some(from_name), Some(to_name)) = (name(t.from), name(t.to)) else {
        return Err(Error::validation(UNKNOWN_ACCOUNT));
    };
    let first = reserve(tx, client, t.emp, 2).await?;
    let extra = t
        .history
        .as_deref()
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(|h| format!(" - {h}"))
        .unwrap_or_default();
    // Accounts locked in key order, as `refresh` does.
    let legs = [
        (
            first,
            t.from,
            Direction::Debit,
            format!("Transferência para {to_name}{extra}"),
        ),
        (
            first + 1,
            t.to,
            Direction::Credit,
            format!("Transferência de {from_name}{extra}"),
        ),
    ];
    let mut ordered: Vec<&(i64, i64, Direction, String)> = legs.iter().collect();
    ordered.sort_by_key(|l| l.1);
    for (id, bank, direction, history) in ordered {
        record(
            tx,
            client,
            *id,
            &Movement {
                emp: t.emp,
                bank: *bank,
                date: t.date,
                direction: *direction,
                value: t.value,
                history: history.clone(),
                document: None,
                cost_centre: None,
                method: None,
                origin: "TRANSFERENCIA",
                settlement: None,
                user: t.user,
            },
        )
        .await?;
    }
    sqlx::query(
        "UPDATE finance.movimentacaobancaria SET mbca_transf_id = CASE mbca_id WHEN $3 THEN $4 ELSE $3 END
         WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id IN ($3, $4)",
    )
    .bind(client)
    .bind(t.emp)
    .bind(first)
    .bind(first + 1)
    .execute(&mut **tx)
    .await?;
    Ok((first, first + 1))
}

/// An account's balances over a period (legacy names).
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct PeriodBalance {
    #[serde(rename = "BCO_ID")]
    pub bank: i64,
    #[serde(rename = "BCO_DESCRICAO")]
    pub name: String,
    /// The balance before the period.
    #[serde(rename = "SALDO_ANTERIOR", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub before: Decimal,
    #[serde(rename = "CREDITOS", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub credits: Decimal,
    #[serde(rename = "DEBITOS", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub debits: Decimal,
    /// The balance at the period's end.
    #[serde(rename = "SALDO_FINAL", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub after: Decimal,
}

/// Balances per account over a period: before it, its credits and debits, after
/// it (`bank`: one account, or all of the company), by account name.
pub async fn period_balances(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    from: NaiveDate,
    to: NaiveDate,
    bank: Option<i64>,
) -> Result<Vec<PeriodBalance>> {
    if to < from {
        return Err(Error::validation(
            "A data final deve ser igual ou posterior à inicial.",
        ));
    }
    Ok(sqlx::query_as(
        "SELECT t.bco_id AS bank, t.bco_descricao AS name, t.anterior AS before, t.creditos AS credits,
                t.debitos AS debits, t.anterior + t.creditos - t.debitos AS after
         FROM (SELECT b.bco_id, b.bco_descricao,
                      b.bco_saldo_inicial + coalesce(sum(CASE WHEN m.mbca_dta_mov < $3
                          THEN CASE m.mbca_tipo WHEN 'C' THEN m.mbca_valor ELSE -m.mbca_valor END END), 0) AS anterior,
                      coalesce(sum(m.mbca_valor) FILTER (WHERE m.mbca_dta_mov BETWEEN $3 AND $4 AND m.mbca_tipo = 'C'), 0) AS creditos,
                      coalesce(sum(m.mbca_valor) FILTER (WHERE m.mbca_dta_mov BETWEEN $3 AND $4 AND m.mbca_tipo = 'D'), 0) AS debitos
               FROM finance.banco b
               LEFT JOIN finance.movimentacaobancaria m ON m.client_id = b.client_id AND m.mbca_emp_id = b.bco_emp_id
                    AND m.mbca_bco_id = b.bco_id AND m.mbca_dta_mov <= $4
               WHERE b.client_id = $1 AND b.bco_emp_id = $2 AND ($5::bigint IS NULL OR b.bco_id = $5)
               GROUP BY b.bco_id, b.bco_descricao, b.bco_saldo_inicial) t
         ORDER BY t.bco_descricao, t.bco_id",
    )
    .bind(client)
    .bind(emp)
    .bind(from)
    .bind(to)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?)
}
