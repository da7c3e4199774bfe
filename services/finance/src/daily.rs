//! Daily movement (`movdiario`): the day's cash over the company's accounts (or
//! one account) — opening balance, entries and exits by payment method, closing
//! balance — and the closing of a day.
//!
//! A closed day is a row of `movdiario` with the figures it closed with. Every
//! movement write (`bank::record`, the register of manual movements, the
//! reconciliation's movements) asks `bank::check_open` first: nothing is written
//! on or before the last closed day until that day is reopened. A day is reopened only
//! when no later day is closed.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::Row;

fn day(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// The figures of a day.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Day {
    pub opening: Decimal,
    pub entries: Decimal,
    pub exits: Decimal,
}

impl Day {
    pub fn closing(&self) -> Decimal {
        self.opening + self.entries - self.exits
    }
}

async fn figures(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    date: NaiveDate,
    bank: Option<i64>,
) -> Result<Day> {
    let r = sqlx::query(
        "SELECT coalesce((SELECT sum(bco_saldo_inicial) FROM finance.banco
                          WHERE client_id = $1 AND bco_emp_id = $2 AND ($4::bigint IS NULL OR bco_id = $4)), 0)
              + coalesce(sum(CASE WHEN mbca_dta_mov < $3 THEN CASE mbca_tipo WHEN 'C' THEN mbca_valor ELSE -mbca_valor END END), 0),
                coalesce(sum(mbca_valor) FILTER (WHERE mbca_dta_mov = $3 AND mbca_tipo = 'C'), 0),
                coalesce(sum(mbca_valor) FILTER (WHERE mbca_dta_mov = $3 AND mbca_tipo = 'D'), 0)
         FROM finance.movimentacaobancaria
         WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_dta_mov <= $3 AND ($4::bigint IS NULL OR mbca_bco_id = $4)",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .bind(bank)
    .fetch_one(&mut **tx)
    .await?;
    Ok(Day { opening: r.try_get(0)?, entries: r.try_get(1)?, exits: r.try_get(2)? })
}

/// What a payment method moved on the day.
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct MethodTotals {
    #[serde(rename = "FRMP_ID")]
    pub method: Option<i64>,
    /// 'Sem forma de pagamento' for movements without one.
    #[serde(rename = "FRMP_DESCRICAO")]
    pub name: String,
    #[serde(rename = "ENTRADAS", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub entries: Decimal,
    #[serde(rename = "SAIDAS", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub exits: Decimal,
}

/// A movement of the day.
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct DayMovement {
    #[serde(rename = "MBCA_ID")]
    pub id: i64,
    #[serde(rename = "MBCA_BCO_ID")]
    pub bank: i64,
    #[serde(rename = "BCO_DESCRICAO")]
    pub bank_name: String,
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
    #[serde(rename = "MBCA_FRMP_ID")]
    pub method: Option<i64>,
    #[serde(rename = "MBCA_ORIGEM")]
    pub origin: String,
}

/// The day's cash: its figures, whether it is closed, its totals by payment
/// method and its movements.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Summary {
    #[serde(rename = "DATA")]
    pub date: NaiveDate,
    /// One account, or none: every account of the company.
    #[serde(rename = "BCO_ID")]
    pub bank: Option<i64>,
    #[serde(rename = "FECHADO")]
    pub closed: bool,
    #[serde(rename = "SALDO_INICIAL")]
    pub opening: Dec,
    #[serde(rename = "ENTRADAS")]
    pub entries: Dec,
    #[serde(rename = "SAIDAS")]
    pub exits: Dec,
    #[serde(rename = "SALDO_FINAL")]
    pub closing: Dec,
    #[serde(rename = "FORMAS")]
    pub methods: Vec<MethodTotals>,
    #[serde(rename = "MOVIMENTOS")]
    pub movements: Vec<DayMovement>,
}

/// The day's cash (see the module's doc).
pub async fn summary(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    date: NaiveDate,
    bank: Option<i64>,
) -> Result<Summary> {
    let d = figures(tx, client, emp, date, bank).await?;
    let closed: Option<i64> = sqlx::query_scalar(
        "SELECT movd_id FROM finance.movdiario WHERE client_id = $1 AND movd_emp_id = $2 AND movd_dta_mov = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .fetch_optional(&mut **tx)
    .await?;
    let methods: Vec<MethodTotals> = sqlx::query_as(
        "SELECT m.mbca_frmp_id AS method, coalesce(f.frmp_descricao, 'Sem forma de pagamento') AS name,
                coalesce(sum(m.mbca_valor) FILTER (WHERE m.mbca_tipo = 'C'), 0) AS entries,
                coalesce(sum(m.mbca_valor) FILTER (WHERE m.mbca_tipo = 'D'), 0) AS exits
         FROM finance.movimentacaobancaria m
         LEFT JOIN finance.formapagamento f ON f.client_id = m.client_id AND f.frmp_id = m.mbca_frmp_id
         WHERE m.client_id = $1 AND m.mbca_emp_id = $2 AND m.mbca_dta_mov = $3
           AND ($4::bigint IS NULL OR m.mbca_bco_id = $4)
         GROUP BY m.mbca_frmp_id, f.frmp_descricao
         ORDER BY 2",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?;
    let movements: Vec<DayMovement> = sqlx::query_as(
        "SELECT m.mbca_id AS id, m.mbca_bco_id AS bank, b.bco_descricao AS bank_name, m.mbca_dta_mov AS date,
                m.mbca_tipo AS kind, m.mbca_valor AS value, m.mbca_historico AS history,
                m.mbca_documento AS document, m.mbca_frmp_id AS method, m.mbca_origem AS origin
         FROM finance.movimentacaobancaria m
         JOIN finance.banco b ON b.client_id = m.client_id AND b.bco_emp_id = m.mbca_emp_id AND b.bco_id = m.mbca_bco_id
         WHERE m.client_id = $1 AND m.mbca_emp_id = $2 AND m.mbca_dta_mov = $3 AND ($4::bigint IS NULL OR m.mbca_bco_id = $4)
         ORDER BY m.mbca_id",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?;
    Ok(Summary {
        date,
        bank,
        closed: closed.is_some(),
        opening: d.opening.into(),
        entries: d.entries.into(),
        exits: d.exits.into(),
        closing: d.closing().into(),
        methods,
        movements,
    })
}

/// Closes day `date` of the company (every account); answers the row.
pub async fn close(tx: &mut Tx, client: i64, emp: i64, user: i64, date: NaiveDate) -> Result<i64> {
    // One closing at a time per company: the company's counter row is the lock.
    let id =
        crate::bank::next_ids(tx, client, emp, "movdiario", "movd_id", "movd_emp_id", 1).await?;
    let done: Option<i64> = sqlx::query_scalar(
        "SELECT movd_id FROM finance.movdiario WHERE client_id = $1 AND movd_emp_id = $2 AND movd_dta_mov = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .fetch_optional(&mut **tx)
    .await?;
    if done.is_some() {
        return Err(Error::Conflict(format!(
            "O dia {} já está fechado.",
            day(date)
        )));
    }
    let today = crate::titles::today(tx).await?;
    if date > today {
        return Err(Error::validation("Não é possível fechar um dia futuro."));
    }
    let d = figures(tx, client, emp, date, None).await?;
    sqlx::query(
        "INSERT INTO finance.movdiario (client_id, movd_emp_id, movd_id, movd_dta_mov, movd_saldo_inicial, movd_entradas,
             movd_saidas, movd_saldo_final, movd_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(date)
    .bind(d.opening)
    .bind(d.entries)
    .bind(d.exits)
    .bind(d.closing())
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// Reopens day `date` (only the last closed day can be reopened).
pub async fn reopen(tx: &mut Tx, client: i64, emp: i64, date: NaiveDate) -> Result<()> {
    crate::bank::next_ids(tx, client, emp, "movdiario", "movd_id", "movd_emp_id", 0).await?;
    let later: Option<NaiveDate> = sqlx::query_scalar(
        "SELECT max(movd_dta_mov) FROM finance.movdiario WHERE client_id = $1 AND movd_emp_id = $2 AND movd_dta_mov > $3",
    )
    .bind(client)
    .bind(emp)
    .bind(date)
    .fetch_one(&mut **tx)
    .await?;
    if let Some(l) = later {
        return Err(Error::Conflict(format!("Reabra antes o dia {}.", day(l))));
    }
    let gone = sqlx::query("DELETE FROM finance.movdiario WHERE client_id = $1 AND movd_emp_id = $2 AND movd_dta_mov = $3")
        .bind(client)
        .bind(emp)
        .bind(date)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if gone == 0 {
        return Err(Error::Conflict(format!(
            "O dia {} não está fechado.",
            day(date)
        )));
    }
    Ok(())
}
