//! Behaviour of the identity registers around the generic writes: user passwords
//! are hashed and never read back; a user always may work in their own company;
//! whoever creates a company may work in it.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::Op;
use erp_platform::validators;
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use crate::events;

pub struct UserHooks;

#[async_trait]
impl erp_platform::resource::Hooks for UserHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let password = body
            .get("USR_SENHA")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_default();
        if password.is_empty() {
            if op == Op::Create {
                return Err(Error::validation(validators::required("Senha").to_string()));
            }
            body.remove("USR_SENHA");
        } else {
            if password.chars().count() < 6 {
                return Err(Error::validation(
                    validators::min_length("Senha", 6).to_string(),
                ));
            }
            body.insert(
                "USR_SENHA".into(),
                Value::from(crate::password::hash(password).await?),
            );
        }
        if let Some(list) = body.get("USR_EMPRESAS") {
            let ok = list
                .as_array()
                .is_some_and(|a| a.iter().all(|v| v.as_i64().is_some()));
            if !ok {
                return Err(Error::validation(
                    "Empresas Permitidas: informe uma lista de códigos de empresa.",
                ));
            }
        }
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let Some(user) = row.get("USR_ID").and_then(Value::as_i64) else {
            return Ok(());
        };
        if op != Op::Delete {
            // The user's own company is always allowed, and only companies that exist.
            sqlx::query(
                "UPDATE identity.usuarios u SET usr_empresas = (
                     SELECT coalesce(jsonb_agg(DISTINCT e.emp_id ORDER BY e.emp_id), '[]'::jsonb)
                     FROM identity.empresas e
                     WHERE e.client_id = u.client_id
                       AND (e.emp_id = u.usr_emp_id
                            OR e.emp_id IN (SELECT jsonb_array_elements_text(u.usr_empresas)::bigint)))
                 WHERE u.client_id = $1 AND u.usr_id = $2",
            )
            .bind(caller.client_id)
            .bind(user)
            .execute(&mut **tx)
            .await?;
        }
        events::user_changed(tx, caller.client_id, user).await
    }
}

pub struct CompanyHooks;

#[async_trait]
impl erp_platform::resource::Hooks for CompanyHooks {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let Some(emp) = row.get("EMP_ID").and_then(Value::as_i64) else {
            return Ok(());
        };
        if op == Op::Create && caller.user_id > 0 {
            sqlx::query(
                "UPDATE identity.usuarios SET usr_empresas = usr_empresas || to_jsonb($3::bigint)
                 WHERE client_id = $1 AND usr_id = $2 AND NOT usr_empresas @> to_jsonb($3::bigint)",
            )
            .bind(caller.client_id)
            .bind(caller.user_id)
            .bind(emp)
            .execute(&mut **tx)
            .await?;
            events::user_changed(tx, caller.client_id, caller.user_id).await?;
        }
        Ok(())
    }
}
