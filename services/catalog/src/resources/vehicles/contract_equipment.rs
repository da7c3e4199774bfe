//! The equipment covered by a customer contract (`contratoseqpt`), declared with the
//! equipment registers because it points at equipment, which comes after the
//! customer registers; the item's customer must be the contract's.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{company, id_param, int};
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use crate::resources::rows::children_filter;
use crate::SCHEMA;

pub(crate) fn contratoseqpt() -> Resource {
    Resource::new(
        "contratoseqpt",
        "Equipamentos do Contrato",
        SCHEMA,
        "contratoseqpt",
        "clientes",
    )
    .sample(json!({
        "CONTE_CONT_ID": 1, "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": 1, "CONTE_DESCRICAO": "Compressor da linha 1",
        "CONTE_VALOR": "150.00"
    }))
    .key(&["CONTE_ID"])
    .constraint("contratoseqpt_key", "Equipamento já incluído neste contrato.")
    .company("CONTE_EMP_ID")
    .label("CONTE_DESCRICAO")
    .order("CONTE_ID")
    .hooks(Arc::new(ContractEquipmentHooks))
    .fields(vec![
        Field::id("CONTE_ID", "Código"),
        Field::int("CONTE_EMP_ID", "Empresa"),
        Field::reference("CONTE_CONT_ID", "Contrato", "contratocliente", Kind::Combobox)
            .required()
            .list(),
        Field::reference("CONTE_CLI_ID", "Cliente", "clientes", Kind::Autocomplete)
            .required()
            .list(),
        Field::reference("CONTE_EQPT_ID", "Equipamento", "equipamento", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("CONTE_DESCRICAO", "Descrição").len(150).searchable().list(),
        Field::money("CONTE_VALOR", "Valor").max("9999999999999.99").list().width(3),
        Field::textarea("CONTE_OBS", "Observações").len(500),
    ])
    .action(
        "POST",
        "/contratoseqpt/{contract}/{emp}",
        "do_contrato",
        ActionPerm::View,
        "Equipamentos do contrato {contract} (corpo: ORDENACAO, FILTRO, LIMIT, PAGINATION)",
        Arc::new(ContractEquipment),
    )
}

/// The customer of a contract item is the contract's customer.
pub(crate) struct ContractEquipmentHooks;

#[async_trait]
impl Hooks for ContractEquipmentHooks {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let (Ok(emp), Ok(contract), Ok(customer)) = (
            int(row, "CONTE_EMP_ID"),
            int(row, "CONTE_CONT_ID"),
            int(row, "CONTE_CLI_ID"),
        ) else {
            return Ok(());
        };
        let of_contract: Option<i64> = sqlx::query_scalar(
            "SELECT cont_cli_id FROM catalog.contratocliente WHERE client_id = $1 AND cont_emp_id = $2 AND cont_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(contract)
        .fetch_optional(&mut **tx)
        .await?;
        if of_contract.is_some_and(|c| c != customer) {
            return Err(Error::validation(
                "O cliente informado não é o cliente do contrato.",
            ));
        }
        Ok(())
    }
}

/// POST /contratoseqpt/{contract}/{emp}: the equipment of a contract.
pub(crate) struct ContractEquipment;

#[async_trait]
impl ActionHandler for ContractEquipment {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let filter = children_filter(&body, "CONTE_CONT_ID", id_param(params, "contract")?);
        Ok(Value::Array(
            query::list(tx, res, caller, Some(company(emp)?), &filter).await?,
        ))
    }
}
