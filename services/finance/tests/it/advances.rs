//! Advances to suppliers: a payable flagged CMPD_ADIANTAMENTO, paid from an
//! account, listed by `GET /comprapagamentos/adiantamentos/{supplierId}/{bankId}`
//! with what is left to offset, and offset against the supplier's payables
//! (`POST /contaspagar/compensar/{emp}`) without moving money again; the offset
//! reversed gives the advance back.

use erp_platform::db::Db;
use serde_json::{json, Value};

use crate::{account, action, balance, create, d, dec, message, rows};

async fn payable(db: &Db, c: i64, supplier: i64, value: &str, advance: bool) -> i64 {
    create(
        db,
        c,
        "contaspagar",
        json!({"CMPD_COMP_FORN_ID": supplier, "FORN_DESCRICAO": "DISTRIBUIDORA RECIFE LTDA",
               "CMPD_DOCUMENTO": if advance { "ADTO 1" } else { "NF 9" },
               "CMPD_DTA_EMIS": "2026-03-01", "CMPD_DTA_VCTO": "2026-03-31", "CMPD_VLR_TITULO": value,
               "CMPD_ADIANTAMENTO": advance}),
    )
    .await
    .expect("payable")["CMPD_ID"]
        .as_i64()
        .expect("CMPD_ID")
}

async fn advances(db: &Db, c: i64, supplier: i64, bank: i64) -> Vec<Value> {
    let out = action(
        db,
        c,
        "contaspagar",
        "adiantamentos",
        &[
            ("supplierId", &supplier.to_string()),
            ("bankId", &bank.to_string()),
        ],
        json!({}),
    )
    .await
    .expect("advances");
    out.as_array().cloned().unwrap_or_default()
}

async fn title(db: &Db, c: i64, id: i64) -> Value {
    rows(db, c, "contaspagar", json!({"CMPD_ID": id})).await[0].clone()
}

#[tokio::test]
async fn an_advance_pays_the_suppliers_payables_once() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "1000.00").await;
    let other_bank = account(&db, c, "0").await;
    let advance = payable(&db, c, 5, "500.00", true).await;
    let bill = payable(&db, c, 5, "300.00", false).await;
    let big = payable(&db, c, 5, "450.00", false).await;
    let foreign = payable(&db, c, 6, "10.00", false).await;

    // Not paid yet: nothing to offset.
    assert!(advances(&db, c, 5, 0).await.is_empty());
    let r = action(
        &db,
        c,
        "contaspagar",
        "compensar",
        &[("emp", "1")],
        json!({"ADIANTAMENTO": advance, "TITULOS": [bill]}),
    )
    .await;
    assert_eq!(
        message(r),
        format!("Adiantamento {advance} não tem saldo a compensar.")
    );

    // Paid from the account: the money leaves it once.
    action(
        &db,
        c,
        "contaspagar",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-03-02", "BCO_ID": bank, "TITULOS": [advance]}),
    )
    .await
    .expect("pay the advance");
    assert_eq!(balance(&db, c, bank).await, d("500.00"));
    let list = advances(&db, c, 5, bank).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["CMPD_ID"].as_i64(), Some(advance));
    assert_eq!(dec(&list[0]["SALDO"]), d("500.00"));
    assert_eq!(list[0]["BCO_ID"].as_i64(), Some(bank));
    assert_eq!(advances(&db, c, 5, 0).await.len(), 1, "0: any account");
    assert!(advances(&db, c, 5, other_bank).await.is_empty());
    assert!(advances(&db, c, 6, 0).await.is_empty());

    // Refusals: another supplier's title, an advance offsetting an advance, more
    // than the advance holds.
    let offset =
        |titles: Value| json!({"ADIANTAMENTO": advance, "DATA": "2026-03-10", "TITULOS": titles});
    let r = action(
        &db,
        c,
        "contaspagar",
        "compensar",
        &[("emp", "1")],
        offset(json!([foreign])),
    )
    .await;
    assert_eq!(
        message(r),
        format!("Título {foreign} é de outro fornecedor: o adiantamento compensa apenas títulos do seu fornecedor.")
    );
    let r = action(
        &db,
        c,
        "contaspagar",
        "compensar",
        &[("emp", "1")],
        offset(json!([bill, big])),
    )
    .await;
    assert_eq!(
        message(r),
        format!("Valor a compensar (R$ 750,00) maior que o saldo do adiantamento {advance} (R$ 500,00).")
    );
    let r = action(
        &db,
        c,
        "contaspagar",
        "compensar",
        &[("emp", "1")],
        json!({"ADIANTAMENTO": bill, "TITULOS": [big]}),
    )
    .await;
    assert_eq!(message(r), format!("Título {bill} não é um adiantamento."));

    // 300 of the bill and 150 of the big one: no money moves.
    let done = action(
        &db,
        c,
        "contaspagar",
        "compensar",
        &[("emp", "1")],
        offset(json!([bill, {"ID": big, "VALOR": "150.00"}])),
    )
    .await
    .expect("offset");
    assert_eq!(dec(&done["BAIX_TOTAL"]), d("450.00"));
    assert_eq!(done["baixas"][0]["MBCA_ID"], Value::Null);
    assert_eq!(balance(&db, c, bank).await, d("500.00"), "no money moved");
    assert_eq!(title(&db, c, bill).await["CMPD_SITUACAO"], "Q");
    let b = title(&db, c, big).await;
    assert_eq!(
        (b["CMPD_SITUACAO"].as_str(), dec(&b["SALDO"])),
        (Some("P"), d("300.00"))
    );
    let a = title(&db, c, advance).await;
    assert_eq!(dec(&a["CMPD_VLR_COMPENSADO"]), d("450.00"));
    assert_eq!(
        dec(&advances(&db, c, 5, bank).await[0]["SALDO"]),
        d("50.00")
    );

    // The advance's own payment cannot be reversed while it was offset.
    let paid = action(
        &db,
        c,
        "contaspagar",
        "baixas",
        &[("id", &advance.to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("advance settlements");
    let own = paid[0]["BAIX_ID"].to_string();
    let r = action(
        &db,
        c,
        "contaspagar",
        "estorno",
        &[("id", &own), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(
        message(r),
        format!("O adiantamento {advance} já foi compensado em outros títulos: estorne as compensações antes.")
    );

    // Reversing the offset of the bill: it reopens, the advance gets 300 back and
    // still no money moves.
    let bill_offset = done["baixas"][0]["BAIX_ID"].to_string();
    let r = action(
        &db,
        c,
        "contaspagar",
        "estorno",
        &[("id", &bill_offset), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("reverse the offset");
    assert_eq!(r["MBCA_ID"], Value::Null);
    assert_eq!(title(&db, c, bill).await["CMPD_SITUACAO"], "A");
    assert_eq!(
        dec(&title(&db, c, advance).await["CMPD_VLR_COMPENSADO"]),
        d("150.00")
    );
    assert_eq!(
        dec(&advances(&db, c, 5, bank).await[0]["SALDO"]),
        d("350.00")
    );
    assert_eq!(balance(&db, c, bank).await, d("500.00"));

    // Another tenant sees no advance.
    assert!(advances(&db, crate::client(), 5, 0).await.is_empty());
}

#[tokio::test]
async fn a_purchase_instalment_cannot_be_an_advance() {
    let db = crate::db().await;
    let c = crate::client();
    let fact = crate::events::message(
        c,
        &format!("compra-{c}-88"),
        erp_finance::events::COMPRA_FINALIZADA,
        crate::events::finalized(c, 88, "20.00", vec![]),
    );
    crate::events::deliver(
        &db,
        "finance-compra-finalizada",
        c,
        erp_finance::events::FinalizedPurchase,
        fact,
    )
    .await
    .expect("purchase");
    let id =
        rows(&db, c, "contaspagar", json!({"CMPD_COMP_ID": 88})).await[0]["CMPD_ID"].to_string();
    let res = crate::resource("contaspagar");
    let r = crate::update_row(&db, c, &res, &id, json!({"CMPD_ADIANTAMENTO": true})).await;
    assert_eq!(message(r), erp_finance::resources::titles::ADVANCE_MANUAL);
}
