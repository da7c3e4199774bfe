//! The live queue: when messages of a company change status (queued, sending,
//! sent, delivered, read, failed), a `QueueChanged` for that company goes to the
//! outbox in the same transaction, so it is published only once the change is
//! there; the gateway pushes it to the company's open Mensagens screens, which
//! ask the queue again. One identical hint still waiting to be published is
//! enough: a batch of a thousand sends makes one, not a thousand.

use erp_platform::bus::outbox_insert;
use erp_platform::db::Tx;
use erp_platform::Result;
use erp_proto::messaging::v1::QueueChanged;
use erp_proto::subjects::FILA_ALTERADA;
use prost::Message as _;

/// Tells the open Mensagens screens of `emp` that its queue moved (after commit).
pub async fn queue_moved(tx: &mut Tx, client_id: i64, emp_id: i64) -> Result<()> {
    let payload = QueueChanged { client_id, emp_id }.encode_to_vec();
    let waiting: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM messaging.outbox
                        WHERE published_at IS NULL AND subject = $1 AND client_id = $2 AND payload = $3)",
    )
    .bind(FILA_ALTERADA)
    .bind(client_id)
    .bind(&payload)
    .fetch_one(&mut **tx)
    .await?;
    if !waiting {
        outbox_insert(tx, crate::SCHEMA, FILA_ALTERADA, client_id, &payload).await?;
    }
    Ok(())
}
