//! Another client's messages are never reachable: through the register, the
//! calls, the gRPC edge (a company in the body that is not the caller's), or raw
//! SQL under row-level security.

use std::collections::HashMap;

use erp_platform::resource::grpc::ResourceGrpc;
use erp_proto::erp::v1::resource_service_server::ResourceService;
use erp_proto::erp::v1::ActionRequest;
use serde_json::json;

use crate::*;

#[tokio::test]
async fn another_clients_messages_are_never_reachable() {
    let db = db().await;
    let deps = deps();
    let (a, b) = (client(), client());
    let v = send(&db, &deps, a, json!({"MENS_DESCRICAO": "Só de A", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "I", "arquivos": [file("a.png", PNG)]}))
        .await
        .expect("queued");
    let id = id_of(&v).to_string();
    configure(
        &db,
        &deps,
        a,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "5001", "WCFG_TOKEN": "t"}),
    )
    .await;
    configure(
        &db,
        &deps,
        a,
        "emailconfig",
        json!({"EMCF_HOST": "smtp.a.com", "EMCF_REMETENTE": "a@a.com"}),
    )
    .await;

    // Registers: nothing listed, counted or found.
    for name in ["whatsapp", "whatsappconfig", "emailconfig"] {
        let rows = CTX
            .list(
                &db,
                &res(&deps, name),
                &caller(b),
                Some(1),
                &body(json!({})),
            )
            .await
            .expect("list");
        assert!(rows.is_empty(), "{name}: {rows:?}");
    }
    let got = CTX
        .get(
            &db,
            &res(&deps, "whatsapp"),
            &caller(b),
            Some(1),
            std::slice::from_ref(&id),
        )
        .await;
    assert_eq!(got.err().map(|e| e.http_status()), Some(404));
    // Calls: B's list is empty, A's message is not found by id.
    let list = call(&db, &deps, b, "whatsapp", "messages", &[], json!({}))
        .await
        .expect("messages");
    assert_eq!(list, json!({"dados": [], "count": 0}));
    let st = call(
        &db,
        &deps,
        b,
        "whatsapp",
        "status",
        &[("id", &id)],
        json!({}),
    )
    .await;
    assert_eq!(st.err().map(|e| e.http_status()), Some(404));
    let re = call(
        &db,
        &deps,
        b,
        "whatsapp",
        "reenviar",
        &[("id", &id)],
        json!({}),
    )
    .await;
    assert_eq!(re.err().map(|e| e.http_status()), Some(404));
    let conn = call(
        &db,
        &deps,
        b,
        "whatsapp",
        "status",
        &[("id", "conexao")],
        json!({}),
    )
    .await;
    assert_eq!(
        msg(conn),
        Some(erp_messaging::settings::NO_WHATSAPP.into()),
        "A's provider is not B's"
    );
    // Raw SQL naming A's client id, in B's transaction: nothing.
    let mut tx = db.begin_tenant(b).await.expect("tx");
    for table in [
        "mensagens",
        "mensagens_anexos",
        "whatsapp_config",
        "email_config",
        "status_pendentes",
    ] {
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM messaging.{table} WHERE client_id = $1"
        ))
        .bind(a)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
        assert_eq!(n, 0, "{table}");
    }
    // Nor can B write a row as A.
    let forged = sqlx::query(
        "INSERT INTO messaging.mensagens (client_id, mens_emp_id, mens_id, mens_canal, mens_destinatario, mens_datahora)
         VALUES ($1, 1, 999, 'W', '5554999876543', now())",
    )
    .bind(a)
    .execute(&mut *tx)
    .await;
    assert!(forged.is_err(), "row-level security refuses it");
}

#[tokio::test]
async fn every_tenant_table_has_forced_row_level_security() {
    let db = db().await;
    let rows: Vec<(String, bool, bool)> = sqlx::query_as(
        "SELECT c.relname::text, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'client_id'
         WHERE n.nspname = 'messaging' AND c.relkind = 'r'",
    )
    .fetch_all(&db.pool)
    .await
    .expect("tables");
    // The dispatch, rate and route tables hold ids and times only, like the
    // platform's outbox and inbox.
    let infrastructure = ["fila", "compasso", "rotas", "outbox", "inbox"];
    let mut tenant = 0;
    for (table, rls, forced) in rows {
        if infrastructure.contains(&table.as_str()) {
            continue;
        }
        tenant += 1;
        assert!(rls && forced, "{table}: row-level security forced");
    }
    assert_eq!(
        tenant, 8,
        "mensagens, anexos, status_pendentes, the two settings, id_counters, notificacoes and notificacoes_lidas"
    );
    let content: Vec<String> = sqlx::query_scalar(
        "SELECT column_name::text FROM information_schema.columns WHERE table_schema = 'messaging' AND table_name IN ('fila', 'compasso', 'rotas')",
    )
    .fetch_all(&db.pool)
    .await
    .expect("columns");
    assert!(
        !content
            .iter()
            .any(|c| c.contains("destinatario") || c.contains("descricao")),
        "{content:?}"
    );
}

#[tokio::test]
async fn the_grpc_edge_refuses_a_company_that_is_not_the_callers() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let grpc = ResourceGrpc::new(db.clone(), std::sync::Arc::new(registry(&deps)));
    let request = |emp: i64| {
        let mut r = tonic::Request::new(ActionRequest {
            resource: "whatsapp".into(),
            action: "email".into(),
            params: HashMap::new(),
            body_json: serde_json::to_vec(&json!({"MENS_EMP_ID": emp, "MENS_DESTINATARIO": "a@b.com.br", "MENS_ASSUNTO": "x"}))
                .expect("json")
                .into(),
            companies: vec![1],
        });
        caller(c).attach(&mut r);
        r
    };
    let refused = grpc.action(request(2)).await.expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    let ok = grpc.action(request(1)).await.expect("own company");
    let v: serde_json::Value = serde_json::from_slice(&ok.into_inner().json).expect("json");
    assert_eq!(v["msg"], "E-mail agendado com sucesso!");
}
