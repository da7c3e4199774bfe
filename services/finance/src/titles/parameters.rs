//! The company's financial parameters (`parametrosfinanceiro`), the terms of a
//! payment or due-date condition, and today's date in Brasília (what settlements
//! and reversals are dated by default).

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::Side;
use crate::charges::LateRules;
use crate::instalments::Terms;

/// The company's financial parameters (`parametrosfinanceiro`); all empty when the
/// company has none.
#[derive(Clone, Debug, Default)]
pub struct Parameters {
    pub late: LateRules,
    pub bank_receivable: Option<i64>,
    pub bank_payable: Option<i64>,
    pub method: Option<i64>,
    pub centre_receivable: Option<i64>,
    pub centre_payable: Option<i64>,
    pub condition: Option<i64>,
    pub due_condition: Option<i64>,
}

impl Parameters {
    pub fn bank(&self, side: Side) -> Option<i64> {
        match side {
            Side::Receivable => self.bank_receivable,
            Side::Payable => self.bank_payable,
        }
    }

    pub fn centre(&self, side: Side) -> Option<i64> {
        match side {
            Side::Receivable => self.centre_receivable,
            Side::Payable => self.centre_payable,
        }
    }
}

type ParamRow = (
    Decimal,
    Decimal,
    i32,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

pub async fn parameters(tx: &mut Tx, client: i64, emp: i64) -> Result<Parameters> {
    let row: Option<ParamRow> = sqlx::query_as(
        "SELECT parf_perc_juros_dia, parf_perc_multa, parf_dias_carencia, parf_bco_id_receber,
                parf_bco_id_pagar, parf_frmp_id, parf_hisp_id_receber, parf_hisp_id_pagar,
                parf_cndp_id, parf_cndv_id
         FROM finance.parametrosfinanceiro WHERE client_id = $1 AND parf_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(match row {
        None => Parameters::default(),
        Some(r) => Parameters {
            late: LateRules { daily_interest_pct: r.0, fine_pct: r.1, grace_days: i64::from(r.2) },
            bank_receivable: r.3,
            bank_payable: r.4,
            method: r.5,
            centre_receivable: r.6,
            centre_payable: r.7,
            condition: r.8,
            due_condition: r.9,
        },
    })
}

/// The terms of a payment condition or a due-date condition of the company (the
/// due-date condition wins when both are given); one instalment on the issue date
/// when neither is. Also answers the condition's payment method.
pub async fn terms(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    condition: Option<i64>,
    due_condition: Option<i64>,
) -> Result<(Terms, Option<i64>)> {
    if let Some(cndv) = due_condition {
        let days: Vec<(i32, i32)> = sqlx::query_as(
            "SELECT id_dias, id_mes FROM finance.condicaovencimentodias
             WHERE client_id = $1 AND cndv_emp_id = $2 AND cndv_id = $3 ORDER BY id_mes, id_dias",
        )
        .bind(client)
        .bind(emp)
        .bind(cndv)
        .fetch_all(&mut **tx)
        .await?;
        if days.is_empty() {
            return Err(Error::validation(format!(
                "Condição de vencimento {cndv} não encontrada ou sem dias de vencimento."
            )));
        }
        let entries = days
            .into_iter()
            .map(|(d, m)| (d.max(1) as u32, m.max(0) as u32))
            .collect();
        return Ok((Terms::DueDays(entries), None));
    }
    if let Some(cndp) = condition {
        let row: Option<(i32, i32, i32, Decimal, Option<i64>)> = sqlx::query_as(
            "SELECT cndp_parcelas, cndp_dias_primeira, cndp_intervalo, cndp_perc_entrada, cndp_frmp_id
             FROM finance.condicaopagamento WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(cndp)
        .fetch_optional(&mut **tx)
        .await?;
        let (n, first, interval, entry, method) = row.ok_or_else(|| {
            Error::validation(format!("Condição de pagamento {cndp} não encontrada."))
        })?;
        return Ok((
            Terms::Condition {
                instalments: n.max(1) as u32,
                first_days: i64::from(first),
                interval_days: i64::from(interval),
                entry_pct: entry,
            },
            method,
        ));
    }
    Ok((Terms::Single { days: 0 }, None))
}

/// Today in Brasília (dates of settlements and reversals).
pub async fn today(tx: &mut Tx) -> Result<NaiveDate> {
    Ok(
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
            .fetch_one(&mut **tx)
            .await?,
    )
}
