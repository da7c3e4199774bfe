//! What a quote becomes: a billing order, a service order, a stock requisition.
//! Each conversion writes the new document through its registers' create path (so
//! numbering, the item copies and the totals are the engine's), marks the quote
//! converted (C) in the same transaction, and answers the new document's row.
//! The requisition is stock's: the quote publishes `erp.orders.orcamento.requisicao`
//! once, and stock creates the document.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Date, Dec};
use erp_platform::resource::document::{ops, read, DocumentDef, LineKind};
use erp_platform::resource::{query, record, Registry, Resource};
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::register_body;
use crate::SCHEMA;

/// What a quote is converted into.
pub enum Target {
    /// A billing order of a serie, NF-e model and operation type.
    Order {
        serie: String,
        model: String,
        operation: String,
    },
    ServiceOrder,
    Requisition,
}

/// The quote's header as a conversion reads it.
#[derive(Deserialize)]
struct Quote {
    #[serde(rename = "ORCA_CLI_ID")]
    customer: i64,
    #[serde(rename = "ORCA_COLA_ID")]
    seller: Option<i64>,
    #[serde(rename = "ORCA_CNDP_ID")]
    condition: Option<i64>,
    #[serde(rename = "ORCA_VEIC_ID")]
    vehicle: Option<i64>,
    #[serde(rename = "ORCA_OBS")]
    note: Option<String>,
}

/// A product line of the quote.
#[derive(Deserialize)]
struct QuoteProduct {
    #[serde(rename = "ORCP_PROD_ID")]
    item: i64,
    #[serde(rename = "ORCP_DESCRICAO")]
    description: Option<String>,
    #[serde(rename = "ORCP_UNIDADE")]
    unit: Option<String>,
    #[serde(rename = "ORCP_QTDE")]
    qty: Dec,
    #[serde(rename = "ORCP_VLR_UNIT")]
    price: Option<Dec>,
    #[serde(rename = "ORCP_VLR_DESC")]
    discount: Option<Dec>,
}

/// A service line of the quote.
#[derive(Deserialize)]
struct QuoteService {
    #[serde(rename = "ORCI_SERV_ID")]
    item: i64,
    #[serde(rename = "ORCI_DESCRICAO")]
    description: Option<String>,
    #[serde(rename = "ORCI_QTDE")]
    qty: Dec,
    #[serde(rename = "ORCI_VLR_UNIT")]
    price: Option<Dec>,
    #[serde(rename = "ORCI_VLR_DESC")]
    discount: Option<Dec>,
}

/// One quote's line as a conversion copies it: item, description, unit name,
/// quantity, unit price, discount.
struct QuoteLine {
    item: i64,
    description: Option<String>,
    unit: Option<String>,
    qty: Decimal,
    price: Decimal,
    discount: Decimal,
}

fn amount(v: Option<Dec>) -> Decimal {
    v.map(Dec::get).unwrap_or_default()
}

impl From<QuoteProduct> for QuoteLine {
    fn from(l: QuoteProduct) -> Self {
        QuoteLine {
            item: l.item,
            description: l.description,
            unit: l.unit,
            qty: l.qty.get(),
            price: amount(l.price),
            discount: amount(l.discount),
        }
    }
}

impl From<QuoteService> for QuoteLine {
    fn from(l: QuoteService) -> Self {
        QuoteLine {
            item: l.item,
            description: l.description,
            unit: None,
            qty: l.qty.get(),
            price: amount(l.price),
            discount: amount(l.discount),
        }
    }
}

/// The quote's lines of a kind, in their order.
async fn quote_lines<L: DeserializeOwned + Into<QuoteLine>>(
    tx: &mut Tx,
    def: &DocumentDef,
    kind: LineKind,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Vec<QuoteLine>> {
    let lines: Vec<L> = read::lines(tx, def, kind, client, Some(emp), &[id.to_string()]).await?;
    Ok(lines.into_iter().map(Into::into).collect())
}

fn register<'a>(reg: &'a Registry, name: &str) -> Result<&'a Resource> {
    reg.get(name)
        .map(|r| r.as_ref())
        .ok_or_else(|| Error::internal(format!("register {name} missing")))
}

/// The billing order a quote becomes.
#[derive(Serialize)]
struct OrderHead<'a> {
    #[serde(rename = "PEDF_SERIE")]
    serie: &'a str,
    #[serde(rename = "PEDF_CLI_ID")]
    customer: i64,
    #[serde(rename = "PEDF_MODELO")]
    model: &'a str,
    #[serde(rename = "PEDF_TIPO")]
    operation: &'a str,
    #[serde(rename = "PEDF_COLA_ID")]
    seller: Option<i64>,
    #[serde(rename = "PEDF_CNDP_ID")]
    condition: Option<i64>,
    #[serde(rename = "PEDF_OBS")]
    note: &'a Option<String>,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    issued: Date,
}

#[derive(Serialize)]
struct OrderProduct<'a> {
    #[serde(rename = "PEDI_PEDF_ID")]
    order: i64,
    #[serde(rename = "PEDI_PEDF_SERIE_ID")]
    serie: &'a str,
    #[serde(rename = "PEDI_PROD_ID")]
    item: i64,
    #[serde(rename = "PEDI_DESCRICAO")]
    description: &'a Option<String>,
    #[serde(rename = "PEDI_UNIDADE")]
    unit: &'a Option<String>,
    #[serde(rename = "PEDI_QTDE")]
    qty: Dec,
    #[serde(rename = "PEDI_VLR_UNITARIO")]
    price: Dec,
    #[serde(rename = "PEDI_VLR_DESCONTO")]
    discount: Dec,
}

#[derive(Serialize)]
struct OrderService<'a> {
    #[serde(rename = "PFOS_PEDF_ID")]
    order: i64,
    #[serde(rename = "PFOS_PEDF_SERIE")]
    serie: &'a str,
    #[serde(rename = "PFOS_SERV_ID")]
    item: i64,
    #[serde(rename = "PFOS_DESCRICAO")]
    description: &'a Option<String>,
    #[serde(rename = "PFOS_QTDE")]
    qty: Dec,
    #[serde(rename = "PFOS_VLR_UNIT")]
    price: Dec,
}

/// The service order a quote becomes.
#[derive(Serialize)]
struct ServiceOrderHead<'a> {
    #[serde(rename = "ORDS_SERIE")]
    serie: &'a str,
    #[serde(rename = "ORDS_CLI_ID")]
    customer: i64,
    #[serde(rename = "ORDS_VEIC_ID")]
    vehicle: Option<i64>,
    #[serde(rename = "ORDS_OBS")]
    note: &'a Option<String>,
    #[serde(rename = "ORDS_DTA_ENTRADA")]
    entered: Date,
}

#[derive(Serialize)]
struct ServiceOrderService<'a> {
    #[serde(rename = "ORDI_ORDS_ID")]
    order: i64,
    #[serde(rename = "ORDI_SERIE")]
    serie: &'a str,
    #[serde(rename = "ORDI_SERV_ID")]
    item: i64,
    #[serde(rename = "ORDI_DESCRICAO")]
    description: &'a Option<String>,
    #[serde(rename = "ORDI_QTDE")]
    qty: Dec,
    #[serde(rename = "ORDI_VLR_UNIT")]
    price: Dec,
    #[serde(rename = "ORDI_VLR_DESC")]
    discount: Dec,
}

#[derive(Serialize)]
struct ServiceOrderProduct<'a> {
    #[serde(rename = "ORDP_ORDS_ID")]
    order: i64,
    #[serde(rename = "ORDP_SERIE")]
    serie: &'a str,
    #[serde(rename = "ORDP_PROD_ID")]
    item: i64,
    #[serde(rename = "ORDP_DESCRICAO")]
    description: &'a Option<String>,
    #[serde(rename = "ORDP_UNIDADE")]
    unit: &'a Option<String>,
    #[serde(rename = "ORDP_QTDE")]
    qty: Dec,
    #[serde(rename = "ORDP_VLR_UNIT")]
    price: Dec,
    #[serde(rename = "ORDP_VLR_DESC")]
    discount: Dec,
}

/// The key of a billing order the engine wrote.
#[derive(Deserialize)]
struct WrittenOrder {
    #[serde(rename = "PEDF_ID")]
    id: i64,
}

/// The key of a service order the engine wrote.
#[derive(Deserialize)]
struct WrittenServiceOrder {
    #[serde(rename = "ORDS_ID")]
    id: i64,
}

/// Converts quote `id`: locked, open and with lines, else refused with its message.
/// Answers the register and row of what it became (the quote itself for a
/// requisition).
pub async fn convert(
    tx: &mut Tx,
    reg: &Registry,
    caller: &Caller,
    emp: i64,
    id: i64,
    target: Target,
) -> Result<(String, Value)> {
    let quote = register(reg, "orcamento")?;
    let def = quote
        .document
        .as_ref()
        .map(|d| d.def.clone())
        .ok_or_else(|| Error::internal("orcamento is a document"))?;
    let client = caller.client_id;
    ops::ensure_open(tx, &def, client, Some(emp), &[id.to_string()]).await?;
    let src: Quote = record::get(tx, quote, caller, Some(emp), &[id.to_string()]).await?;
    let products =
        quote_lines::<QuoteProduct>(tx, &def, LineKind::Product, client, emp, id).await?;
    let services =
        quote_lines::<QuoteService>(tx, &def, LineKind::Service, client, emp, id).await?;
    if products.is_empty() && services.is_empty() {
        return Err(Error::validation(
            "Orçamento sem itens não pode ser convertido.",
        ));
    }
    let cli = src.customer;
    let today: NaiveDate =
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
            .fetch_one(&mut **tx)
            .await?;
    let today = Date(today);
    match target {
        Target::Order { serie, model, operation } => {
            let head = OrderHead {
                serie: &serie,
                customer: cli,
                model: &model,
                operation: &operation,
                seller: src.seller,
                condition: src.condition,
                note: &src.note,
                issued: today,
            };
            let head = query::create(
                tx,
                register(reg, "pedido")?,
                caller,
                Some(emp),
                &register_body(&head)?,
            )
            .await?;
            let pedf = record::from_row::<WrittenOrder>(&head)?.id;
            let lines = register(reg, "pedidoproduto")?;
            for l in &products {
                let line = OrderProduct {
                    order: pedf,
                    serie: &serie,
                    item: l.item,
                    description: &l.description,
                    unit: &l.unit,
                    qty: Dec(l.qty),
                    price: Dec(l.price),
                    discount: Dec(l.discount),
                };
                query::create(tx, lines, caller, Some(emp), &register_body(&line)?).await?;
            }
            let lines = register(reg, "pedidoservico")?;
            for l in &services {
                // Service lines of an order carry no discount: the net price goes.
                let unit_net = if l.qty.is_zero() {
                    l.price
                } else {
                    ((l.qty * l.price - l.discount) / l.qty).round_dp(4)
                };
                let line = OrderService {
                    order: pedf,
                    serie: &serie,
                    item: l.item,
                    description: &l.description,
                    qty: Dec(l.qty),
                    price: Dec(unit_net),
                };
                query::create(tx, lines, caller, Some(emp), &register_body(&line)?).await?;
            }
            sqlx::query("UPDATE orders.pedido SET pedf_orca_id = $4 WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $5")
                .bind(client).bind(emp).bind(pedf).bind(id).bind(&serie)
                .execute(&mut **tx).await?;
            sqlx::query("UPDATE orders.orcamento SET orca_situacao = 'C', orca_pedf_id = $4, orca_pedf_serie = $5 WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3")
                .bind(client).bind(emp).bind(id).bind(pedf).bind(&serie)
                .execute(&mut **tx).await?;
            let row = query::get(
                tx,
                register(reg, "pedido")?,
                caller,
                Some(emp),
                &[pedf.to_string(), serie],
            )
            .await?;
            Ok(("pedido".into(), row))
        }
        Target::ServiceOrder => {
            let serie = super::service_orders::SERIE;
            let head = ServiceOrderHead {
                serie,
                customer: cli,
                vehicle: src.vehicle,
                note: &src.note,
                entered: today,
            };
            let head = query::create(
                tx,
                register(reg, "ordemservico")?,
                caller,
                Some(emp),
                &register_body(&head)?,
            )
            .await?;
            let ords = record::from_row::<WrittenServiceOrder>(&head)?.id;
            let lines = register(reg, "ordemservicoservico")?;
            for l in &services {
                let line = ServiceOrderService {
                    order: ords,
                    serie,
                    item: l.item,
                    description: &l.description,
                    qty: Dec(l.qty),
                    price: Dec(l.price),
                    discount: Dec(l.discount),
                };
                query::create(tx, lines, caller, Some(emp), &register_body(&line)?).await?;
            }
            let lines = register(reg, "ordemservicoproduto")?;
            for l in &products {
                let line = ServiceOrderProduct {
                    order: ords,
                    serie,
                    item: l.item,
                    description: &l.description,
                    unit: &l.unit,
                    qty: Dec(l.qty),
                    price: Dec(l.price),
                    discount: Dec(l.discount),
                };
                query::create(tx, lines, caller, Some(emp), &register_body(&line)?).await?;
            }
            sqlx::query("UPDATE orders.ordemservico SET ords_orca_id = $4 WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $5")
                .bind(client).bind(emp).bind(ords).bind(id).bind(serie)
                .execute(&mut **tx).await?;
            sqlx::query("UPDATE orders.orcamento SET orca_situacao = 'C', orca_ords_id = $4 WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3")
                .bind(client).bind(emp).bind(id).bind(ords)
                .execute(&mut **tx).await?;
            let row = query::get(
                tx,
                register(reg, "ordemservico")?,
                caller,
                Some(emp),
                &[ords.to_string(), serie.to_string()],
            )
            .await?;
            Ok(("ordemservico".into(), row))
        }
        Target::Requisition => {
            let done: bool = sqlx::query_scalar(
                "UPDATE orders.orcamento o SET orca_requ_ok = true
                 FROM (SELECT orca_requ_ok AS before FROM orders.orcamento WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3) b
                 WHERE o.client_id = $1 AND o.orca_emp_id = $2 AND o.orca_id = $3 RETURNING b.before",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
            if done {
                return Err(Error::Conflict(
                    "A requisição deste orçamento já foi gerada.".into(),
                ));
            }
            let lines: Vec<erp_proto::orders::v1::StockLine> = products
                .into_iter()
                .enumerate()
                .map(|(i, l)| erp_proto::orders::v1::StockLine {
                    product_id: l.item,
                    product_emp_id: emp,
                    quantity: l.qty.normalize().to_string(),
                    item: i as i64 + 1,
                    location_id: 0,
                    // Quote lines name no grid variant.
                    variant_id: 0,
                })
                .collect();
            if lines.is_empty() {
                return Err(Error::validation(
                    "Orçamento sem produtos não gera requisição.",
                ));
            }
            let event = erp_proto::orders::v1::RequisicaoSolicitada {
                client_id: client,
                emp_id: emp,
                orcamento_id: id,
                serie: "ORC".into(),
                user_id: caller.user_id,
                customer_id: cli,
                lines,
            };
            erp_platform::bus::outbox_insert(
                tx,
                SCHEMA,
                erp_proto::subjects::ORCAMENTO_REQUISICAO,
                client,
                &event.encode_to_vec(),
            )
            .await?;
            let row = query::get(tx, quote, caller, Some(emp), &[id.to_string()]).await?;
            Ok(("orcamento".into(), row))
        }
    }
}
