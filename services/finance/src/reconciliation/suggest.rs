//! The suggestions of a statement line (see the parent module's doc).

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use sqlx::Row;

use super::{Line, MOVEMENT_JSON};

/// Days between a statement line and a movement that still match.
pub const DAYS: i64 = 5;
/// Most movements one grouped suggestion is searched among.
pub const MAX_GROUP: usize = 12;

/// A movement a line may be matched with.
#[derive(Clone, Debug)]
struct Candidate {
    id: i64,
    date: NaiveDate,
    value: Decimal,
    document: Option<String>,
    row: Value,
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
