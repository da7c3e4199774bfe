//! The customer's picture (`CLI_IMAGEM`), uploaded through the gateway.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{company, id_param};
use erp_platform::resource::{uploaded_file, ActionHandler, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use crate::resources::uploads::file_url;

/// File types of the customer's picture.
pub(crate) const IMAGE_TYPES: [&str; 3] = ["png", "jpeg", "bmp"];

/// POST /clientes/imagem/{id}/{emp} (multipart): the customer's picture. Answers the
/// previous file name in `anterior` so the caller can remove it.
pub(crate) struct CustomerImage;

#[async_trait]
impl ActionHandler for CustomerImage {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let (emp, id) = (company(emp)?, id_param(params, "id")?);
        let (name, _) = uploaded_file(&body)?;
        let previous: Option<String> = sqlx::query_scalar(
            "SELECT cli_imagem FROM catalog.clientes WHERE client_id = $1 AND cli_emp_id = $2 AND cli_id = $3 FOR UPDATE",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Cliente não encontrado.".into()))?;
        sqlx::query("UPDATE catalog.clientes SET cli_imagem = $4 WHERE client_id = $1 AND cli_emp_id = $2 AND cli_id = $3")
            .bind(caller.client_id)
            .bind(emp)
            .bind(id)
            .bind(name)
            .execute(&mut **tx)
            .await?;
        Ok(json!({"CLI_ID": id, "CLI_IMAGEM": name, "url": file_url(&body), "anterior": previous}))
    }
}
