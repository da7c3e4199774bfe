//! Raw material (`materiaprima`, the bill of materials of a product) and the list of
//! one product's components.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, id_param};
use erp_platform::resource::{query, ActionHandler, ActionPerm, Call, Field, Kind, Resource};
use erp_platform::Result;
use serde_json::{json, Value};

use super::path_company::path_company;
use super::settings::QTY_SCALE;
use crate::SCHEMA;

/// Raw material (bill of materials): the components one unit of the product
/// consumes.
pub fn materiaprima() -> Resource {
    Resource::new(
        "materiaprima",
        "Matéria-Prima",
        SCHEMA,
        "materiaprima",
        "produtos",
    )
    .sample(json!({"MATP_PROD_ID": 1, "MATP_COMP_ID": 1, "MATP_QTDE": "2.5", "MATP_PERDA": "1.5"}))
    .key(&["MATP_ID"])
    .company("MATP_EMP_ID")
    .label("MATP_DESCRICAO")
    .order("MATP_ID")
    .fields(vec![
        Field::id("MATP_ID", "Código"),
        Field::int("MATP_EMP_ID", "Empresa"),
        Field::reference("MATP_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
        Field::reference("MATP_COMP_ID", "Componente", "produtos", Kind::Autocomplete)
            .required()
            .width(6),
        // The component's description, kept by a trigger for lists and searches.
        Field::text("MATP_DESCRICAO", "Descrição do Componente")
            .read_only()
            .searchable()
            .list(),
        Field::decimal("MATP_QTDE", "Quantidade")
            .required()
            .scale(QTY_SCALE)
            .min("0.0001")
            .list()
            .width(3),
        Field::decimal("MATP_PERDA", "Perda (%)")
            .scale(4)
            .min("0")
            .max("100")
            .list()
            .width(3),
        Field::textarea("MATP_OBS", "Observação").len(500),
    ])
    .action(
        "POST",
        "/materiaprima/{prod}/{emp}",
        "do_produto",
        ActionPerm::View,
        "Matéria-prima: listar a de um produto",
        Arc::new(RawMaterialOf),
    )
}

/// POST /materiaprima/{prod}/{emp}: the raw material of one product, with the
/// list body's ordering and paging.
pub struct RawMaterialOf;

#[async_trait]
impl ActionHandler for RawMaterialOf {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let emp = path_company(params, emp)?;
        let prod = id_param(params, "prod")?;
        let mut filter = body_map(body);
        filter.insert("MATP_PROD_ID".into(), Value::from(prod));
        Ok(Value::Array(
            query::list(tx, res, caller, Some(emp), &filter).await?,
        ))
    }
}
