//! Customers' credit (`clientescredito`): finance's copy of each customer of a
//! company with its credit limit, what its open receivables add up to
//! (`VALOR_UTILIZADO`) and what is left (`SALDO`), read-only through the generic
//! calls (the copy follows catalog's facts, the balance the receivables; see
//! `credit`). Guarded by the customers' program (`clientes`): the customer screen
//! asks these calls.
//!
//! Calls:
//! - `GET /clientes/limitecredito/{id}/{emp}`: `{CLI_ID, CLI_DESCRICAO,
//!   CLI_SITUACAO, CLI_LIMITE_CREDITO, VALOR_UTILIZADO, SALDO}` (numbers; SALDO =
//!   limit − used; without a limit both are 0 and SALDO is −used). A customer
//!   finance has no copy of answers 404 'Cliente não encontrado.'.
//! - `GET /clientes/alinhacontasreceber`: derives every customer's open balance of
//!   the caller's company from the receivables again and corrects the ones that
//!   differ (`{code, msg, clientes, corrigidos}`); a second call corrects nothing.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Dec, Operation};
use erp_platform::resource::{ActionPerm, DbType, Field, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::Serialize;

use super::{IdIn, Nothing};

use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub const READ_ONLY: &str =
    "Crédito de clientes: o limite vem do cadastro de clientes e o saldo das contas a receber.";

pub fn all() -> Vec<Resource> {
    vec![clientescredito()]
}

pub fn clientescredito() -> Resource {
    Resource::new(
        "clientescredito",
        "Crédito de Clientes",
        SCHEMA,
        "clientes",
        "clientes",
    )
    .key(&["CLI_ID"])
    .company("CLI_EMP_ID")
    .label("CLI_DESCRICAO")
    .order("CLI_DESCRICAO")
    .hooks(Arc::new(ReadOnly(READ_ONLY)))
    .fields(vec![
        Field::id("CLI_ID", "Código").column("cli_id"),
        Field::int("CLI_EMP_ID", "Empresa").column("emp_id"),
        Field::text("CLI_DESCRICAO", "Cliente")
            .searchable()
            .list()
            .width(6)
            .read_only()
            .column("descricao"),
        Field::options(
            "CLI_SITUACAO",
            "Situação",
            DbType::Int,
            &[("1", "Ativo"), ("2", "Bloqueado")],
        )
        .list()
        .read_only()
        .column("situacao"),
        Field::money("CLI_LIMITE_CREDITO", "Limite de Crédito")
            .list()
            .read_only()
            .column("limite"),
        Field::money("VALOR_UTILIZADO", "Valor Utilizado")
            .list()
            .read_only()
            .column("aberto"),
        Field::money("SALDO", "Saldo")
            .list()
            .read_only()
            .column("saldo"),
        Field::boolean("CLI_EXCLUIDO", "Excluído")
            .read_only()
            .column("excluido"),
    ])
    .call(
        "GET",
        "/clientes/limitecredito/{id}/{emp}",
        "limite_credito",
        ActionPerm::View,
        "Clientes: limite de crédito, valor utilizado (contas a receber em aberto) e saldo",
        CreditLimit,
    )
    .call(
        "GET",
        "/clientes/alinhacontasreceber",
        "alinhacontasreceber",
        ActionPerm::Update,
        "Clientes: recalcular o saldo em aberto de cada cliente a partir das contas a receber",
        Realign,
    )
}

/// A customer's credit position.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CreditLimitOut {
    #[serde(rename = "CLI_ID")]
    pub id: i64,
    #[serde(rename = "CLI_DESCRICAO")]
    pub name: Option<String>,
    /// 1 active, 2 blocked.
    #[serde(rename = "CLI_SITUACAO")]
    pub situation: Option<i32>,
    /// 0 without a limit.
    #[serde(rename = "CLI_LIMITE_CREDITO")]
    pub limit: Dec,
    /// The open receivables.
    #[serde(rename = "VALOR_UTILIZADO")]
    pub used: Dec,
    /// Limit − used.
    #[serde(rename = "SALDO")]
    pub left: Dec,
}

/// `GET /clientes/limitecredito/{id}/{emp}`.
struct CreditLimit;

#[async_trait]
impl Operation for CreditLimit {
    type In = IdIn;
    type Out = CreditLimitOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<CreditLimitOut> {
        let emp = cx.emp()?;
        let p = crate::credit::position(cx.tx, cx.client(), emp, i.id).await?;
        if !p.known {
            return Err(Error::NotFound("Cliente não encontrado.".into()));
        }
        let limit = p.limit_or_zero();
        Ok(CreditLimitOut {
            id: i.id,
            name: p.name,
            situation: p.situation,
            limit: limit.into(),
            used: p.open.into(),
            left: (limit - p.open).into(),
        })
    }
}

/// How many customers' balances were checked and corrected.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RealignedOut {
    pub code: u16,
    pub msg: String,
    pub clientes: usize,
    pub corrigidos: usize,
}

/// `GET /clientes/alinhacontasreceber`.
struct Realign;

#[async_trait]
impl Operation for Realign {
    type In = Nothing;
    type Out = RealignedOut;
    async fn run(&self, cx: &mut Ctx<'_>, _: Nothing) -> Result<RealignedOut> {
        let emp = cx.emp()?;
        let r = crate::credit::realign(cx.tx, cx.client(), emp).await?;
        let msg = match r.corrected {
            0 => format!(
                "Saldos em aberto de {} cliente(s) conferidos: nenhum precisou de ajuste.",
                r.customers
            ),
            n => format!(
                "Saldos em aberto de {} cliente(s) conferidos: {n} ajustado(s).",
                r.customers
            ),
        };
        Ok(RealignedOut { code: 200, msg, clientes: r.customers, corrigidos: r.corrected })
    }
}
