//! The transitions orders' documents share, as typed calls of their registers:
//! duplicating a quote or a billing order, and what a quote becomes (a billing
//! order, a service order, a stock requisition; see `conversions`). Invoicing is
//! the billing order's own (`billing::Invoice`).

use std::marker::PhantomData;
use std::sync::OnceLock;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Operation, Register, Row, RowOf};
use erp_platform::resource::document::copy;
use erp_platform::resource::Registry;
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Map;

use super::conversions::{self, Target};

/// A document's key as its calls' paths name it.
pub trait DocKey: DeserializeOwned + JsonSchema + Send + 'static {
    /// The key values in the header register's key order.
    fn key(&self) -> Vec<String>;
}

/// A billing order's key (`{PEDF_ID}` and `{PEDF_SERIE}` of the path).
#[derive(Deserialize, JsonSchema)]
pub struct OrderKey {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
}

impl DocKey for OrderKey {
    fn key(&self) -> Vec<String> {
        vec![self.id.to_string(), self.serie.clone()]
    }
}

/// A quote's key (`{ORCA_ID}` of the path).
#[derive(Deserialize, JsonSchema)]
pub struct QuoteKey {
    #[serde(rename = "ORCA_ID")]
    pub id: i64,
}

impl DocKey for QuoteKey {
    fn key(&self) -> Vec<String> {
        vec![self.id.to_string()]
    }
}

/// A new open document with the header fields a user typed and the lines of the
/// document at the key; answers the new document's row.
pub struct Duplicate<K>(PhantomData<fn() -> K>);

impl<K> Duplicate<K> {
    pub fn new() -> Self {
        Duplicate(PhantomData)
    }
}

impl<K> Default for Duplicate<K> {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait]
impl<K: DocKey> Operation for Duplicate<K> {
    type In = K;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, k: K) -> Result<Row> {
        let emp = cx.emp()?;
        let row =
            copy::duplicate(cx.tx, cx.res, cx.caller, Some(emp), &k.key(), Map::new()).await?;
        Ok(Row(row))
    }
}

/// `POST /orcamento/{gerapedidofat|geraos|gerarequisicao}/…`: the quote's input
/// (the billing order's serie, NF-e model and operation type come in the path of
/// `gerapedidofat`).
#[derive(Deserialize, JsonSchema)]
pub struct ConvertIn {
    #[serde(rename = "ORCA_ID")]
    pub id: i64,
    #[serde(default)]
    pub serie: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(rename = "type", default)]
    pub operation: Option<String>,
}

/// The billing order's register, named in answers.
pub enum Pedido {}
impl Register for Pedido {
    const NAME: &'static str = "pedido";
}

/// The service order's register, named in answers.
pub enum OrdemServico {}
impl Register for OrdemServico {
    const NAME: &'static str = "ordemservico";
}

/// What converting answers: the new document's row, or (a requisition, which is
/// stock's) the quote's id and a message.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Converted {
    Order(RowOf<Pedido>),
    ServiceOrder(RowOf<OrdemServico>),
    Requested {
        code: u16,
        msg: String,
        #[serde(rename = "ORCA_ID")]
        id: i64,
    },
}

/// What a quote becomes.
#[derive(Clone, Copy)]
pub enum ConvertTo {
    BillingOrder,
    ServiceOrder,
    Requisition,
}

pub struct Convert(pub ConvertTo);

/// The registers a conversion writes through (their create paths number and
/// total the new document).
fn documents() -> Result<&'static Registry> {
    static REGISTRY: OnceLock<std::result::Result<Registry, String>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            Registry::new(
                [
                    super::quotes::all()?,
                    super::billing::document()?,
                    super::service_orders::all()?,
                ]
                .concat(),
            )
        })
        .as_ref()
        .map_err(Error::internal)
}

fn need(v: Option<String>, what: &str) -> Result<String> {
    v.map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::validation(format!("Parâmetro {what} não informado.")))
}

#[async_trait]
impl Operation for Convert {
    type In = ConvertIn;
    type Out = Converted;
    async fn run(&self, cx: &mut Ctx<'_>, i: ConvertIn) -> Result<Converted> {
        let emp = cx.emp()?;
        let target = match self.0 {
            ConvertTo::BillingOrder => Target::Order {
                serie: need(i.serie, "serie")?,
                model: need(i.model, "model")?,
                operation: need(i.operation, "type")?,
            },
            ConvertTo::ServiceOrder => Target::ServiceOrder,
            ConvertTo::Requisition => Target::Requisition,
        };
        let (_, row) =
            conversions::convert(cx.tx, documents()?, cx.caller, emp, i.id, target).await?;
        Ok(match self.0 {
            ConvertTo::BillingOrder => Converted::Order(RowOf::new(row)),
            ConvertTo::ServiceOrder => Converted::ServiceOrder(RowOf::new(row)),
            ConvertTo::Requisition => Converted::Requested {
                code: 200,
                msg: "Requisição enviada ao estoque.".into(),
                id: i.id,
            },
        })
    }
}
