//! Tenancy at the database: RLS forced, the app role's attributes, transaction-local
//! tenant settings on a small pool.

use erp_platform::config::Config;
use erp_platform::db::Db;

use crate::{client, config, db, SCHEMA};

async fn insert(db: &Db, client_id: i64, emp: i64, id: i64, name: &str) {
    let mut tx = db.begin_tenant(client_id).await.expect("tx");
    sqlx::query("INSERT INTO plat_it.itens (client_id, item_emp_id, item_id, item_descricao) VALUES ($1, $2, $3, $4)")
        .bind(client_id)
        .bind(emp)
        .bind(id)
        .bind(name)
        .execute(&mut *tx)
        .await
        .expect("insert");
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn the_app_role_is_not_owner_superuser_or_bypassrls() {
    let db = db().await;
    let (user, sup, bypass): (String, bool, bool) =
        sqlx::query_as("SELECT current_user::text, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
            .fetch_one(&db.pool)
            .await
            .expect("role");
    assert_eq!(user, "erp_app");
    assert!(!sup, "app role must not be superuser");
    assert!(!bypass, "app role must not bypass RLS");
    let owner: String = sqlx::query_scalar(
        "SELECT tableowner::text FROM pg_tables WHERE schemaname = $1 AND tablename = 'itens'",
    )
    .bind(SCHEMA)
    .fetch_one(&db.pool)
    .await
    .expect("owner");
    assert_ne!(owner, user);
    let forced: bool = sqlx::query_scalar(
        "SELECT relforcerowsecurity FROM pg_class WHERE oid = 'plat_it.itens'::regclass",
    )
    .fetch_one(&db.pool)
    .await
    .expect("rls");
    assert!(forced);
    // Nor can it touch the migration history.
    let e = sqlx::query("DELETE FROM plat_it._sqlx_migrations")
        .execute(&db.pool)
        .await;
    assert!(e.is_err());
}

#[tokio::test]
async fn without_a_tenant_no_rows_are_visible() {
    let db = db().await;
    let (a, b) = (client(), client());
    insert(&db, a, 1, 1, "de A").await;
    insert(&db, b, 1, 1, "de B").await;
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM plat_it.itens")
        .fetch_one(&db.pool)
        .await
        .expect("count");
    assert_eq!(n, 0);
    let mut tx = db.begin().await.expect("tx");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM plat_it.itens")
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    assert_eq!(n, 0);
    let mut tx = db.begin_tenant(a).await.expect("tx");
    let names: Vec<String> = sqlx::query_scalar("SELECT item_descricao FROM plat_it.itens")
        .fetch_all(&mut *tx)
        .await
        .expect("rows");
    assert_eq!(names, vec!["de A".to_string()]);
}

#[tokio::test]
async fn a_tenant_cannot_write_rows_of_another() {
    let db = db().await;
    let (a, b) = (client(), client());
    let mut tx = db.begin_tenant(a).await.expect("tx");
    let r = sqlx::query(
        "INSERT INTO plat_it.itens (client_id, item_emp_id, item_id, item_descricao) VALUES ($1, 1, 1, 'x')",
    )
    .bind(b)
    .execute(&mut *tx)
    .await;
    assert!(
        r.is_err(),
        "RLS WITH CHECK must refuse another client's row"
    );
    drop(tx);
    insert(&db, b, 1, 7, "de B").await;
    let mut tx = db.begin_tenant(a).await.expect("tx");
    let n = sqlx::query("UPDATE plat_it.itens SET item_descricao = 'roubado' WHERE item_id = 7")
        .execute(&mut *tx)
        .await
        .expect("update")
        .rows_affected();
    assert_eq!(n, 0);
}

/// Requests of two tenants alternate over a pool of two connections; none ever sees
/// the other's rows, and the setting never outlives its transaction.
#[tokio::test]
async fn pooled_connections_never_leak_a_tenant() {
    let cfg = config();
    let (a, b) = (client(), client());
    let setup = db().await;
    for i in 1..=3 {
        insert(&setup, a, 1, i, "A").await;
        insert(&setup, b, 1, i, "B").await;
    }
    let small = Config { db_max_connections: 2, ..cfg };
    let db = Db::connect(&small).await.expect("pool of 2");
    let mut tasks = Vec::new();
    for i in 0..200 {
        let db = db.clone();
        let c = if i % 2 == 0 { a } else { b };
        tasks.push(tokio::spawn(async move {
            let mut tx = db.begin_tenant(c).await.expect("tx");
            let seen: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT client_id FROM plat_it.itens")
                .fetch_all(&mut *tx)
                .await
                .expect("select");
            tx.commit().await.expect("commit");
            let after: i64 = sqlx::query_scalar("SELECT count(*) FROM plat_it.itens")
                .fetch_one(&db.pool)
                .await
                .expect("count");
            (c, seen, after)
        }));
    }
    for t in tasks {
        let (c, seen, after) = t.await.expect("task");
        assert_eq!(seen, vec![c]);
        assert_eq!(after, 0, "tenant setting leaked out of its transaction");
    }
}
