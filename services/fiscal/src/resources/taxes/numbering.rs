//! Document numbering (`numeracao`, screen /numeracoes): the next number per model
//! and series of each company, one row per model and series; a numbering gets a
//! description from its model and series.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Hooks, Op, Resource};
use erp_platform::Result;
use serde_json::{json, Map, Value};

use super::body::{blank, text};
use super::codes::{model_name, DOCUMENT_MODELS, ENVIRONMENTS};

const SCHEMA: &str = crate::SCHEMA;

pub fn numeracao() -> Resource {
    Resource::new(
        "numeracao",
        "Numeração de Documentos",
        SCHEMA,
        "numeracao",
        "numeracoes",
    )
    .screen("/numeracoes")
    .key(&["NUM_ID"])
    .constraint(
        "numeracao_modelo_serie_key",
        "Série já cadastrada para este modelo de documento.",
    )
    .company("NUM_EMP_ID")
    .label("NUM_DESCRICAO")
    .order("NUM_MODELO, NUM_SERIE")
    .hooks(Arc::new(NumberingHooks))
    .sample(json!({"NUM_MODELO": "55", "NUM_SERIE": 1, "NUM_PROXIMO": 1, "NUM_AMBIENTE": 2}))
    .fields(vec![
        Field::id("NUM_ID", "Código"),
        Field::int("NUM_EMP_ID", "Empresa"),
        Field::text("NUM_DESCRICAO", "Descrição")
            .len(60)
            .searchable()
            .list()
            .width(6),
        Field::options("NUM_MODELO", "Modelo", DbType::Text, &DOCUMENT_MODELS)
            .required()
            .list()
            .width(6),
        Field::int("NUM_SERIE", "Série")
            .required()
            .min("0")
            .max("999")
            .list()
            .width(2),
        Field::int("NUM_PROXIMO", "Próximo Número")
            .required()
            .min("1")
            .max("999999999")
            .default(1.into())
            .list()
            .width(3),
        Field::options("NUM_AMBIENTE", "Ambiente", DbType::Int, &ENVIRONMENTS)
            .required()
            .default(2.into())
            .list()
            .width(3),
        Field::situation("NUM_SITUACAO"),
    ])
}

pub struct NumberingHooks;

#[async_trait]
impl Hooks for NumberingHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if !blank(body, "NUM_DESCRICAO") {
            return Ok(());
        }
        if op == Op::Create {
            let model = text(body, "NUM_MODELO").unwrap_or_default();
            if let (Some(name), Some(serie)) = (model_name(&model), text(body, "NUM_SERIE")) {
                body.insert(
                    "NUM_DESCRICAO".into(),
                    Value::from(format!("{name} série {serie}")),
                );
            }
        } else {
            // A description cleared on an edit form keeps the stored one.
            body.remove("NUM_DESCRICAO");
        }
        Ok(())
    }
}
