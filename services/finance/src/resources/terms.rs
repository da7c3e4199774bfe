//! Payment terms: card acquirers (`tefadquirinte`), payment methods
//! (`formapagamento`, screen /formaspagamento), payment conditions
//! (`condicaopagamento`: instalments, interval, entry; no screen of its own in the
//! spec's route list, so it is a register picked in orders and quotes, guarded by
//! the due-date conditions' program), due-date conditions (`condicaovencimento`,
//! screen /condicoesvencimento) and their day/month entries
//! (`condicaovencimentodias`: day of the month `ID_DIAS` 1-31 and `ID_MES` months
//! after the issue month, 0 = the issue month itself).
//!
//! Payment methods, acquirers carry no company in the legacy field list: they are
//! per client (`/formapagamento/{emp}` still checks the company of the path).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{body_map, id_param};
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

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
    .hooks(Arc::new(ConditionHooks))
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

fn number(body: &Map<String, Value>, f: &str) -> Option<f64> {
    match body.get(f)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().replace(',', ".").parse().ok(),
        _ => None,
    }
}

#[async_trait]
impl Hooks for ConditionHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let positive = |f| number(body, f).is_some_and(|v| v > 0.0);
        if positive("CNDP_PERC_DESCONTO") && positive("CNDP_PERC_ACRESCIMO") {
            return Err(Error::validation(
                "Informe desconto ou acréscimo, não os dois na mesma condição.",
            ));
        }
        if number(body, "CNDP_PERC_ENTRADA").is_some_and(|v| v >= 100.0)
            && number(body, "CNDP_PARCELAS").is_some_and(|v| v > 1.0)
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
    .hooks(Arc::new(DayHooks))
    .action(
        "POST",
        "/condicaovencimentodias/{id}/{emp}",
        "dias",
        ActionPerm::View,
        "Condições de Vencimento: listar os dias de uma condição",
        Arc::new(ListDays),
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
        Field::text("CNDD_DESCRICAO", "Descrição")
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

fn int(body: &Map<String, Value>, f: &str) -> Option<i64> {
    match body.get(f)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[async_trait]
impl Hooks for DayHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        // Derived from the key, which is fixed once created.
        body.remove("CNDD_DESCRICAO");
        if op == Op::Create {
            if let Some(day) = int(body, "ID_DIAS") {
                let months = int(body, "ID_MES").unwrap_or(0);
                body.insert(
                    "CNDD_DESCRICAO".into(),
                    Value::from(day_description(day, months)),
                );
            }
        }
        Ok(())
    }
}

/// `POST /condicaovencimentodias/{id}/{emp}`: the entries of one condition, with the
/// list body's usual ORDENACAO/LIMIT.
struct ListDays;

#[async_trait]
impl ActionHandler for ListDays {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let id = id_param(params, "id")?;
        let mut filter = body_map(body);
        filter.insert("CNDV_ID".into(), Value::from(id));
        filter.entry("LIMIT").or_insert(Value::from(1000));
        let rows = query::list(tx, res, caller, emp, &filter).await?;
        Ok(Value::Array(rows))
    }
}
