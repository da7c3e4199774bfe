//! The history's settlements: the open titles due before a day paid on their due
//! dates through finance's settlement call, a few left open.

use super::*;

/// A register of titles and which of its titles the history leaves open.
pub(super) struct Titles {
    resource: &'static str,
    /// The columns' prefix (`CRCB`, `CMPD`).
    prefix: &'static str,
    /// Of every `every` titles in due order, the one at `left_open` stays open.
    every: usize,
    left_open: usize,
}

/// Receivables: one in eight left overdue.
pub(super) const RECEIVABLES: Titles =
    Titles { resource: "contasreceber", prefix: "CRCB", every: 8, left_open: 3 };

/// Payables: one in six left open.
pub(super) const PAYABLES: Titles =
    Titles { resource: "contaspagar", prefix: "CMPD", every: 6, left_open: 5 };

/// Settles the open `titles` due before `until` on their due dates, once
/// finance has them: its titles come from the documents' facts, so this waits
/// until their count stops moving. Answers how many were settled.
pub(super) async fn settle_past_due(
    st: &AppState,
    caller: &Caller,
    until: NaiveDate,
    titles: &Titles,
) -> Result<usize> {
    let banks = ids(
        &list(st, caller, "finance", "banco", json!({"LIMIT": 1})).await?,
        "BCO_ID",
    );
    let Some(bank) = banks.first().copied() else {
        return Ok(0);
    };
    let p = titles.prefix;
    let mut filter = serde_json::Map::new();
    filter.insert(format!("{p}_SITUACAO"), json!("A"));
    filter.insert(
        format!("{p}_DTA_VCTO_FIM"),
        json!(until.format("%Y-%m-%d").to_string()),
    );
    filter.insert("ORDENACAO".into(), json!(format!("{p}_DTA_VCTO")));
    filter.insert("LIMIT".into(), json!(6000));
    let rows = settled_list(st, caller, titles.resource, Value::Object(filter)).await?;
    let (id_col, due_col) = (format!("{p}_ID"), format!("{p}_DTA_VCTO"));
    let mut by_day: std::collections::BTreeMap<String, Vec<i64>> = Default::default();
    for (i, r) in rows.iter().enumerate() {
        if let (Some(id), Some(due)) = (r[&id_col].as_i64(), r[&due_col].as_str()) {
            if i % titles.every != titles.left_open {
                by_day.entry(due.to_string()).or_default().push(id);
            }
        }
    }
    let mut settled = 0;
    for (day, ids) in by_day {
        let body = settle_body(&ids, &day, bank);
        declared(st, caller, "finance", (titles.resource, "baixa"), &[], body).await?;
        settled += ids.len();
    }
    Ok(settled)
}

/// The rows of `resource` under `filter` once their count stops moving (finance
/// makes titles from facts that arrive after the documents).
async fn settled_list(
    st: &AppState,
    caller: &Caller,
    resource: &str,
    filter: Value,
) -> Result<Vec<Value>> {
    let waited = Instant::now();
    let mut seen = 0;
    loop {
        let rows = list(st, caller, "finance", resource, filter.clone()).await?;
        if (rows.len() == seen && seen > 0) || waited.elapsed() > Duration::from_secs(60) {
            return Ok(rows);
        }
        seen = rows.len();
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

/// Finance's settlement call of `resource` (`POST /<resource>/baixa/{emp}`).
/// A settlement of `titles` on `date` into account `bank`, without charges.
fn settle_body(titles: &[i64], date: &str, bank: i64) -> Value {
    let titulos: Vec<Value> = titles
        .iter()
        .map(|t| json!({"ID": t, "JUROS": "0", "MULTA": "0"}))
        .collect();
    json!({"TITULOS": titulos, "DATA": date, "BCO_ID": bank})
}
