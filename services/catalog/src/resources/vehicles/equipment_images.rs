//! Pictures of a piece of equipment (`equipamentosimg`), up to the gallery limit,
//! with their upload and their removal by file name.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{company, id_param, int, param};
use erp_platform::resource::{
    query, uploaded_file, ActionHandler, ActionPerm, Call, Field, Kind, Resource, Role,
};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use crate::resources::checks::{text_of, Checks};
use crate::resources::rows::get_row;
use crate::resources::uploads::file_url;
use crate::SCHEMA;

/// Allowed types of equipment pictures (the spec's insert-images type).
const IMAGES: [&str; 3] = ["png", "jpeg", "bmp"];

/// Gallery limit of the spec (§9): the image field hides its add control at 12.
const MAX_IMAGES: i64 = 12;

pub(crate) fn equipamentosimg() -> Resource {
    Resource::new(
        "equipamentosimg",
        "Imagens do Equipamento",
        SCHEMA,
        "equipamentosimg",
        "equipamento",
    )
    .sample(json!({"EQIM_EQPT_ID": 1, "EQIM_DESCRICAO": "Placa de identificação"}))
    .key(&["EQIM_ID"])
    .company("EQIM_EMP_ID")
    .label("EQIM_DESCRICAO")
    .order("EQIM_ID")
    .hooks(Arc::new(Checks {
        ..Checks::default()
    }))
    .fields(vec![
        Field::id("EQIM_ID", "Código"),
        Field::int("EQIM_EMP_ID", "Empresa"),
        Field::reference("EQIM_EQPT_ID", "Equipamento", "equipamento", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("EQIM_DESCRICAO", "Descrição").required().len(150).searchable().list(),
        Field::upload("EQIM_IMAGEM", "Imagem", &IMAGES).list(),
        Field::int("EQIM_USR_ID", "Usuário").role(Role::CreatedBy),
        Field::timestamp("EQIM_DTA_CAD", "Data"),
    ])
    .upload_action(
        "POST",
        "/equipamentosimg/{id}/{emp}",
        "enviar",
        &IMAGES,
        "Imagens do equipamento {id}: enviar (EQIM_ID opcional troca a imagem de uma linha; EQIM_DESCRICAO opcional)",
        Arc::new(EquipmentImageUpload),
    )
    .action(
        "DELETE",
        "/equipamentosimg/{id}/{emp}/{nome}",
        "excluir_arquivo",
        ActionPerm::Delete,
        "Imagens do equipamento {id}: excluir pelo nome do arquivo",
        Arc::new(EquipmentImageDelete),
    )
}

/// POST /equipamentosimg/{id}/{emp} (multipart): a picture of equipment {id}. With
/// `EQIM_ID` it replaces the picture of that row (answering the previous file in
/// `anterior`), otherwise it adds a row, up to the gallery limit.
pub(crate) struct EquipmentImageUpload;

#[async_trait]
impl ActionHandler for EquipmentImageUpload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let (emp, equipment) = (company(emp)?, id_param(params, "id")?);
        let (name, original) = uploaded_file(&body)?;
        let empty = Map::new();
        let form = body.as_object().unwrap_or(&empty);
        let (id, previous) = match int(&body, "EQIM_ID").ok() {
            Some(id) => {
                let row = get_row(tx, res, caller, Some(emp), id).await?;
                if int(&row, "EQIM_EQPT_ID").ok() != Some(equipment) {
                    return Err(Error::not_found());
                }
                (id, row.get("EQIM_IMAGEM").cloned().unwrap_or(Value::Null))
            }
            None => {
                let count: i64 = sqlx::query_scalar(
                    "SELECT count(*) FROM catalog.equipamentosimg \
                     WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_eqpt_id = $3 AND eqim_imagem IS NOT NULL",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(equipment)
                .fetch_one(&mut **tx)
                .await?;
                if count >= MAX_IMAGES {
                    return Err(Error::validation(format!(
                        "O equipamento já tem {MAX_IMAGES} imagens; exclua uma antes de enviar outra."
                    )));
                }
                let description = text_of(form, "EQIM_DESCRICAO").or(original).unwrap_or(name);
                let mut new = Map::new();
                new.insert("EQIM_EQPT_ID".into(), Value::from(equipment));
                new.insert(
                    "EQIM_DESCRICAO".into(),
                    Value::from(description.chars().take(150).collect::<String>()),
                );
                let row = query::create(tx, res, caller, Some(emp), &new).await?;
                let id = int(&row, "EQIM_ID")?;
                (id, Value::Null)
            }
        };
        sqlx::query(
            "UPDATE catalog.equipamentosimg SET eqim_imagem = $4 WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        let mut row = get_row(tx, res, caller, Some(emp), id).await?;
        if let Value::Object(m) = &mut row {
            m.insert("url".into(), file_url(&body));
            m.insert("anterior".into(), previous);
        }
        Ok(row)
    }
}

/// DELETE /equipamentosimg/{id}/{emp}/{nome}: removes the picture named {nome} of
/// equipment {id}; answers the file name so the caller can remove the file.
pub(crate) struct EquipmentImageDelete;

#[async_trait]
impl ActionHandler for EquipmentImageDelete {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let (emp, equipment) = (company(emp)?, id_param(params, "id")?);
        let name = param(params, "nome")?;
        let id: i64 = sqlx::query_scalar(
            "SELECT eqim_id FROM catalog.equipamentosimg \
             WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_eqpt_id = $3 AND eqim_imagem = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(equipment)
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Imagem não encontrada.".into()))?;
        query::delete(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        Ok(json!({"code": 200, "msg": "Registro excluído com sucesso.", "arquivo": name}))
    }
}
