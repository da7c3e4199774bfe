//! What a service order does around the generic writes: the header refuses changes
//! once closed, product lines once stock was written off, and child rows (sectors,
//! readings, mechanics, prescriptions, images) need an open order.

use super::*;

/// The header's hooks plus the user who opened the order and the refusal to delete
/// an order whose parts already left stock.
pub(super) struct OrderHooks;

#[async_trait]
impl Hooks for OrderHooks {
    async fn before_write(
        &self,
        op: Op,
        caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        body.remove("ORDS_ESTOQUE_BAIXADO");
        HeaderHooks(&ORDER).before_write(op, caller, body).await
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete && row["ORDS_ESTOQUE_BAIXADO"].as_bool() == Some(true) {
            return Err(Error::Conflict(
                "Ordem de serviço com estoque baixado não pode ser excluída.".into(),
            ));
        }
        HeaderHooks(&ORDER).after_write(tx, op, caller, row).await?;
        if op == Op::Create {
            sqlx::query(
                "UPDATE orders.ordemservico SET ords_usr_id = $5
                 WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
            )
            .bind(caller.client_id)
            .bind(docs::int(row, "ORDS_EMP_ID")?)
            .bind(docs::int(row, "ORDS_ID")?)
            .bind(docs::text(row, "ORDS_SERIE"))
            .bind(caller.user_id)
            .execute(&mut **tx)
            .await?;
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

/// Product lines: no change once the parts left stock; otherwise as any line.
pub(super) struct ProductLineHooks(pub(super) LineHooks);

#[async_trait]
impl Hooks for ProductLineHooks {
    async fn before_write(
        &self,
        op: Op,
        caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        self.0.before_write(op, caller, body).await
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = docs::int(row, "ORDP_ORDS_EMP_ID")?;
        let (id, serie) = (
            docs::text(row, "ORDP_ORDS_ID"),
            docs::text(row, "ORDP_SERIE"),
        );
        if written_off(tx, caller.client_id, emp, &id, &serie).await? {
            return Err(Error::Conflict(PARTS_LOCKED.into()));
        }
        self.0.after_write(tx, op, caller, row).await
    }
}

/// The order's other rows (sectors, readings, mechanics, prescriptions, images):
/// the order must be open; `check` validates the row itself.
pub(super) struct ChildHooks {
    pub(super) order: &'static str,
    pub(super) serie: &'static str,
    pub(super) company: &'static str,
    pub(super) check: Option<fn(&Value) -> Result<()>>,
}

#[async_trait]
impl Hooks for ChildHooks {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = docs::int(row, self.company)?;
        let key = [docs::text(row, self.order), docs::text(row, self.serie)];
        ensure_open(tx, caller, emp, &key).await?;
        if op != Op::Delete {
            if let Some(check) = self.check {
                check(row)?;
            }
        }
        Ok(())
    }
}

/// The order exists (else "não encontrada") and is open.
pub(super) async fn ensure_open(
    tx: &mut Tx,
    caller: &Caller,
    emp: i64,
    key: &[String],
) -> Result<()> {
    let status = lock(tx, caller, emp, key).await?;
    if ORDER.open.contains(&status.as_str()) {
        Ok(())
    } else {
        Err(Error::Conflict(ORDER.issued_msg.into()))
    }
}

/// The order's situation, locked for the transaction.
pub(super) async fn lock(tx: &mut Tx, caller: &Caller, emp: i64, key: &[String]) -> Result<String> {
    docs::lock_status(tx, &ORDER, caller.client_id, emp, key)
        .await
        .map_err(|e| match e {
            Error::Validation(_) => Error::NotFound(NOT_FOUND.into()),
            other => other,
        })
}
