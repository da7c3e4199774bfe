//! Stock locations (`localestoque`, screen /locais): where stock is kept (own
//! warehouse, third parties, damaged goods, consignment). Per client, not per
//! company (the legacy paths carry no company). One location may be the default:
//! marking another one as default unmarks the previous one in the same write.

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Op, RecordHooks, Resource};
use erp_platform::Result;
use serde::Deserialize;
use serde_json::json;

use super::NoBody;

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
    .record_hooks(DefaultLocation)
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

/// A location's row as its hook reads it.
#[derive(Deserialize)]
pub struct LocationRow {
    #[serde(rename = "LOCA_ID")]
    id: i64,
    #[serde(rename = "LOCA_PADRAO")]
    default: Option<bool>,
}

/// Keeps a single default location per client.
struct DefaultLocation;

#[async_trait]
impl RecordHooks for DefaultLocation {
    type Body = NoBody;
    type Row = LocationRow;

    async fn after_write(
        &self,
        tx: &mut erp_platform::db::Tx,
        op: Op,
        caller: &Caller,
        row: &LocationRow,
    ) -> Result<()> {
        if op == Op::Delete || row.default != Some(true) {
            return Ok(());
        }
        // The one-default constraint is deferred to commit, so clearing the
        // previous default after this row was written is enough.
        sqlx::query("UPDATE stock.localestoque SET loca_padrao = false WHERE client_id = $1 AND loca_padrao AND loca_id <> $2")
            .bind(caller.client_id)
            .bind(row.id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}
