//! Manual stock entries and exits (`saldoestoque`, screen /saldoestoque): each row
//! is a document whose movement goes through the ledger in the same transaction;
//! deleting it writes the reversing movement. Product, type, quantity and cost of a
//! posted row do not change (delete and post again). Plus `GET /produtoscustomedio/{id}/{emp}`:
//! the product's balance and average cost.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Dec, Operation};
use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Op, RecordHooks, Resource};
use erp_platform::Result;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::NoBody;
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
        .create_only(&POSTED)
        .record_hooks(Posting)
        .sample(json!({"SALD_PROD_ID": 1, "SALD_TIPO": "E", "SALD_QTDE": "10", "SALD_CUSTO_UNIT": "5.00", "SALD_DATA": "2026-11-22", "SALD_OBS": "Saldo inicial"}))
        .call(
            "GET",
            "/produtoscustomedio/{SALD_PROD_ID}/{emp}",
            "customedio",
            ActionPerm::View,
            "Saldo e custo médio do produto",
            AverageCost,
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

/// A manual entry's or exit's row as its hook reads it.
#[derive(Deserialize)]
struct PostingRow {
    #[serde(rename = "SALD_EMP_ID")]
    emp: i64,
    #[serde(rename = "SALD_ID")]
    id: i64,
    #[serde(rename = "SALD_PROD_ID")]
    product: i64,
    #[serde(rename = "SALD_TIPO")]
    kind: String,
    #[serde(rename = "SALD_QTDE")]
    qty: Dec,
    #[serde(rename = "SALD_CUSTO_UNIT")]
    unit_cost: Option<Dec>,
    #[serde(rename = "SALD_LOCA_ID")]
    location: Option<i64>,
}

/// Posts the document to the ledger (its reversal when deleted). A posted
/// document's product, type, quantity and cost are in the ledger: an edit (the
/// legacy screen sends the whole row back) changes only its date, location and
/// remarks (`POSTED` are dropped); to change the rest, delete and post again.
struct Posting;

#[async_trait]
impl RecordHooks for Posting {
    type Body = NoBody;
    type Row = PostingRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &PostingRow,
    ) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let (emp, id) = (row.emp, row.id);
        let kind = ledger::Kind::parse(&row.kind)?;
        let movement = Movement {
            emp,
            product: row.product,
            location: row.location,
            variant: None,
            kind: if op == Op::Delete {
                kind.opposite()
            } else {
                kind
            },
            qty: row.qty.get(),
            unit_cost: row.unit_cost.map(Dec::get).unwrap_or_default(),
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

/// `GET /produtoscustomedio/{SALD_PROD_ID}/{emp}`: the product.
#[derive(Deserialize, JsonSchema)]
pub struct AverageCostIn {
    #[serde(rename = "SALD_PROD_ID")]
    #[schemars(extend("x-invalid" = "Produto inválido."))]
    pub product: i64,
}

/// What `GET /produtoscustomedio` answers.
#[derive(Serialize, JsonSchema)]
pub struct AverageCostOf {
    #[serde(rename = "SALD_PROD_ID")]
    pub product: i64,
    #[serde(rename = "SALD_PROD_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "QTD_ESTOQUE")]
    pub qty: Dec,
    #[serde(rename = "SALDO_FISICO")]
    pub physical: Dec,
    #[serde(rename = "CUSTO_MEDIO")]
    pub avg_cost: Dec,
    #[serde(rename = "SALDO_FINANCEIRO")]
    pub value: Dec,
}

/// The product's balance and average cost.
struct AverageCost;

#[async_trait]
impl Operation for AverageCost {
    type In = AverageCostIn;
    type Out = AverageCostOf;
    async fn run(&self, cx: &mut Ctx<'_>, i: AverageCostIn) -> Result<AverageCostOf> {
        let emp = cx.emp()?;
        let b = ledger::balance(cx.tx, cx.client(), emp, i.product).await?;
        Ok(AverageCostOf {
            product: i.product,
            emp,
            qty: Dec(b.qty),
            physical: Dec(b.qty),
            avg_cost: Dec(b.avg_cost),
            value: Dec(b.value()),
        })
    }
}
