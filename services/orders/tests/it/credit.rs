//! The customer's credit limit at invoicing: finance's position asked for the
//! order's customer (as the caller, in the order's company) when catalog gave the
//! customer a limit (orders' copy), not otherwise; past the limit the
//! order is refused with the amounts in reais and stays open without a fact;
//! within it, invoiced — against the real finance fed with catalog's customer and
//! orders' own invoice fact, and against a finance answering set positions. A
//! release needs ALTERACAO on Contas a Receber (identity's grants) and is recorded
//! on the order; finance unreachable refuses with 503 unless released.

use erp_platform::bus::{apply_once, Effect, Message, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::service::Peers;
use erp_proto::erp::v1::RecordChanged;
use erp_proto::subjects::PEDIDO_FATURADO;
use prost::Message as _;
use serde_json::{json, Value};

use crate::peers::{self, Finance};
use crate::{client, create, db, get, seed_copies};

/// An open order of customer `cli` worth `q` × 100,00 (product 3 at 100,00).
async fn order(db: &Db, c: i64, cli: i64, q: &str) -> i64 {
    let row = create(
        db,
        c,
        "pedido",
        json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": cli, "PEDF_DTA_EMISSAO": "2026-11-22"}),
    )
    .await
    .expect("order");
    let id = row["PEDF_ID"].as_i64().expect("id");
    create(
        db,
        c,
        "pedidoproduto",
        json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 3, "PEDI_QTDE": q, "PEDI_VLR_UNITARIO": "100.00"}),
    )
    .await
    .expect("line");
    id
}

/// What invoicing answered, as the tests read it.
#[derive(Debug)]
struct Invoiced {
    status: String,
    total: String,
}

/// The billing order's `faturar` call as the gateway makes it (releasing the
/// credit limit when `release`): its answer, or the refusal (the error's HTTP
/// status and its message).
async fn invoice(
    db: &Db,
    peers: Peers,
    who: Caller,
    id: i64,
    release: bool,
) -> erp_platform::Result<Invoiced> {
    let reg = erp_orders::resources::registry_with(
        &erp_platform::config::Config::from_env().data_dir,
        peers,
    )
    .expect("registry");
    let res = reg.get("pedido").expect("pedido");
    let a = res
        .actions
        .iter()
        .find(|a| a.name == "faturar")
        .expect("faturar");
    let params = [
        ("PEDF_ID".to_string(), id.to_string()),
        ("PEDF_SERIE".to_string(), "1".to_string()),
        ("emp".to_string(), "1".to_string()),
    ]
    .into();
    let mut tx = db.begin_tenant(who.client_id).await?;
    let out = a
        .run(
            &mut tx,
            res,
            &who,
            Some(1),
            &params,
            json!({"LIBERAR_LIMITE": release}),
        )
        .await?;
    tx.commit().await?;
    Ok(Invoiced {
        status: out["PEDF_SITUACAO"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        total: out["PEDF_VLR_TOTAL"].to_string(),
    })
}

fn refusal(r: erp_platform::Result<Invoiced>) -> (u16, String) {
    match r {
        Ok(v) => panic!("expected a refusal, got {v:?}"),
        Err(e) => (e.http_status(), e.public_message()),
    }
}

async fn order_row(db: &Db, c: i64, id: i64) -> Value {
    get(db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("order")
}

async fn facts(db: &Db, c: i64) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM orders.outbox WHERE subject = $1 AND client_id = $2",
    )
    .bind(PEDIDO_FATURADO)
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("outbox");
    tx.commit().await.expect("commit");
    n
}

/// Catalog's customer `cli` with a credit limit, as orders' copy keeps it.
async fn limited(db: &Db, c: i64, cli: i64, limit: &str) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "UPDATE orders.clientes SET limite = $3::numeric WHERE client_id = $1 AND cli_id = $2",
    )
    .bind(c)
    .bind(cli)
    .bind(limit)
    .execute(&mut *tx)
    .await
    .expect("limit");
    tx.commit().await.expect("commit");
}

fn caller(c: i64, user: i64) -> Caller {
    Caller { client_id: c, user_id: user, emp_id: 1, privileged: false }
}

/// Delivers `payload` to finance's consumer `durable` as the bus would, once.
async fn to_finance(db: &Db, c: i64, durable: &str, id: &str, subject: &str, payload: Vec<u8>) {
    let def = erp_finance::events::consumers()
        .into_iter()
        .find(|d| d.durable == durable)
        .expect("finance consumer");
    let mut msg = Message::new(id, subject, payload.into());
    msg.headers.push((CLIENT_HEADER.into(), c.to_string()));
    let effect = def.effect;
    let applied = apply_once(db, "finance", durable, id, c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
    .expect("finance applied the fact");
    assert!(applied);
}

/// Catalog gives customer 1 a limit of 1.000,00; an order of 800,00 is invoiced
/// and finance makes its receivable from orders' fact: 300,00 more is refused,
/// 200,00 invoiced.
#[tokio::test]
async fn the_real_finance_counts_an_invoiced_order_against_the_limit() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let peers = peers::real(&db);
    let customer = RecordChanged {
        resource: "clientes".into(),
        op: "alterado".into(),
        client_id: c,
        emp_id: 1,
        key: vec!["1".into()],
        row_json: serde_json::to_vec(
            &json!({"CLI_ID": 1, "CLI_EMP_ID": 1, "CLI_DESCRICAO": "Oficina do Zé Ltda",
            "CLI_SITUACAO": 1, "CLI_LIMITE_CREDITO": "1000.00"}),
        )
        .expect("row"),
    };
    to_finance(
        &db,
        c,
        "finance-clientes",
        &format!("cli-{c}"),
        "erp.catalog.cliente.alterado",
        customer.encode_to_vec(),
    )
    .await;
    // Orders' copy learns of the limit from the same fact.
    let mut msg = Message::new(
        format!("cli-{c}"),
        "erp.catalog.cliente.alterado",
        customer.encode_to_vec().into(),
    );
    msg.headers.push((CLIENT_HEADER.into(), c.to_string()));
    let applied = apply_once(
        &db,
        "orders",
        "orders-clientes",
        &format!("cli-{c}"),
        c,
        move |tx| Box::pin(async move { erp_orders::copies::Customers.apply(tx, c, &msg).await }),
    )
    .await
    .expect("orders' copy");
    assert!(applied);

    let first = order(&db, c, 1, "8").await;
    invoice(&db, peers.clone(), caller(c, 7), first, false)
        .await
        .expect("800,00 of 1.000,00");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let (event, payload): (String, Vec<u8>) = sqlx::query_as(
        "SELECT id::text, payload FROM orders.outbox WHERE subject = $1 AND client_id = $2",
    )
    .bind(PEDIDO_FATURADO)
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("the invoice's fact");
    tx.commit().await.expect("commit");
    to_finance(
        &db,
        c,
        "finance-pedido-faturado",
        &event,
        PEDIDO_FATURADO,
        payload,
    )
    .await;

    let big = order(&db, c, 1, "3").await;
    let (status, msg) = refusal(invoice(&db, peers.clone(), caller(c, 7), big, false).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Limite de crédito excedido: limite R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00."
        )
    );
    let small = order(&db, c, 1, "2").await;
    let out = invoice(&db, peers, caller(c, 7), small, false)
        .await
        .expect("200,00: exactly the limit");
    assert_eq!((out.status.as_str(), out.total.as_str()), ("F", "200.00"));
    assert_eq!(order_row(&db, c, big).await["PEDF_SITUACAO"], "A");
}

#[tokio::test]
async fn past_the_limit_an_order_is_refused_naming_the_amounts_and_within_it_invoiced() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    limited(&db, c, 1, "1000.00").await;
    let finance = Finance::default();
    finance.set(1, "1000.00", "800.00");
    // Finance would refuse customer 2, but catalog gave it no limit: not asked.
    finance.set(2, "10.00", "0.00");
    let peers = peers::peers(&db, Some(&finance));

    let big = order(&db, c, 1, "3").await;
    let (status, msg) = refusal(invoice(&db, peers.clone(), caller(c, 7), big, false).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Limite de crédito excedido: limite R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00."
        )
    );
    assert_eq!(
        finance.questions(),
        vec![(c, 1, 1)],
        "asked as the caller, for the order's customer"
    );
    let row = order_row(&db, c, big).await;
    assert_eq!(row["PEDF_SITUACAO"], "A", "the refused order stays open");
    assert_eq!(facts(&db, c).await, 0, "no fact for a refused order");

    let small = order(&db, c, 1, "2").await;
    let out = invoice(&db, peers.clone(), caller(c, 7), small, false)
        .await
        .expect("within the limit");
    assert_eq!((out.status.as_str(), out.total.as_str()), ("F", "200.00"));
    let row = order_row(&db, c, small).await;
    assert_eq!(row["PEDF_SITUACAO"], "F");
    assert_eq!(
        row["PEDF_LIBERACAO_USR_ID"],
        Value::Null,
        "nothing released"
    );
    assert_eq!(facts(&db, c).await, 1);

    // A customer without a limit is invoiced any amount.
    let other = order(&db, c, 2, "30").await;
    let out = invoice(&db, peers, caller(c, 7), other, false)
        .await
        .expect("no limit");
    assert_eq!(out.total, "3000.00");
    assert_eq!(
        finance.questions(),
        vec![(c, 1, 1), (c, 1, 1)],
        "customer 2 was not asked about"
    );
}

#[tokio::test]
async fn a_release_needs_the_grant_on_receivables_and_is_recorded_on_the_order() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    peers::user(&db, c, 7, &["contasareceber"], &[]).await;
    peers::user(&db, c, 8, &["pedidos"], &["contasareceber"]).await;
    limited(&db, c, 1, "1000.00").await;
    let finance = Finance::default();
    finance.set(1, "1000.00", "800.00");
    let peers = peers::peers(&db, Some(&finance));
    let id = order(&db, c, 1, "3").await;

    // User 8 may view receivables but not change them: no release.
    let (status, msg) = refusal(invoice(&db, peers.clone(), caller(c, 8), id, true).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            403,
            "Limite de crédito excedido: limite R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00. Liberar o limite de crédito exige permissão de alteração em Contas a Receber."
        )
    );
    assert_eq!(order_row(&db, c, id).await["PEDF_SITUACAO"], "A");
    // A user identity does not know may nothing either.
    let (status, _) = refusal(invoice(&db, peers.clone(), caller(c, 99), id, true).await);
    assert_eq!(status, 403);

    let out = invoice(&db, peers, caller(c, 7), id, true)
        .await
        .expect("released");
    assert_eq!(out.status, "F");
    let row = order_row(&db, c, id).await;
    assert_eq!(row["PEDF_LIBERACAO_USR_ID"], json!(7));
    assert!(row["PEDF_LIBERACAO_DTA"].is_string(), "{row}");
    assert_eq!(
        row["PEDF_LIBERACAO_OBS"],
        "Limite de crédito liberado: limite R$ 1.000,00, em aberto R$ 800,00, disponível R$ 200,00, pedido R$ 300,00."
    );
    assert_eq!(facts(&db, c).await, 1);
}

#[tokio::test]
async fn finance_unreachable_refuses_with_503_unless_a_granted_user_releases() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    peers::user(&db, c, 7, &["contasareceber"], &[]).await;
    limited(&db, c, 1, "1000.00").await;
    let without_finance = peers::peers(&db, None);
    let id = order(&db, c, 1, "1").await;

    let (status, msg) =
        refusal(invoice(&db, without_finance.clone(), caller(c, 7), id, false).await);
    assert_eq!(
        (status, msg.as_str()),
        (503, erp_orders::credit::FINANCE_UNREACHABLE)
    );
    assert_eq!(order_row(&db, c, id).await["PEDF_SITUACAO"], "A");
    assert_eq!(facts(&db, c).await, 0);

    invoice(&db, without_finance, caller(c, 7), id, true)
        .await
        .expect("released without finance");
    let row = order_row(&db, c, id).await;
    assert_eq!(row["PEDF_SITUACAO"], "F");
    assert_eq!(
        row["PEDF_LIBERACAO_OBS"],
        "Faturado sem consultar o limite de crédito (financeiro indisponível), pedido R$ 100,00."
    );
}
