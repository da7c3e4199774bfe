//! Advances to suppliers (`tit_adiantamento` payables): offsetting a supplier's
//! payables against what an advance paid, and the advances open to offset.

use std::collections::HashSet;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use super::settlement::publish_standing;
use super::{brl, load, refusal, Settled, Side, Standing};
use crate::bank;

/// An offset of payables against a supplier's advance: the advance, the date, and
/// each payable with how much of it (its whole balance when not given).
#[derive(Clone, Debug)]
pub struct Offset {
    pub advance: i64,
    pub date: NaiveDate,
    pub remarks: Option<String>,
    pub items: Vec<(i64, Option<Decimal>)>,
    pub user: i64,
}

/// The account an advance was paid from: the account of its latest settlement
/// still standing.
async fn advance_account(tx: &mut Tx, client: i64, emp: i64, advance: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT baix_bco_id FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_tipo = 'P'
           AND baix_tit_id = $3 AND NOT baix_estornada ORDER BY baix_dta DESC, baix_id DESC LIMIT 1",
    )
    .bind(client)
    .bind(emp)
    .bind(advance)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Settles payables of the advance's supplier with what the advance paid and was
/// not offset yet (all or nothing). The titles (advance included) are locked in key
/// order; each payable gets a settlement that names the advance, at face value (no
/// interest, fine or discount), moving no money: the money left the account when
/// the advance was paid.
pub async fn offset(tx: &mut Tx, client: i64, emp: i64, o: &Offset) -> Result<Vec<Settled>> {
    if o.items.is_empty() {
        return Err(Error::validation("Informe os títulos a compensar."));
    }
    let mut seen = HashSet::new();
    if let Some((dup, _)) = o.items.iter().find(|(id, _)| !seen.insert(*id)) {
        return Err(Error::validation(format!(
            "Título {dup} informado mais de uma vez."
        )));
    }
    if seen.contains(&o.advance) {
        return Err(Error::validation(
            "O adiantamento não pode compensar a si mesmo.",
        ));
    }
    let side = Side::Payable;
    let ids: Vec<i64> = std::iter::once(o.advance)
        .chain(o.items.iter().map(|(id, _)| *id))
        .collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    let a = titles
        .get(&o.advance)
        .ok_or_else(|| Error::NotFound(format!("Título {} não encontrado.", o.advance)))?;
    if !a.advance {
        return Err(Error::validation(format!(
            "Título {} não é um adiantamento.",
            a.id
        )));
    }
    if a.cancelled {
        return Err(Error::Conflict(format!(
            "Adiantamento {} está cancelado.",
            a.id
        )));
    }
    let (paid, offset_before): (Decimal, Decimal) = sqlx::query_as(
        "SELECT tit_pago, tit_compensado FROM finance.contaspagar
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(a.id)
    .fetch_one(&mut **tx)
    .await?;
    let available = paid - offset_before;
    let account = advance_account(tx, client, emp, a.id).await?;
    let account = match account {
        Some(acc) if available > Decimal::ZERO => acc,
        _ => {
            return Err(Error::Conflict(format!(
                "Adiantamento {} não tem saldo a compensar.",
                a.id
            )))
        }
    };
    let mut plan = Vec::with_capacity(o.items.len());
    for (id, value) in &o.items {
        let t = titles
            .get(id)
            .ok_or_else(|| Error::NotFound(format!("Título {id} não encontrado.")))?;
        if t.advance {
            return Err(Error::validation(format!(
                "Título {id} é um adiantamento e não pode ser compensado."
            )));
        }
        if t.person != a.person {
            return Err(Error::validation(format!(
                "Título {id} é de outro fornecedor: o adiantamento compensa apenas títulos do seu fornecedor."
            )));
        }
        if let Some(why) = refusal(t) {
            return Err(Error::Conflict(why));
        }
        let value = value.unwrap_or(t.balance);
        if value <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe o valor a compensar do título {id}."
            )));
        }
        if value > t.balance {
            return Err(Error::Conflict(format!(
                "Valor a compensar do título {id} ({}) maior que o saldo ({}).",
                brl(value),
                brl(t.balance)
            )));
        }
        plan.push((t, value));
    }
    let sum: Decimal = plan.iter().map(|(_, v)| *v).sum();
    if sum > available {
        return Err(Error::Conflict(format!(
            "Valor a compensar ({}) maior que o saldo do adiantamento {} ({}).",
            brl(sum),
            a.id,
            brl(available)
        )));
    }
    let first = bank::next_ids(
        tx,
        client,
        emp,
        "baixas",
        "baix_id",
        "baix_emp_id",
        plan.len() as i64,
    )
    .await?;
    let remarks = o
        .remarks
        .clone()
        .unwrap_or_else(|| format!("Compensação do adiantamento {}", a.id));
    let mut done = Vec::with_capacity(plan.len());
    for (i, (t, value)) in plan.iter().enumerate() {
        let id = first + i as i64;
        sqlx::query(
            "INSERT INTO finance.baixas (client_id, baix_emp_id, baix_id, baix_tipo, baix_tit_id, baix_dta, baix_valor,
                 baix_bco_id, baix_obs, baix_usr_id, baix_adto_id)
             VALUES ($1, $2, $3, 'P', $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(t.id)
        .bind(o.date)
        .bind(value)
        .bind(account)
        .bind(&remarks)
        .bind((o.user > 0).then_some(o.user))
        .bind(a.id)
        .execute(&mut **tx)
        .await?;
        let standing: Standing = sqlx::query_as(
            "UPDATE finance.contaspagar SET tit_pago = tit_pago + $4,
                 tit_dta_pag = greatest(coalesce(tit_dta_pag, $5), $5)
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3
             RETURNING tit_pago, tit_saldo, tit_situacao",
        )
        .bind(client)
        .bind(emp)
        .bind(t.id)
        .bind(value)
        .bind(o.date)
        .fetch_one(&mut **tx)
        .await?;
        publish_standing(tx, client, emp, side, t, id, "baixa", o.user).await?;
        done.push(Settled {
            settlement: id,
            title: t.id,
            value: *value,
            interest: Decimal::ZERO,
            fine: Decimal::ZERO,
            discount: Decimal::ZERO,
            total: *value,
            movement: None,
            balance: standing.1,
        });
    }
    sqlx::query(
        "UPDATE finance.contaspagar SET tit_compensado = tit_compensado + $4
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(a.id)
    .bind(sum)
    .execute(&mut **tx)
    .await?;
    Ok(done)
}

/// An advance open to offset, as the purchase screen lists it (legacy `CMPD_*`
/// names; `SALDO` = paid − offset).
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct AdvanceRow {
    #[serde(rename = "CMPD_ID")]
    pub id: i64,
    #[serde(rename = "CMPD_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "CMPD_COMP_FORN_ID")]
    pub supplier: i64,
    #[serde(rename = "FORN_DESCRICAO")]
    pub supplier_name: Option<String>,
    #[serde(rename = "CMPD_DOCUMENTO")]
    pub document: Option<String>,
    #[serde(rename = "CMPD_DTA_EMIS")]
    pub issued: NaiveDate,
    #[serde(rename = "CMPD_DTA_MOV")]
    pub paid_on: Option<NaiveDate>,
    /// What the advance is worth: value plus surcharge.
    #[serde(rename = "CMPD_VLR_TITULO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub worth: Decimal,
    #[serde(rename = "CMPD_VLR_PAGO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub paid: Decimal,
    #[serde(rename = "CMPD_VLR_COMPENSADO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub offset: Decimal,
    #[serde(rename = "SALDO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub balance: Decimal,
    /// The account the advance was paid from.
    #[serde(rename = "BCO_ID")]
    pub bank: Option<i64>,
    #[serde(rename = "BCO_DESCRICAO")]
    pub bank_name: Option<String>,
    #[serde(rename = "CMPD_OBS")]
    pub remarks: Option<String>,
}

/// The supplier's advances with something left to offset, paid from account
/// `bank` (any account when none), oldest first, as rows for the purchase screen.
pub async fn advances(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    supplier: i64,
    bank: Option<i64>,
) -> Result<Vec<AdvanceRow>> {
    Ok(sqlx::query_as(
        "SELECT t.tit_id AS id, t.tit_emp_id AS emp, t.tit_pessoa_id AS supplier, t.tit_pessoa_nome AS supplier_name,
                t.tit_documento AS document, t.tit_dta_emis AS issued, t.tit_dta_pag AS paid_on,
                t.tit_valor + t.tit_acrescimo AS worth, t.tit_pago AS paid, t.tit_compensado AS offset,
                t.tit_pago - t.tit_compensado AS balance, b.bco_id AS bank, b.bco_descricao AS bank_name,
                t.tit_obs AS remarks
         FROM finance.contaspagar t
         CROSS JOIN LATERAL (
             SELECT x.baix_bco_id FROM finance.baixas x
             WHERE x.client_id = t.client_id AND x.baix_emp_id = t.tit_emp_id AND x.baix_tipo = 'P'
               AND x.baix_tit_id = t.tit_id AND NOT x.baix_estornada
             ORDER BY x.baix_dta DESC, x.baix_id DESC LIMIT 1) paid
         LEFT JOIN finance.banco b ON b.client_id = t.client_id AND b.bco_emp_id = t.tit_emp_id
                                  AND b.bco_id = paid.baix_bco_id
         WHERE t.client_id = $1 AND t.tit_emp_id = $2 AND t.tit_pessoa_id = $3 AND t.tit_adiantamento
           AND NOT t.tit_cancelado AND t.tit_pago > t.tit_compensado
           AND ($4::bigint IS NULL OR paid.baix_bco_id = $4)
         ORDER BY t.tit_dta_emis, t.tit_id",
    )
    .bind(client)
    .bind(emp)
    .bind(supplier)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?)
}
