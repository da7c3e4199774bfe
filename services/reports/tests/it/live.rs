//! The live dashboard: the facts that move its figures leave one
//! `DashboardChanged` in the outbox, published after commit.

use erp_platform::db::Db;
use erp_proto::erp::v1::DashboardChanged;
use prost::Message as _;

use crate::{line, sale, CTX};

/// The changes waiting in the outbox for client `c`.
async fn waiting(db: &Db, c: i64) -> Vec<DashboardChanged> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM reports.outbox WHERE client_id = $1 AND subject = $2 AND published_at IS NULL ORDER BY created_at",
    )
    .bind(c)
    .bind(erp_proto::subjects::PAINEL_ALTERADO)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    tx.commit().await.expect("commit");
    rows.iter()
        .map(|p| DashboardChanged::decode(p.as_slice()).expect("payload"))
        .collect()
}

/// What the relay does once the bus has them.
async fn publish(db: &Db, c: i64) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE reports.outbox SET published_at = now() WHERE client_id = $1")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("published");
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn invoices_tell_the_open_dashboards_once_per_publication() {
    let db = CTX.db().await;
    let c = CTX.client();
    for (n, pedido) in [(1, 501), (2, 502)] {
        assert!(
            sale(
                &db,
                c,
                &format!("live-{c}-{n}"),
                pedido,
                7,
                "2026-11-02",
                4,
                vec![line("P", 1, 1, "2", "35", "70.00")]
            )
            .await
        );
    }
    let got = waiting(&db, c).await;
    assert_eq!(got.len(), 1, "two invoices, one change waiting: {got:?}");
    assert_eq!((got[0].client_id, got[0].emp_id), (c, 1));
    assert_eq!(got[0].widgets, erp_reports::live::SALES);

    // Once published, the next invoice tells them again.
    publish(&db, c).await;
    assert!(
        sale(
            &db,
            c,
            &format!("live-{c}-3"),
            503,
            7,
            "2026-11-03",
            4,
            vec![line("P", 1, 1, "1", "35", "35.00")]
        )
        .await
    );
    assert_eq!(waiting(&db, c).await.len(), 1);
    publish(&db, c).await;
    // A redelivered invoice moves nothing and tells nothing.
    assert!(
        sale(
            &db,
            c,
            &format!("live-{c}-3b"),
            503,
            7,
            "2026-11-03",
            4,
            vec![line("P", 1, 1, "1", "35", "35.00")]
        )
        .await
    );
    assert!(waiting(&db, c).await.is_empty());
}
