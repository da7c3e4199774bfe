//! Customers' credit: finance's copy of catalog's customers (the limit), the open
//! balance the receivables' trigger keeps through every write (typed, settled,
//! reversed, changed, removed, cancelled with their document), the gRPC
//! `FinanceService.CreditPosition`, `GET /clientes/limitecredito` and
//! `GET /clientes/alinhacontasreceber`; another tenant seeing nothing.

use erp_finance::copies;
use erp_finance::grpc::FinanceGrpc;
use erp_platform::bus::CLIENT_HEADER;
use erp_platform::db::Db;
use erp_proto::erp::v1::RecordChanged;
use erp_proto::finance::v1::finance_service_server::FinanceService;
use erp_proto::finance::v1::{CreditReply, CreditRequest};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::events::deliver;
use crate::{account, action, create, d, dec, delete_row, message, resource, update_row};

/// catalog's `erp.catalog.cliente.<op>` fact of customer `id` of company 1.
pub(crate) fn customer_fact(c: i64, op: &str, id: i64, row: Value) -> erp_platform::bus::Message {
    let ev = RecordChanged {
        resource: "clientes".into(),
        op: op.into(),
        client_id: c,
        emp_id: 1,
        key: vec![id.to_string()],
        row_json: serde_json::to_vec(&row).unwrap_or_default(),
    };
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut m = erp_platform::bus::Message::new(
        format!("cliente-{c}-{id}-{op}-{n}"),
        format!("erp.catalog.cliente.{op}"),
        ev.encode_to_vec().into(),
    );
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    m
}

/// Customer `id` of company 1 with a limit, as catalog describes it.
pub(crate) async fn customer(db: &Db, c: i64, id: i64, name: &str, limit: Value) {
    let fact = customer_fact(
        c,
        "criado",
        id,
        json!({"CLI_ID": id, "CLI_EMP_ID": 1, "CLI_DESCRICAO": name, "CLI_SITUACAO": 1,
               "CLI_CPF": "123.456.789-09", "CLI_CIDADE": "Caxias do Sul", "CLI_UF": "RS",
               "CLI_LIMITE_CREDITO": limit}),
    );
    assert!(deliver(db, "finance-clientes", c, copies::Customers, fact)
        .await
        .expect("customer fact"));
}

async fn receivable(db: &Db, c: i64, customer: i64, value: &str) -> i64 {
    create(
        db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": customer, "CLI_DESCRICAO": "OFICINA DO JOÃO", "CRCB_DOCUMENTO": "NF 1",
               "CRCB_DTA_EMIS": "2026-01-01", "CRCB_DTA_VCTO": "2026-02-01", "CRCB_VLR_CTA": value}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID")
}

async fn position(db: &Db, c: i64, customer: i64) -> CreditReply {
    let mut req = tonic::Request::new(CreditRequest { emp: 1, customer_id: customer });
    crate::caller(c).attach(&mut req);
    FinanceGrpc::new(db.clone())
        .credit_position(req)
        .await
        .expect("credit position")
        .into_inner()
}

/// The kept balance of a customer, checked against the sum of its titles.
async fn open(db: &Db, c: i64, customer: i64) -> Decimal {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let kept: Decimal = sqlx::query_scalar(
        "SELECT coalesce((SELECT aberto FROM finance.clientes WHERE client_id = $1 AND emp_id = 1 AND cli_id = $2), 0)",
    )
    .bind(c)
    .bind(customer)
    .fetch_one(&mut *tx)
    .await
    .expect("kept");
    let summed: Decimal = sqlx::query_scalar(
        "SELECT coalesce(sum(tit_saldo), 0) FROM finance.contasreceber
         WHERE client_id = $1 AND tit_emp_id = 1 AND tit_pessoa_id = $2 AND NOT tit_cancelado",
    )
    .bind(c)
    .bind(customer)
    .fetch_one(&mut *tx)
    .await
    .expect("summed");
    assert_eq!(kept, summed, "the kept balance is the sum of the titles");
    kept
}

#[tokio::test]
async fn limit_1000_with_800_open_leaves_200_and_another_tenant_sees_nothing() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    customer(&db, c, 41, "MERCADO BOA VISTA", json!("1000.00")).await;

    // 500 + 400 typed, 100 of the second settled: 800 open.
    let first = receivable(&db, c, 41, "500.00").await;
    let second = receivable(&db, c, 41, "400.00").await;
    assert_eq!(open(&db, c, 41).await, d("900.00"));
    let settled = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-01-20", "BCO_ID": bank, "TITULOS": [{"ID": second, "VALOR": "100.00"}]}),
    )
    .await
    .expect("settle");
    assert_eq!(open(&db, c, 41).await, d("800.00"));

    let p = position(&db, c, 41).await;
    assert_eq!(
        (
            p.has_limit,
            p.limit.as_str(),
            p.open.as_str(),
            p.available.as_str()
        ),
        (true, "1000.00", "800.00", "200.00")
    );
    let answer = action(
        &db,
        c,
        "clientescredito",
        "limite_credito",
        &[("id", "41"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("limit");
    assert_eq!(
        answer,
        json!({"CLI_ID": 41, "CLI_DESCRICAO": "MERCADO BOA VISTA", "CLI_SITUACAO": 1,
               "CLI_LIMITE_CREDITO": 1000, "VALOR_UTILIZADO": 800, "SALDO": 200})
    );
    assert!(answer["SALDO"].is_number(), "numbers, not strings");

    // Another tenant: no limit, nothing open, no customer.
    let other = crate::client();
    let p = position(&db, other, 41).await;
    assert_eq!(
        (
            p.has_limit,
            p.limit.as_str(),
            p.open.as_str(),
            p.available.as_str()
        ),
        (false, "0.00", "0.00", "0.00")
    );
    let r = action(
        &db,
        other,
        "clientescredito",
        "limite_credito",
        &[("id", "41"), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(message(r), "Cliente não encontrado.");

    // The reversal puts the 100 back; changing the open title and removing it
    // move the balance too.
    let baixa = settled["baixas"][0]["BAIX_ID"].to_string();
    action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &baixa), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("reverse");
    assert_eq!(open(&db, c, 41).await, d("900.00"));
    let res = resource("contasreceber");
    update_row(
        &db,
        c,
        &res,
        &first.to_string(),
        json!({"CRCB_VLR_CTA": "450.00"}),
    )
    .await
    .expect("change");
    assert_eq!(open(&db, c, 41).await, d("850.00"));
    // Moved to another customer: the balance follows the title.
    update_row(&db, c, &res, &first.to_string(), json!({"CRCB_CLI_ID": 42}))
        .await
        .expect("move");
    assert_eq!(open(&db, c, 41).await, d("400.00"));
    assert_eq!(open(&db, c, 42).await, d("450.00"));
    delete_row(&db, c, &res, &first.to_string())
        .await
        .expect("delete");
    assert_eq!(open(&db, c, 42).await, d("0"));
    let p = position(&db, c, 41).await;
    assert_eq!(
        (p.open.as_str(), p.available.as_str()),
        ("400.00", "600.00")
    );

    // A customer without a limit (0): any amount may be invoiced.
    customer(&db, c, 43, "SEM LIMITE", json!(0)).await;
    receivable(&db, c, 43, "70.00").await;
    let p = position(&db, c, 43).await;
    assert_eq!(
        (p.has_limit, p.open.as_str(), p.available.as_str()),
        (false, "70.00", "0.00")
    );
    // The limit follows catalog's changes.
    let fact = customer_fact(
        c,
        "alterado",
        41,
        json!({"CLI_ID": 41, "CLI_EMP_ID": 1, "CLI_DESCRICAO": "MERCADO BOA VISTA", "CLI_SITUACAO": 2,
               "CLI_LIMITE_CREDITO": "350.5"}),
    );
    deliver(&db, "finance-clientes", c, copies::Customers, fact)
        .await
        .expect("change fact");
    let answer = action(
        &db,
        c,
        "clientescredito",
        "limite_credito",
        &[("id", "41"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("limit");
    assert_eq!(dec(&answer["SALDO"]), d("-49.50"));
    assert_eq!(answer["CLI_SITUACAO"], json!(2));
}

#[tokio::test]
async fn alinhacontasreceber_rederives_the_balances_and_is_idempotent() {
    let db = crate::db().await;
    let c = crate::client();
    customer(&db, c, 51, "ARMAZÉM", json!("100")).await;
    receivable(&db, c, 51, "30.00").await;
    receivable(&db, c, 52, "12.34").await;
    // Balances as a trigger never kept them (titles loaded with triggers off).
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE finance.clientes SET aberto = 999 WHERE client_id = $1 AND cli_id = 51")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("corrupt");
    sqlx::query("DELETE FROM finance.clientes WHERE client_id = $1 AND cli_id = 52")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("lose");
    sqlx::query(
        "INSERT INTO finance.clientes (client_id, emp_id, cli_id, aberto) VALUES ($1, 1, 53, 5)",
    )
    .bind(c)
    .execute(&mut *tx)
    .await
    .expect("ghost");
    tx.commit().await.expect("commit");

    let first = action(
        &db,
        c,
        "clientescredito",
        "alinhacontasreceber",
        &[],
        json!({}),
    )
    .await
    .expect("align");
    assert_eq!(first["clientes"], json!(3));
    assert_eq!(first["corrigidos"], json!(3));
    assert_eq!(
        first["msg"],
        json!("Saldos em aberto de 3 cliente(s) conferidos: 3 ajustado(s).")
    );
    assert_eq!(open(&db, c, 51).await, d("30.00"));
    assert_eq!(open(&db, c, 52).await, d("12.34"));
    assert_eq!(open(&db, c, 53).await, d("0"));
    let p = position(&db, c, 51).await;
    assert_eq!(p.available, "70.00");

    let second = action(
        &db,
        c,
        "clientescredito",
        "alinhacontasreceber",
        &[],
        json!({}),
    )
    .await
    .expect("align again");
    assert_eq!(second["corrigidos"], json!(0), "{second}");
    assert_eq!(open(&db, c, 51).await, d("30.00"));

    // Another tenant's call touches nothing of this one.
    let other = crate::client();
    let theirs = action(
        &db,
        other,
        "clientescredito",
        "alinhacontasreceber",
        &[],
        json!({}),
    )
    .await
    .expect("align other");
    assert_eq!(theirs["clientes"], json!(0));
}
