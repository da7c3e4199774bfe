//! Services and their groups, types and sectors against a migrated catalog: the
//! table-driven register test, the default orders and search limit of §9, and the
//! NFS-e code rules with their messages.

use std::sync::atomic::{AtomicI64, Ordering};

use erp_catalog::resources::services;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::resource::Registry;
use serde_json::{json, Map, Value};

/// Client ids of this module only.
fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(40_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

async fn db() -> Db {
    Db::connect(&crate::setup().await).await.expect("app pool")
}

fn caller(client_id: i64) -> Caller {
    Caller { client_id, user_id: 1, emp_id: 1, privileged: false }
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

#[tokio::test]
async fn registry_round_trip() {
    let db = db().await;
    let registry = Registry::new(services::all()).expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &registry, client()).await;
    assert_eq!(n, Ok(4));
}

#[tokio::test]
async fn groups_list_by_code_and_services_search_twenty() {
    let db = db().await;
    let me = caller(client());
    let (grps, serv) = (services::gruposervico(), services::servico());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    for d in ["PINTURA", "ELÉTRICA", "MECÂNICA"] {
        query::create(
            &mut tx,
            &grps,
            &me,
            None,
            &body(json!({"GRPS_DESCRICAO": d})),
        )
        .await
        .expect("create");
    }
    let rows = query::list(&mut tx, &grps, &me, None, &Map::new())
        .await
        .expect("list");
    let ids: Vec<Value> = rows.iter().map(|r| r["GRPS_ID"].clone()).collect();
    assert_eq!(ids, vec![json!(1), json!(2), json!(3)]);
    assert_eq!(
        (rows[0]["id"].clone(), rows[0]["text"].clone()),
        (json!(1), json!("PINTURA"))
    );

    for i in 0..25 {
        let b = body(
            json!({"SERV_DESCRICAO": format!("REVISÃO {i:02}"), "SERV_VLR_BASE": "150", "SERV_GRPS_ID": 3}),
        );
        query::create(&mut tx, &serv, &me, Some(1), &b)
            .await
            .expect("create");
    }
    let found = query::search(&mut tx, &serv, &me, Some(1), "revis", 0)
        .await
        .expect("search");
    assert_eq!(found.len(), 20);
    assert_eq!(
        found[0]["SERV_DESCRICAO"],
        json!("REVISÃO 00"),
        "ordered by description"
    );
    let other = query::search(&mut tx, &serv, &me, Some(2), "revis", 0)
        .await
        .expect("search");
    assert!(other.is_empty(), "services belong to their company");
}

#[tokio::test]
async fn nfse_codes_are_checked_and_normalised() {
    let db = db().await;
    let me = caller(client());
    let serv = services::servico();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let s = query::create(
        &mut tx,
        &serv,
        &me,
        Some(1),
        &body(json!({"SERV_DESCRICAO": "ALINHAMENTO", "SERV_CODIGO_LC116": "1401", "SERV_CNAE": "4520-0/01", "SERV_PERC_ISS": "2.5"})),
    )
    .await
    .expect("create");
    assert_eq!(
        (s["SERV_CODIGO_LC116"].clone(), s["SERV_CNAE"].clone()),
        (json!("14.01"), json!("4520001"))
    );
    tx.commit().await.expect("commit");

    let cases = [
        (
            json!({"SERV_CODIGO_LC116": "14.1"}),
            "Item da lista de serviços (LC 116) inválido.",
        ),
        (json!({"SERV_CNAE": "4520-0"}), "CNAE inválido."),
        (
            json!({"SERV_PERC_ISS": "101"}),
            "Valor Máximo permitido para o campo: 100",
        ),
        (
            json!({"SERV_PERC_COMISSAO": "-1"}),
            "O campo Comissão (%) deve ser maior ou igual a 0 ",
        ),
        (
            json!({"SERV_VLR_BASE": "10.005"}),
            "O campo Valor Base aceita no máximo 2 casas decimais.",
        ),
        (json!({"SERV_DESCRICAO": " "}), "Descrição é obrigatório!"),
        (
            json!({"SERV_SETS_ID": 5}),
            "Registro relacionado não encontrado.",
        ),
    ];
    for (change, msg) in cases {
        let mut b = body(json!({"SERV_DESCRICAO": "BALANCEAMENTO"}));
        b.extend(body(change.clone()));
        let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
        let e = query::create(&mut tx, &serv, &me, Some(1), &b).await.err();
        assert_eq!(
            e.map(|e| e.public_message()),
            Some(msg.to_string()),
            "{change}"
        );
    }
}
