//! Integration tests of stock's registers and ledger against the real PostgreSQL.

mod ledger;

use std::sync::OnceLock;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use serde_json::{json, Map, Value};

fn config() -> Config {
    static CFG: OnceLock<Config> = OnceLock::new();
    CFG.get_or_init(|| {
        std::thread::spawn(|| {
            let rt = tokio::runtime::Runtime::new().expect("runtime");
            rt.block_on(async {
                erp_platform::testing::drop_stale("stock").await;
                let cfg = erp_platform::testing::fresh_database("stock").await;
                erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
                erp_stock::migrate(&cfg).await.expect("migrate");
                cfg
            })
        })
        .join()
        .expect("setup thread")
    })
    .clone()
}

async fn db() -> Db {
    Db::connect(&config()).await.expect("app pool")
}

fn client() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static NEXT: AtomicI64 = AtomicI64::new(1000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

fn caller(client_id: i64) -> Caller {
    Caller {
        client_id,
        user_id: 1,
        emp_id: 1,
        privileged: false,
    }
}

fn locations() -> Resource {
    erp_stock::resources::locations::localestoque()
}

async fn create(db: &Db, c: i64, v: Value) -> erp_platform::Result<Value> {
    let mut tx = db.begin_tenant(c).await?;
    let row = query::create(
        &mut tx,
        &locations(),
        &caller(c),
        None,
        v.as_object().expect("object"),
    )
    .await?;
    tx.commit().await?;
    Ok(row)
}

async fn defaults(db: &Db, c: i64) -> Vec<String> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let mut filter = Map::new();
    filter.insert("LOCA_PADRAO".into(), Value::from(true));
    query::list(&mut tx, &locations(), &caller(c), None, &filter)
        .await
        .expect("list")
        .iter()
        .map(|r| r["LOCA_DESCRICAO"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn every_register_passes_the_table_driven_test() {
    let db = db().await;
    let reg = erp_stock::resources::registry().expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &reg, client())
        .await
        .expect("exercise_registry");
    assert_eq!(n, reg.all().len());
}

#[tokio::test]
async fn only_one_location_is_the_default() {
    let db = db().await;
    let c = client();
    create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "LOJA", "LOCA_PADRAO": true}),
    )
    .await
    .expect("a");
    let b = create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "DEPÓSITO", "LOCA_PADRAO": "S"}),
    )
    .await
    .expect("b");
    create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "AVARIAS", "LOCA_TIPO": "D"}),
    )
    .await
    .expect("c");
    assert_eq!(defaults(&db, c).await, vec!["DEPÓSITO".to_string()]);

    // Marking LOJA again by update moves the default back.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    query::update(
        &mut tx,
        &locations(),
        &caller(c),
        None,
        &["1".into()],
        json!({"LOCA_PADRAO": true}).as_object().expect("o"),
    )
    .await
    .expect("update");
    tx.commit().await.expect("commit");
    assert_eq!(defaults(&db, c).await, vec!["LOJA".to_string()]);
    assert_eq!(b["LOCA_TIPO"], "P");
}

#[tokio::test]
async fn location_validations() {
    let db = db().await;
    let c = client();
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_TIPO": "P"})).await),
        Some("Descrição é obrigatório!".into())
    );
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_DESCRICAO": "X", "LOCA_TIPO": "Z"})).await),
        Some("Valor inválido para o campo Tipo.".into())
    );
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_DESCRICAO": "X".repeat(101)})).await),
        Some("O campo Descrição deve ter no máximo 100 caracteres.".into())
    );
}
