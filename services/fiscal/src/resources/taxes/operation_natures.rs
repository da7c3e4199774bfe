//! Operation natures (`natureza`, screen /naturezasoperacao): CFOPs inside the
//! state, to other states and abroad, entry or exit, NF-e purpose, whether the
//! operation moves stock and creates receivables/payables. Each CFOP must fit the
//! operation: an exit inside the state is 5xxx, to another state 6xxx, abroad
//! 7xxx; entries 1, 2, 3.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Hooks, Kind, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::body::text;
use super::cfop::{cfop, normalise_cfop};
use super::codes::{OPERATION_TYPES, PURPOSES};

const SCHEMA: &str = crate::SCHEMA;

pub fn natureza() -> Resource {
    Resource::new(
        "natureza",
        "Naturezas de Operação",
        SCHEMA,
        "natureza",
        "naturezasoperacao",
    )
    .screen("/naturezasoperacao")
    .key(&["NATO_ID"])
    .company("NATO_EMP_ID")
    .label("NATO_DESCRICAO")
    .order("NATO_DESCRICAO")
    .hooks(Arc::new(NatureHooks))
    .sample(json!({
        "NATO_DESCRICAO": "VENDA DE MERCADORIA", "NATO_TIPO": "S", "NATO_FINALIDADE": 1,
        "NATO_CFOP_ESTADUAL": "5.102", "NATO_CFOP_INTERESTADUAL": "6102", "NATO_CFOP_EXTERIOR": "7102",
        "NATO_TICM_ID": 1
    }))
    .fields(vec![
        Field::id("NATO_ID", "Código"),
        Field::int("NATO_EMP_ID", "Empresa"),
        Field::text("NATO_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(6),
        Field::options("NATO_TIPO", "Tipo", DbType::Text, &OPERATION_TYPES)
            .required()
            .list()
            .width(3),
        Field::options("NATO_FINALIDADE", "Finalidade", DbType::Int, &PURPOSES)
            .required()
            .default(1.into())
            .width(3),
        cfop("NATO_CFOP_ESTADUAL", "CFOP Dentro do Estado").list(),
        cfop("NATO_CFOP_INTERESTADUAL", "CFOP Fora do Estado").list(),
        cfop("NATO_CFOP_EXTERIOR", "CFOP Exterior"),
        Field::reference("NATO_TICM_ID", "Tributação ICMS", "tributacao", Kind::Combobox).width(6),
        Field::boolean("NATO_MOVIMENTA_ESTOQUE", "Movimenta Estoque")
            .default(true.into())
            .width(3),
        Field::boolean("NATO_GERA_FINANCEIRO", "Gera Financeiro")
            .default(true.into())
            .width(3),
        Field::boolean("NATO_CONSUMIDOR_FINAL", "Consumidor Final")
            .default(false.into())
            .width(3),
        Field::situation("NATO_SITUACAO"),
        Field::textarea("NATO_OBS", "Observação para a Nota").len(1000),
    ])
}

pub struct NatureHooks;

#[async_trait]
impl Hooks for NatureHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let kind = text(body, "NATO_TIPO").map(|s| s.to_ascii_uppercase());
        for (field, label, offset) in [
            ("NATO_CFOP_ESTADUAL", "CFOP Dentro do Estado", 0u8),
            ("NATO_CFOP_INTERESTADUAL", "CFOP Fora do Estado", 1),
            ("NATO_CFOP_EXTERIOR", "CFOP Exterior", 2),
        ] {
            let Some(cfop) = normalise_cfop(body, field, label)? else {
                continue;
            };
            let base = match kind.as_deref() {
                Some("E") => b'1',
                Some("S") => b'5',
                _ => continue,
            };
            let expected = base + offset;
            if cfop.as_bytes()[0] != expected {
                let op = if base == b'1' { "Entrada" } else { "Saída" };
                return Err(Error::validation(format!(
                    "{label}: para {op} o CFOP deve começar com {}.",
                    char::from(expected)
                )));
            }
        }
        Ok(())
    }
}
