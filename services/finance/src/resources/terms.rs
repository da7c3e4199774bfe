//! Payment terms: card acquirers (`tefadquirinte`), payment methods
//! (`formapagamento`, screen /formaspagamento), payment conditions
//! (`condicaopagamento`: instalments, interval, entry; no screen of its own in the
//! spec's route list, so it is a register picked in orders and quotes, guarded by
//! the due-date conditions' program), due-date conditions (`condicaovencimento`,
//! screen /condicoesvencimento) and their day/month entries
//! (`condicaovencimentodias`: day of the month `ID_DIAS` 1-31 and `ID_MES` months
//! after the issue month, 0 = the issue month itself; the entry's description
//! `CNDD_DESCRICAO` is the server's, derived from them when it is created;
//! `POST /condicaovencimentodias/{id}/{emp}` lists one condition's entries).
//!
//! Payment methods, acquirers carry no company in the legacy field list: they are
//! per client (`/formapagamento/{emp}` still checks the company of the path).

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Dec, Operation, Row};
use erp_platform::resource::{query, ActionPerm, DbType, Field, Kind, Op, RecordHooks, Resource};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::Loose;

const SCHEMA: &str = crate::SCHEMA;

/// NF-e/NFC-e payment types (tPag), so a sale's payments go straight to the invoice.
pub const PAYMENT_TYPES: [(&str, &str); 16] = [
    ("01", "Dinheiro"),
    ("02", "Cheque"),
    ("03", "Cartão de Crédito"),
    ("04", "Cartão de Débito"),
    ("05", "Crédito Loja (Crediário)"),
    ("10", "Vale Alimentação"),
    ("11", "Vale Refeição"),
    ("12", "Vale Presente"),
    ("13", "Vale Combustível"),
    ("15", "Boleto Bancário"),
    ("16", "Depósito Bancário"),
    ("17", "PIX"),
    ("18", "Transferência Bancária / Carteira Digital"),
    ("19", "Programa de Fidelidade / Cashback"),
    ("90", "Sem Pagamento"),
    ("99", "Outros"),
];

fn percent(name: &str, label: &str) -> Field {
    Field::decimal(name, label)
        .scale(4)
        .min("0")
        .max("100")
        .width(3)
}

pub fn all() -> Vec<Resource> {
    vec![
        tefadquirinte(),
        formapagamento(),
        condicaopagamento(),
        condicaovencimento(),
        condicaovencimentodias(),
    ]
}

pub fn tefadquirinte() -> Resource {
    Resource::new(
        "tefadquirinte",
        "Adquirentes de Cartão",
        SCHEMA,
        "tefadquirinte",
        "formaspagamento",
    )
    .key(&["TEFA_ID"])
    .label("TEFA_ADQUIRINTE")
    .order("TEFA_ADQUIRINTE")
    .sample(json!({
        "TEFA_ADQUIRINTE": "CIELO", "TEFA_CNPJ": "01.027.058/0001-91", "TEFA_PERC_DEBITO": "1.2",
        "TEFA_PERC_CREDITO": "2.5", "TEFA_PERC_CREDITO_PARCELADO": "3.1", "TEFA_DIAS_DEBITO": 1, "TEFA_DIAS_CREDITO": 30
    }))
    .fields(vec![
        Field::id("TEFA_ID", "Código"),
        Field::text("TEFA_ADQUIRINTE", "Adquirente")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::cpf_cnpj("TEFA_CNPJ", "CNPJ").list().width(4),
        percent("TEFA_PERC_DEBITO", "Taxa Débito (%)").list(),
        percent("TEFA_PERC_CREDITO", "Taxa Crédito à Vista (%)").list(),
        percent("TEFA_PERC_CREDITO_PARCELADO", "Taxa Crédito Parcelado (%)"),
        percent("TEFA_PERC_ANTECIPACAO", "Taxa de Antecipação (%)"),
        Field::int("TEFA_DIAS_DEBITO", "Prazo Débito (dias)")
            .min("0")
            .max("365")
            .width(3),
        Field::int("TEFA_DIAS_CREDITO", "Prazo Crédito (dias)")
            .min("0")
            .max("365")
            .width(3),
        Field::situation("TEFA_SITUACAO"),
    ])
}

pub fn formapagamento() -> Resource {
    Resource::new(
        "formapagamento",
        "Formas de Pagamento",
        SCHEMA,
        "formapagamento",
        "formaspagamento",
    )
    .company_path()
    .screen("/formaspagamento")
    .events("formapagamento")
    .key(&["FRMP_ID"])
    .label("FRMP_DESCRICAO")
    .order("FRMP_DESCRICAO")
    .sample(json!({
        "FRMP_DESCRICAO": "CARTÃO DE CRÉDITO", "FRMP_TIPO": "03", "FRMP_TEFA_ID": 1,
        "FRMP_PERC_TAXA": "2.5", "FRMP_DIAS_COMPENSACAO": 30
    }))
    .fields(vec![
        Field::id("FRMP_ID", "Código"),
        Field::text("FRMP_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::options("FRMP_TIPO", "Tipo", DbType::Text, &PAYMENT_TYPES)
            .required()
            .list()
            .width(4),
        Field::reference(
            "FRMP_TEFA_ID",
            "Adquirente",
            "tefadquirinte",
            Kind::Combobox,
        )
        .width(4),
        percent("FRMP_PERC_TAXA", "Taxa (%)"),
        Field::int("FRMP_DIAS_COMPENSACAO", "Dias para Compensação")
            .min("0")
            .max("365")
            .width(3),
        Field::boolean("FRMP_GERA_FINANCEIRO", "Gera Contas a Receber")
            .default(true.into())
            .width(3),
        Field::boolean("FRMP_PERMITE_TROCO", "Permite Troco")
            .default(false.into())
            .width(3),
        Field::situation("FRMP_SITUACAO"),
    ])
}

pub fn condicaopagamento() -> Resource {
    Resource::new(
        "condicaopagamento",
        "Condições de Pagamento",
        SCHEMA,
        "condicaopagamento",
        "condicoesvencimento",
    )
    .key(&["CNDP_ID"])
    .company("CNDP_EMP_ID")
    .label("CNDP_DESCRICAO")
    .order("CNDP_DESCRICAO ASC")
    .record_hooks(ConditionHooks)
    .sample(json!({
        "CNDP_DESCRICAO": "30/60/90 DIAS", "CNDP_PARCELAS": 3, "CNDP_DIAS_PRIMEIRA": 30, "CNDP_INTERVALO": 30,
        "CNDP_PERC_ENTRADA": "0", "CNDP_PERC_DESCONTO": "0", "CNDP_PERC_ACRESCIMO": "1.5", "CNDP_FRMP_ID": 1
    }))
    .fields(vec![
        Field::id("CNDP_ID", "Código"),
        Field::int("CNDP_EMP_ID", "Empresa"),
        Field::text("CNDP_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::int("CNDP_PARCELAS", "Número de Parcelas")
            .required()
            .min("1")
            .max("120")
            .default(1.into())
            .list()
            .width(3),
        Field::int("CNDP_DIAS_PRIMEIRA", "Dias para a 1ª Parcela")
            .required()
            .min("0")
            .max("999")
            .default(0.into())
            .width(3),
        Field::int("CNDP_INTERVALO", "Intervalo entre Parcelas (dias)")
            .required()
            .min("0")
            .max("365")
            .default(30.into())
            .list()
            .width(3),
        percent("CNDP_PERC_ENTRADA", "Entrada (%)").default(0.into()),
        percent("CNDP_PERC_DESCONTO", "Desconto (%)").default(0.into()),
        percent("CNDP_PERC_ACRESCIMO", "Acréscimo (%)").default(0.into()),
        Field::reference("CNDP_FRMP_ID", "Forma de Pagamento", "formapagamento", Kind::Combobox).width(4),
        Field::situation("CNDP_SITUACAO"),
    ])
}

/// A condition cannot give a discount and charge an increase at once, and an entry
/// of 100% leaves no instalment to pay.
struct ConditionHooks;

/// What the condition's hook reads of a body.
#[derive(Deserialize, Serialize)]
struct ConditionBody {
    #[serde(rename = "CNDP_PERC_DESCONTO", default, skip_serializing)]
    discount: Loose<Dec>,
    #[serde(rename = "CNDP_PERC_ACRESCIMO", default, skip_serializing)]
    increase: Loose<Dec>,
    #[serde(rename = "CNDP_PERC_ENTRADA", default, skip_serializing)]
    entry: Loose<Dec>,
    #[serde(rename = "CNDP_PARCELAS", default, skip_serializing)]
    instalments: Loose<Dec>,
}

#[async_trait]
impl RecordHooks for ConditionHooks {
    type Body = ConditionBody;
    type Row = IgnoredAny;

    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut ConditionBody,
    ) -> Result<()> {
        let above = |v: Loose<Dec>, n: i64| v.0.is_some_and(|d| d.get() > Decimal::from(n));
        if above(body.discount, 0) && above(body.increase, 0) {
            return Err(Error::validation(
                "Informe desconto ou acréscimo, não os dois na mesma condição.",
            ));
        }
        if body
            .entry
            .0
            .is_some_and(|d| d.get() >= Decimal::ONE_HUNDRED)
            && above(body.instalments, 1)
        {
            return Err(Error::validation(
                "Com entrada de 100% a condição deve ter uma única parcela.",
            ));
        }
        Ok(())
    }
}

pub fn condicaovencimento() -> Resource {
    Resource::new(
        "condicaovencimento",
        "Condições de Vencimento",
        SCHEMA,
        "condicaovencimento",
        "condicoesvencimento",
    )
    .screen("/condicoesvencimento")
    .key(&["CNDV_ID"])
    .company("CNDV_EMP_ID")
    .label("CNDV_DESCRICAO")
    .order("CNDV_DESCRICAO")
    .sample(json!({"CNDV_DESCRICAO": "DIA 10 DO MÊS SEGUINTE"}))
    .fields(vec![
        Field::id("CNDV_ID", "Código"),
        Field::int("CNDV_EMP_ID", "Empresa"),
        Field::text("CNDV_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(7),
        Field::situation("CNDV_SITUACAO"),
        Field::textarea("CNDV_OBS", "Observação").len(500),
    ])
}

pub fn condicaovencimentodias() -> Resource {
    Resource::new(
        "condicaovencimentodias",
        "Dias da Condição de Vencimento",
        SCHEMA,
        "condicaovencimentodias",
        "condicoesvencimento",
    )
    .natural_key()
    .key(&["CNDV_ID", "ID_DIAS", "ID_MES"])
    .company("CNDV_EMP_ID")
    .label("CNDD_DESCRICAO")
    .order("ID_MES, ID_DIAS")
    .record_hooks(DayHooks)
    .call(
        "POST",
        "/condicaovencimentodias/{id}/{emp}",
        "dias",
        ActionPerm::View,
        "Condições de Vencimento: listar os dias de uma condição",
        ListDays,
    )
    .sample(json!({"CNDV_ID": 1, "ID_DIAS": 10, "ID_MES": 1}))
    .fields(vec![
        Field::reference(
            "CNDV_ID",
            "Condição de Vencimento",
            "condicaovencimento",
            Kind::Combobox,
        )
        .required()
        .width(6),
        Field::int("CNDV_EMP_ID", "Empresa"),
        Field::int("ID_DIAS", "Dia do Vencimento")
            .required()
            .min("1")
            .max("31")
            .list()
            .width(3),
        Field::int("ID_MES", "Meses após a Emissão")
            .required()
            .min("0")
            .max("24")
            .default(0.into())
            .list()
            .width(3),
        // Derived from the key by the register's hook (`day_description`).
        Field::text("CNDD_DESCRICAO", "Descrição")
            .server()
            .len(60)
            .searchable()
            .list()
            .width(6),
    ])
}

/// The description of a due-date entry (`Dia 10 - 1 mês após a emissão`).
pub fn day_description(day: i64, months: i64) -> String {
    match months {
        0 => format!("Dia {day:02} - mês da emissão"),
        1 => format!("Dia {day:02} - 1 mês após a emissão"),
        n => format!("Dia {day:02} - {n} meses após a emissão"),
    }
}

struct DayHooks;

/// What the due-date entries' hook reads and writes of a body: the key's day and
/// months and the description derived from them (a server field: the client's
/// value never reaches the hook).
#[derive(Deserialize, Serialize)]
struct DayBody {
    #[serde(rename = "ID_DIAS", default, skip_serializing)]
    day: Loose<i64>,
    #[serde(rename = "ID_MES", default, skip_serializing)]
    months: Loose<i64>,
    #[serde(
        rename = "CNDD_DESCRICAO",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    description: Option<String>,
}

#[async_trait]
impl RecordHooks for DayHooks {
    type Body = DayBody;
    type Row = IgnoredAny;

    async fn before_write(&self, op: Op, _caller: &Caller, body: &mut DayBody) -> Result<()> {
        // Derived from the key, which is fixed once created.
        if op == Op::Create {
            if let Loose(Some(day)) = body.day {
                body.description = Some(day_description(day, body.months.0.unwrap_or(0)));
            }
        }
        Ok(())
    }
}

/// `POST /condicaovencimentodias/{id}/{emp}`: the condition and the list body.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ListDaysIn {
    /// The due-date condition (`CNDV_ID`).
    pub id: i64,
    /// The company (path `{emp}`).
    #[serde(default)]
    pub emp: Option<i64>,
    /// The register's list body (ORDENACAO, LIMIT...): free-form, as the engine's
    /// list reads it.
    #[serde(flatten)]
    pub filter: Map<String, Value>,
}

/// `POST /condicaovencimentodias/{id}/{emp}`: the entries of one condition, with the
/// list body's usual ORDENACAO/LIMIT.
struct ListDays;

#[async_trait]
impl Operation for ListDays {
    type In = ListDaysIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: ListDaysIn) -> Result<Vec<Row>> {
        let mut filter = i.filter;
        filter.insert("CNDV_ID".into(), Value::from(i.id));
        filter.entry("LIMIT").or_insert(Value::from(1000));
        let rows = query::list(cx.tx, cx.res, cx.caller, cx.emp, &filter).await?;
        Ok(rows.into_iter().map(Row).collect())
    }
}
