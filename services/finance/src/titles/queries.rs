//! What the screens read of settlements: a title's settlements.

use chrono::{DateTime, NaiveDate, Utc};
use erp_platform::db::Tx;
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Dec;
use erp_platform::Result;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use super::Side;

/// A settlement as the screens list it (legacy `BAIX_*` names).
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct SettlementRow {
    #[serde(rename = "BAIX_ID")]
    pub id: i64,
    #[serde(rename = "BAIX_TIT_ID")]
    pub title: i64,
    #[serde(rename = "BAIX_DTA")]
    pub date: NaiveDate,
    #[serde(rename = "BAIX_VALOR", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub value: Decimal,
    #[serde(rename = "BAIX_JUROS", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub interest: Decimal,
    #[serde(rename = "BAIX_MULTA", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub fine: Decimal,
    #[serde(rename = "BAIX_DESCONTO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub discount: Decimal,
    /// What moved in the account: value + interest + fine − discount.
    #[serde(rename = "BAIX_TOTAL", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub total: Decimal,
    #[serde(rename = "BAIX_BCO_ID")]
    pub bank: i64,
    #[serde(rename = "BCO_DESCRICAO")]
    pub bank_name: Option<String>,
    #[serde(rename = "BAIX_FRMP_ID")]
    pub method: Option<i64>,
    #[serde(rename = "FRMP_DESCRICAO")]
    pub method_name: Option<String>,
    #[serde(rename = "BAIX_OBS")]
    pub remarks: Option<String>,
    #[serde(rename = "BAIX_USR_ID")]
    pub user: Option<i64>,
    #[serde(rename = "BAIX_ESTORNADA")]
    pub reversed: bool,
    #[serde(rename = "BAIX_DTA_ESTORNO")]
    pub reversed_at: Option<DateTime<Utc>>,
}

/// The settlements of a title, newest first, as rows for the screens.
pub async fn settlements_of(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    title: i64,
) -> Result<Vec<SettlementRow>> {
    Ok(sqlx::query_as(
        "SELECT x.baix_id AS id, x.baix_tit_id AS title, x.baix_dta AS date, x.baix_valor AS value,
                x.baix_juros AS interest, x.baix_multa AS fine, x.baix_desconto AS discount, x.baix_total AS total,
                x.baix_bco_id AS bank, b.bco_descricao AS bank_name, x.baix_frmp_id AS method,
                f.frmp_descricao AS method_name, x.baix_obs AS remarks, x.baix_usr_id AS user,
                x.baix_estornada AS reversed, x.baix_dta_estorno AS reversed_at
         FROM finance.baixas x
         LEFT JOIN finance.banco b ON b.client_id = x.client_id AND b.bco_emp_id = x.baix_emp_id AND b.bco_id = x.baix_bco_id
         LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
         WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_tipo = $3 AND x.baix_tit_id = $4
         ORDER BY x.baix_dta DESC, x.baix_id DESC",
    )
    .bind(client)
    .bind(emp)
    .bind(side.code())
    .bind(title)
    .fetch_all(&mut **tx)
    .await?)
}
