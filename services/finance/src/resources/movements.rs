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
use erp_platform::resource::params::{int, text};
use erp_platform::resource::{DbType, Field, Hooks, Kind, Op, Resource, Role};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use crate::bank;

const SCHEMA: &str = crate::SCHEMA;

pub const DIRECTIONS: [(&str, &str); 2] = [("C", "Crédito"), ("D", "Débito")];
pub const ORIGINS: [(&str, &str); 3] = [
    ("MANUAL", "Lançamento manual"),
    ("BAIXA", "Baixa de título"),
    ("ESTORNO", "Estorno de baixa"),
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
        Field::int("MBCA_USR_ID", "Usuário").role(Role::CreatedBy),
        Field::timestamp("MBCA_DTA_CAD", "Data de Cadastro"),
    ])
}

pub const FROM_SETTLEMENT: &str =
    "Movimento gerado por baixa não pode ser alterado nem excluído: estorne a baixa.";

struct ManualMovements;

#[async_trait]
impl Hooks for ManualMovements {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op != Op::Create && text(row, "MBCA_ORIGEM") != "MANUAL" {
            return Err(Error::Conflict(FROM_SETTLEMENT.into()));
        }
        let emp = int(row, "MBCA_EMP_ID")?;
        bank::refresh(tx, caller.client_id, emp).await
    }
}
