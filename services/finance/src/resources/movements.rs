//! Bank movements (`movimentacaobancaria`, MBCA_*: the register pattern, by
//! transaction date descending) and the financial parameters of each company
//! (`parametrosfinanceiro`, `POST /parametrosfinanceiro/{emp}` lists the company's
//! one row).
//!
//! Users write `MANUAL` movements (a deposit, a bank fee); after any such write the
//! company's account balances are set to the sum of their movements
//! (`bank::refresh`). The movements of settlements (`BAIXA`) and reversals
//! (`ESTORNO`) are written by the settlement calls and refuse changes and deletion
//! here: a settlement is undone by reversing it.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{body_map, company, int, text};
use erp_platform::resource::values::{parse_date, parse_decimal};
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Field, Hooks, Kind, Op, Resource, Role,
};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use crate::bank;

const SCHEMA: &str = crate::SCHEMA;

pub const DIRECTIONS: [(&str, &str); 2] = [("C", "Crédito"), ("D", "Débito")];
pub const ORIGINS: [(&str, &str); 5] = [
    ("MANUAL", "Lançamento manual"),
    ("BAIXA", "Baixa de título"),
    ("ESTORNO", "Estorno de baixa"),
    ("TRANSFERENCIA", "Transferência entre contas"),
    ("CONCILIACAO", "Conciliação bancária"),
];

pub fn all() -> Vec<Resource> {
    vec![parametrosfinanceiro(), movimentacaobancaria()]
}

fn percent(name: &str, label: &str) -> Field {
    Field::decimal(name, label)
        .scale(4)
        .min("0")
        .max("100")
        .default("0".into())
        .width(3)
}

pub fn parametrosfinanceiro() -> Resource {
    Resource::new(
        "parametrosfinanceiro",
        "Parâmetros Financeiros",
        SCHEMA,
        "parametrosfinanceiro",
        "formaspagamento",
    )
    .key(&["PARF_ID"])
    .company("PARF_EMP_ID")
    .label("PARF_ID")
    .order("PARF_ID")
    .constraint(
        "parametrosfinanceiro_empresa_key",
        "Os parâmetros financeiros desta empresa já estão cadastrados.",
    )
    .sample(json!({
        "PARF_PERC_JUROS_DIA": "0.0333", "PARF_PERC_MULTA": "2", "PARF_DIAS_CARENCIA": 3
    }))
    .fields(vec![
        Field::id("PARF_ID", "Código"),
        Field::int("PARF_EMP_ID", "Empresa"),
        percent("PARF_PERC_JUROS_DIA", "Juros por Dia de Atraso (%)").list(),
        percent("PARF_PERC_MULTA", "Multa por Atraso (%)").list(),
        Field::int("PARF_DIAS_CARENCIA", "Dias de Carência")
            .min("0")
            .max("365")
            .default(0.into())
            .list()
            .width(3),
        Field::reference(
            "PARF_BCO_ID_RECEBER",
            "Conta Padrão dos Recebimentos",
            "banco",
            Kind::Combobox,
        )
        .width(6),
        Field::reference(
            "PARF_BCO_ID_PAGAR",
            "Conta Padrão dos Pagamentos",
            "banco",
            Kind::Combobox,
        )
        .width(6),
        Field::reference(
            "PARF_FRMP_ID",
            "Forma de Pagamento Padrão",
            "formapagamento",
            Kind::Combobox,
        )
        .width(4),
        Field::reference(
            "PARF_HISP_ID_RECEBER",
            "Centro de Custo das Receitas",
            "historicopadrao",
            Kind::Combobox,
        )
        .width(4),
        Field::reference(
            "PARF_HISP_ID_PAGAR",
            "Centro de Custo das Despesas",
            "historicopadrao",
            Kind::Combobox,
        )
        .width(4),
        Field::reference(
            "PARF_CNDP_ID",
            "Condição de Pagamento do Faturamento",
            "condicaopagamento",
            Kind::Combobox,
        )
        .width(6),
        Field::reference(
            "PARF_CNDV_ID",
            "Condição de Vencimento do Faturamento",
            "condicaovencimento",
            Kind::Combobox,
        )
        .width(6),
    ])
}

pub fn movimentacaobancaria() -> Resource {
    Resource::new(
        "movimentacaobancaria",
        "Movimentação Bancária",
        SCHEMA,
        "movimentacaobancaria",
        "bancos",
    )
    .key(&["MBCA_ID"])
    .company("MBCA_EMP_ID")
    .label("MBCA_HISTORICO")
    .order("MBCA_DTA_MOV DESC")
    .hooks(Arc::new(ManualMovements))
    .constraint("movimentacaobancaria_banco_fkey", bank::UNKNOWN_ACCOUNT)
    .constraint(
        "movimentacaobancaria_centro_fkey",
        "Centro de custo não encontrado.",
    )
    .constraint(
        "conciliacaomovimentos_movimento_fkey",
        "Movimento conciliado com o extrato: desfaça a conciliação antes de alterá-lo ou excluí-lo.",
    )
    .action(
        "POST",
        "/movimentacaobancariabs/{emp}",
        "saldos",
        ActionPerm::View,
        "Movimentação Bancária: saldos por conta no período (DATA_INI, DATA_FIM, BCO_ID)",
        Arc::new(Balances),
    )
    .action(
        "POST",
        "/movimentacaobancaria/transferencia/{emp}",
        "transferencia",
        ActionPerm::Create,
        "Movimentação Bancária: transferência entre contas (BCO_ID_ORIGEM, BCO_ID_DESTINO, DATA, VALOR, HISTORICO)",
        Arc::new(TransferCall),
    )
    .sample(json!({
        "MBCA_BCO_ID": 1, "MBCA_DTA_MOV": "2026-11-23", "MBCA_TIPO": "C", "MBCA_VALOR": "250.00",
        "MBCA_HISTORICO": "DEPÓSITO EM DINHEIRO", "MBCA_DOCUMENTO": "DEP 123"
    }))
    .fields(vec![
        Field::id("MBCA_ID", "Código"),
        Field::int("MBCA_EMP_ID", "Empresa"),
        Field::reference("MBCA_BCO_ID", "Conta", "banco", Kind::Combobox)
            .required()
            .list()
            .width(4),
        Field::date("MBCA_DTA_MOV", "Data").required().list(),
        Field::options("MBCA_TIPO", "Tipo", DbType::Text, &DIRECTIONS)
            .required()
            .list()
            .width(2),
        Field::money("MBCA_VALOR", "Valor")
            .required()
            .min("0.01")
            .list()
            .width(3),
        Field::text("MBCA_HISTORICO", "Histórico")
            .required()
            .len(200)
            .searchable()
            .list()
            .width(8),
        Field::text("MBCA_DOCUMENTO", "Documento")
            .len(60)
            .searchable()
            .width(4),
        Field::reference(
            "MBCA_HISP_ID",
            "Centro de Custo",
            "historicopadrao",
            Kind::Combobox,
        )
        .width(4),
        Field::reference(
            "MBCA_FRMP_ID",
            "Forma de Pagamento",
            "formapagamento",
            Kind::Combobox,
        )
        .width(4),
        Field::options("MBCA_ORIGEM", "Origem", DbType::Text, &ORIGINS)
            .read_only()
            .list()
            .width(3),
        Field::int("MBCA_BAIX_ID", "Baixa").read_only().width(2),
        Field::int("MBCA_TRANSF_ID", "Movimento da Transferência")
            .read_only()
            .width(2),
        Field::int("MBCA_USR_ID", "Usuário").role(Role::CreatedBy),
        Field::timestamp("MBCA_DTA_CAD", "Data de Cadastro"),
    ])
}

pub const FROM_SETTLEMENT: &str =
    "Movimento gerado por baixa não pode ser alterado nem excluído: estorne a baixa.";
pub const FROM_TRANSFER: &str =
    "Movimento de transferência não pode ser alterado: exclua a transferência e lance de novo.";
pub const FROM_RECONCILIATION: &str =
    "Movimento lançado pela conciliação: desfaça a conciliação do extrato para removê-lo.";

struct ManualMovements;

#[async_trait]
impl Hooks for ManualMovements {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = int(row, "MBCA_EMP_ID")?;
        let client = caller.client_id;
        match (op, text(row, "MBCA_ORIGEM").as_str()) {
            (Op::Create, _) | (_, "MANUAL") => {}
            // Deleting one leg of a transfer deletes the other.
            (Op::Delete, "TRANSFERENCIA") => {
                if let Ok(other) = int(row, "MBCA_TRANSF_ID") {
                    sqlx::query(
                        "DELETE FROM finance.movimentacaobancaria WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id = $3",
                    )
                    .bind(client)
                    .bind(emp)
                    .bind(other)
                    .execute(&mut **tx)
                    .await
                    .map_err(|e| {
                        Error::from(e).on_constraint(&[(
                            "conciliacaomovimentos_movimento_fkey",
                            "Movimento conciliado com o extrato: desfaça a conciliação antes de alterá-lo ou excluí-lo.",
                        )])
                    })?;
                    crate::facts::movements(tx, client, emp, &[other], "excluido").await?;
                }
            }
            (_, "TRANSFERENCIA") => return Err(Error::Conflict(FROM_TRANSFER.into())),
            (_, "CONCILIACAO") => return Err(Error::Conflict(FROM_RECONCILIATION.into())),
            _ => return Err(Error::Conflict(FROM_SETTLEMENT.into())),
        }
        if let Some(d) = row
            .get("MBCA_DTA_MOV")
            .and_then(Value::as_str)
            .and_then(|s| {
                chrono::NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d").ok()
            })
        {
            crate::bank::check_open(tx, client, emp, d).await?;
        }
        let change = match op {
            Op::Create => "criado",
            Op::Update => "alterado",
            Op::Delete => "excluido",
        };
        crate::facts::movements(tx, client, emp, &[int(row, "MBCA_ID")?], change).await?;
        bank::refresh(tx, client, emp).await
    }
}

fn date_field(body: &Map<String, Value>, key: &str, label: &str) -> Result<chrono::NaiveDate> {
    match body.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => parse_date(s),
        Some(Value::Null) | None => Err(Error::validation(format!("{label} é obrigatório!"))),
        Some(Value::String(_)) => Err(Error::validation(format!("{label} é obrigatório!"))),
        Some(_) => Err(Error::validation("Data inválida")),
    }
}

fn opt_id(body: &Map<String, Value>, key: &str, label: &str) -> Result<Option<i64>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(v) => v
            .as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .map(Some)
            .ok_or_else(|| Error::validation(format!("{label} inválido."))),
    }
}

/// `POST /movimentacaobancariabs/{emp}`.
struct Balances;

#[async_trait]
impl ActionHandler for Balances {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let from = date_field(&body, "DATA_INI", "Data inicial")?;
        let to = date_field(&body, "DATA_FIM", "Data final")?;
        let bank = opt_id(&body, "BCO_ID", "Conta bancária")?;
        bank::period_balances(tx, call.caller.client_id, emp, from, to, bank).await
    }
}

/// `POST /movimentacaobancaria/transferencia/{emp}`.
struct TransferCall;

#[async_trait]
impl ActionHandler for TransferCall {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let from = opt_id(&body, "BCO_ID_ORIGEM", "Conta de origem")?
            .ok_or_else(|| Error::validation("Conta de origem é obrigatório!"))?;
        let to = opt_id(&body, "BCO_ID_DESTINO", "Conta de destino")?
            .ok_or_else(|| Error::validation("Conta de destino é obrigatório!"))?;
        let date = date_field(&body, "DATA", "Data")?;
        let value = body
            .get("VALOR")
            .and_then(parse_decimal)
            .ok_or_else(|| Error::validation("Valor é obrigatório!"))?;
        if value.normalize().scale() > 2 {
            return Err(Error::validation(
                "Valor aceita no máximo 2 casas decimais.",
            ));
        }
        if value >= rust_decimal::Decimal::from(10_000_000_000_000i64) {
            return Err(Error::validation("Valor muito grande."));
        }
        let history = body
            .get("HISTORICO")
            .and_then(Value::as_str)
            .map(String::from);
        let client = call.caller.client_id;
        let (out, inn) = bank::transfer(
            tx,
            client,
            &bank::Transfer { emp, from, to, date, value, history, user: call.caller.user_id },
        )
        .await?;
        let mut rows = Vec::new();
        for id in [out, inn] {
            rows.push(query::get(tx, call.res, call.caller, Some(emp), &[id.to_string()]).await?);
        }
        Ok(Value::Array(rows))
    }
}
