//! Bank reconciliation over the database: OFX statements imported as statement
//! lines (`conciliacaobancaria`), matching suggestions, confirmed matches
//! (`conciliacaomovimentos`), lines turned into movements, and the account's
//! balance against the statement's.
//!
//! - **Import** (`import`): every statement of the file (`collection::ofx`) whose
//!   account is the chosen one (the digits of `BCO_CONTA` inside its ACCTID, or any
//!   when the account has no number) is written in one statement (`UNNEST`); a line
//!   already imported (same account and FITID, or, without FITID, the same date,
//!   amount, memo and document) is skipped by the key, so importing a file twice
//!   imports nothing the second time. The statement's closing balance is kept
//!   (`extratos`).
//! - **Suggestions** (`suggestions`): unmatched movements of the account in the
//!   same direction: one movement of the same amount within `DAYS` days (closer
//!   first; the document number found in the memo first of all), or several
//!   movements of one day that add up to the line (a deposit of several slips; up
//!   to `MAX_GROUP` movements are tried).
//! - **Match** (`confirm`): the movements must be the account's, unmatched, in the
//!   line's direction, and add up to the line's amount. **Undo** (`undo`) removes
//!   the match; a movement the line created (`post`) goes with it.
//!
//! Layout: `import` (the OFX import), `suggest` (the suggestions), this module
//! (the lines, match, undo, post and balance).

mod import;
mod suggest;

use std::collections::HashMap;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::Row;

use crate::bank::{self, Direction, Movement};
use crate::titles::brl;
pub use import::{import, Imported, StatementOut};
pub use suggest::{suggestions, Suggestion, DAYS, MAX_GROUP};

/// A statement line.
#[derive(Clone, Debug)]
pub struct Line {
    pub id: i64,
    pub bank: i64,
    pub date: NaiveDate,
    pub kind: String,
    pub value: Decimal,
    pub memo: String,
    pub document: Option<String>,
    pub status: String,
}

/// A movement as the reconciliation answers it (matched with a line, or in a
/// suggestion).
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct MovementOut {
    #[serde(rename = "MBCA_ID")]
    pub id: i64,
    #[serde(rename = "MBCA_BCO_ID")]
    pub bank: i64,
    #[serde(rename = "MBCA_DTA_MOV")]
    pub date: NaiveDate,
    #[serde(rename = "MBCA_TIPO")]
    pub kind: String,
    #[serde(rename = "MBCA_VALOR", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub value: Decimal,
    #[serde(rename = "MBCA_HISTORICO")]
    pub history: String,
    #[serde(rename = "MBCA_DOCUMENTO")]
    pub document: Option<String>,
    #[serde(rename = "MBCA_ORIGEM")]
    pub origin: String,
}

/// The columns of a [`MovementOut`] of movement `m`.
pub(crate) const MOVEMENT_COLUMNS: &str = "m.mbca_id AS id, m.mbca_bco_id AS bank, m.mbca_dta_mov AS date,
    m.mbca_tipo AS kind, m.mbca_valor AS value, m.mbca_historico AS history, m.mbca_documento AS document,
    m.mbca_origem AS origin";

async fn line(tx: &mut Tx, client: i64, emp: i64, id: i64, lock: bool) -> Result<Line> {
    let sql = format!(
        "SELECT conb_id, conb_bco_id, conb_dta, conb_tipo, conb_valor, conb_historico, conb_documento, conb_situacao
         FROM finance.conciliacaobancaria WHERE client_id = $1 AND conb_emp_id = $2 AND conb_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    let r = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(format!("Lançamento do extrato {id} não encontrado.")))?;
    Ok(Line {
        id: r.try_get(0)?,
        bank: r.try_get(1)?,
        date: r.try_get(2)?,
        kind: r.try_get::<String, _>(3)?.trim().to_string(),
        value: r.try_get(4)?,
        memo: r.try_get(5)?,
        document: r.try_get(6)?,
        status: r.try_get::<String, _>(7)?.trim().to_string(),
    })
}

/// A statement line as the reconciliation screen lists it: its matched movements
/// and, while pending, its suggestions.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LineOut {
    #[serde(rename = "CONB_ID")]
    pub id: i64,
    #[serde(rename = "CONB_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "CONB_BCO_ID")]
    pub bank: i64,
    #[serde(rename = "CONB_DTA")]
    pub date: NaiveDate,
    /// C credit, D debit.
    #[serde(rename = "CONB_TIPO")]
    pub kind: String,
    #[serde(rename = "CONB_VALOR")]
    pub value: Dec,
    #[serde(rename = "CONB_HISTORICO")]
    pub memo: String,
    #[serde(rename = "CONB_DOCUMENTO")]
    pub document: Option<String>,
    #[serde(rename = "CONB_FITID")]
    pub fitid: String,
    /// P pending, C matched.
    #[serde(rename = "CONB_SITUACAO")]
    pub status: String,
    #[serde(rename = "MOVIMENTOS")]
    pub matched: Vec<MovementOut>,
    #[serde(rename = "SUGESTOES")]
    pub suggestions: Vec<Suggestion>,
}

#[derive(sqlx::FromRow)]
struct LineRow {
    id: i64,
    bank: i64,
    date: NaiveDate,
    kind: String,
    value: Decimal,
    memo: String,
    document: Option<String>,
    status: String,
    fitid: String,
}

/// A movement matched with a line.
#[derive(sqlx::FromRow)]
struct Matched {
    line: i64,
    #[sqlx(flatten)]
    movement: MovementOut,
}

/// The account's statement lines (`situation` P, C or all; a period), each with
/// its matched movements and, while pending, its suggestions.
pub async fn lines(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    bank: i64,
    situation: Option<&str>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Vec<LineOut>> {
    let rows: Vec<LineRow> = sqlx::query_as(
        "SELECT c.conb_id AS id, c.conb_bco_id AS bank, c.conb_dta AS date, c.conb_tipo AS kind,
                c.conb_valor AS value, c.conb_historico AS memo, c.conb_documento AS document,
                c.conb_situacao AS status, c.conb_fitid AS fitid
         FROM finance.conciliacaobancaria c
         WHERE c.client_id = $1 AND c.conb_emp_id = $2 AND c.conb_bco_id = $3
           AND ($4::text IS NULL OR c.conb_situacao = $4)
           AND ($5::date IS NULL OR c.conb_dta >= $5) AND ($6::date IS NULL OR c.conb_dta <= $6)
         ORDER BY c.conb_historico, c.conb_dta, c.conb_id
         LIMIT 1000",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .bind(situation)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let matched: Vec<Matched> = sqlx::query_as(&format!(
        "SELECT x.cmov_conb_id AS line, {MOVEMENT_COLUMNS}
         FROM finance.conciliacaomovimentos x
         JOIN finance.movimentacaobancaria m ON m.client_id = x.client_id
              AND m.mbca_emp_id = x.cmov_emp_id AND m.mbca_id = x.cmov_mbca_id
         WHERE x.client_id = $1 AND x.cmov_emp_id = $2 AND x.cmov_conb_id = ANY($3)
         ORDER BY m.mbca_id"
    ))
    .bind(client)
    .bind(emp)
    .bind(&ids)
    .fetch_all(&mut **tx)
    .await?;
    let mut by_line: HashMap<i64, Vec<MovementOut>> = HashMap::new();
    for m in matched {
        by_line.entry(m.line).or_default().push(m.movement);
    }
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let l = Line {
            id: r.id,
            bank: r.bank,
            date: r.date,
            kind: r.kind.trim().to_string(),
            value: r.value,
            memo: r.memo,
            document: r.document,
            status: r.status.trim().to_string(),
        };
        let suggestions = if l.status == "P" {
            suggestions(tx, client, emp, &l).await?
        } else {
            Vec::new()
        };
        out.push(LineOut {
            id: l.id,
            emp,
            bank: l.bank,
            date: l.date,
            kind: l.kind,
            value: l.value.into(),
            memo: l.memo,
            document: l.document,
            fitid: r.fitid,
            status: l.status,
            matched: by_line.remove(&l.id).unwrap_or_default(),
            suggestions,
        });
    }
    Ok(out)
}

/// Matches line `id` with movements `movements` (see the module's doc).
pub async fn confirm(tx: &mut Tx, client: i64, emp: i64, id: i64, movements: &[i64]) -> Result<()> {
    if movements.is_empty() {
        return Err(Error::validation("Informe os movimentos a conciliar."));
    }
    let l = line(tx, client, emp, id, true).await?;
    if l.status != "P" {
        return Err(Error::Conflict(
            "Este lançamento do extrato já está conciliado.".into(),
        ));
    }
    let rows = sqlx::query(
        "SELECT m.mbca_id, m.mbca_bco_id, m.mbca_tipo, m.mbca_valor,
                EXISTS (SELECT 1 FROM finance.conciliacaomovimentos x WHERE x.client_id = m.client_id
                        AND x.cmov_emp_id = m.mbca_emp_id AND x.cmov_mbca_id = m.mbca_id)
         FROM finance.movimentacaobancaria m
         WHERE m.client_id = $1 AND m.mbca_emp_id = $2 AND m.mbca_id = ANY($3) FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(movements)
    .fetch_all(&mut **tx)
    .await?;
    if rows.len() != movements.len() {
        return Err(Error::NotFound("Movimento bancário não encontrado.".into()));
    }
    let mut sum = Decimal::ZERO;
    for r in &rows {
        let mid: i64 = r.try_get(0)?;
        let mbank: i64 = r.try_get(1)?;
        let kind: String = r.try_get(2)?;
        let value: Decimal = r.try_get(3)?;
        let taken: bool = r.try_get(4)?;
        if mbank != l.bank {
            return Err(Error::validation(format!(
                "O movimento {mid} é de outra conta."
            )));
        }
        if kind.trim() != l.kind {
            return Err(Error::validation(format!(
                "O movimento {mid} é um {} e o lançamento do extrato um {}.",
                if kind.trim() == "C" {
                    "crédito"
                } else {
                    "débito"
                },
                if l.kind == "C" { "crédito" } else { "débito" }
            )));
        }
        if taken {
            return Err(Error::Conflict(format!(
                "O movimento {mid} já está conciliado."
            )));
        }
        sum += value;
    }
    if sum != l.value {
        return Err(Error::validation(format!(
            "A soma dos movimentos ({}) difere do valor do extrato ({}).",
            brl(sum),
            brl(l.value)
        )));
    }
    sqlx::query(
        "INSERT INTO finance.conciliacaomovimentos (client_id, cmov_emp_id, cmov_conb_id, cmov_mbca_id)
         SELECT $1, $2, $3, unnest($4::bigint[])",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(movements)
    .execute(&mut **tx)
    .await?;
    set_status(tx, client, emp, id, "C").await
}

async fn set_status(tx: &mut Tx, client: i64, emp: i64, id: i64, status: &str) -> Result<()> {
    sqlx::query(
        "UPDATE finance.conciliacaobancaria SET conb_situacao = $4 WHERE client_id = $1 AND conb_emp_id = $2 AND conb_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(status)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Undoes the match of line `id` (see the module's doc).
pub async fn undo(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<()> {
    let l = line(tx, client, emp, id, true).await?;
    if l.status != "C" {
        return Err(Error::Conflict(
            "Este lançamento do extrato não está conciliado.".into(),
        ));
    }
    let created: Vec<i64> = sqlx::query_scalar::<_, Option<i64>>(
        "DELETE FROM finance.conciliacaomovimentos x USING finance.movimentacaobancaria m
         WHERE x.client_id = $1 AND x.cmov_emp_id = $2 AND x.cmov_conb_id = $3
           AND m.client_id = x.client_id AND m.mbca_emp_id = x.cmov_emp_id AND m.mbca_id = x.cmov_mbca_id
         RETURNING CASE WHEN m.mbca_origem = 'CONCILIACAO' THEN m.mbca_id END",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .flatten()
    .collect();
    if !created.is_empty() {
        for d in sqlx::query_scalar::<_, NaiveDate>(
            "SELECT DISTINCT mbca_dta_mov FROM finance.movimentacaobancaria
             WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id = ANY($3)",
        )
        .bind(client)
        .bind(emp)
        .bind(&created)
        .fetch_all(&mut **tx)
        .await?
        {
            crate::bank::check_open(tx, client, emp, d).await?;
        }
        sqlx::query("DELETE FROM finance.movimentacaobancaria WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id = ANY($3)")
            .bind(client)
            .bind(emp)
            .bind(&created)
            .execute(&mut **tx)
            .await?;
        crate::facts::movements(tx, client, emp, &created, "excluido").await?;
        bank::refresh(tx, client, emp).await?;
    }
    set_status(tx, client, emp, id, "P").await
}

/// Turns pending line `id` into a movement of its account (a fee, interest) and
/// matches them; answers the movement's id.
pub async fn post(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    id: i64,
    history: Option<String>,
    cost_centre: Option<i64>,
) -> Result<i64> {
    let l = line(tx, client, emp, id, true).await?;
    if l.status != "P" {
        return Err(Error::Conflict(
            "Este lançamento do extrato já está conciliado.".into(),
        ));
    }
    let mid = bank::reserve(tx, client, emp, 1).await?;
    let history = history
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| {
            if l.memo.is_empty() {
                "Lançamento do extrato".into()
            } else {
                l.memo.clone()
            }
        });
    bank::record(
        tx,
        client,
        mid,
        &Movement {
            emp,
            bank: l.bank,
            date: l.date,
            direction: if l.kind == "C" {
                Direction::Credit
            } else {
                Direction::Debit
            },
            value: l.value,
            history,
            document: l.document.clone(),
            cost_centre,
            method: None,
            origin: "CONCILIACAO",
            settlement: None,
            user,
        },
    )
    .await
    .map_err(|e| {
        e.on_constraint(&[(
            "movimentacaobancaria_centro_fkey",
            "Centro de custo não encontrado.",
        )])
    })?;
    confirm(tx, client, emp, id, &[mid]).await?;
    Ok(mid)
}

/// The account's balance in the system against the last statement's.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BalanceOut {
    #[serde(rename = "BCO_ID")]
    pub bank: i64,
    /// The last statement's closing balance (none imported: null).
    #[serde(rename = "SALDO_EXTRATO")]
    pub statement: Option<Dec>,
    #[serde(rename = "DATA_EXTRATO")]
    pub date: Option<NaiveDate>,
    /// The system's balance on the statement's date (today without one).
    #[serde(rename = "SALDO_SISTEMA")]
    pub system: Dec,
    /// Statement − system.
    #[serde(rename = "DIFERENCA")]
    pub difference: Option<Dec>,
    /// Statement lines still pending and what they add up to (credits − debits).
    #[serde(rename = "PENDENTES")]
    pub pending: i64,
    #[serde(rename = "VALOR_PENDENTE")]
    pub pending_value: Dec,
}

/// The account's balance in the system on the last statement's date against
/// the statement's closing balance, with what is still pending.
pub async fn balance(tx: &mut Tx, client: i64, emp: i64, bank: i64) -> Result<BalanceOut> {
    let last: Option<(Option<Decimal>, Option<NaiveDate>)> = sqlx::query_as(
        "SELECT ext_saldo, ext_dta_saldo FROM finance.extratos
         WHERE client_id = $1 AND ext_emp_id = $2 AND ext_bco_id = $3 AND ext_saldo IS NOT NULL
         ORDER BY ext_dta_saldo DESC NULLS LAST, ext_id DESC LIMIT 1",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_optional(&mut **tx)
    .await?;
    let (statement, date) = last.unwrap_or((None, None));
    let system: Option<Decimal> = sqlx::query_scalar(
        "SELECT b.bco_saldo_inicial + coalesce((SELECT sum(CASE mbca_tipo WHEN 'C' THEN mbca_valor ELSE -mbca_valor END)
                FROM finance.movimentacaobancaria m WHERE m.client_id = b.client_id AND m.mbca_emp_id = b.bco_emp_id
                  AND m.mbca_bco_id = b.bco_id AND ($4::date IS NULL OR m.mbca_dta_mov <= $4)), 0)
         FROM finance.banco b WHERE b.client_id = $1 AND b.bco_emp_id = $2 AND b.bco_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .bind(date)
    .fetch_optional(&mut **tx)
    .await?;
    let system = system.ok_or_else(|| Error::validation(bank::UNKNOWN_ACCOUNT))?;
    let (pending, pending_value): (i64, Option<Decimal>) = sqlx::query_as(
        "SELECT count(*), sum(CASE conb_tipo WHEN 'C' THEN conb_valor ELSE -conb_valor END)
         FROM finance.conciliacaobancaria WHERE client_id = $1 AND conb_emp_id = $2 AND conb_bco_id = $3
           AND conb_situacao = 'P'",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_one(&mut **tx)
    .await?;
    Ok(BalanceOut {
        bank,
        statement: statement.map(Dec),
        date,
        system: system.into(),
        difference: statement.map(|s| Dec(s - system)),
        pending,
        pending_value: pending_value.unwrap_or_default().into(),
    })
}
