//! Finance's `erp.finance.titulo.situacao` on a purchase's instalments, over a NATS
//! JetStream server of the test's own: a settlement marks the n-th instalment paid
//! (once, however often the fact comes) and cancelling the purchase is refused
//! naming it; another tenant's fact and receivables change nothing; a reversal
//! reopens it and the purchase can be cancelled. A purchase without instalment
//! rows is guarded by its payables' standing.

use std::sync::Arc;

use erp_platform::bus::{self, apply_once, Bus, Effect, Message, NatsBus, CLIENT_HEADER};
use erp_platform::testing::{until, NatsServer};
use erp_proto::finance::v1::TituloSituacao;
use erp_proto::subjects::TITULO_SITUACAO;
use serde_json::json;

use super::*;
use crate::{client, db};

const CONSUMER: &str = "orders-titulos-compra";

fn standing(
    c: i64,
    compra: i64,
    title: i64,
    instalment: i32,
    paid: &str,
    balance: &str,
    status: &str,
) -> TituloSituacao {
    TituloSituacao {
        client_id: c,
        emp_id: 1,
        kind: "P".into(),
        title_id: title,
        origin: "compra".into(),
        origin_emp: 1,
        origin_id: compra,
        origin_serie: String::new(),
        instalment,
        instalments: 3,
        value: "274.90".into(),
        paid: paid.into(),
        balance: balance.into(),
        status: status.into(),
        settlement_id: 1,
        change: if paid == "0.00" {
            "estorno".into()
        } else {
            "baixa".into()
        },
        user_id: 3,
        ..Default::default()
    }
}

fn message(envelope: i64, id: &str, fact: &TituloSituacao) -> Message {
    let mut m = Message::new(id, TITULO_SITUACAO, fact.encode_to_vec().into());
    m.headers.push((CLIENT_HEADER.into(), envelope.to_string()));
    m
}

/// (number, settled, paid) of each instalment of the purchase.
async fn instalments(db: &Db, c: i64, id: i64) -> Vec<(String, bool, Decimal)> {
    list(db, c, "comprapagamentos", json!({"CMPD_COMP_ID": id}))
        .await
        .iter()
        .map(|r| {
            (
                s(&r["CMPD_NUMERO"]),
                r["CMPD_BAIXADO"] == json!(true),
                d(&r["CMPD_VLR_PAGO"]),
            )
        })
        .collect()
}

async fn finalized_purchase(db: &Db, c: i64, number: u32) -> i64 {
    let (xml, _) = own_fixture_as(number);
    let id = import(db, c, &xml).await.expect("import")["compra"]["COMP_ID"]
        .as_i64()
        .expect("id");
    let ids = id.to_string();
    for (item, product) in [("1", 1), ("3", 3)] {
        update(
            db,
            c,
            "compraproduto",
            &[&ids, item],
            json!({"CMPP_PROD_ID": product}),
        )
        .await
        .expect("link");
    }
    call(
        db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    id
}

async fn cancel(db: &Db, c: i64, id: i64) -> erp_platform::Result<Value> {
    call(
        db,
        c,
        "compra",
        "cancelar",
        &[("COMP_ID", &id.to_string())],
        json!({}),
    )
    .await
}

async fn inbox(db: &Db, c: i64) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM orders.inbox WHERE consumer = $1 AND client_id = $2",
    )
    .bind(CONSUMER)
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("inbox");
    tx.commit().await.expect("commit");
    n
}

#[tokio::test]
async fn a_settled_instalment_blocks_cancelling_until_finance_reverses_it() {
    let db = db().await;
    let c = client();
    let other = client();
    seed(&db, c).await;
    seed(&db, other).await;
    let id = finalized_purchase(&db, c, 7001).await;
    // The other tenant has a purchase with the same number.
    let theirs = finalized_purchase(&db, other, 7001).await;
    assert_eq!(theirs, id);

    let nats = NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let def = erp_orders::events::consumers()
        .into_iter()
        .find(|d| d.durable == CONSUMER)
        .expect("orders consumes finance's title standings");
    let task = bus::consume(
        &bus,
        db.clone(),
        "orders",
        def.durable,
        def.filter,
        def.effect,
        256,
    )
    .await
    .expect("consumer");

    let paid = standing(c, id, 41, 2, "100.00", "174.90", "P");
    for m in [
        // Recorded for the other tenant but naming ours: refused, nothing written.
        message(other, &format!("tit-{c}-x"), &paid),
        // The other tenant's own fact about its purchase of the same id.
        message(
            other,
            &format!("tit-{other}-1"),
            &standing(other, theirs, 41, 1, "274.90", "0.00", "Q"),
        ),
        // A receivable: not a purchase's.
        message(
            c,
            &format!("tit-{c}-r"),
            &TituloSituacao { kind: "R".into(), origin: "pedido".into(), ..paid.clone() },
        ),
        message(c, &format!("tit-{c}-1"), &paid),
        // The relay publishing again after a crash: the same id.
        message(c, &format!("tit-{c}-1"), &paid),
    ] {
        bus.publish(m).await.expect("publish");
    }
    until("the second instalment settled", 30, || {
        let db = db.clone();
        async move { instalments(&db, c, id).await.get(1).is_some_and(|i| i.1) }
    })
    .await;
    until("the other tenant's fact applied", 30, || {
        let db = db.clone();
        async move {
            instalments(&db, other, theirs)
                .await
                .first()
                .is_some_and(|i| i.1)
        }
    })
    .await;
    assert_eq!(
        instalments(&db, c, id).await,
        [
            ("001".to_string(), false, n("0")),
            ("002".to_string(), true, n("100.00")),
            ("003".to_string(), false, n("0")),
        ],
        "only ours, only the second"
    );
    let row = &list(&db, c, "comprapagamentos", json!({"CMPD_COMP_ID": id})).await[1];
    assert!(row["CMPD_DTA_BAIXA"].is_string(), "{row}");
    assert_eq!(
        inbox(&db, c).await,
        2,
        "the fact and the receivable, each once"
    );

    let (status, msg) = refusal(cancel(&db, c, id).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Compra com parcela paga não pode ser cancelada (paga: 002). Estorne o pagamento no financeiro antes de cancelar a compra."
        )
    );

    // Finance reverses the settlement: the instalment reopens.
    bus.publish(message(
        c,
        &format!("tit-{c}-2"),
        &standing(c, id, 41, 2, "0.00", "274.90", "A"),
    ))
    .await
    .expect("publish reversal");
    until("the second instalment reopened", 30, || {
        let db = db.clone();
        async move { instalments(&db, c, id).await.get(1).is_some_and(|i| !i.1) }
    })
    .await;
    let row = &list(&db, c, "comprapagamentos", json!({"CMPD_COMP_ID": id})).await[1];
    assert_eq!(
        (d(&row["CMPD_VLR_PAGO"]), &row["CMPD_DTA_BAIXA"]),
        (n("0"), &Value::Null)
    );
    assert_eq!(
        cancel(&db, c, id).await.expect("cancel")["COMP_SITUACAO"],
        "C"
    );
    task.abort();
}

#[tokio::test]
async fn a_purchase_without_instalments_is_guarded_by_its_payable() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let (xml, _) = own_fixture_as(7002);
    let id = import(&db, c, &xml).await.expect("import")["compra"]["COMP_ID"]
        .as_i64()
        .expect("id");
    let ids = id.to_string();
    for seq in ["1", "2", "3"] {
        crate::delete(&db, c, "comprapagamentos", &[&ids, seq])
            .await
            .expect("no instalments");
    }
    for (item, product) in [("1", 1), ("3", 3)] {
        update(
            &db,
            c,
            "compraproduto",
            &[&ids, item],
            json!({"CMPP_PROD_ID": product}),
        )
        .await
        .expect("link");
    }
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    // Finance made one payable for the total; part of it was paid.
    let fact = standing(c, id, 77, 1, "300.00", "524.71", "P");
    let msg = message(c, &format!("tit-{c}-only"), &fact);
    let effect = erp_orders::payables::PurchasePayables;
    let applied = apply_once(&db, "orders", CONSUMER, &msg.id.clone(), c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
    .expect("applied");
    assert!(applied);
    let (status, msg) = refusal(cancel(&db, c, id).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Compra com parcela paga não pode ser cancelada. Estorne o pagamento no financeiro antes de cancelar a compra."
        )
    );
}
