//! Stock locations (`localestoque`, screen /locais): where stock is kept (own
//! warehouse, third parties, damaged goods, consignment). Per client, not per
//! company (the legacy paths carry no company). One location may be the default:
//! marking another one as default unmarks the previous one in the same write.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Hooks, Op, Resource};
use erp_platform::Result;
use serde_json::{json, Value};

const SCHEMA: &str = crate::SCHEMA;

pub const LOCATION_TYPES: [(&str, &str); 4] = [
    ("P", "Próprio"),
    ("T", "Em Poder de Terceiros"),
    ("D", "Avariados / Defeituosos"),
    ("A", "Consignado"),
];

pub fn all() -> Vec<Resource> {
    vec![localestoque()]
}

pub fn localestoque() -> Resource {
    Resource::new(
        "localestoque",
        "Locais de Estoque",
        SCHEMA,
        "localestoque",
        "locais",
    )
    .screen("/locais")
    .key(&["LOCA_ID"])
    .label("LOCA_DESCRICAO")
    .order("LOCA_DESCRICAO")
    .events("localestoque")
    .hooks(Arc::new(DefaultLocation))
    .sample(json!({"LOCA_DESCRICAO": "DEPÓSITO CENTRAL", "LOCA_TIPO": "P", "LOCA_PADRAO": true}))
    .fields(vec![
        Field::id("LOCA_ID", "Código"),
        Field::text("LOCA_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::options("LOCA_TIPO", "Tipo", DbType::Text, &LOCATION_TYPES)
            .required()
            .default("P".into())
            .list()
            .width(3),
        Field::boolean("LOCA_PADRAO", "Local Padrão")
            .default(false.into())
            .list()
            .width(3),
        Field::boolean("LOCA_VENDA", "Disponível para Venda")
            .default(true.into())
            .width(3),
        Field::situation("LOCA_SITUACAO"),
        Field::textarea("LOCA_OBS", "Observação").len(500),
        Field::timestamp("LOCA_DTA_CAD", "Data de Cadastro"),
    ])
}

fn is_true(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_i64().is_some_and(|n| n != 0),
        Some(Value::String(s)) => matches!(
            s.trim().to_ascii_uppercase().as_str(),
            "1" | "S" | "SIM" | "TRUE" | "T"
        ),
        _ => false,
    }
}

/// Keeps a single default location per client.
struct DefaultLocation;

#[async_trait]
impl Hooks for DefaultLocation {
    async fn after_write(
        &self,
        tx: &mut erp_platform::db::Tx,
        op: Op,
        caller: &Caller,
        row: &Value,
    ) -> Result<()> {
        if op == Op::Delete || !is_true(row.get("LOCA_PADRAO")) {
            return Ok(());
        }
        let Some(id) = row.get("LOCA_ID").and_then(Value::as_i64) else {
            return Ok(());
        };
        // The one-default constraint is deferred to commit, so clearing the
        // previous default after this row was written is enough.
        sqlx::query("UPDATE stock.localestoque SET loca_padrao = false WHERE client_id = $1 AND loca_padrao AND loca_id <> $2")
            .bind(caller.client_id)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}
