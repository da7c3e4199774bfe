//! What a service order does around the engine's document work: the header keeps
//! its customer's name and refuses deletion once its parts left stock, product
//! lines refuse changes once stock was written off, and child rows check
//! themselves (the engine already requires an open order).

use super::*;

const CUSTOMER: CustomerCopy = CustomerCopy {
    customer: "ORDS_CLI_ID",
    name: "ORDS_CLI_DESC",
    city: Some("ORDS_CLI_CIDADE"),
};

pub(super) struct OrderHooks;

#[async_trait]
impl Hooks for OrderHooks {
    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        CUSTOMER.prepare(tx, op, caller, emp, body).await
    }

    async fn after_write(&self, _tx: &mut Tx, op: Op, _caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete && row["ORDS_ESTOQUE_BAIXADO"].as_bool() == Some(true) {
            return Err(Error::Conflict(
                "Ordem de serviço com estoque baixado não pode ser excluída.".into(),
            ));
        }
        Ok(())
    }
}

pub(super) async fn written_off(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: &str,
    serie: &str,
) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "SELECT ords_estoque_baixado FROM orders.ordemservico
         WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3::bigint AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or(false))
}

/// A child row's own check (readings: leaving never below arriving).
pub(super) struct RowCheck(pub(super) fn(&Value) -> Result<()>);

#[async_trait]
impl Hooks for RowCheck {
    async fn after_write(&self, _tx: &mut Tx, op: Op, _caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            Ok(())
        } else {
            (self.0)(row)
        }
    }
}
