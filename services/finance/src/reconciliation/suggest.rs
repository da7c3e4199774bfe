//! The suggestions of a statement line (see the parent module's doc).

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::Dec;
use erp_platform::Result;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Line, MovementOut, MOVEMENT_COLUMNS};

/// Days between a statement line and a movement that still match.
pub const DAYS: i64 = 5;
/// Most movements one grouped suggestion is searched among.
pub const MAX_GROUP: usize = 12;

/// A match a line may have: one movement or several of a day, what they add up
/// to and why they are suggested.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Suggestion {
    #[serde(rename = "MBCA_IDS")]
    pub ids: Vec<i64>,
    #[serde(rename = "MOVIMENTOS")]
    pub movements: Vec<MovementOut>,
    #[serde(rename = "VALOR")]
    pub value: Dec,
    #[serde(rename = "MOTIVO")]
    pub reason: String,
}

/// A movement a line may be matched with.
type Candidate = MovementOut;

async fn candidates(tx: &mut Tx, client: i64, emp: i64, l: &Line) -> Result<Vec<Candidate>> {
    let sql = format!(
        "SELECT {MOVEMENT_COLUMNS}
         FROM finance.movimentacaobancaria m
         WHERE m.client_id = $1 AND m.mbca_emp_id = $2 AND m.mbca_bco_id = $3 AND m.mbca_tipo = $4
           AND m.mbca_valor <= $5 AND m.mbca_dta_mov BETWEEN $6::date - $7::int AND $6::date + $7::int
           AND NOT EXISTS (SELECT 1 FROM finance.conciliacaomovimentos x
                           WHERE x.client_id = m.client_id AND x.cmov_emp_id = m.mbca_emp_id AND x.cmov_mbca_id = m.mbca_id)
         ORDER BY abs(m.mbca_dta_mov - $6::date), m.mbca_id
         LIMIT 200"
    );
    Ok(sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(l.bank)
        .bind(&l.kind)
        .bind(l.value)
        .bind(l.date)
        .bind(DAYS as i32)
        .fetch_all(&mut **tx)
        .await?)
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
pub async fn suggestions(tx: &mut Tx, client: i64, emp: i64, l: &Line) -> Result<Vec<Suggestion>> {
    let cands = candidates(tx, client, emp, l).await?;
    let memo = l.memo.to_uppercase();
    let mut scored: Vec<(i64, Suggestion)> = Vec::new();
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
            Suggestion {
                ids: vec![c.id],
                movements: vec![c.clone()],
                value: c.value.into(),
                reason,
            },
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
                Suggestion {
                    ids: chosen.iter().map(|c| c.id).collect(),
                    movements: chosen.iter().map(|c| (**c).clone()).collect(),
                    value: l.value.into(),
                    reason: format!("Soma de {} movimentos de {}", chosen.len(), day(date)),
                },
            ));
        }
    }
    scored.sort_by_key(|(s, _)| *s);
    Ok(scored.into_iter().map(|(_, v)| v).take(5).collect())
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
