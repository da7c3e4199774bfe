//! What orders keeps of catalog's rows, from catalog's `RecordChanged` events: a
//! customer's name and city (documents copy them while open), a product's
//! description, unit and price, a service's description and price. A deletion marks
//! the copy; issued documents keep what they copied. The copies are also the
//! documents' item source (`CatalogItems`) and where a document finds its
//! customer's name (`customer`).

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::resource::document::{ItemInfo, ItemSource, LineKind};
use erp_platform::{Error, Result};
use erp_proto::erp::v1::RecordChanged;
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::Value;

fn decode(msg: &Message) -> Result<(RecordChanged, Value)> {
    let ev = RecordChanged::decode(msg.payload.as_ref())
        .map_err(|e| Error::validation(format!("evento inválido: {e}")))?;
    let row: Value = serde_json::from_slice(&ev.row_json)
        .map_err(|e| Error::validation(format!("evento inválido: {e}")))?;
    Ok((ev, row))
}

fn id(row: &Value, k: &str) -> Result<i64> {
    match &row[k] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
    .ok_or_else(|| Error::validation(format!("evento sem {k}")))
}

fn text(row: &Value, k: &str) -> Option<String> {
    row[k]
        .as_str()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn money(row: &Value, k: &str) -> Option<Decimal> {
    match &row[k] {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

pub struct Customers;

#[async_trait]
impl Effect for Customers {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.clientes (client_id, emp_id, cli_id, descricao, cidade, uf, excluido)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, cidade = EXCLUDED.cidade, uf = EXCLUDED.uf, excluido = EXCLUDED.excluido",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "CLI_ID")?)
        .bind(text(&row, "CLI_DESCRICAO").unwrap_or_default())
        .bind(text(&row, "CLI_CIDADE"))
        .bind(text(&row, "CLI_UF"))
        .bind(ev.op == "excluido")
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct Products;

#[async_trait]
impl Effect for Products {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.produtos (client_id, emp_id, prod_id, descricao, unidade, valor, custo, excluido)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (client_id, emp_id, prod_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, unidade = EXCLUDED.unidade, valor = EXCLUDED.valor,
                 custo = EXCLUDED.custo, excluido = EXCLUDED.excluido",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "PROD_ID")?)
        .bind(text(&row, "PROD_DESCRICAO").unwrap_or_default())
        .bind(text(&row, "UNID_ABREVIADA"))
        .bind(money(&row, "PROD_VALOR"))
        .bind(money(&row, "PROD_CUSTO"))
        .bind(ev.op == "excluido")
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct Services;

#[async_trait]
impl Effect for Services {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.servicos (client_id, emp_id, serv_id, descricao, valor, excluido)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (client_id, emp_id, serv_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, valor = EXCLUDED.valor, excluido = EXCLUDED.excluido",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "SERV_ID")?)
        .bind(text(&row, "SERV_DESCRICAO").unwrap_or_default())
        .bind(money(&row, "SERV_VLR_BASE"))
        .bind(ev.op == "excluido")
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// Orders' copy of the catalog as the documents' item source: a line left without
/// description, unit or price takes them from here.
pub struct CatalogItems;

#[async_trait]
impl ItemSource for CatalogItems {
    async fn item(
        &self,
        tx: &mut Tx,
        kind: LineKind,
        client: i64,
        emp: i64,
        id: i64,
    ) -> Result<Option<ItemInfo>> {
        let sql = match kind {
            LineKind::Product => {
                "SELECT btrim(descricao), unidade, valor FROM orders.produtos
                 WHERE client_id = $1 AND emp_id = $2 AND prod_id = $3 AND NOT excluido"
            }
            LineKind::Service => {
                "SELECT btrim(descricao), NULL::text, valor FROM orders.servicos
                 WHERE client_id = $1 AND emp_id = $2 AND serv_id = $3 AND NOT excluido"
            }
        };
        let row: Option<(String, Option<String>, Option<Decimal>)> = sqlx::query_as(sql)
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
        Ok(row.map(|(description, unit_name, price)| ItemInfo {
            description,
            unit_name,
            price,
        }))
    }
}

/// A customer's current name and city from orders' copy (trimmed).
pub async fn customer(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Option<(String, Option<String>)>> {
    Ok(sqlx::query_as(
        "SELECT btrim(descricao), nullif(btrim(coalesce(cidade, '')), '') FROM orders.clientes
         WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?)
}
