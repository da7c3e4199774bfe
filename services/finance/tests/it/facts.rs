//! `erp.finance.titulo.situacao`: making a title and every settlement, offset and
//! reversal writes one fact per title through the outbox, in its transaction (a
//! refused settlement writes none), telling the origin document, the instalment,
//! the person, the dates, what is paid and the settlement.

use erp_finance::events::{FinalizedPurchase, InvoicedOrder, COMPRA_FINALIZADA, PEDIDO_FATURADO};
use erp_platform::db::Db;
use erp_proto::finance::v1::TituloSituacao;
use erp_proto::subjects::TITULO_SITUACAO;
use prost::Message as _;
use serde_json::json;

use crate::events::{deliver, finalized, instalment, invoiced, message as event};
use crate::{account, action, message, rows};

/// The facts of the client's outbox, in the order they were written.
async fn facts(db: &Db, c: i64) -> Vec<TituloSituacao> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let payloads: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM finance.outbox WHERE client_id = $1 AND subject = $2 ORDER BY id",
    )
    .bind(c)
    .bind(TITULO_SITUACAO)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    payloads
        .iter()
        .map(|p| TituloSituacao::decode(p.as_slice()).expect("TituloSituacao"))
        .collect()
}

fn summary(f: &TituloSituacao) -> (String, String, String, String, String, String) {
    (
        f.kind.clone(),
        f.origin.clone(),
        f.paid.clone(),
        f.balance.clone(),
        f.status.clone(),
        f.change.clone(),
    )
}

fn s(v: [&str; 6]) -> (String, String, String, String, String, String) {
    let [a, b, c, d, e, f] = v.map(String::from);
    (a, b, c, d, e, f)
}

#[tokio::test]
async fn settlements_and_reversals_tell_orders_what_was_paid() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    let fact = event(
        c,
        &format!("pedido-{c}-70"),
        PEDIDO_FATURADO,
        invoiced(c, 70, "100.00", "2026-01-10"),
    );
    deliver(&db, "finance-pedido-faturado", c, InvoicedOrder, fact)
        .await
        .expect("invoice");
    let title = rows(&db, c, "contasreceber", json!({"CRCB_PEDF_ID": 70})).await[0]["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID");
    let made = facts(&db, c).await;
    assert_eq!(
        made.iter().map(summary).collect::<Vec<_>>(),
        [s(["R", "pedido", "0.00", "100.00", "A", "criado"])],
        "making a title tells its standing"
    );
    assert_eq!(
        (made[0].settlement_id, made[0].settlement.is_none()),
        (0, true)
    );
    assert_eq!(made[0].due_on, "2026-01-10");

    let settle = |value: &str| json!({"DATA": "2026-01-10", "BCO_ID": bank, "TITULOS": [{"ID": title, "VALOR": value}]});
    let first = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        settle("40.00"),
    )
    .await
    .expect("partial");
    // Beyond the balance: refused, nothing written.
    let r = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        settle("70.00"),
    )
    .await;
    assert_eq!(
        message(r),
        format!("Valor da baixa do título {title} (R$ 70,00) maior que o saldo (R$ 60,00).")
    );
    action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        settle("60.00"),
    )
    .await
    .expect("rest");
    let baixa = first["baixas"][0]["BAIX_ID"].as_i64().expect("BAIX_ID");
    action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &baixa.to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("reverse");

    let got = facts(&db, c).await;
    assert_eq!(
        got.iter().map(summary).collect::<Vec<_>>(),
        [
            s(["R", "pedido", "0.00", "100.00", "A", "criado"]),
            s(["R", "pedido", "40.00", "60.00", "P", "baixa"]),
            s(["R", "pedido", "100.00", "0.00", "Q", "baixa"]),
            s(["R", "pedido", "60.00", "40.00", "P", "estorno"]),
        ]
    );
    let f = &got[3];
    assert_eq!(
        (f.client_id, f.emp_id, f.title_id, f.origin_emp, f.origin_id),
        (c, 1, title, 1, 70)
    );
    assert_eq!(
        (
            f.origin_serie.as_str(),
            f.instalment,
            f.instalments,
            f.value.as_str()
        ),
        ("1", 1, 1, "100.00")
    );
    assert_eq!((f.settlement_id, f.user_id), (baixa, 1));
    // The reversed settlement travels with the reversal: its day and values.
    let done = f.settlement.as_ref().expect("settlement");
    assert_eq!(
        (
            done.settled_on.as_str(),
            done.value.as_str(),
            done.total.as_str(),
            done.bank_id
        ),
        ("2026-01-10", "40.00", "40.00", bank)
    );
    assert_eq!(
        (f.issued_on.as_str(), f.due_on.as_str()),
        ("2026-01-10", "2026-01-10")
    );
    assert!(f.person_id > 0);

    // A purchase's payable: kind P, origin compra.
    let fact = event(
        c,
        &format!("compra-{c}-71"),
        COMPRA_FINALIZADA,
        finalized(
            c,
            71,
            "80.00",
            vec![instalment(1, "2026-02-01", "80.00", "0", 0)],
        ),
    );
    deliver(&db, "finance-compra-finalizada", c, FinalizedPurchase, fact)
        .await
        .expect("purchase");
    let payable = rows(&db, c, "contaspagar", json!({"CMPD_COMP_ID": 71})).await[0]["CMPD_ID"]
        .as_i64()
        .expect("CMPD_ID");
    action(
        &db,
        c,
        "contaspagar",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-02-01", "BCO_ID": bank, "TITULOS": [payable]}),
    )
    .await
    .expect("pay");
    let got = facts(&db, c).await;
    assert_eq!(got.len(), 6);
    assert_eq!(
        summary(&got[4]),
        s(["P", "compra", "0.00", "80.00", "A", "criado"])
    );
    assert_eq!(
        summary(&got[5]),
        s(["P", "compra", "80.00", "0.00", "Q", "baixa"])
    );
    assert_eq!((got[5].origin_id, got[5].origin_serie.as_str()), (71, ""));
    assert_eq!(got[5].due_on, "2026-02-01");
}
