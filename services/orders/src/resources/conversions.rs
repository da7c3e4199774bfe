//! What a quote becomes: a billing order, a service order, a stock requisition.
//! Each conversion writes the new document through its registers' create path (so
//! numbering, the item copies and the totals are the engine's), marks the quote
//! converted (C) in the same transaction, and answers the new document's row.
//! The requisition is stock's: the quote publishes `erp.orders.orcamento.requisicao`
//! once, and stock creates the document.

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::document::ops;
use erp_platform::resource::{params, query, Registry, Resource};
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

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

/// One quote's lines: item, description, unit name, quantity, unit price, discount.
type QuoteLine = (
    i64,
    Option<String>,
    Option<String>,
    Decimal,
    Decimal,
    Decimal,
);

async fn quote_lines(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    products: bool,
) -> Result<Vec<QuoteLine>> {
    let sql = if products {
        "SELECT orcp_prod_id, orcp_descricao, orcp_unidade, orcp_qtde, orcp_vlr_unit, coalesce(orcp_vlr_desc, 0)
         FROM orders.orcamentoproduto WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3 ORDER BY orcp_id"
    } else {
        "SELECT orci_serv_id, orci_descricao, NULL::text, orci_qtde, orci_vlr_unit, coalesce(orci_vlr_desc, 0)
         FROM orders.orcamentoservico WHERE client_id = $1 AND orci_emp_id = $2 AND orci_orca_id = $3 ORDER BY orci_id"
    };
    Ok(sqlx::query_as(sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_all(&mut **tx)
        .await?)
}

fn register<'a>(reg: &'a Registry, name: &str) -> Result<&'a Resource> {
    reg.get(name)
        .map(|r| r.as_ref())
        .ok_or_else(|| Error::internal(format!("register {name} missing")))
}

fn body(v: Value) -> Map<String, Value> {
    params::body_map(v)
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
    let src = query::get(tx, quote, caller, Some(emp), &[id.to_string()]).await?;
    let products = quote_lines(tx, client, emp, id, true).await?;
    let services = quote_lines(tx, client, emp, id, false).await?;
    if products.is_empty() && services.is_empty() {
        return Err(Error::validation(
            "Orçamento sem itens não pode ser convertido.",
        ));
    }
    let cli = params::int(&src, "ORCA_CLI_ID")?;
    let today: String =
        sqlx::query_scalar("SELECT ((now() AT TIME ZONE 'America/Sao_Paulo')::date)::text")
            .fetch_one(&mut **tx)
            .await?;
    match target {
        Target::Order { serie, model, operation } => {
            let head = query::create(tx, register(reg, "pedido")?, caller, Some(emp), &body(json!({
                "PEDF_SERIE": serie, "PEDF_CLI_ID": cli, "PEDF_MODELO": model, "PEDF_TIPO": operation,
                "PEDF_COLA_ID": src["ORCA_COLA_ID"], "PEDF_CNDP_ID": src["ORCA_CNDP_ID"], "PEDF_OBS": src["ORCA_OBS"],
                "PEDF_DTA_EMISSAO": today,
            })))
            .await?;
            let pedf = params::int(&head, "PEDF_ID")?;
            let lines = register(reg, "pedidoproduto")?;
            for (item, desc, unit, qty, price, disc) in products {
                query::create(tx, lines, caller, Some(emp), &body(json!({
                    "PEDI_PEDF_ID": pedf, "PEDI_PEDF_SERIE_ID": serie, "PEDI_PROD_ID": item, "PEDI_DESCRICAO": desc,
                    "PEDI_UNIDADE": unit, "PEDI_QTDE": qty.to_string(), "PEDI_VLR_UNITARIO": price.to_string(),
                    "PEDI_VLR_DESCONTO": disc.to_string()
                })))
                .await?;
            }
            let lines = register(reg, "pedidoservico")?;
            for (item, desc, _unit, qty, price, disc) in services {
                // Service lines of an order carry no discount: the net price goes.
                let unit_net = if qty.is_zero() {
                    price
                } else {
                    ((qty * price - disc) / qty).round_dp(4)
                };
                query::create(tx, lines, caller, Some(emp), &body(json!({
                    "PFOS_PEDF_ID": pedf, "PFOS_PEDF_SERIE": serie, "PFOS_SERV_ID": item, "PFOS_DESCRICAO": desc,
                    "PFOS_QTDE": qty.to_string(), "PFOS_VLR_UNIT": unit_net.to_string()
                })))
                .await?;
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
            let head = query::create(tx, register(reg, "ordemservico")?, caller, Some(emp), &body(json!({
                "ORDS_SERIE": serie, "ORDS_CLI_ID": cli, "ORDS_VEIC_ID": src["ORCA_VEIC_ID"], "ORDS_OBS": src["ORCA_OBS"],
                "ORDS_DTA_ENTRADA": today,
            })))
            .await?;
            let ords = params::int(&head, "ORDS_ID")?;
            let lines = register(reg, "ordemservicoservico")?;
            for (item, desc, _unit, qty, price, disc) in services {
                query::create(tx, lines, caller, Some(emp), &body(json!({
                    "ORDI_ORDS_ID": ords, "ORDI_SERIE": serie, "ORDI_SERV_ID": item, "ORDI_DESCRICAO": desc,
                    "ORDI_QTDE": qty.to_string(), "ORDI_VLR_UNIT": price.to_string(), "ORDI_VLR_DESC": disc.to_string(),
                })))
                .await?;
            }
            let lines = register(reg, "ordemservicoproduto")?;
            for (item, desc, unit, qty, price, disc) in products {
                query::create(tx, lines, caller, Some(emp), &body(json!({
                    "ORDP_ORDS_ID": ords, "ORDP_SERIE": serie, "ORDP_PROD_ID": item, "ORDP_DESCRICAO": desc, "ORDP_UNIDADE": unit,
                    "ORDP_QTDE": qty.to_string(), "ORDP_VLR_UNIT": price.to_string(), "ORDP_VLR_DESC": disc.to_string(),
                })))
                .await?;
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
                .map(
                    |(i, (item, _, _, qty, _, _))| erp_proto::orders::v1::StockLine {
                        product_id: item,
                        product_emp_id: emp,
                        quantity: qty.normalize().to_string(),
                        item: i as i64 + 1,
                        location_id: 0,
                    },
                )
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
