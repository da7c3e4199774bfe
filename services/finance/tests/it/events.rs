//! The consumers of orders' facts over a NATS JetStream server of the test's own:
//! an invoiced order makes its receivables by the company's default condition
//! (summing to the total, once, however often the fact comes), a finalized purchase
//! its payables, a cancelled one cancels them (refused for good once one was
//! paid), and a cancellation that comes first leaves nothing to make.

use erp_platform::testing::until;
use std::sync::Arc;

use erp_finance::events::{
    CancelledPurchase, FinalizedPurchase, InvoicedOrder, COMPRA_CANCELADA, COMPRA_FINALIZADA,
    PEDIDO_FATURADO,
};
use erp_platform::bus::{self, apply_once, Bus, Effect, Message, NatsBus, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_proto::orders::v1::{
    CompraCancelada, CompraFinalizada, PedidoFaturado, PurchaseInstalment,
};
use prost::Message as _;
use serde_json::{json, Value};

use crate::{account, action, count, create, d, dec, parameters, rows};

pub(crate) fn invoiced(c: i64, pedido: i64, total: &str, issued: &str) -> Vec<u8> {
    invoiced_with(c, pedido, total, issued, 0, 0)
}

fn invoiced_with(
    c: i64,
    pedido: i64,
    total: &str,
    issued: &str,
    condition: i64,
    method: i64,
) -> Vec<u8> {
    PedidoFaturado {
        client_id: c,
        emp_id: 1,
        pedido_id: pedido,
        serie: "1".into(),
        customer_id: 9,
        customer_name: "BAR DO ZÉ".into(),
        total: total.into(),
        products_total: total.into(),
        issued_on: issued.into(),
        user_id: 1,
        payment_condition_id: condition,
        payment_method_id: method,
        ..Default::default()
    }
    .encode_to_vec()
}

pub(crate) fn instalment(
    seq: i64,
    due: &str,
    amount: &str,
    interest: &str,
    bank: i64,
) -> PurchaseInstalment {
    PurchaseInstalment {
        seq,
        due_on: due.into(),
        amount: amount.into(),
        interest: interest.into(),
        bank_id: bank,
        number: format!("4567-{seq}"),
    }
}

pub(crate) fn finalized(
    c: i64,
    compra: i64,
    total: &str,
    instalments: Vec<PurchaseInstalment>,
) -> Vec<u8> {
    CompraFinalizada {
        client_id: c,
        emp_id: 1,
        compra_id: compra,
        supplier_id: 5,
        supplier_name: "DISTRIBUIDORA RECIFE LTDA".into(),
        number: "4567".into(),
        serie: "1".into(),
        model: "55".into(),
        issued_on: "2026-11-20".into(),
        entered_on: "2026-11-23".into(),
        total: total.into(),
        user_id: 1,
        instalments,
        ..Default::default()
    }
    .encode_to_vec()
}

fn cancelled(c: i64, compra: i64) -> Vec<u8> {
    CompraCancelada { client_id: c, emp_id: 1, compra_id: compra, user_id: 1, items: vec![] }
        .encode_to_vec()
}

pub(crate) fn message(c: i64, id: &str, subject: &str, payload: Vec<u8>) -> Message {
    let mut m = Message::new(id, subject, payload.into());
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    m
}

/// Applies an event as the consumer `consumer` would, through finance's inbox.
pub(crate) async fn deliver<E: Effect + 'static>(
    db: &Db,
    consumer: &str,
    c: i64,
    effect: E,
    msg: Message,
) -> erp_platform::Result<bool> {
    let id = msg.id.clone();
    apply_once(db, "finance", consumer, &id, c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
}

fn column(rows: &[Value], k: &str) -> Vec<String> {
    rows.iter()
        .map(|r| match &r[k] {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        })
        .collect()
}

async fn inbox(db: &Db, c: i64, consumer: &str) -> i64 {
    count(
        db,
        c,
        &format!(
            "SELECT count(*) FROM finance.inbox WHERE client_id = {c} AND consumer = '{consumer}'"
        ),
    )
    .await
}

#[tokio::test]
async fn over_nats_invoices_and_purchases_make_their_titles_once() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    let condition = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "30/60/90 DIAS", "CNDP_PARCELAS": 3, "CNDP_DIAS_PRIMEIRA": 30, "CNDP_INTERVALO": 30}),
    )
    .await
    .expect("condition");
    parameters(
        &db,
        c,
        json!({"PARF_CNDP_ID": condition["CNDP_ID"], "PARF_BCO_ID_RECEBER": bank}),
    )
    .await;

    let nats = erp_platform::testing::NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let mut tasks = Vec::new();
    for def in erp_finance::events::consumers() {
        tasks.push(
            bus::consume(
                &bus,
                db.clone(),
                "finance",
                def.durable,
                def.filter,
                def.effect,
                256,
            )
            .await
            .expect("consumer"),
        );
    }
    assert_eq!(tasks.len(), 6, "the six consumers are served");

    // An invoiced order of R$ 100,00 on 10/01/2026, condition 30/60/90.
    let fact = message(
        c,
        &format!("pedido-{c}-55"),
        PEDIDO_FATURADO,
        invoiced(c, 55, "100.00", "2026-01-10"),
    );
    bus.publish(fact.clone()).await.expect("publish");
    // The relay publishing it again after a crash (same id): dropped by the stream.
    bus.publish(fact.clone()).await.expect("publish again");
    // Another fact about the same order (another event id): nothing made twice.
    bus.publish(message(
        c,
        &format!("pedido-{c}-55-bis"),
        PEDIDO_FATURADO,
        invoiced(c, 55, "100.00", "2026-01-10"),
    ))
    .await
    .expect("publish another");
    until("the receivables and both facts", 30, || {
        let db = db.clone();
        async move {
            inbox(&db, c, "finance-pedido-faturado").await == 2
                && count(&db, c, "SELECT count(*) FROM finance.contasreceber").await == 3
        }
    })
    .await;
    let titles = rows(
        &db,
        c,
        "contasreceber",
        json!({"CRCB_PEDF_ID": 55, "ORDENACAO": "CRCB_PARCELA"}),
    )
    .await;
    assert_eq!(titles.len(), 3);
    assert_eq!(
        column(&titles, "CRCB_DTA_VCTO"),
        ["2026-02-09", "2026-03-11", "2026-04-10"]
    );
    let values: Vec<_> = titles.iter().map(|t| dec(&t["CRCB_VLR_CTA"])).collect();
    assert_eq!(values, [d("33.34"), d("33.33"), d("33.33")]);
    assert_eq!(values.iter().sum::<rust_decimal::Decimal>(), d("100.00"));
    for (i, t) in titles.iter().enumerate() {
        assert_eq!(t["CRCB_PARCELA"].as_i64(), Some(i as i64 + 1));
        assert_eq!(t["CRCB_QTD_PARCELAS"].as_i64(), Some(3));
        assert_eq!(t["CRCB_CLI_ID"].as_i64(), Some(9));
        assert_eq!(t["CLI_DESCRICAO"], "BAR DO ZÉ");
        assert_eq!(t["CRCB_ORIGEM"], "PEDIDO");
        assert_eq!(t["CRCB_PEDF_SERIE"], "1");
        assert_eq!(t["CRCB_SITUACAO"], "A");
        assert_eq!(t["CRCB_BCO_ID"].as_i64(), Some(bank));
        assert_eq!(dec(&t["SALDO"]), dec(&t["CRCB_VLR_CTA"]));
    }
    // The same event delivered again to the consumer: the inbox skips it.
    let again = deliver(&db, "finance-pedido-faturado", c, InvoicedOrder, fact)
        .await
        .expect("redelivery");
    assert!(!again);
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.contasreceber").await,
        3
    );

    // A finalized purchase with two instalments (the first with interest, into the
    // account), and one without: a payable of the whole total.
    bus.publish(message(
        c,
        &format!("compra-{c}-77"),
        COMPRA_FINALIZADA,
        finalized(
            c,
            77,
            "140.00",
            vec![
                instalment(2, "2027-01-20", "80.00", "0", 0),
                instalment(1, "2026-12-20", "60.00", "1.50", bank),
            ],
        ),
    ))
    .await
    .expect("publish purchase");
    bus.publish(message(
        c,
        &format!("compra-{c}-78"),
        COMPRA_FINALIZADA,
        finalized(c, 78, "45.90", vec![]),
    ))
    .await
    .expect("publish purchase without instalments");
    until("the payables", 30, || {
        let db = db.clone();
        async move { count(&db, c, "SELECT count(*) FROM finance.contaspagar").await == 3 }
    })
    .await;
    let payables = rows(
        &db,
        c,
        "contaspagar",
        json!({"CMPD_COMP_ID": 77, "ORDENACAO": "CMPD_PARCELA"}),
    )
    .await;
    assert_eq!(
        column(&payables, "CMPD_DTA_VCTO"),
        ["2026-12-20", "2027-01-20"]
    );
    assert_eq!(
        payables
            .iter()
            .map(|p| (
                dec(&p["CMPD_VLR_TITULO"]),
                dec(&p["CMPD_VLR_ACRECIMO"]),
                dec(&p["SALDO"])
            ))
            .collect::<Vec<_>>(),
        [
            (d("60.00"), d("1.50"), d("61.50")),
            (d("80.00"), d("0"), d("80.00"))
        ]
    );
    assert_eq!(
        column(&payables, "CMPD_DOCUMENTO"),
        ["NF 4567/1 - 4567-1", "NF 4567/1 - 4567-2"]
    );
    assert_eq!(payables[0]["CMPD_BCO_ID"].as_i64(), Some(bank));
    assert_eq!(payables[0]["FORN_DESCRICAO"], "DISTRIBUIDORA RECIFE LTDA");
    assert_eq!(payables[0]["CMPD_COMP_FORN_ID"].as_i64(), Some(5));
    let single = rows(&db, c, "contaspagar", json!({"CMPD_COMP_ID": 78})).await;
    assert_eq!(single.len(), 1);
    assert_eq!(
        (
            dec(&single[0]["CMPD_VLR_TITULO"]),
            single[0]["CMPD_DTA_VCTO"].as_str()
        ),
        (d("45.90"), Some("2026-11-20"))
    );

    // The purchase cancelled: its open payables are cancelled.
    bus.publish(message(
        c,
        &format!("cancela-{c}-77"),
        COMPRA_CANCELADA,
        cancelled(c, 77),
    ))
    .await
    .expect("publish cancellation");
    until("the cancellation", 30, || {
        let db = db.clone();
        async move {
            count(&db, c, "SELECT count(*) FROM finance.contaspagar WHERE tit_origem_id = 77 AND tit_situacao = 'C'").await == 2
        }
    })
    .await;
    for t in tasks {
        t.abort();
    }
}

#[tokio::test]
async fn a_cancellation_is_refused_once_a_payable_was_paid_and_may_come_first() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "500.00").await;
    let fact = message(
        c,
        &format!("compra-{c}-90"),
        COMPRA_FINALIZADA,
        finalized(
            c,
            90,
            "100.00",
            vec![
                instalment(1, "2026-12-01", "40.00", "0", 0),
                instalment(2, "2027-01-01", "60.00", "0", 0),
            ],
        ),
    );
    assert!(
        deliver(&db, "finance-compra-finalizada", c, FinalizedPurchase, fact)
            .await
            .expect("finalized")
    );
    let payables = rows(
        &db,
        c,
        "contaspagar",
        json!({"CMPD_COMP_ID": 90, "ORDENACAO": "CMPD_PARCELA"}),
    )
    .await;
    let first = payables[0]["CMPD_ID"].clone();
    action(
        &db,
        c,
        "contaspagar",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-12-01", "BCO_ID": bank, "TITULOS": [{"ID": first, "VALOR": "10.00"}]}),
    )
    .await
    .expect("partial payment");
    let e = deliver(
        &db,
        "finance-compra-cancelada",
        c,
        CancelledPurchase,
        message(
            c,
            &format!("cancela-{c}-90"),
            COMPRA_CANCELADA,
            cancelled(c, 90),
        ),
    )
    .await
    .expect_err("refused");
    assert_eq!(
        e.http_status(),
        409,
        "a refusal for good (the consumer acknowledges it)"
    );
    assert_eq!(
        e.public_message(),
        format!(
            "A compra 90 tem parcela paga (título {first}): estorne a baixa antes de cancelar."
        )
    );
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.contaspagar WHERE tit_origem_id = 90 AND NOT tit_cancelado").await,
        2,
        "nothing cancelled"
    );

    // A cancellation applied before its finalization: the finalization makes nothing.
    assert!(deliver(
        &db,
        "finance-compra-cancelada",
        c,
        CancelledPurchase,
        message(
            c,
            &format!("cancela-{c}-91"),
            COMPRA_CANCELADA,
            cancelled(c, 91)
        )
    )
    .await
    .expect("cancellation first"));
    assert!(deliver(
        &db,
        "finance-compra-finalizada",
        c,
        FinalizedPurchase,
        message(
            c,
            &format!("compra-{c}-91"),
            COMPRA_FINALIZADA,
            finalized(c, 91, "30.00", vec![])
        )
    )
    .await
    .expect("finalization after"));
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM finance.contaspagar WHERE tit_origem_id = 91"
        )
        .await,
        0
    );

    // Another tenant's payload, a bad total: refused.
    let e = deliver(
        &db,
        "finance-pedido-faturado",
        c,
        InvoicedOrder,
        message(
            c,
            &format!("pedido-{c}-x"),
            PEDIDO_FATURADO,
            invoiced(c + 100_000, 1, "10.00", "2026-01-10"),
        ),
    )
    .await
    .expect_err("other tenant");
    assert_eq!(e.public_message(), "Evento de outro cliente.");
    let e = deliver(
        &db,
        "finance-pedido-faturado",
        c,
        InvoicedOrder,
        message(
            c,
            &format!("pedido-{c}-y"),
            PEDIDO_FATURADO,
            invoiced(c, 2, "dez", "2026-01-10"),
        ),
    )
    .await
    .expect_err("bad total");
    assert_eq!(e.public_message(), "Total do pedido inválido: 'dez'.");
}

#[tokio::test]
async fn an_invoice_without_a_usable_default_condition_is_one_instalment_and_its_instalments_can_be_removed(
) {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    // The default is a due-date condition without days: it cannot be used.
    let empty = create(
        &db,
        c,
        "condicaovencimento",
        json!({"CNDV_DESCRICAO": "SEM DIAS"}),
    )
    .await
    .expect("condition");
    parameters(&db, c, json!({"PARF_CNDV_ID": empty["CNDV_ID"]})).await;
    let fact = message(
        c,
        &format!("pedido-{c}-60"),
        PEDIDO_FATURADO,
        invoiced(c, 60, "250.75", "2026-02-03"),
    );
    assert!(
        deliver(&db, "finance-pedido-faturado", c, InvoicedOrder, fact)
            .await
            .expect("invoiced")
    );
    let titles = rows(&db, c, "contasreceber", json!({"CRCB_PEDF_ID": 60})).await;
    assert_eq!(titles.len(), 1);
    assert_eq!(
        (
            dec(&titles[0]["CRCB_VLR_CTA"]),
            titles[0]["CRCB_DTA_VCTO"].as_str()
        ),
        (d("250.75"), Some("2026-02-03"))
    );
    let id = titles[0]["CRCB_ID"].to_string();

    // A title made from an order: its value is not changed alone, it is not deleted.
    let res = crate::resource("contasreceber");
    let e = crate::update_row(&db, c, &res, &id, json!({"CRCB_VLR_CTA": "200.00"}))
        .await
        .expect_err("value");
    assert_eq!(
        e.public_message(),
        "O valor de parcela gerada por documento não pode ser alterado: as parcelas devem somar R$ 250,75."
    );
    crate::update_row(&db, c, &res, &id, json!({"CRCB_DTA_VCTO": "2026-03-03"}))
        .await
        .expect("due date may change");
    let e = crate::delete_row(&db, c, &res, &id)
        .await
        .expect_err("delete");
    assert_eq!(
        e.public_message(),
        "Parcela gerada por pedido não pode ser excluída: cancele o documento de origem."
    );

    // The order's instalments removed (none paid), then invoiced again: made anew.
    let out = action(
        &db,
        c,
        "contasreceber",
        "parcelaspedido",
        &[("id", "60"), ("emp", "1"), ("serie", "1")],
        Value::Null,
    )
    .await
    .expect("removed");
    assert_eq!(out["excluidas"], 1);
    let e = action(
        &db,
        c,
        "contasreceber",
        "parcelaspedido",
        &[("id", "60"), ("emp", "1"), ("serie", "1")],
        Value::Null,
    )
    .await
    .expect_err("none left");
    assert_eq!(
        e.public_message(),
        "Nenhuma parcela do pedido 60 série 1 encontrada."
    );
    let again = message(
        c,
        &format!("pedido-{c}-60-2"),
        PEDIDO_FATURADO,
        invoiced(c, 60, "250.75", "2026-02-03"),
    );
    assert!(
        deliver(&db, "finance-pedido-faturado", c, InvoicedOrder, again)
            .await
            .expect("invoiced again")
    );
    let titles = rows(&db, c, "contasreceber", json!({"CRCB_PEDF_ID": 60})).await;
    assert_eq!(titles.len(), 1);
    // Paid, they cannot be removed.
    action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "TITULOS": [titles[0]["CRCB_ID"]]}),
    )
    .await
    .expect("paid");
    let e = action(
        &db,
        c,
        "contasreceber",
        "parcelaspedido",
        &[("id", "60"), ("emp", "1"), ("serie", "1")],
        Value::Null,
    )
    .await
    .expect_err("paid");
    assert_eq!(
        e.public_message(),
        format!("O pedido 60 tem parcela paga (título {}): estorne a baixa antes de excluir as parcelas.", titles[0]["CRCB_ID"])
    );
}

#[tokio::test]
async fn over_nats_the_order_condition_decides_its_instalments_once() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    let method = create(
        &db,
        c,
        "formapagamento",
        json!({"FRMP_DESCRICAO": "BOLETO", "FRMP_TIPO": "15"}),
    )
    .await
    .expect("method")["FRMP_ID"]
        .as_i64()
        .expect("FRMP_ID");
    // The company's default: two instalments 15 days apart.
    let default = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "15/30 DIAS", "CNDP_PARCELAS": 2, "CNDP_DIAS_PRIMEIRA": 15, "CNDP_INTERVALO": 15}),
    )
    .await
    .expect("default condition");
    // The order's own: 30/60/90.
    let three = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "30/60/90 DIAS", "CNDP_PARCELAS": 3, "CNDP_DIAS_PRIMEIRA": 30, "CNDP_INTERVALO": 30}),
    )
    .await
    .expect("condition")["CNDP_ID"]
        .as_i64()
        .expect("CNDP_ID");
    parameters(
        &db,
        c,
        json!({"PARF_CNDP_ID": default["CNDP_ID"], "PARF_BCO_ID_RECEBER": bank}),
    )
    .await;

    let nats = erp_platform::testing::NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let mut tasks = Vec::new();
    for def in erp_finance::events::consumers() {
        tasks.push(
            bus::consume(
                &bus,
                db.clone(),
                "finance",
                def.durable,
                def.filter,
                def.effect,
                256,
            )
            .await
            .expect("consumer"),
        );
    }

    // R$ 100,00 invoiced on 10/01/2026 with the 3-instalment condition and boleto.
    let fact = message(
        c,
        &format!("pedido-{c}-60"),
        PEDIDO_FATURADO,
        invoiced_with(c, 60, "100.00", "2026-01-10", three, method),
    );
    bus.publish(fact.clone()).await.expect("publish");
    until("the order's receivables", 30, || {
        let db = db.clone();
        async move {
            inbox(&db, c, "finance-pedido-faturado").await == 1
                && count(&db, c, "SELECT count(*) FROM finance.contasreceber").await == 3
        }
    })
    .await;
    // Redelivered: by the stream (same id, dropped), to the consumer (the inbox
    // skips it) and under another event id (the order's document row holds).
    bus.publish(fact.clone()).await.expect("publish again");
    bus.publish(message(
        c,
        &format!("pedido-{c}-60-bis"),
        PEDIDO_FATURADO,
        invoiced_with(c, 60, "100.00", "2026-01-10", three, method),
    ))
    .await
    .expect("publish another");
    until("the second fact", 30, || {
        let db = db.clone();
        async move { inbox(&db, c, "finance-pedido-faturado").await == 2 }
    })
    .await;
    let again = deliver(&db, "finance-pedido-faturado", c, InvoicedOrder, fact)
        .await
        .expect("redelivery");
    assert!(!again, "the inbox skips the same event");
    let titles = rows(
        &db,
        c,
        "contasreceber",
        json!({"CRCB_PEDF_ID": 60, "ORDENACAO": "CRCB_PARCELA"}),
    )
    .await;
    assert_eq!(titles.len(), 3, "still exactly three");
    assert_eq!(
        column(&titles, "CRCB_DTA_VCTO"),
        ["2026-02-09", "2026-03-11", "2026-04-10"]
    );
    // 10000 cents in 3: 3333 each and the remainder cent on the first.
    let values: Vec<_> = titles.iter().map(|t| dec(&t["CRCB_VLR_CTA"])).collect();
    assert_eq!(values, [d("33.34"), d("33.33"), d("33.33")]);
    assert_eq!(values.iter().sum::<rust_decimal::Decimal>(), d("100.00"));
    for t in &titles {
        assert_eq!(
            t["CRCB_FRMP_ID"].as_i64(),
            Some(method),
            "the order's method"
        );
        assert_eq!(t["CRCB_QTD_PARCELAS"].as_i64(), Some(3));
    }

    // Without a condition (0) the default decides; a condition finance does not
    // have falls back to the default too; R$ 0,05 in two: 0,03 + 0,02.
    for (pedido, condition) in [(61, 0), (62, 999_999)] {
        bus.publish(message(
            c,
            &format!("pedido-{c}-{pedido}"),
            PEDIDO_FATURADO,
            invoiced_with(c, pedido, "0.05", "2026-01-10", condition, 0),
        ))
        .await
        .expect("publish default");
    }
    until("the defaults' receivables", 30, || {
        let db = db.clone();
        async move { count(&db, c, "SELECT count(*) FROM finance.contasreceber").await == 7 }
    })
    .await;
    for pedido in [61, 62] {
        let titles = rows(
            &db,
            c,
            "contasreceber",
            json!({"CRCB_PEDF_ID": pedido, "ORDENACAO": "CRCB_PARCELA"}),
        )
        .await;
        assert_eq!(
            column(&titles, "CRCB_DTA_VCTO"),
            ["2026-01-25", "2026-02-09"],
            "order {pedido}"
        );
        let values: Vec<_> = titles.iter().map(|t| dec(&t["CRCB_VLR_CTA"])).collect();
        assert_eq!(values, [d("0.03"), d("0.02")], "order {pedido}");
    }
    for t in tasks {
        t.abort();
    }
}
