//! Manual stock entries and exits (`saldoestoque`, screen /saldoestoque): each row
//! is a document whose movement goes through the ledger in the same transaction;
//! deleting it writes the reversing movement. Product, type, quantity and cost of a
//! posted row do not change (delete and post again). Plus `GET /produtoscustomedio/{id}/{emp}`:
//! the product's balance and average cost.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{
    ActionHandler, ActionPerm, Call, DbType, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use crate::ledger::{self, Movement};

pub fn all() -> Vec<Resource> {
    vec![saldoestoque()]
}

const POSTED: [&str; 4] = ["SALD_TIPO", "SALD_QTDE", "SALD_CUSTO_UNIT", "SALD_PROD_ID"];

fn saldoestoque() -> Resource {
    Resource::new("saldoestoque", "Entradas e Saídas de Estoque", crate::SCHEMA, "saldoestoque", "saldoestoque")
        .screen("/saldoestoque")
        .key(&["SALD_ID"])
        .company("SALD_EMP_ID")
        .label("SALD_OBS")
        .order("SALD_DATA DESC, SALD_ID DESC")
        .hooks(Arc::new(Posting))
        .sample(json!({"SALD_PROD_ID": 1, "SALD_TIPO": "E", "SALD_QTDE": "10", "SALD_CUSTO_UNIT": "5.00", "SALD_DATA": "2026-11-22", "SALD_OBS": "Saldo inicial"}))
        .action(
            "GET",
            "/produtoscustomedio/{SALD_PROD_ID}/{emp}",
            "customedio",
            ActionPerm::View,
            "Saldo e custo médio do produto",
            Arc::new(AverageCost),
        )
        .fields(vec![
            Field::id("SALD_ID", "Código"),
            Field::int("SALD_EMP_ID", "Empresa"),
            Field::reference("SALD_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required().list().width(6),
            Field::int("SALD_PROD_EMP_ID", "Empresa do Produto").read_only(),
            Field::options("SALD_TIPO", "Tipo", DbType::Text, &[("E", "Entrada"), ("S", "Saída")])
                .required()
                .list()
                .width(3)
                .default(json!("E")),
            Field::decimal("SALD_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(3),
            Field::money("SALD_CUSTO_UNIT", "Custo Unitário").scale(4).list().width(3),
            Field::reference("SALD_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(3),
            Field::date("SALD_DATA", "Data").required().list(),
            Field::textarea("SALD_OBS", "Observação").len(500).searchable().list(),
            Field::int("SALD_USR_ID", "Usuário").read_only(),
        ])
}

fn decimal(row: &Value, key: &str) -> Result<Decimal> {
    let v = &row[key];
    let s = v
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| v.to_string());
    Decimal::from_str(&s).map_err(|_| Error::internal(format!("{key} is not a decimal")))
}

fn int(row: &Value, key: &str) -> Result<i64> {
    row[key]
        .as_i64()
        .ok_or_else(|| Error::internal(format!("{key} is not an integer")))
}

struct Posting;

#[async_trait]
impl Hooks for Posting {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if op == Op::Update {
            // A posted document's product, type, quantity and cost are in the ledger:
            // an edit (the legacy screen sends the whole row back) changes only its
            // date, location and remarks; to change the rest, delete and post again.
            body.retain(|k, _| !POSTED.contains(&k.as_str()));
        }
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let emp = int(row, "SALD_EMP_ID")?;
        let id = int(row, "SALD_ID")?;
        let kind = ledger::Kind::parse(row["SALD_TIPO"].as_str().unwrap_or_default())?;
        let qty = decimal(row, "SALD_QTDE")?;
        let unit = if row["SALD_CUSTO_UNIT"].is_null() {
            Decimal::ZERO
        } else {
            decimal(row, "SALD_CUSTO_UNIT")?
        };
        let movement = Movement {
            emp,
            product: int(row, "SALD_PROD_ID")?,
            location: row["SALD_LOCA_ID"].as_i64(),
            kind: if op == Op::Delete {
                kind.opposite()
            } else {
                kind
            },
            qty,
            unit_cost: unit,
            origin: "SALDOESTOQUE",
            origin_id: id.to_string(),
            value: None,
            reversal: op == Op::Delete,
            allow_negative: false,
        };
        let (_, cost) = ledger::record(tx, caller.client_id, &movement).await?;
        if op == Op::Create {
            // An exit leaves at the average cost; the document shows what it took.
            sqlx::query(
                "UPDATE stock.saldoestoque SET sald_custo_unit = $4, sald_usr_id = $5, sald_prod_emp_id = $2
                 WHERE client_id = $1 AND sald_emp_id = $2 AND sald_id = $3",
            )
            .bind(caller.client_id)
            .bind(emp)
            .bind(id)
            .bind(cost)
            .bind(caller.user_id)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }
}

struct AverageCost;

#[async_trait]
impl ActionHandler for AverageCost {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = emp.ok_or_else(|| Error::validation("emp_id não informado."))?;
        let product: i64 = params
            .get("SALD_PROD_ID")
            .and_then(|p| p.trim().parse().ok())
            .ok_or_else(|| Error::validation("Produto inválido."))?;
        let b = ledger::balance(tx, caller.client_id, emp, product).await?;
        Ok(json!({
            "SALD_PROD_ID": product,
            "SALD_PROD_EMP_ID": emp,
            "QTD_ESTOQUE": b.qty,
            "SALDO_FISICO": b.qty,
            "CUSTO_MEDIO": b.avg_cost,
            "SALDO_FINANCEIRO": b.value(),
        }))
    }
}
