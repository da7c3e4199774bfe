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

use std::collections::HashMap;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::bank::{self, Direction, Movement};
use crate::collection::ofx::{parse_ofx, Statement};
use crate::titles::brl;

/// Days between a statement line and a movement that still match.
pub const DAYS: i64 = 5;
/// Most movements one grouped suggestion is searched among.
pub const MAX_GROUP: usize = 12;

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

fn belongs(statement: &Statement, account_number: &str) -> bool {
    let want = digits(account_number);
    let want = want.trim_start_matches('0');
    want.is_empty() || digits(&statement.account_id).contains(want)
}

/// Imports OFX file `bytes` into account `bank` (see the module's doc).
pub async fn import(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    bank: i64,
    bytes: &[u8],
) -> Result<Value> {
    let number: Option<String> = sqlx::query_scalar(
        "SELECT coalesce(bco_conta, '') FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_optional(&mut **tx)
    .await?;
    let number = number.ok_or_else(|| Error::validation(bank::UNKNOWN_ACCOUNT))?;
    let statements = parse_ofx(bytes).map_err(|e| Error::validation(format!("OFX: {e}")))?;
    let (mine, others): (Vec<&Statement>, Vec<&Statement>) =
        statements.iter().partition(|s| belongs(s, &number));
    if mine.is_empty() {
        let found: Vec<&str> = others.iter().map(|s| s.account_id.as_str()).collect();
        return Err(Error::validation(format!(
            "O extrato é da conta {}, não da conta {number} escolhida.",
            found.join(", ")
        )));
    }
    let total: usize = mine.iter().map(|s| s.transactions.len()).sum();
    let first = if total > 0 {
        bank::next_ids(
            tx,
            client,
            emp,
            "conciliacaobancaria",
            "conb_id",
            "conb_emp_id",
            total as i64,
        )
        .await?
    } else {
        0
    };
    let mut next = first;
    let (mut imported, mut skipped) = (0i64, 0i64);
    let mut new_ids: Vec<i64> = Vec::new();
    let mut out = Vec::new();
    for st in &mine {
        let ext = bank::next_ids(tx, client, emp, "extratos", "ext_id", "ext_emp_id", 1).await?;
        let n = st.transactions.len();
        let mut ids = Vec::with_capacity(n);
        let mut fitids = Vec::with_capacity(n);
        let mut dates = Vec::with_capacity(n);
        let mut kinds = Vec::with_capacity(n);
        let mut values = Vec::with_capacity(n);
        let mut memos = Vec::with_capacity(n);
        let mut docs: Vec<Option<String>> = Vec::with_capacity(n);
        let mut seen = HashMap::new();
        for t in &st.transactions {
            if t.amount == Decimal::ZERO {
                continue;
            }
            let memo = t
                .memo
                .clone()
                .or_else(|| t.name.clone())
                .unwrap_or_default()
                .trim()
                .to_string();
            let doc = t.check_number.clone().or_else(|| t.reference.clone());
            let fitid = match t.fit_id.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
                Some(f) => f.to_string(),
                None => {
                    let key = format!(
                        "{}|{}|{memo}|{}",
                        t.posted,
                        t.amount,
                        doc.clone().unwrap_or_default()
                    );
                    format!("sha256:{:x}", Sha256::digest(key.as_bytes()))
                }
            };
            // The same FITID twice in one file is one line.
            if seen.insert(fitid.clone(), ()).is_some() {
                continue;
            }
            ids.push(next);
            next += 1;
            fitids.push(fitid);
            dates.push(t.posted);
            kinds.push(if t.amount < Decimal::ZERO { "D" } else { "C" }.to_string());
            values.push(t.amount.abs());
            memos.push(memo);
            docs.push(doc);
        }
        let done: Vec<i64> = sqlx::query_scalar(
            "INSERT INTO finance.conciliacaobancaria (client_id, conb_emp_id, conb_id, conb_bco_id, conb_fitid, conb_dta,
                 conb_tipo, conb_valor, conb_historico, conb_documento, conb_importacao, conb_usr_id)
             SELECT $1, $2, u.id, $3, u.fitid, u.dta, u.tipo, u.valor, u.memo, u.doc, $11, $12
             FROM UNNEST($4::bigint[], $5::text[], $6::date[], $7::text[], $8::numeric[], $9::text[], $10::text[])
                  AS u(id, fitid, dta, tipo, valor, memo, doc)
             ON CONFLICT (client_id, conb_emp_id, conb_bco_id, conb_fitid) DO NOTHING
             RETURNING conb_id",
        )
        .bind(client)
        .bind(emp)
        .bind(bank)
        .bind(&ids)
        .bind(&fitids)
        .bind(&dates)
        .bind(&kinds)
        .bind(&values)
        .bind(&memos)
        .bind(&docs)
        .bind(ext)
        .bind((user > 0).then_some(user))
        .fetch_all(&mut **tx)
        .await?;
        let skipped_here = (st.transactions.len() - done.len()) as i64;
        imported += done.len() as i64;
        skipped += skipped_here;
        sqlx::query(
            "INSERT INTO finance.extratos (client_id, ext_emp_id, ext_id, ext_bco_id, ext_conta, ext_inicio, ext_fim,
                 ext_saldo, ext_dta_saldo, ext_importados, ext_ignorados, ext_usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(client)
        .bind(emp)
        .bind(ext)
        .bind(bank)
        .bind(&st.account_id)
        .bind(st.start)
        .bind(st.end)
        .bind(st.ledger_balance)
        .bind(st.ledger_balance_date.or(st.end))
        .bind(done.len() as i32)
        .bind(skipped_here as i32)
        .bind((user > 0).then_some(user))
        .execute(&mut **tx)
        .await?;
        out.push(json!({
            "CONTA": st.account_id,
            "INICIO": st.start.map(|d| d.format("%Y-%m-%d").to_string()),
            "FIM": st.end.map(|d| d.format("%Y-%m-%d").to_string()),
            "SALDO": st.ledger_balance.map(crate::num),
            "DATA_SALDO": st.ledger_balance_date.map(|d| d.format("%Y-%m-%d").to_string()),
            "IMPORTADOS": done.len(),
        }));
        new_ids.extend(done);
    }
    let suggested: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM finance.conciliacaobancaria c
         WHERE c.client_id = $1 AND c.conb_emp_id = $2 AND c.conb_id = ANY($3)
           AND EXISTS (SELECT 1 FROM finance.movimentacaobancaria m
                       WHERE m.client_id = c.client_id AND m.mbca_emp_id = c.conb_emp_id AND m.mbca_bco_id = c.conb_bco_id
                         AND m.mbca_tipo = c.conb_tipo AND m.mbca_valor = c.conb_valor
                         AND m.mbca_dta_mov BETWEEN c.conb_dta - $4::int AND c.conb_dta + $4::int
                         AND NOT EXISTS (SELECT 1 FROM finance.conciliacaomovimentos x
                                         WHERE x.client_id = m.client_id AND x.cmov_emp_id = m.mbca_emp_id
                                           AND x.cmov_mbca_id = m.mbca_id))",
    )
    .bind(client)
    .bind(emp)
    .bind(&new_ids)
    .bind(DAYS as i32)
    .fetch_one(&mut **tx)
    .await?;
    Ok(json!({
        "IMPORTADOS": imported,
        "IGNORADOS": skipped,
        "SUGERIDOS": suggested,
        "EXTRATOS": out,
        "OUTRAS_CONTAS": others.iter().map(|s| s.account_id.clone()).collect::<Vec<_>>(),
    }))
}

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

/// A movement a line may be matched with.
#[derive(Clone, Debug)]
struct Candidate {
    id: i64,
    date: NaiveDate,
    value: Decimal,
    document: Option<String>,
    row: Value,
}

const MOVEMENT_JSON: &str = "jsonb_build_object('MBCA_ID', m.mbca_id, 'MBCA_BCO_ID', m.mbca_bco_id,
    'MBCA_DTA_MOV', to_char(m.mbca_dta_mov, 'YYYY-MM-DD'), 'MBCA_TIPO', m.mbca_tipo, 'MBCA_VALOR', m.mbca_valor,
    'MBCA_HISTORICO', m.mbca_historico, 'MBCA_DOCUMENTO', m.mbca_documento, 'MBCA_ORIGEM', m.mbca_origem)";

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

async fn candidates(tx: &mut Tx, client: i64, emp: i64, l: &Line) -> Result<Vec<Candidate>> {
    let sql = format!(
        "SELECT m.mbca_id, m.mbca_dta_mov, m.mbca_valor, m.mbca_documento, {MOVEMENT_JSON}
         FROM finance.movimentacaobancaria m
         WHERE m.client_id = $1 AND m.mbca_emp_id = $2 AND m.mbca_bco_id = $3 AND m.mbca_tipo = $4
           AND m.mbca_valor <= $5 AND m.mbca_dta_mov BETWEEN $6::date - $7::int AND $6::date + $7::int
           AND NOT EXISTS (SELECT 1 FROM finance.conciliacaomovimentos x
                           WHERE x.client_id = m.client_id AND x.cmov_emp_id = m.mbca_emp_id AND x.cmov_mbca_id = m.mbca_id)
         ORDER BY abs(m.mbca_dta_mov - $6::date), m.mbca_id
         LIMIT 200"
    );
    let rows = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(l.bank)
        .bind(&l.kind)
        .bind(l.value)
        .bind(l.date)
        .bind(DAYS as i32)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Candidate {
                id: r.try_get(0)?,
                date: r.try_get(1)?,
                value: r.try_get(2)?,
                document: r.try_get(3)?,
                row: r.try_get(4)?,
            })
        })
        .collect()
}

fn day(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// The subset of `items` (values) adding up to `target`, smallest first found.
fn subset_sum(items: &[Decimal], target: Decimal) -> Option<Vec<usize>> {
    let n = items.len().min(MAX_GROUP);
    let mut best: Option<Vec<usize>> = None;
    for mask in 1u32..(1u32 << n) {
        if mask.count_ones() < 2 {
            continue;
        }
        let sum: Decimal = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| items[i])
            .sum();
        if sum == target {
            let pick: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
            if best.as_ref().is_none_or(|b| pick.len() > b.len()) {
                best = Some(pick);
            }
        }
    }
    best
}

/// Suggestions for line `l`, best first.
pub async fn suggestions(tx: &mut Tx, client: i64, emp: i64, l: &Line) -> Result<Vec<Value>> {
    let cands = candidates(tx, client, emp, l).await?;
    let memo = l.memo.to_uppercase();
    let mut scored: Vec<(i64, Value)> = Vec::new();
    for c in cands.iter().filter(|c| c.value == l.value) {
        let gap = (c.date - l.date).num_days().abs();
        let doc_hit = c
            .document
            .as_deref()
            .map(str::trim)
            .filter(|d| d.len() >= 3)
            .is_some_and(|d| memo.contains(&d.to_uppercase()) || l.document.as_deref() == Some(d));
        let reason = match (doc_hit, gap) {
            (true, _) => format!(
                "Mesmo valor; documento {} no histórico",
                c.document.clone().unwrap_or_default()
            ),
            (false, 0) => "Mesmo valor e mesma data".to_string(),
            (false, 1) => "Mesmo valor, 1 dia de diferença".to_string(),
            (false, g) => format!("Mesmo valor, {g} dias de diferença"),
        };
        let score = gap * 10 - if doc_hit { 100 } else { 0 };
        scored.push((
            score,
            json!({"MBCA_IDS": [c.id], "MOVIMENTOS": [c.row], "VALOR": crate::num(c.value), "MOTIVO": reason}),
        ));
    }
    // A deposit of several movements of one day.
    let mut by_day: Vec<(NaiveDate, Vec<&Candidate>)> = Vec::new();
    for c in cands.iter().filter(|c| c.value < l.value) {
        match by_day.iter_mut().find(|(d, _)| *d == c.date) {
            Some((_, v)) => v.push(c),
            None => by_day.push((c.date, vec![c])),
        }
    }
    for (date, group) in by_day {
        let values: Vec<Decimal> = group.iter().map(|c| c.value).collect();
        if let Some(pick) = subset_sum(&values, l.value) {
            let chosen: Vec<&&Candidate> = pick.iter().filter_map(|i| group.get(*i)).collect();
            let gap = (date - l.date).num_days().abs();
            scored.push((
                gap * 10 + 5,
                json!({
                    "MBCA_IDS": chosen.iter().map(|c| c.id).collect::<Vec<_>>(),
                    "MOVIMENTOS": chosen.iter().map(|c| c.row.clone()).collect::<Vec<_>>(),
                    "VALOR": crate::num(l.value),
                    "MOTIVO": format!("Soma de {} movimentos de {}", chosen.len(), day(date)),
                }),
            ));
        }
    }
    scored.sort_by_key(|(s, _)| *s);
    Ok(scored.into_iter().map(|(_, v)| v).take(5).collect())
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
) -> Result<Vec<Value>> {
    let rows = sqlx::query(&format!(
        "SELECT c.conb_id, c.conb_bco_id, c.conb_dta, c.conb_tipo, c.conb_valor, c.conb_historico, c.conb_documento,
                c.conb_situacao, c.conb_fitid,
                coalesce((SELECT jsonb_agg({MOVEMENT_JSON} ORDER BY m.mbca_id)
                          FROM finance.conciliacaomovimentos x
                          JOIN finance.movimentacaobancaria m ON m.client_id = x.client_id
                               AND m.mbca_emp_id = x.cmov_emp_id AND m.mbca_id = x.cmov_mbca_id
                          WHERE x.client_id = c.client_id AND x.cmov_emp_id = c.conb_emp_id
                            AND x.cmov_conb_id = c.conb_id), '[]'::jsonb)
         FROM finance.conciliacaobancaria c
         WHERE c.client_id = $1 AND c.conb_emp_id = $2 AND c.conb_bco_id = $3
           AND ($4::text IS NULL OR c.conb_situacao = $4)
           AND ($5::date IS NULL OR c.conb_dta >= $5) AND ($6::date IS NULL OR c.conb_dta <= $6)
         ORDER BY c.conb_historico, c.conb_dta, c.conb_id
         LIMIT 1000"
    ))
    .bind(client)
    .bind(emp)
    .bind(bank)
    .bind(situation)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let l = Line {
            id: r.try_get(0)?,
            bank: r.try_get(1)?,
            date: r.try_get(2)?,
            kind: r.try_get::<String, _>(3)?.trim().to_string(),
            value: r.try_get(4)?,
            memo: r.try_get(5)?,
            document: r.try_get(6)?,
            status: r.try_get::<String, _>(7)?.trim().to_string(),
        };
        let fitid: String = r.try_get(8)?;
        let matched: Value = r.try_get(9)?;
        let sugg = if l.status == "P" {
            suggestions(tx, client, emp, &l).await?
        } else {
            Vec::new()
        };
        out.push(json!({
            "CONB_ID": l.id,
            "CONB_EMP_ID": emp,
            "CONB_BCO_ID": l.bank,
            "CONB_DTA": l.date.format("%Y-%m-%d").to_string(),
            "CONB_TIPO": l.kind,
            "CONB_VALOR": crate::num(l.value),
            "CONB_HISTORICO": l.memo,
            "CONB_DOCUMENTO": l.document,
            "CONB_FITID": fitid,
            "CONB_SITUACAO": l.status,
            "MOVIMENTOS": matched,
            "SUGESTOES": sugg,
        }));
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
            crate::daily::check_open(tx, client, emp, d).await?;
        }
        sqlx::query("DELETE FROM finance.movimentacaobancaria WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id = ANY($3)")
            .bind(client)
            .bind(emp)
            .bind(&created)
            .execute(&mut **tx)
            .await?;
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

/// The account's balance in the system on the last statement's date against
/// the statement's closing balance, with what is still pending.
pub async fn balance(tx: &mut Tx, client: i64, emp: i64, bank: i64) -> Result<Value> {
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
    Ok(json!({
        "BCO_ID": bank,
        "SALDO_EXTRATO": statement.map(crate::num),
        "DATA_EXTRATO": date.map(|d| d.format("%Y-%m-%d").to_string()),
        "SALDO_SISTEMA": crate::num(system),
        "DIFERENCA": statement.map(|s| crate::num(s - system)),
        "PENDENTES": pending,
        "VALOR_PENDENTE": crate::num(pending_value.unwrap_or_default()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn a_deposit_of_several_slips_is_found() {
        let d = |s: &str| Decimal::from_str(s).unwrap();
        let items = [d("100.00"), d("250.50"), d("49.50"), d("7.00")];
        let pick = subset_sum(&items, d("400.00")).unwrap();
        assert_eq!(pick, vec![0, 1, 2]);
        assert!(subset_sum(&items, d("1.00")).is_none());
    }
}
