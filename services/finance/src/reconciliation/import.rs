//! The OFX import (see the parent module's doc).

use std::collections::HashMap;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::DAYS;
use crate::bank;
use crate::collection::ofx::{parse_ofx, Statement};

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

fn belongs(statement: &Statement, account_number: &str) -> bool {
    let want = digits(account_number);
    let want = want.trim_start_matches('0');
    want.is_empty() || digits(&statement.account_id).contains(want)
}

/// One statement of the file imported.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StatementOut {
    /// The statement's ACCTID.
    #[serde(rename = "CONTA")]
    pub account: String,
    #[serde(rename = "INICIO")]
    pub start: Option<NaiveDate>,
    #[serde(rename = "FIM")]
    pub end: Option<NaiveDate>,
    /// The closing balance.
    #[serde(rename = "SALDO")]
    pub balance: Option<Dec>,
    #[serde(rename = "DATA_SALDO")]
    pub balance_date: Option<NaiveDate>,
    #[serde(rename = "IMPORTADOS")]
    pub imported: usize,
}

/// What an import did: lines imported, skipped (imported before), how many of
/// the new ones have a suggestion, each statement of the account and the
/// accounts of the file's other statements (not imported).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "OfxImported")]
pub struct Imported {
    #[serde(rename = "IMPORTADOS")]
    pub imported: i64,
    #[serde(rename = "IGNORADOS")]
    pub skipped: i64,
    #[serde(rename = "SUGERIDOS")]
    pub suggested: i64,
    #[serde(rename = "EXTRATOS")]
    pub statements: Vec<StatementOut>,
    #[serde(rename = "OUTRAS_CONTAS")]
    pub other_accounts: Vec<String>,
}

/// Imports OFX file `bytes` into account `bank` (see the module's doc).
pub async fn import(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    bank: i64,
    bytes: &[u8],
) -> Result<Imported> {
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
        out.push(StatementOut {
            account: st.account_id.clone(),
            start: st.start,
            end: st.end,
            balance: st.ledger_balance.map(Dec),
            balance_date: st.ledger_balance_date,
            imported: done.len(),
        });
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
    Ok(Imported {
        imported,
        skipped,
        suggested,
        statements: out,
        other_accounts: others.iter().map(|s| s.account_id.clone()).collect(),
    })
}
