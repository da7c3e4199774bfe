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
//!
//! Calls: `POST /movimentacaobancariabs/{emp}` (`DATA_INI`, `DATA_FIM`, `BCO_ID`:
//! each account's balance before the period, its credits and debits and its
//! balance after, `bank::PeriodBalance`) and
//! `POST /movimentacaobancaria/transferencia/{emp}` (`BCO_ID_ORIGEM`,
//! `BCO_ID_DESTINO`, `DATA`, `VALOR`, `HISTORICO`: answers both legs' rows).

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Date, Dec, Operation, Row};
use erp_platform::resource::{
    query, ActionPerm, DbType, Field, Kind, Op, RecordHooks, Resource, Role,
};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::Untouched;
use crate::bank::{self, PeriodBalance};

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
    .record_hooks(ManualMovements)
    .constraint("movimentacaobancaria_banco_fkey", bank::UNKNOWN_ACCOUNT)
    .constraint(
        "movimentacaobancaria_centro_fkey",
        "Centro de custo não encontrado.",
    )
    .constraint(
        "conciliacaomovimentos_movimento_fkey",
        "Movimento conciliado com o extrato: desfaça a conciliação antes de alterá-lo ou excluí-lo.",
    )
    .call(
        "POST",
        "/movimentacaobancariabs/{emp}",
        "saldos",
        ActionPerm::View,
        "Movimentação Bancária: saldos por conta no período (DATA_INI, DATA_FIM, BCO_ID)",
        Balances,
    )
    .call(
        "POST",
        "/movimentacaobancaria/transferencia/{emp}",
        "transferencia",
        ActionPerm::Create,
        "Movimentação Bancária: transferência entre contas (BCO_ID_ORIGEM, BCO_ID_DESTINO, DATA, VALOR, HISTORICO)",
        TransferCall,
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

/// What the movements' hook reads of a written movement.
#[derive(Deserialize)]
struct MovementRow {
    #[serde(rename = "MBCA_ID")]
    id: i64,
    #[serde(rename = "MBCA_EMP_ID")]
    emp: i64,
    #[serde(rename = "MBCA_DTA_MOV", default)]
    date: Option<Date>,
    #[serde(rename = "MBCA_ORIGEM", default)]
    origin: Option<String>,
    /// The other leg of a transfer.
    #[serde(rename = "MBCA_TRANSF_ID", default)]
    other_leg: Option<i64>,
}

#[async_trait]
impl RecordHooks for ManualMovements {
    type Body = Untouched;
    type Row = MovementRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &MovementRow,
    ) -> Result<()> {
        let emp = row.emp;
        let client = caller.client_id;
        match (op, row.origin.as_deref().unwrap_or_default()) {
            (Op::Create, _) | (_, "MANUAL") => {}
            // Deleting one leg of a transfer deletes the other.
            (Op::Delete, "TRANSFERENCIA") => {
                if let Some(other) = row.other_leg {
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
        if let Some(d) = row.date {
            crate::bank::check_open(tx, client, emp, d.get()).await?;
        }
        let change = match op {
            Op::Create => "criado",
            Op::Update => "alterado",
            Op::Delete => "excluido",
        };
        crate::facts::movements(tx, client, emp, &[row.id], change).await?;
        bank::refresh(tx, client, emp).await
    }
}

/// `POST /movimentacaobancariabs/{emp}`: the period and the account.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct BalancesIn {
    #[serde(rename = "DATA_INI", default)]
    #[schemars(title = "Data inicial")]
    pub from: Option<Date>,
    #[serde(rename = "DATA_FIM", default)]
    #[schemars(title = "Data final")]
    pub to: Option<Date>,
    /// One account (default: every account of the company).
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
}

fn required(d: Option<Date>, label: &str) -> Result<NaiveDate> {
    d.map(Date::get)
        .ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))
}

/// `POST /movimentacaobancariabs/{emp}`: each account's balance before the
/// period, its credits and debits, and its balance after.
struct Balances;

#[async_trait]
impl Operation for Balances {
    type In = BalancesIn;
    type Out = Vec<PeriodBalance>;
    async fn run(&self, cx: &mut Ctx<'_>, i: BalancesIn) -> Result<Vec<PeriodBalance>> {
        let emp = cx.emp()?;
        let from = required(i.from, "Data inicial")?;
        let to = required(i.to, "Data final")?;
        bank::period_balances(cx.tx, cx.client(), emp, from, to, i.bank).await
    }
}

/// `POST /movimentacaobancaria/transferencia/{emp}`: the transfer.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(rename = "BankTransferIn")]
pub struct TransferIn {
    #[serde(rename = "BCO_ID_ORIGEM", default)]
    #[schemars(title = "Conta de origem", extend("x-invalid" = "Conta de origem inválido."))]
    pub from: Option<i64>,
    #[serde(rename = "BCO_ID_DESTINO", default)]
    #[schemars(title = "Conta de destino", extend("x-invalid" = "Conta de destino inválido."))]
    pub to: Option<i64>,
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor", extend("x-invalid" = "Valor é obrigatório!"))]
    pub value: Option<Dec>,
    /// Added to both legs' history.
    #[serde(rename = "HISTORICO", default)]
    pub history: Option<String>,
}

/// `POST /movimentacaobancaria/transferencia/{emp}`: a debit on the origin and a
/// credit on the destination; answers both movements' rows.
struct TransferCall;

#[async_trait]
impl Operation for TransferCall {
    type In = TransferIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: TransferIn) -> Result<Vec<Row>> {
        let emp = cx.emp()?;
        let from = i
            .from
            .ok_or_else(|| Error::validation("Conta de origem é obrigatório!"))?;
        let to =
            i.to.ok_or_else(|| Error::validation("Conta de destino é obrigatório!"))?;
        let date = required(i.date, "Data")?;
        let value = i
            .value
            .map(Dec::get)
            .ok_or_else(|| Error::validation("Valor é obrigatório!"))?;
        if value.normalize().scale() > 2 {
            return Err(Error::validation(
                "Valor aceita no máximo 2 casas decimais.",
            ));
        }
        if value >= rust_decimal::Decimal::from(10_000_000_000_000i64) {
            return Err(Error::validation("Valor muito grande."));
        }
        let t = bank::Transfer { emp, from, to, date, value, history: i.history, user: cx.user() };
        let (out, inn) = bank::transfer(cx.tx, cx.client(), &t).await?;
        let mut rows = Vec::with_capacity(2);
        for id in [out, inn] {
            let row = query::get(cx.tx, cx.res, cx.caller, Some(emp), &[id.to_string()]).await?;
            rows.push(Row(row));
        }
        Ok(rows)
    }
}
