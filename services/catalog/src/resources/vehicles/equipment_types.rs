//! Equipment types (`tipoequipamento`), shared by the client's companies, and the
//! services done on equipment of a type (`tipoequipamentoserv`, the preventive
//! maintenance plan), addressed by the pair of type and service.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::id_param;
use erp_platform::resource::{query, ActionHandler, ActionPerm, Call, Field, Kind, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use crate::resources::rows::get_row;
use crate::SCHEMA;

pub(crate) fn tipoequipamento() -> Resource {
    Resource::new(
        "tipoequipamento",
        "Tipos de Equipamento",
        SCHEMA,
        "tipoequipamento",
        "tipoequipamento",
    )
    .screen("/tipoequipamento")
    .sample(json!({"TPEQ_DESCRICAO": "Compressor"}))
    .key(&["TPEQ_ID"])
    .constraint(
        "tipoequipamento_descricao_key",
        "Descrição já cadastrada para outro tipo de equipamento.",
    )
    .label("TPEQ_DESCRICAO")
    .order("TPEQ_ID")
    .fields(vec![
        Field::id("TPEQ_ID", "Código"),
        Field::text("TPEQ_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(8),
        Field::situation("TPEQ_SITUACAO"),
    ])
}

pub(crate) fn tipoequipamentoserv() -> Resource {
    Resource::new(
        "tipoequipamentoserv",
        "Serviços do Tipo de Equipamento",
        SCHEMA,
        "tipoequipamentoserv",
        "tipoequipamento",
    )
    .sample(json!({
        "TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 1, "TEQS_DESCRICAO": "Troca do filtro de ar", "TEQS_PERIODICIDADE_DIAS": 90
    }))
    .key(&["TEQS_ID"])
    .constraint(
        "tipoequipamentoserv_key",
        "Serviço já cadastrado para este tipo de equipamento.",
    )
    .label("TEQS_DESCRICAO")
    .order("TEQS_DESCRICAO")
    .fields(vec![
        Field::id("TEQS_ID", "Código"),
        Field::reference("TEQS_TPEQ_ID", "Tipo de Equipamento", "tipoequipamento", Kind::Combobox)
            .required()
            .list(),
        // Services are declared by another module: a plain column.
        Field::reference("TEQS_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("TEQS_DESCRICAO", "Descrição")
            .required()
            .len(150)
            .searchable()
            .list(),
        Field::int("TEQS_PERIODICIDADE_DIAS", "Periodicidade (dias)")
            .min("1")
            .list()
            .width(3),
        Field::textarea("TEQS_OBS", "Observações").len(500),
    ])
    .action(
        "GET",
        "/tipoequipamentoserv/{typeId}/{servId}",
        "consultar_par",
        ActionPerm::View,
        "Serviços do tipo de equipamento: o serviço {servId} do tipo {typeId}",
        Arc::new(TypeService { delete: false }),
    )
    .action(
        "DELETE",
        "/tipoequipamentoserv/{typeId}/{servId}",
        "excluir_par",
        ActionPerm::Delete,
        "Serviços do tipo de equipamento: retirar o serviço {servId} do tipo {typeId}",
        Arc::new(TypeService { delete: true }),
    )
}

/// GET and DELETE /tipoequipamentoserv/{typeId}/{servId}: the link of a service to an
/// equipment type, addressed by the pair instead of its own id.
pub(crate) struct TypeService {
    pub delete: bool,
}

#[async_trait]
impl ActionHandler for TypeService {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, params, .. } = call;
        let (kind, service) = (id_param(params, "typeId")?, id_param(params, "servId")?);
        let id: i64 = sqlx::query_scalar(
            "SELECT teqs_id FROM catalog.tipoequipamentoserv WHERE client_id = $1 AND teqs_tpeq_id = $2 AND teqs_serv_id = $3",
        )
        .bind(caller.client_id)
        .bind(kind)
        .bind(service)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Serviço não encontrado para o tipo de equipamento.".into()))?;
        if self.delete {
            query::delete(tx, res, caller, None, &[id.to_string()]).await?;
            Ok(json!({"code": 200, "msg": "Registro excluído com sucesso."}))
        } else {
            get_row(tx, res, caller, None, id).await
        }
    }
}
