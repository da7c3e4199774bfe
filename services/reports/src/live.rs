//! The live dashboard: when facts move dashboard figures of a company, a
//! `DashboardChanged` naming the `/dasboard/{nome}` calls they moved goes to the
//! outbox in the same transaction, so it is published only once the figures are
//! there; the gateway pushes it to the open dashboards of that company. One
//! identical message still waiting to be published is enough: a batch of a
//! thousand invoices sends one, not a thousand.

use erp_platform::bus::outbox_insert;
use erp_platform::db::Tx;
use erp_platform::Result;
use erp_proto::erp::v1::DashboardChanged;
use erp_proto::subjects::PAINEL_ALTERADO;
use prost::Message as _;

/// What an invoiced order moves.
pub const SALES: &[&str] = &["vendasgrupo", "vendassubgrupo", "formaspagamentos"];
/// What a finished service order moves.
pub const SERVICE_ORDERS: &[&str] = &["vendassetor"];
/// What a receivable moves.
pub const RECEIVABLES: &[&str] = &["contasreceber"];
/// What a payable moves.
pub const PAYABLES: &[&str] = &[
    "contaspagar",
    "despesacentrocusto",
    "despesagrupocentrocusto",
];

/// Tells the open dashboards of `emp` that `widgets` moved (after commit).
pub async fn figures_moved(
    tx: &mut Tx,
    client_id: i64,
    emp_id: i64,
    widgets: &[&str],
) -> Result<()> {
    let payload = DashboardChanged {
        client_id,
        emp_id,
        widgets: widgets.iter().map(|w| w.to_string()).collect(),
    }
    .encode_to_vec();
    let waiting: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM reports.outbox
                        WHERE published_at IS NULL AND subject = $1 AND client_id = $2 AND payload = $3)",
    )
    .bind(PAINEL_ALTERADO)
    .bind(client_id)
    .bind(&payload)
    .fetch_one(&mut **tx)
    .await?;
    if !waiting {
        outbox_insert(tx, crate::SCHEMA, PAINEL_ALTERADO, client_id, &payload).await?;
    }
    Ok(())
}
