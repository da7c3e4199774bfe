//! A title as a settlement sees it: read (and locked) by id, whether it can be
//! settled now, what its settlements add up to, and money as its messages write it.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::Side;

/// A title as a settlement sees it.
#[derive(Clone, Debug)]
pub struct Title {
    pub id: i64,
    /// The customer or supplier.
    pub person: i64,
    pub person_name: Option<String>,
    pub document: Option<String>,
    pub seq: i32,
    pub count: i32,
    pub issued: NaiveDate,
    pub due: NaiveDate,
    /// What the title is worth: value plus surcharge.
    pub worth: Decimal,
    pub balance: Decimal,
    pub cancelled: bool,
    pub status: String,
    pub method: Option<i64>,
    pub bank: Option<i64>,
    pub centre: Option<i64>,
    /// `MANUAL`, `PEDIDO`, `COMPRA`, `ORDEMSERVICO`.
    pub origin: String,
    pub origin_id: Option<i64>,
    pub origin_serie: Option<String>,
    /// An advance to a supplier (payables only).
    pub advance: bool,
}

/// Reads titles of a company, locked (`FOR UPDATE`, in key order) when `lock`.
pub async fn load(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    ids: &[i64],
    lock: bool,
) -> Result<BTreeMap<i64, Title>> {
    let advance = match side {
        Side::Receivable => "false",
        Side::Payable => "tit_adiantamento",
    };
    let sql = format!(
        "SELECT tit_id, tit_pessoa_id, tit_pessoa_nome, tit_documento, tit_parcela, tit_parcelas, tit_dta_emis,
                tit_dta_vcto, tit_valor + tit_acrescimo, tit_saldo, tit_cancelado, tit_situacao, tit_frmp_id,
                tit_bco_id, tit_hisp_id, tit_origem, tit_origem_id, tit_origem_serie, {advance}
         FROM finance.{} WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = ANY($3)
         ORDER BY tit_id{}",
        side.table(),
        if lock { " FOR UPDATE" } else { "" }
    );
    let rows: Vec<sqlx::postgres::PgRow> = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(ids)
        .fetch_all(&mut **tx)
        .await?;
    let mut found = BTreeMap::new();
    for r in rows {
        let t = title_of(&r)?;
        found.insert(t.id, t);
    }
    if let Some(missing) = ids.iter().find(|id| !found.contains_key(id)) {
        return Err(Error::NotFound(format!("Título {missing} não encontrado.")));
    }
    Ok(found)
}

fn title_of(r: &sqlx::postgres::PgRow) -> Result<Title> {
    use sqlx::Row;
    Ok(Title {
        id: r.try_get(0)?,
        person: r.try_get(1)?,
        person_name: r.try_get(2)?,
        document: r.try_get(3)?,
        seq: r.try_get(4)?,
        count: r.try_get(5)?,
        issued: r.try_get(6)?,
        due: r.try_get(7)?,
        worth: r.try_get(8)?,
        balance: r.try_get(9)?,
        cancelled: r.try_get(10)?,
        status: r.try_get(11)?,
        method: r.try_get(12)?,
        bank: r.try_get(13)?,
        centre: r.try_get(14)?,
        origin: r.try_get(15)?,
        origin_id: r.try_get(16)?,
        origin_serie: r.try_get(17)?,
        advance: r.try_get(18)?,
    })
}

/// Whether a title can be settled now: the message that refuses it, if any.
pub fn refusal(t: &Title) -> Option<String> {
    if t.cancelled {
        Some(format!(
            "Título {} está cancelado e não pode ser baixado.",
            t.id
        ))
    } else if t.balance <= Decimal::ZERO {
        Some(format!("Título {} já está pago.", t.id))
    } else {
        None
    }
}

/// Money as pt-BR text (`R$ 1.234,56`), for messages.
pub fn brl(d: Decimal) -> String {
    let d = crate::charges::money(d);
    let s = format!("{:.2}", d.abs());
    let (int, frac) = s.split_once('.').unwrap_or((s.as_str(), "00"));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    let sign = if d < Decimal::ZERO { "-" } else { "" };
    format!("{sign}R$ {grouped},{frac}")
}

/// What a title's settlements add up to after a change: paid, balance, status.
pub type Standing = (Decimal, Decimal, String);
