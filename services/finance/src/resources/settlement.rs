//! The declared calls of the title registers: settle (`baixa`, and the quick
//! settlement of payables `baixacontaspagar/rapida`), reverse (`estorno`), a
//! title's settlements, whether a title can be settled (`verifica`), the charges of
//! a settlement before it is confirmed (`calculo`), the payables to settle
//! (`baixacontaspagar/filtros`), a customer's titles, the settled receivables of a
//! period, the removal of an order's instalments, the instalments of a value by
//! a condition (`simular`), a supplier's advances and their offset against the
//! supplier's payables (`adiantamentos`, `compensar`). Each is an `Operation`
//! with its `…In` and its answer type.
//!
//! A settlement's body ([`SettleIn`]): `DATA` (yyyy-MM-dd, default today),
//! `BCO_ID` (default the parameters' account of the side), `FRMP_ID`, `OBS` and
//! `TITULOS`: a list of title ids or of `{ID (or CRCB_ID/CMPD_ID), VALOR, JUROS,
//! MULTA, DESCONTO}` ([`ItemIn`]; the `BAIX_*` names are read too). `VALOR` left
//! out settles the whole balance; `JUROS` and `MULTA` left out are computed from
//! the financial parameters on `DATA` for the value settled; `DESCONTO` defaults
//! to zero. A body without `TITULOS` is one title.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{Duration, NaiveDate};
use erp_platform::resource::call::types::decimal_out;
use erp_platform::resource::call::{Ctx, Date, Dec, Money, Operation, Row};
use erp_platform::resource::{query, record};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::items::IdOr;
use super::title_names::TitleKey;
use super::IdIn;
use crate::instalments;
use crate::titles::{
    self, AdvanceRow, Origin, Parameters, SettleItem, Settled, Settlement, SettlementRow, Side,
    Title,
};

/// A title of a settlement's body: an element of `TITULOS` (or the body itself).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
pub struct ItemIn {
    #[serde(rename = "ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub id: Option<i64>,
    /// The receivable (receivables' calls).
    #[serde(rename = "CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub receivable: Option<i64>,
    /// The payable (payables' calls).
    #[serde(rename = "CMPD_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub payable: Option<i64>,
    /// How much of the title (default: its whole balance).
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor")]
    pub value: Option<Money>,
    #[serde(rename = "BAIX_VALOR", default)]
    #[schemars(title = "Valor")]
    pub settled_value: Option<Money>,
    /// Default: computed from the financial parameters.
    #[serde(rename = "JUROS", default)]
    #[schemars(title = "Juros")]
    pub interest: Option<Money>,
    #[serde(rename = "BAIX_JUROS", default)]
    #[schemars(title = "Juros")]
    pub settled_interest: Option<Money>,
    /// Default: computed from the financial parameters.
    #[serde(rename = "MULTA", default)]
    #[schemars(title = "Multa")]
    pub fine: Option<Money>,
    #[serde(rename = "BAIX_MULTA", default)]
    #[schemars(title = "Multa")]
    pub settled_fine: Option<Money>,
    #[serde(rename = "DESCONTO", default)]
    #[schemars(title = "Desconto")]
    pub discount: Option<Money>,
    #[serde(rename = "BAIX_DESCONTO", default)]
    #[schemars(title = "Desconto")]
    pub settled_discount: Option<Money>,
}

fn either(a: Option<Money>, b: Option<Money>) -> Option<Decimal> {
    a.or(b).map(Money::get)
}

impl ItemIn {
    fn item(&self, side: Side) -> Result<SettleItem> {
        let key = match side {
            Side::Receivable => self.receivable,
            Side::Payable => self.payable,
        };
        let id = self
            .id
            .or(key)
            .ok_or_else(|| Error::validation("Informe o título a baixar."))?;
        Ok(SettleItem {
            id,
            value: either(self.value, self.settled_value),
            interest: either(self.interest, self.settled_interest),
            fine: either(self.fine, self.settled_fine),
            discount: either(self.discount, self.settled_discount).unwrap_or_default(),
        })
    }
}

fn item_of(side: Side, e: &IdOr<ItemIn>) -> Result<SettleItem> {
    match e {
        IdOr::Id(id) => Ok(SettleItem { id: *id, ..SettleItem::default() }),
        IdOr::Fields(i) => i.item(side),
    }
}

/// `POST /{register}/baixa/{emp}`, `POST /baixacontaspagar/rapida/{emp}` and
/// `POST /{register}/calculo/{emp}`: a settlement's body (see the module's doc).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
pub struct SettleIn {
    /// Default: today.
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "BAIX_DTA", default)]
    #[schemars(title = "Data")]
    pub settled_on: Option<Date>,
    /// Default: the parameters' account of the side.
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    #[serde(rename = "BAIX_BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub settled_bank: Option<i64>,
    #[serde(rename = "FRMP_ID", default)]
    #[schemars(title = "Forma de pagamento", extend("x-invalid" = "Forma de pagamento inválido."))]
    pub method: Option<i64>,
    #[serde(rename = "BAIX_FRMP_ID", default)]
    #[schemars(title = "Forma de pagamento", extend("x-invalid" = "Forma de pagamento inválido."))]
    pub settled_method: Option<i64>,
    #[serde(rename = "OBS", default)]
    pub remarks: Option<String>,
    #[serde(rename = "BAIX_OBS", default)]
    pub settled_remarks: Option<String>,
    /// The titles; without it, the body itself is one title.
    #[serde(rename = "TITULOS", default)]
    #[schemars(extend("x-invalid" = "TITULOS deve ser uma lista."))]
    pub titles: Option<Vec<IdOr<ItemIn>>>,
    /// The body as one title (no `TITULOS`).
    #[serde(rename = "ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub id: Option<i64>,
    #[serde(rename = "CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub receivable: Option<i64>,
    #[serde(rename = "CMPD_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub payable: Option<i64>,
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor")]
    pub value: Option<Money>,
    #[serde(rename = "BAIX_VALOR", default)]
    #[schemars(title = "Valor")]
    pub settled_value: Option<Money>,
    #[serde(rename = "JUROS", default)]
    #[schemars(title = "Juros")]
    pub interest: Option<Money>,
    #[serde(rename = "BAIX_JUROS", default)]
    #[schemars(title = "Juros")]
    pub settled_interest: Option<Money>,
    #[serde(rename = "MULTA", default)]
    #[schemars(title = "Multa")]
    pub fine: Option<Money>,
    #[serde(rename = "BAIX_MULTA", default)]
    #[schemars(title = "Multa")]
    pub settled_fine: Option<Money>,
    #[serde(rename = "DESCONTO", default)]
    #[schemars(title = "Desconto")]
    pub discount: Option<Money>,
    #[serde(rename = "BAIX_DESCONTO", default)]
    #[schemars(title = "Desconto")]
    pub settled_discount: Option<Money>,
}

impl SettleIn {
    /// The titles of the body: `TITULOS`, or the body itself as one title.
    fn items(&self, side: Side) -> Result<Vec<SettleItem>> {
        match &self.titles {
            Some(list) => list.iter().map(|e| item_of(side, e)).collect(),
            None => {
                let one = ItemIn {
                    id: self.id,
                    receivable: self.receivable,
                    payable: self.payable,
                    value: self.value,
                    settled_value: self.settled_value,
                    interest: self.interest,
                    settled_interest: self.settled_interest,
                    fine: self.fine,
                    settled_fine: self.settled_fine,
                    discount: self.discount,
                    settled_discount: self.settled_discount,
                };
                Ok(vec![one.item(side)?])
            }
        }
    }

    async fn settlement(&self, cx: &mut Ctx<'_>, side: Side) -> Result<Settlement> {
        let date = match self.date.or(self.settled_on) {
            Some(d) => d.get(),
            None => titles::today(cx.tx).await?,
        };
        Ok(Settlement {
            date,
            bank: self.bank.or(self.settled_bank),
            method: self.method.or(self.settled_method),
            remarks: self
                .remarks
                .as_ref()
                .or(self.settled_remarks.as_ref())
                .map(|s| s.trim().to_string()),
            items: self.items(side)?,
            user: cx.user(),
        })
    }
}

/// What one title's settlement did, as the settlement calls answer it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SettledRow {
    #[serde(rename = "BAIX_ID")]
    pub settlement: i64,
    #[serde(flatten)]
    pub title: TitleKey,
    #[serde(rename = "BAIX_VALOR")]
    pub value: Dec,
    #[serde(rename = "BAIX_JUROS")]
    pub interest: Dec,
    #[serde(rename = "BAIX_MULTA")]
    pub fine: Dec,
    #[serde(rename = "BAIX_DESCONTO")]
    pub discount: Dec,
    #[serde(rename = "BAIX_TOTAL")]
    pub total: Dec,
    /// The bank movement (none when the settlement moved no money).
    #[serde(rename = "MBCA_ID")]
    pub movement: Option<i64>,
    /// The title's balance after it.
    #[serde(rename = "SALDO")]
    pub balance: Dec,
}

impl SettledRow {
    pub fn of(side: Side, s: &Settled) -> SettledRow {
        SettledRow {
            settlement: s.settlement,
            title: TitleKey::of(side, s.title),
            value: s.value.into(),
            interest: s.interest.into(),
            fine: s.fine.into(),
            discount: s.discount.into(),
            total: s.total.into(),
            movement: s.movement,
            balance: s.balance.into(),
        }
    }
}

/// What a settlement (or an offset) answers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SettledOut {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "BAIX_DTA")]
    pub date: Date,
    /// What moved in all.
    #[serde(rename = "BAIX_TOTAL")]
    pub total: Dec,
    pub baixas: Vec<SettledRow>,
}

impl SettledOut {
    fn of(msg: &str, side: Side, date: NaiveDate, done: &[Settled]) -> SettledOut {
        SettledOut {
            code: 200,
            msg: msg.into(),
            date: Date(date),
            total: done.iter().map(|d| d.total).sum::<Decimal>().into(),
            baixas: done.iter().map(|d| SettledRow::of(side, d)).collect(),
        }
    }
}

/// `POST /{contasreceber|contaspagar}/baixa/{emp}`, `POST /baixacontaspagar/rapida/{emp}`:
/// settles the titles of the body, all or nothing. The quick one settles each
/// title's whole balance (values in the body are not taken).
pub struct Settle {
    pub side: Side,
    pub quick: bool,
}

#[async_trait]
impl Operation for Settle {
    type In = SettleIn;
    type Out = SettledOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: SettleIn) -> Result<SettledOut> {
        let emp = cx.emp()?;
        let mut s = i.settlement(cx, self.side).await?;
        if self.quick {
            for i in &mut s.items {
                i.value = None;
            }
        }
        let done = titles::settle(cx.tx, cx.client(), emp, self.side, &s).await?;
        let msg = if done.len() == 1 {
            "Baixa realizada com sucesso."
        } else {
            "Baixas realizadas com sucesso."
        };
        Ok(SettledOut::of(msg, self.side, s.date, &done))
    }
}

/// The reversed settlement's title and its status after the reversal, by side.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ReversedTitle {
    Receivable {
        #[serde(rename = "CRCB_ID")]
        id: i64,
        #[serde(rename = "CRCB_SITUACAO")]
        status: String,
    },
    Payable {
        #[serde(rename = "CMPD_ID")]
        id: i64,
        #[serde(rename = "CMPD_SITUACAO")]
        status: String,
    },
}

/// What a reversal answers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReversedOut {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "BAIX_ID")]
    pub settlement: i64,
    /// The opposite movement (none when the settlement moved no money).
    #[serde(rename = "MBCA_ID")]
    pub movement: Option<i64>,
    /// The title's balance after the reversal.
    #[serde(rename = "SALDO")]
    pub balance: Dec,
    #[serde(flatten)]
    pub title: ReversedTitle,
}

/// `PUT /{register}/estorno/{id}/{emp}`: reverses settlement `id`.
pub struct Reverse(pub Side);

#[async_trait]
impl Operation for Reverse {
    type In = IdIn;
    type Out = ReversedOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<ReversedOut> {
        let emp = cx.emp()?;
        let r = titles::reverse(cx.tx, cx.client(), emp, self.0, i.id, cx.user()).await?;
        let title = match self.0 {
            Side::Receivable => ReversedTitle::Receivable { id: r.title, status: r.status },
            Side::Payable => ReversedTitle::Payable { id: r.title, status: r.status },
        };
        Ok(ReversedOut {
            code: 200,
            msg: "Baixa estornada com sucesso.".into(),
            settlement: r.settlement,
            movement: r.movement,
            balance: r.balance.into(),
            title,
        })
    }
}

/// `POST /{register}/baixas/{id}/{emp}`: the settlements of title `id`.
pub struct Settlements(pub Side);

#[async_trait]
impl Operation for Settlements {
    type In = IdIn;
    type Out = Vec<SettlementRow>;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<Vec<SettlementRow>> {
        let emp = cx.emp()?;
        titles::load(cx.tx, cx.client(), emp, self.0, &[i.id], false).await?;
        titles::settlements_of(cx.tx, cx.client(), emp, self.0, i.id).await
    }
}

/// What settling a title would take (nothing written).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PreviewRow {
    #[serde(flatten)]
    pub title: TitleKey,
    #[serde(rename = "SITUACAO")]
    pub status: String,
    #[serde(rename = "SALDO")]
    pub balance: Dec,
    #[serde(rename = "VENCIMENTO")]
    pub due: Date,
    #[serde(rename = "DATA")]
    pub date: Date,
    #[serde(rename = "DIAS_ATRASO")]
    pub days_late: i64,
    #[serde(rename = "VALOR")]
    pub value: Dec,
    #[serde(rename = "JUROS")]
    pub interest: Dec,
    #[serde(rename = "MULTA")]
    pub fine: Dec,
    #[serde(rename = "DESCONTO")]
    pub discount: Dec,
    #[serde(rename = "TOTAL")]
    pub total: Dec,
    #[serde(rename = "PODE_BAIXAR")]
    pub can_settle: bool,
    /// Why it cannot be settled, or 'Título pode ser baixado.'.
    pub msg: String,
}

impl PreviewRow {
    /// What settling `value` of `t` on `date` would take.
    fn of(
        side: Side,
        t: &Title,
        value: Option<Decimal>,
        discount: Decimal,
        date: NaiveDate,
        p: &Parameters,
    ) -> PreviewRow {
        let refused = titles::refusal(t);
        let value = value.unwrap_or(t.balance).min(t.balance).max(Decimal::ZERO);
        let c = titles::charges_of(t, value, date, p);
        PreviewRow {
            title: TitleKey::of(side, t.id),
            status: t.status.clone(),
            balance: t.balance.into(),
            due: Date(t.due),
            date: Date(date),
            days_late: c.days_late,
            value: value.into(),
            interest: c.interest.into(),
            fine: c.fine.into(),
            discount: discount.into(),
            total: (value + c.interest + c.fine - discount)
                .max(Decimal::ZERO)
                .into(),
            can_settle: refused.is_none(),
            msg: refused.unwrap_or_else(|| "Título pode ser baixado.".into()),
        }
    }
}

/// `GET /{register}/verifica/{id}/{emp}`: whether title `id` can be settled, with
/// its balance and today's charges.
pub struct Check(pub Side);

#[async_trait]
impl Operation for Check {
    type In = IdIn;
    type Out = PreviewRow;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<PreviewRow> {
        let emp = cx.emp()?;
        let client = cx.client();
        let found = titles::load(cx.tx, client, emp, self.0, &[i.id], false).await?;
        let t = found.get(&i.id).ok_or_else(Error::not_found)?;
        let p = titles::parameters(cx.tx, client, emp).await?;
        let today = titles::today(cx.tx).await?;
        Ok(PreviewRow::of(self.0, t, None, Decimal::ZERO, today, &p))
    }
}

/// `POST /{register}/calculo/{emp}`: the charges and total of settling the body's
/// titles on `DATA`, one row per title (nothing written).
pub struct Preview(pub Side);

#[async_trait]
impl Operation for Preview {
    type In = SettleIn;
    type Out = Vec<PreviewRow>;
    async fn run(&self, cx: &mut Ctx<'_>, i: SettleIn) -> Result<Vec<PreviewRow>> {
        let emp = cx.emp()?;
        let client = cx.client();
        let s = i.settlement(cx, self.0).await?;
        let ids: Vec<i64> = s.items.iter().map(|i| i.id).collect();
        let found = titles::load(cx.tx, client, emp, self.0, &ids, false).await?;
        let p = titles::parameters(cx.tx, client, emp).await?;
        s.items
            .iter()
            .map(|i| {
                let t = found.get(&i.id).ok_or_else(Error::not_found)?;
                Ok(PreviewRow::of(self.0, t, i.value, i.discount, s.date, &p))
            })
            .collect()
    }
}

/// `POST /baixacontaspagar/filtros/{emp}`: a list body of the register and the
/// settlement date of the charges.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct PayablesToSettleIn {
    /// The company (path `{emp}`).
    #[serde(default)]
    pub emp: Option<i64>,
    /// The date of the charges (default today).
    #[serde(rename = "DATA_BAIXA", default)]
    #[schemars(title = "Data da baixa")]
    pub on: Option<Date>,
    /// The statuses listed (default the open and partly paid ones: A, P).
    #[serde(rename = "CMPD_SITUACAO", default)]
    #[schemars(title = "Situação")]
    pub status: Option<Statuses>,
    /// The rest of the register's list body (ORDENACAO, LIMIT, PAGINATION, field
    /// filters): free-form, as the engine's list reads it.
    #[serde(flatten)]
    pub filter: Map<String, Value>,
}

/// A status filter: one status or several.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Statuses {
    One(String),
    Many(Vec<String>),
}

/// A payable to settle: the register's row with the charges of settling its
/// balance on the chosen date.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PayableToSettle {
    #[serde(flatten)]
    pub row: Row,
    #[serde(rename = "DIAS_ATRASO")]
    pub days_late: i64,
    #[serde(rename = "JUROS_CALC")]
    pub interest: Dec,
    #[serde(rename = "MULTA_CALC")]
    pub fine: Dec,
    #[serde(rename = "TOTAL_CALC")]
    pub total: Dec,
}

/// What the payables settlement screen lists: a page of payables and how many
/// match.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PayablesToSettleOut {
    pub dados: Vec<PayableToSettle>,
    pub count: i64,
}

/// What the charges of a payable's row are computed from.
#[derive(Deserialize)]
struct PayableDue {
    #[serde(rename = "SALDO", default)]
    balance: Option<Dec>,
    #[serde(rename = "CMPD_DTA_VCTO")]
    due: Date,
}

/// `POST /baixacontaspagar/filtros/{emp}`: the payables to settle as `{dados,
/// count}`. The body is a list body of the register (ORDENACAO, LIMIT, PAGINATION,
/// `CMPD_COMP_FORN_ID`, `CMPD_DTA_VCTO_INI`/`_FIM`, `CMPD_SITUACAO`, `CMPD_BCO_ID`...);
/// without a status it lists the open and partly paid ones. Each row also carries
/// `DIAS_ATRASO`, `JUROS_CALC`, `MULTA_CALC` and `TOTAL_CALC` of settling its
/// balance on `DATA_BAIXA` (default today).
pub struct PayablesToSettle;

#[async_trait]
impl Operation for PayablesToSettle {
    type In = PayablesToSettleIn;
    type Out = PayablesToSettleOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: PayablesToSettleIn) -> Result<PayablesToSettleOut> {
        let emp = cx.emp()?;
        let on = match i.on {
            Some(d) => d.get(),
            None => titles::today(cx.tx).await?,
        };
        let mut filter = i.filter;
        let statuses = match i.status {
            Some(Statuses::One(s)) => vec![s],
            Some(Statuses::Many(v)) => v,
            None => vec!["A".into(), "P".into()],
        };
        filter.insert(
            super::title_names::PAYABLE.f("SITUACAO"),
            Value::from(statuses),
        );
        let rows = query::list(cx.tx, cx.res, cx.caller, cx.emp, &filter).await?;
        for k in ["ORDENACAO", "LIMIT", "PAGINATION", "OFFSET"] {
            filter.remove(k);
        }
        let count = query::count(cx.tx, cx.res, cx.caller, cx.emp, &filter).await?;
        let p = titles::parameters(cx.tx, cx.client(), emp).await?;
        let dados = rows
            .into_iter()
            .map(|row| {
                let d: PayableDue = record::from_row(&row)?;
                let balance = d.balance.map(Dec::get).unwrap_or_default();
                let c = crate::charges::late_charges(balance, d.due.get(), on, &p.late);
                Ok(PayableToSettle {
                    row: Row(row),
                    days_late: c.days_late,
                    interest: c.interest.into(),
                    fine: c.fine.into(),
                    total: (balance + c.interest + c.fine).into(),
                })
            })
            .collect::<Result<_>>()?;
        Ok(PayablesToSettleOut { dados, count })
    }
}

/// `GET /contasreceber/cliente/{emp}/{cliId}/{type}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct CustomerTitlesIn {
    #[serde(rename = "cliId")]
    pub customer: i64,
    /// `abertos` (A, 0), `pagos` (Q, 1), `vencidos` (V, 3) or `todos` (T, 2).
    #[serde(rename = "type")]
    pub kind: String,
}

/// `GET /contasreceber/cliente/{emp}/{cliId}/{type}`: a customer's titles by due
/// date. `type`: `abertos` (or A, 0: open and partly paid), `pagos` (Q, 1),
/// `vencidos` (V, 3: open and due before today) or `todos` (T, 2: every status).
pub struct CustomerTitles;

#[async_trait]
impl Operation for CustomerTitles {
    type In = CustomerTitlesIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: CustomerTitlesIn) -> Result<Vec<Row>> {
        cx.emp()?;
        let mut filter = Map::new();
        filter.insert("CRCB_CLI_ID".into(), Value::from(i.customer));
        filter.insert(
            "ORDENACAO".into(),
            Value::from("CRCB_DTA_VCTO, CRCB_PARCELA"),
        );
        filter.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
        match i.kind.trim().to_ascii_uppercase().as_str() {
            "ABERTOS" | "A" | "0" => {
                filter.insert("CRCB_SITUACAO".into(), json!(["A", "P"]));
            }
            "PAGOS" | "Q" | "1" => {
                filter.insert("CRCB_SITUACAO".into(), json!(["Q"]));
            }
            "TODOS" | "T" | "2" => {}
            "VENCIDOS" | "V" | "3" => {
                let yesterday = titles::today(cx.tx).await? - Duration::days(1);
                filter.insert("CRCB_SITUACAO".into(), json!(["A", "P"]));
                filter.insert(
                    "CRCB_DTA_VCTO_FIM".into(),
                    Value::from(yesterday.format("%Y-%m-%d").to_string()),
                );
            }
            _ => {
                return Err(Error::validation(
                    "Tipo inválido: informe abertos, pagos, vencidos ou todos.",
                ))
            }
        }
        let rows = query::list(cx.tx, cx.res, cx.caller, cx.emp, &filter).await?;
        Ok(rows.into_iter().map(Row).collect())
    }
}

/// `POST /contasreceberbaixadas/{emp}`: the filters of the settled receivables
/// (any other key is refused, 'Filtro inválido: 'X'.').
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SettledReceivablesIn {
    /// The company (path `{emp}`).
    #[serde(default)]
    pub emp: Option<i64>,
    /// First settlement date.
    #[serde(rename = "DATA_INI", default)]
    #[schemars(title = "Data inicial")]
    pub from: Option<Date>,
    /// Last settlement date.
    #[serde(rename = "DATA_FIM", default)]
    #[schemars(title = "Data final")]
    pub to: Option<Date>,
    #[serde(rename = "CRCB_CLI_ID", default)]
    #[schemars(title = "Cliente", extend("x-invalid" = "Cliente inválido."))]
    pub customer: Option<i64>,
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    #[serde(rename = "FRMP_ID", default)]
    #[schemars(title = "Forma de pagamento", extend("x-invalid" = "Forma de pagamento inválido."))]
    pub method: Option<i64>,
    /// Reversed settlements too.
    #[serde(rename = "ESTORNADAS", default)]
    #[schemars(title = "Estornadas")]
    pub reversed: bool,
    #[serde(rename = "LIMIT", default)]
    #[schemars(extend("x-invalid" = "LIMIT inválido."))]
    pub limit: Option<i64>,
    #[serde(rename = "PAGINATION", default)]
    #[schemars(extend("x-invalid" = "PAGINATION inválido."))]
    pub page: Option<i64>,
    #[serde(rename = "OFFSET", default)]
    #[schemars(extend("x-invalid" = "OFFSET inválido."))]
    pub offset: Option<i64>,
    /// Accepted and not used: the list is by settlement date.
    #[serde(rename = "ORDENACAO", default)]
    pub order: Option<String>,
    /// Any other key of the body (refused unless a company key).
    #[serde(flatten)]
    #[schemars(skip)]
    pub others: BTreeMap<String, IgnoredAny>,
}

/// A receivable's settlement as the period's list answers it.
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct SettledReceivable {
    #[serde(rename = "BAIX_ID")]
    pub settlement: i64,
    #[serde(rename = "CRCB_ID")]
    pub title: i64,
    #[serde(rename = "CRCB_CLI_ID")]
    pub customer: i64,
    #[serde(rename = "CLI_DESCRICAO")]
    pub customer_name: Option<String>,
    #[serde(rename = "CRCB_DOCUMENTO")]
    pub document: Option<String>,
    #[serde(rename = "CRCB_PARCELA")]
    pub seq: i32,
    #[serde(rename = "CRCB_QTD_PARCELAS")]
    pub count: i32,
    #[serde(rename = "CRCB_DTA_EMIS")]
    pub issued: NaiveDate,
    #[serde(rename = "CRCB_DTA_VCTO")]
    pub due: NaiveDate,
    #[serde(rename = "CRCB_VLR_CTA", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub title_value: Decimal,
    /// The settlement's date.
    #[serde(rename = "CRCB_DTA_PAG")]
    pub paid_on: NaiveDate,
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
    #[serde(rename = "BAIX_ESTORNADA")]
    pub reversed: bool,
    /// The title's balance now.
    #[serde(rename = "SALDO", serialize_with = "decimal_out")]
    #[schemars(with = "Dec")]
    pub balance: Decimal,
    #[serde(rename = "CRCB_SITUACAO")]
    pub status: String,
}

/// `POST /contasreceberbaixadas/{emp}`: the receivables' settlements of a period
/// (`DATA_INI`, `DATA_FIM` of the settlement), of a customer, account or payment
/// method, by settlement date; reversed ones only with `ESTORNADAS`: true.
pub struct SettledReceivables;

#[async_trait]
impl Operation for SettledReceivables {
    type In = SettledReceivablesIn;
    type Out = Vec<SettledReceivable>;
    async fn run(
        &self,
        cx: &mut Ctx<'_>,
        i: SettledReceivablesIn,
    ) -> Result<Vec<SettledReceivable>> {
        let emp = cx.emp()?;
        if let Some(k) = i.others.keys().find(|k| !k.ends_with("EMP_ID")) {
            return Err(Error::validation(format!("Filtro inválido: '{k}'.")));
        }
        let limit = i.limit.unwrap_or(query::DEFAULT_LIMIT);
        if !(1..=query::MAX_LIMIT).contains(&limit) {
            return Err(Error::validation(format!(
                "LIMIT deve estar entre 1 e {}.",
                query::MAX_LIMIT
            )));
        }
        let offset = match (i.offset, i.page) {
            (Some(o), _) => o,
            (None, Some(p)) => p.saturating_mul(limit),
            _ => 0,
        };
        if offset < 0 {
            return Err(Error::validation("Paginação inválida."));
        }
        Ok(sqlx::query_as(
            "SELECT x.baix_id AS settlement, t.tit_id AS title, t.tit_pessoa_id AS customer,
                    t.tit_pessoa_nome AS customer_name, t.tit_documento AS document, t.tit_parcela AS seq,
                    t.tit_parcelas AS count, t.tit_dta_emis AS issued, t.tit_dta_vcto AS due,
                    t.tit_valor AS title_value, x.baix_dta AS paid_on, x.baix_valor AS value,
                    x.baix_juros AS interest, x.baix_multa AS fine, x.baix_desconto AS discount,
                    x.baix_total AS total, x.baix_bco_id AS bank, b.bco_descricao AS bank_name,
                    x.baix_frmp_id AS method, f.frmp_descricao AS method_name, x.baix_estornada AS reversed,
                    t.tit_saldo AS balance, t.tit_situacao AS status
             FROM finance.baixas x
             JOIN finance.contasreceber t ON t.client_id = x.client_id AND t.tit_emp_id = x.baix_emp_id
                                         AND t.tit_id = x.baix_tit_id
             LEFT JOIN finance.banco b ON b.client_id = x.client_id AND b.bco_emp_id = x.baix_emp_id
                                      AND b.bco_id = x.baix_bco_id
             LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
             WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_tipo = 'R'
               AND ($3::date IS NULL OR x.baix_dta >= $3) AND ($4::date IS NULL OR x.baix_dta <= $4)
               AND ($5::bigint IS NULL OR t.tit_pessoa_id = $5) AND ($6::bigint IS NULL OR x.baix_bco_id = $6)
               AND ($7::bigint IS NULL OR x.baix_frmp_id = $7) AND ($8 OR NOT x.baix_estornada)
             ORDER BY x.baix_dta, x.baix_id LIMIT $9 OFFSET $10",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(i.from.map(Date::get))
        .bind(i.to.map(Date::get))
        .bind(i.customer)
        .bind(i.bank)
        .bind(i.method)
        .bind(i.reversed)
        .bind(limit)
        .bind(offset)
        .fetch_all(&mut **cx.tx)
        .await?)
    }
}

/// `DELETE /contasreceberparcelaspedidos/{id}/{emp}/{serie}`: the order.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct OrderIn {
    pub id: i64,
    pub serie: String,
}

/// How many instalments were removed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RemovedOut {
    pub code: u16,
    pub msg: String,
    pub excluidas: u64,
}

/// `DELETE /contasreceberparcelaspedidos/{id}/{emp}/{serie}`: removes the
/// receivables of order `id`/`serie`, refused when one was ever settled; invoicing
/// the order again makes them anew.
pub struct RemoveOrderInstalments;

#[async_trait]
impl Operation for RemoveOrderInstalments {
    type In = OrderIn;
    type Out = RemovedOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: OrderIn) -> Result<RemovedOut> {
        let emp = cx.emp()?;
        let serie = i.serie.trim();
        let doc = Origin { emp, kind: "PEDIDO", id: i.id, serie };
        let n = titles::remove_document(cx.tx, cx.client(), Side::Receivable, &doc).await?;
        if n == 0 {
            return Err(Error::NotFound(format!(
                "Nenhuma parcela do pedido {} série {serie} encontrada.",
                i.id
            )));
        }
        Ok(RemovedOut {
            code: 200,
            msg: "Parcelas do pedido excluídas com sucesso.".into(),
            excluidas: n,
        })
    }
}

/// `POST /contasreceber/simular/{emp}`: what to split and how.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SimulateIn {
    #[serde(rename = "TOTAL", default)]
    #[schemars(title = "Total")]
    pub total: Option<Money>,
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Total")]
    pub value: Option<Money>,
    /// The issue date (default today).
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "CNDP_ID", default)]
    #[schemars(title = "Condição de pagamento", extend("x-invalid" = "Condição de pagamento inválido."))]
    pub condition: Option<i64>,
    #[serde(rename = "CNDV_ID", default)]
    #[schemars(title = "Condição de vencimento", extend("x-invalid" = "Condição de vencimento inválido."))]
    pub due_condition: Option<i64>,
}

/// One instalment of a simulation.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct InstalmentRow {
    #[serde(rename = "PARCELA")]
    pub seq: i32,
    #[serde(rename = "VENCIMENTO")]
    pub due: Date,
    #[serde(rename = "VALOR")]
    pub value: Dec,
}

/// `POST /contasreceber/simular/{emp}`: the instalments of `TOTAL` issued on `DATA`
/// (default today) by payment condition `CNDP_ID` or due-date condition `CNDV_ID`
/// (one instalment on the issue date when neither), as rows `{PARCELA,
/// VENCIMENTO, VALOR}`; nothing written.
pub struct Simulate;

#[async_trait]
impl Operation for Simulate {
    type In = SimulateIn;
    type Out = Vec<InstalmentRow>;
    async fn run(&self, cx: &mut Ctx<'_>, i: SimulateIn) -> Result<Vec<InstalmentRow>> {
        let emp = cx.emp()?;
        let total = either(i.total, i.value)
            .ok_or_else(|| Error::validation("Informe o total a parcelar."))?;
        let issued = match i.date {
            Some(d) => d.get(),
            None => titles::today(cx.tx).await?,
        };
        let (terms, _) =
            titles::terms(cx.tx, cx.client(), emp, i.condition, i.due_condition).await?;
        let parts = instalments::schedule(total, issued, &terms)?;
        Ok(parts
            .iter()
            .map(|p| InstalmentRow { seq: p.seq, due: Date(p.due), value: p.amount.into() })
            .collect())
    }
}

/// `GET /comprapagamentos/adiantamentos/{supplierId}/{bankId}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct AdvancesIn {
    #[serde(rename = "supplierId")]
    pub supplier: i64,
    /// The account the advances were paid from (0: any).
    #[serde(rename = "bankId", default)]
    #[schemars(extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
}

/// `GET /comprapagamentos/adiantamentos/{supplierId}/{bankId}`: the supplier's
/// advances with something left to offset (`SALDO` = paid − offset), paid from
/// account `bankId` (0: any), in the caller's company.
pub struct Advances;

#[async_trait]
impl Operation for Advances {
    type In = AdvancesIn;
    type Out = Vec<AdvanceRow>;
    async fn run(&self, cx: &mut Ctx<'_>, i: AdvancesIn) -> Result<Vec<AdvanceRow>> {
        let emp = cx.emp()?;
        let bank = i.bank.filter(|b| *b > 0);
        titles::advances(cx.tx, cx.client(), emp, i.supplier, bank).await
    }
}

/// `POST /contaspagar/compensar/{emp}`: the advance and the payables it settles.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct OffsetIn {
    /// The advance's CMPD_ID.
    #[serde(rename = "ADIANTAMENTO", default)]
    #[schemars(title = "Adiantamento", extend("x-invalid" = "Adiantamento inválido."))]
    pub advance: Option<i64>,
    /// Default: today.
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "OBS", default)]
    pub remarks: Option<String>,
    /// Ids or `{ID, VALOR}` (`VALOR` left out takes the whole balance).
    #[serde(rename = "TITULOS", default)]
    #[schemars(extend("x-invalid" = "Informe os títulos a compensar."))]
    pub titles: Option<Vec<IdOr<ItemIn>>>,
}

/// `POST /contaspagar/compensar/{emp}`: settles payables of an advance's supplier
/// with what the advance paid. Body: `ADIANTAMENTO` (the advance's CMPD_ID), `DATA`
/// (default today), `OBS`, `TITULOS` (ids or `{ID, VALOR}`; `VALOR` left out takes
/// the whole balance).
pub struct OffsetAdvance;

#[async_trait]
impl Operation for OffsetAdvance {
    type In = OffsetIn;
    type Out = SettledOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: OffsetIn) -> Result<SettledOut> {
        let emp = cx.emp()?;
        let advance = i
            .advance
            .ok_or_else(|| Error::validation("Informe o adiantamento a compensar."))?;
        let date = match i.date {
            Some(d) => d.get(),
            None => titles::today(cx.tx).await?,
        };
        let items = i
            .titles
            .ok_or_else(|| Error::validation("Informe os títulos a compensar."))?
            .iter()
            .map(|e| item_of(Side::Payable, e).map(|i| (i.id, i.value)))
            .collect::<Result<Vec<_>>>()?;
        let o = titles::Offset {
            advance,
            date,
            remarks: i.remarks.map(|s| s.trim().to_string()),
            items,
            user: cx.user(),
        };
        let done = titles::offset(cx.tx, cx.client(), emp, &o).await?;
        Ok(SettledOut::of(
            "Compensação realizada com sucesso.",
            Side::Payable,
            date,
            &done,
        ))
    }
}
