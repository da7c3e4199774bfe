//! What stock consumes, one `Effect` each (run at most once per event, in the
//! tenant transaction that records it in stock's inbox), and what it publishes.
//!
//! Consumed:
//! - `erp.orders.pedido.faturado` (`stock-pedido-faturado`, [`InvoicedOrder`]): one
//!   exit per product line, origin `PEDIDO`, origin id `emp/serie/id`; a line that
//!   names a grid variant (`StockLine.variant_id`) takes it out of that variant's
//!   quantity too.
//! - `erp.orders.ordemservico.estoquebaixado` (`stock-os-baixa`,
//!   [`ServiceOrderParts`]): one exit per part, origin `ORDEMSERVICO`.
//! - `erp.orders.orcamento.requisicao` (`stock-orcamento-requisicao`,
//!   [`QuoteRequisition`]): a `requisicao` document with its lines, whose exits go
//!   through the register's own hooks (origin `REQUISICAO`).
//! - `erp.orders.compra.finalizada` (`stock-compra-finalizada`,
//!   [`purchases::FinalizedPurchase`]): one entry per purchase item at its landed
//!   cost, origin `COMPRA`, origin id `compra/item`; `erp.orders.compra.cancelada`
//!   (`stock-compra-cancelada`, [`purchases::CancelledPurchase`]) undoes them. See
//!   `purchases` for the order of the two facts and their once-only rule.
//! - `erp.catalog.produto.>` (`stock-produtos`, [`ProductCopy`]): stock's copy of the
//!   products (description, unit, price, cost, image, situation); `excluido` removes
//!   the copy (its movements and balances stay).
//!
//! Exits of these documents are facts issued elsewhere: they are recorded even when
//! the balance goes below zero (`Movement::allow_negative`). They leave from the
//! document's company (`emp_id`), from the line's location or the default one. A
//! batch of such events is recorded with one `ledger::record_many`: one movement
//! per document line (the stock card is what one event at a time would give), each
//! product's balance locked once, in key order. An event of another tenant than its
//! header, or one that does not decode, is refused (the batch is then applied event
//! by event, and that one alone is logged, counted and acknowledged).
//!
//! Published: `erp.stock.movimento.registrado` (`MovimentoRegistrado`), one per
//! ledger movement, written by `ledger::record` to the outbox.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Date, Dec};
use erp_platform::resource::query;
use erp_platform::resource::record;
use erp_platform::service::ConsumerDef;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{OrdemServicoBaixada, PedidoFaturado, RequisicaoSolicitada, StockLine};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sqlx::types::chrono::NaiveDate;

use crate::ledger::{self, Movement};
use crate::payload::{decode, quantity, same_tenant};
use crate::purchases;
use crate::resources::documents;

pub use erp_proto::subjects::{
    CATALOG_PRODUTOS as PRODUTO, ORCAMENTO_REQUISICAO, OS_ESTOQUE_BAIXADO, PEDIDO_FATURADO,
};

/// The consumers `serve` runs.
pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "stock-produtos",
            filter: PRODUTO,
            effect: std::sync::Arc::new(ProductCopy),
        },
        ConsumerDef {
            durable: "stock-pedido-faturado",
            filter: PEDIDO_FATURADO,
            effect: std::sync::Arc::new(InvoicedOrder),
        },
        ConsumerDef {
            durable: "stock-os-baixa",
            filter: OS_ESTOQUE_BAIXADO,
            effect: std::sync::Arc::new(ServiceOrderParts),
        },
        ConsumerDef {
            durable: "stock-orcamento-requisicao",
            filter: ORCAMENTO_REQUISICAO,
            effect: std::sync::Arc::new(QuoteRequisition),
        },
        ConsumerDef {
            durable: "stock-compra-finalizada",
            filter: purchases::COMPRA_FINALIZADA,
            effect: std::sync::Arc::new(purchases::FinalizedPurchase),
        },
        ConsumerDef {
            durable: "stock-compra-cancelada",
            filter: purchases::COMPRA_CANCELADA,
            effect: std::sync::Arc::new(purchases::CancelledPurchase),
        },
    ]
}

fn sorted(lines: &[StockLine]) -> Vec<&StockLine> {
    let mut v: Vec<&StockLine> = lines.iter().collect();
    v.sort_by_key(|l| (l.product_id, l.item));
    v
}

/// The exits of one issued document's lines (those with a quantity), allowed below
/// zero, in product order.
fn issued_exits<'a>(
    emp: i64,
    lines: &[StockLine],
    origin: &'a str,
    origin_id: &str,
    out: &mut Vec<Movement<'a>>,
) -> Result<()> {
    for line in sorted(lines) {
        let qty = quantity(&line.quantity)?;
        if qty.is_zero() {
            continue;
        }
        let mut m = Movement::new(
            emp,
            line.product_id,
            ledger::Kind::Exit,
            qty,
            origin,
            origin_id.to_string(),
        );
        m.location = (line.location_id > 0).then_some(line.location_id);
        // A negative variant is refused by the ledger, not read as none.
        m.variant = (line.variant_id != 0).then_some(line.variant_id);
        m.allow_negative = true;
        out.push(m);
    }
    Ok(())
}

/// The exits of a batch of issued documents, recorded together: each product's
/// balance is locked and written once for the whole batch.
async fn record_exits<E: prost::Message + Default>(
    tx: &mut Tx,
    client_id: i64,
    msgs: &[&Message],
    origin: &'static str,
    document: impl Fn(&E) -> (i64, i64, String, &[StockLine]),
) -> Result<()> {
    let mut moves = Vec::new();
    for msg in msgs {
        let ev: E = decode(msg)?;
        let (payload_client, emp, origin_id, lines) = document(&ev);
        same_tenant(client_id, payload_client)?;
        issued_exits(emp, lines, origin, &origin_id, &mut moves)?;
    }
    ledger::record_many(tx, client_id, &moves).await?;
    Ok(())
}

/// `erp.orders.pedido.faturado`: the invoiced order's products leave stock.
pub struct InvoicedOrder;

fn invoiced(ev: &PedidoFaturado) -> (i64, i64, String, &[StockLine]) {
    (
        ev.client_id,
        ev.emp_id,
        format!("{}/{}/{}", ev.emp_id, ev.serie, ev.pedido_id),
        &ev.lines,
    )
}

#[async_trait]
impl Effect for InvoicedOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        self.apply_batch(tx, client_id, &[msg]).await
    }

    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        record_exits(tx, client_id, msgs, "PEDIDO", invoiced).await
    }
}

/// `erp.orders.ordemservico.estoquebaixado`: the service order's parts leave stock.
pub struct ServiceOrderParts;

fn service_order(ev: &OrdemServicoBaixada) -> (i64, i64, String, &[StockLine]) {
    (
        ev.client_id,
        ev.emp_id,
        format!("{}/{}/{}", ev.emp_id, ev.serie, ev.ordem_id),
        &ev.lines,
    )
}

#[async_trait]
impl Effect for ServiceOrderParts {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        self.apply_batch(tx, client_id, &[msg]).await
    }

    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        record_exits(tx, client_id, msgs, "ORDEMSERVICO", service_order).await
    }
}

/// A body of a register written from `v`'s columns.
fn body<T: Serialize>(v: &T) -> Result<Map<String, Value>> {
    let mut m = Map::new();
    record::into_map(v, &mut m)?;
    Ok(m)
}

/// The requisition a quote asks for, as a body of `requisicao`.
#[derive(Serialize)]
struct QuoteRequisitionHead {
    #[serde(rename = "REQU_DESCRICAO")]
    description: String,
    #[serde(rename = "REQU_DATA")]
    day: Date,
    #[serde(rename = "REQU_CLI_ID")]
    customer: Option<i64>,
    #[serde(rename = "REQU_LOCA_ID")]
    location: Option<i64>,
}

/// A line of the quote's requisition, as a body of `requisicaoproduto`.
#[derive(Serialize)]
struct QuoteRequisitionLine {
    #[serde(rename = "REQP_REQU_ID")]
    requisition: i64,
    #[serde(rename = "REQP_PROD_ID")]
    product: i64,
    #[serde(rename = "REQP_QTDE")]
    qty: Dec,
    #[serde(rename = "REQP_OBS")]
    note: String,
}

/// The requisition the engine wrote.
#[derive(Deserialize)]
struct Written {
    #[serde(rename = "REQU_ID")]
    id: i64,
}

/// `erp.orders.orcamento.requisicao`: a requisition document for the quote, in the
/// location of its first located line (else the default), with one line per
/// product line; the lines' hook writes the exits.
pub struct QuoteRequisition;

#[async_trait]
impl Effect for QuoteRequisition {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: RequisicaoSolicitada = decode(msg)?;
        same_tenant(client_id, ev.client_id)?;
        let caller =
            Caller { client_id, user_id: ev.user_id, emp_id: ev.emp_id, privileged: false };
        let emp = Some(ev.emp_id);
        let today: NaiveDate =
            sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
                .fetch_one(&mut **tx)
                .await?;
        let location = ev.lines.iter().map(|l| l.location_id).find(|l| *l > 0);
        let mut doc = documents::requisition()
            .map_err(Error::internal)?
            .into_iter();
        let (requisition, line) = match (doc.next(), doc.next()) {
            (Some(h), Some(l)) => (h, l),
            _ => {
                return Err(Error::internal(
                    "the requisition document has a header and a line",
                ))
            }
        };
        let head = QuoteRequisitionHead {
            description: format!("Requisição do orçamento {}/{}", ev.orcamento_id, ev.serie),
            day: Date(today),
            customer: (ev.customer_id > 0).then_some(ev.customer_id),
            location,
        };
        let header = query::create(tx, &requisition, &caller, emp, &body(&head)?).await?;
        let id = record::from_row::<Written>(&header)?.id;
        // Marks the document as the quote's before its lines post: their exits are
        // then allowed below zero.
        sqlx::query(
            "UPDATE stock.requisicao SET requ_orca_id = $4, requ_orca_serie = $5
             WHERE client_id = $1 AND requ_emp_id = $2 AND requ_id = $3",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id)
        .bind(ev.orcamento_id)
        .bind(&ev.serie)
        .execute(&mut **tx)
        .await?;
        let lines = &line;
        for line in sorted(&ev.lines) {
            let qty = quantity(&line.quantity)?;
            if qty.is_zero() {
                continue;
            }
            let line = QuoteRequisitionLine {
                requisition: id,
                product: line.product_id,
                qty: Dec(qty),
                note: format!("Item {} do orçamento", line.item),
            };
            query::create(tx, lines, &caller, emp, &body(&line)?).await?;
        }
        Ok(())
    }
}

/// A catalog product's row as a fact carries it (what stock copies of it).
#[derive(Deserialize)]
struct CatalogProduct {
    #[serde(rename = "PROD_ID")]
    id: Option<i64>,
    #[serde(rename = "PROD_EMP_ID")]
    emp: Option<i64>,
    #[serde(rename = "PROD_DESCRICAO")]
    description: Option<String>,
    #[serde(rename = "UNID_ABREVIADA")]
    unit: Option<String>,
    #[serde(rename = "PROD_VALOR")]
    price: Option<Dec>,
    #[serde(rename = "PROD_CUSTO")]
    cost: Option<Dec>,
    #[serde(rename = "PROD_IMAGEM")]
    image: Option<String>,
    #[serde(rename = "PROD_SITUACAO")]
    situation: Option<i64>,
}

/// `erp.catalog.produto.criado|alterado|excluido`: keeps `stock.produtos`. A new
/// copy starts with the balance stock already holds for the product.
pub struct ProductCopy;

#[async_trait]
impl Effect for ProductCopy {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: erp_proto::erp::v1::RecordChanged = decode(msg)?;
        same_tenant(client_id, ev.client_id)?;
        let row: Value = serde_json::from_slice(&ev.row_json)
            .map_err(|_| Error::validation("Evento de produto sem o registro."))?;
        let p: CatalogProduct =
            record::from_row(&row).map_err(|_| Error::validation("Evento de produto inválido."))?;
        let id =
            p.id.ok_or_else(|| Error::validation("Evento de produto sem PROD_ID."))?;
        let emp = p.emp.unwrap_or(ev.emp_id);
        if ev.op == "excluido" || msg.subject.ends_with(".excluido") {
            sqlx::query("DELETE FROM stock.produtos WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3")
                .bind(client_id)
                .bind(emp)
                .bind(id)
                .execute(&mut **tx)
                .await?;
            return Ok(());
        }
        let text = |t: Option<String>| t.filter(|s| !s.trim().is_empty());
        let description = text(p.description)
            .ok_or_else(|| Error::validation("Evento de produto sem descrição."))?;
        sqlx::query(
            "INSERT INTO stock.produtos AS p (client_id, prod_emp_id, prod_id, prod_descricao, unid_abreviada, prod_valor,
                 prod_custo, prod_imagem, prod_situacao, prod_saldo, prod_custo_medio)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce(s.sald_qtde, 0), coalesce(s.sald_custo_medio, 0)
             FROM (SELECT 1) one
             LEFT JOIN stock.saldos s ON s.client_id = $1 AND s.sald_emp_id = $2 AND s.sald_prod_id = $3
             ON CONFLICT (client_id, prod_emp_id, prod_id) DO UPDATE SET
                 prod_descricao = EXCLUDED.prod_descricao, unid_abreviada = EXCLUDED.unid_abreviada,
                 prod_valor = EXCLUDED.prod_valor, prod_custo = EXCLUDED.prod_custo,
                 prod_imagem = EXCLUDED.prod_imagem, prod_situacao = EXCLUDED.prod_situacao,
                 prod_atualizado = now()",
        )
        .bind(client_id)
        .bind(emp)
        .bind(id)
        .bind(description)
        .bind(text(p.unit))
        .bind(p.price.map(Dec::get))
        .bind(p.cost.map(Dec::get))
        .bind(text(p.image))
        .bind(p.situation.unwrap_or(1))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
