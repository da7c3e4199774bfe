//! The product's image (`PROD_IMAGEM`): upload and removal by file name.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{id_param, param};
use erp_platform::resource::{query, uploaded_file, ActionHandler, Resource};
use erp_platform::{Error, Result};
use serde_json::Value;

use super::path_company::path_company;

/// Types a product image may have (the insert-images upload type, spec §5).
pub const IMAGE_TYPES: &[&str] = &["png", "jpeg", "bmp"];

/// POST /produtos/imagem/{id}/{emp}: the gateway stored the file; the product
/// keeps its storage name. The answer names the file it replaced (`anterior`) so
/// the caller can remove it.
pub struct ImageUpload;

#[async_trait]
impl ActionHandler for ImageUpload {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let prod = id_param(params, "id")?;
        let (name, _) = uploaded_file(&body)?;
        let previous: Option<Option<String>> = sqlx::query_scalar(
            "UPDATE catalog.produtos p SET prod_imagem = $4
               FROM (SELECT prod_imagem FROM catalog.produtos
                      WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3 FOR UPDATE) old
              WHERE p.client_id = $1 AND p.prod_emp_id = $2 AND p.prod_id = $3
             RETURNING old.prod_imagem",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(prod)
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?;
        let previous = previous.ok_or_else(Error::not_found)?;
        let mut row = query::get(tx, res, caller, Some(emp), &[prod.to_string()]).await?;
        if let Value::Object(m) = &mut row {
            m.insert(
                "anterior".into(),
                previous.map(Value::from).unwrap_or(Value::Null),
            );
        }
        Ok(row)
    }
}

/// DELETE /produtos/imagem/{id}/{emp}/{name}: forgets the product's image when it
/// is the one named (a stale screen must not remove a newer image).
pub struct ImageDelete;

#[async_trait]
impl ActionHandler for ImageDelete {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let prod = id_param(params, "id")?;
        let name = param(params, "name")?;
        let done = sqlx::query(
            "UPDATE catalog.produtos SET prod_imagem = NULL
              WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3 AND prod_imagem = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(prod)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(Error::NotFound("Imagem não encontrada.".into()));
        }
        query::get(tx, res, caller, Some(emp), &[prod.to_string()]).await
    }
}
