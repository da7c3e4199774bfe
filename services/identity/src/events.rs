//! Facts identity publishes (through the outbox). The gateway consumes
//! `erp.identity.>` to evict the principals it caches.

use erp_platform::db::Tx;
use erp_platform::Result;
use prost::Message;

pub const USER_CHANGED: &str = "erp.identity.permissao.alterada";

/// A user's companies or permissions changed.
pub async fn user_changed(tx: &mut Tx, client_id: i64, user_id: i64) -> Result<()> {
    let ev = erp_proto::identity::v1::UserChanged { client_id, user_id };
    erp_platform::bus::outbox_insert(
        tx,
        crate::SCHEMA,
        USER_CHANGED,
        client_id,
        &ev.encode_to_vec(),
    )
    .await?;
    Ok(())
}
