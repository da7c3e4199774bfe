//! Settlement (baixa) of one or more titles of a company, all or nothing; the
//! history of its bank movement and the fact of a settlement change, which
//! reversals and offsets share.

use std::collections::HashSet;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::{brl, load, parameters, refusal, Parameters, Side, Standing, Title};
use crate::bank::{self, Movement};
use crate::charges::{late_charges, LateCharges};

/// One title of a settlement: how much of it (the whole balance when not given),
/// the charges (computed when not given) and the discount.
#[derive(Clone, Debug, Default)]
pub struct SettleItem {
    pub id: i64,
    pub value: Option<Decimal>,
    pub interest: Option<Decimal>,
    pub fine: Option<Decimal>,
    pub discount: Decimal,
}

/// A settlement of one or more titles of a company.
#[derive(Clone, Debug)]
pub struct Settlement {
    pub date: NaiveDate,
    pub bank: Option<i64>,
    pub method: Option<i64>,
    pub remarks: Option<String>,
    pub items: Vec<SettleItem>,
    pub user: i64,
}

/// What one title's settlement did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub settlement: i64,
    pub title: i64,
    pub value: Decimal,
    pub interest: Decimal,
    pub fine: Decimal,
    pub discount: Decimal,
    pub total: Decimal,
    pub movement: Option<i64>,
    pub balance: Decimal,
}

/// The charges of settling `value` of `t` on `date`.
pub fn charges_of(t: &Title, value: Decimal, date: NaiveDate, p: &Parameters) -> LateCharges {
    late_charges(value, t.due, date, &p.late)
}

pub(super) fn history(side: Side, t: &Title) -> String {
    let mut h = format!(
        "{} {}",
        side.verb(),
        t.person_name.as_deref().unwrap_or("").trim()
    );
    if let Some(doc) = t.document.as_deref().filter(|d| !d.trim().is_empty()) {
        h.push_str(&format!(" - Doc. {}", doc.trim()));
    }
    h.push_str(&format!(" - Parcela {}/{}", t.seq, t.count));
    h.trim().to_string()
}

/// `erp.finance.titulo.situacao` of title `t` after settlement `settlement`
/// changed (`change`: "baixa" or "estorno"), in the transaction of the change.
#[allow(clippy::too_many_arguments)]
pub(super) async fn publish_standing(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    t: &Title,
    settlement: i64,
    change: &str,
    user: i64,
) -> Result<()> {
    crate::facts::titles(
        tx,
        client,
        emp,
        side.code(),
        &[t.id],
        change,
        settlement,
        user,
    )
    .await
}

/// Settles titles (all or nothing): see the module's doc.
pub async fn settle(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    s: &Settlement,
) -> Result<Vec<Settled>> {
    if s.items.is_empty() {
        return Err(Error::validation("Informe os títulos a baixar."));
    }
    let mut seen = HashSet::new();
    if let Some(dup) = s.items.iter().find(|i| !seen.insert(i.id)) {
        return Err(Error::validation(format!(
            "Título {} informado mais de uma vez.",
            dup.id
        )));
    }
    let params = parameters(tx, client, emp).await?;
    let ids: Vec<i64> = s.items.iter().map(|i| i.id).collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    if side == Side::Receivable {
        let people: Vec<i64> = titles.values().map(|t| t.person).collect();
        crate::credit::lock_customers(tx, client, emp, &people).await?;
    }
    let account = s.bank.or_else(|| params.bank(side)).ok_or_else(|| {
        Error::validation(
            "Informe a conta bancária da baixa (ou a conta padrão nos parâmetros financeiros).",
        )
    })?;
    // Every title checked before anything is written.
    let mut plan = Vec::with_capacity(s.items.len());
    for item in &s.items {
        let t = titles
            .get(&item.id)
            .ok_or_else(|| Error::NotFound(format!("Título {} não encontrado.", item.id)))?;
        if let Some(why) = refusal(t) {
            return Err(Error::Conflict(why));
        }
        let value = item.value.unwrap_or(t.balance);
        if value <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe o valor da baixa do título {}.",
                t.id
            )));
        }
        if value > t.balance {
            return Err(Error::Conflict(format!(
                "Valor da baixa do título {} ({}) maior que o saldo ({}).",
                t.id,
                brl(value),
                brl(t.balance)
            )));
        }
        let due = charges_of(t, value, s.date, &params);
        let interest = item.interest.unwrap_or(due.interest);
        let fine = item.fine.unwrap_or(due.fine);
        if item.discount > value + interest + fine {
            return Err(Error::validation(format!(
                "O desconto do título {} não pode ser maior que o valor da baixa.",
                t.id
            )));
        }
        plan.push((t, value, interest, fine, item.discount));
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
    let moving = plan
        .iter()
        .filter(|(_, v, i, f, d)| *v + *i + *f - *d > Decimal::ZERO)
        .count() as i64;
    let mut movement_id = if moving > 0 {
        bank::reserve(tx, client, emp, moving).await?
    } else {
        0
    };
    let table = side.table();
    let mut done = Vec::with_capacity(plan.len());
    for (i, (t, value, interest, fine, discount)) in plan.iter().enumerate() {
        let id = first + i as i64;
        let method = s.method.or(t.method).or(params.method);
        sqlx::query(
            "INSERT INTO finance.baixas (client_id, baix_emp_id, baix_id, baix_tipo, baix_tit_id, baix_dta, baix_valor,
                 baix_juros, baix_multa, baix_desconto, baix_bco_id, baix_frmp_id, baix_obs, baix_usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(side.code())
        .bind(t.id)
        .bind(s.date)
        .bind(value)
        .bind(interest)
        .bind(fine)
        .bind(discount)
        .bind(account)
        .bind(method)
        .bind(&s.remarks)
        .bind((s.user > 0).then_some(s.user))
        .execute(&mut **tx)
        .await
        .map_err(|e| {
            Error::from(e).on_constraint(&[
                ("baixas_banco_fkey", bank::UNKNOWN_ACCOUNT),
                ("baixas_forma_fkey", "Forma de pagamento não encontrada."),
            ])
        })?;
        let sql = format!(
            "UPDATE finance.{table} SET tit_pago = tit_pago + $4, tit_juros = tit_juros + $5,
                 tit_multa = tit_multa + $6, tit_desconto = tit_desconto + $7,
                 tit_dta_pag = greatest(coalesce(tit_dta_pag, $8), $8)
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3 RETURNING tit_pago, tit_saldo, tit_situacao"
        );
        let standing: Standing = sqlx::query_as(&sql)
            .bind(client)
            .bind(emp)
            .bind(t.id)
            .bind(value)
            .bind(interest)
            .bind(fine)
            .bind(discount)
            .bind(s.date)
            .fetch_one(&mut **tx)
            .await?;
        publish_standing(tx, client, emp, side, t, id, "baixa", s.user).await?;
        let balance = standing.1;
        done.push(Settled {
            settlement: id,
            title: t.id,
            value: *value,
            interest: *interest,
            fine: *fine,
            discount: *discount,
            total: *value + *interest + *fine - *discount,
            movement: None,
            balance,
        });
    }
    for (d, (t, ..)) in done.iter_mut().zip(&plan) {
        if d.total <= Decimal::ZERO {
            // Settled by discount alone: no money moved.
            continue;
        }
        let m = Movement {
            emp,
            bank: account,
            date: s.date,
            direction: side.direction(),
            value: d.total,
            history: history(side, t),
            document: t.document.clone(),
            cost_centre: t.centre.or(params.centre(side)),
            method: s.method.or(t.method).or(params.method),
            origin: "BAIXA",
            settlement: Some(d.settlement),
            user: s.user,
        };
        bank::record(tx, client, movement_id, &m).await?;
        d.movement = Some(movement_id);
        movement_id += 1;
    }
    Ok(done)
}
