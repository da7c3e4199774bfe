//! What a service order does around the engine's document work: the header keeps
//! its customer's name and refuses deletion once its parts left stock, product
//! lines refuse changes once stock was written off, and child rows check
//! themselves (the engine already requires an open order).

use super::*;

customer_body!(
    OrderCustomer,
    "ORDS_CLI_ID",
    "ORDS_CLI_DESC",
    "ORDS_CLI_CIDADE"
);

/// The header's row as its hook reads it.
#[derive(Deserialize)]
pub struct OrderRow {
    #[serde(rename = "ORDS_ESTOQUE_BAIXADO")]
    written_off: Option<bool>,
}

pub(super) struct OrderHooks;

#[async_trait]
impl RecordHooks for OrderHooks {
    type Body = OrderCustomer;
    type Row = OrderRow;

    async fn prepare(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut OrderCustomer,
    ) -> Result<()> {
        copy_customer(tx, caller, emp, body).await
    }

    async fn after_write(
        &self,
        _tx: &mut Tx,
        op: Op,
        _caller: &Caller,
        row: &OrderRow,
    ) -> Result<()> {
        if op == Op::Delete && row.written_off == Some(true) {
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

/// The readings of an order, as their check reads the written row.
#[derive(Deserialize)]
pub struct Readings {
    #[serde(rename = "KM_ENTRADA")]
    km_in: Option<Dec>,
    #[serde(rename = "KM_SAIDA")]
    km_out: Option<Dec>,
    #[serde(rename = "HORIMETRO_ENTRADA")]
    hours_in: Option<Dec>,
    #[serde(rename = "HORIMETRO_SAIDA")]
    hours_out: Option<Dec>,
}

impl Readings {
    /// Leaving never below arriving, on the odometer and on the hour meter.
    fn check(&self) -> Result<()> {
        for (arrived, left, what) in [
            (
                self.km_in,
                self.km_out,
                "A quilometragem de saída não pode ser menor que a de entrada.",
            ),
            (
                self.hours_in,
                self.hours_out,
                "O horímetro de saída não pode ser menor que o de entrada.",
            ),
        ] {
            if let (Some(x), Some(y)) = (arrived, left) {
                if y < x {
                    return Err(Error::validation(what));
                }
            }
        }
        Ok(())
    }
}

/// The readings' own check.
pub(super) struct ReadingsCheck;

#[async_trait]
impl RecordHooks for ReadingsCheck {
    type Body = NoBody;
    type Row = Readings;

    async fn after_write(
        &self,
        _tx: &mut Tx,
        op: Op,
        _caller: &Caller,
        row: &Readings,
    ) -> Result<()> {
        if op == Op::Delete {
            Ok(())
        } else {
            row.check()
        }
    }
}
