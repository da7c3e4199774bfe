//! Settlement over the real database: partial then full (with the late charges of
//! the parameters), reversal, bank movements and balances; two settlements of one
//! title at once; the quick settlement of payables, all or nothing; the lists of
//! the screens; manual movements; and another tenant seeing nothing.

use erp_platform::db::Db;
use serde_json::{json, Value};

use crate::{account, action, balance, count, create, d, dec, parameters, resource, rows};

async fn receivable(db: &Db, c: i64, customer: i64, due: &str, value: &str) -> i64 {
    create(
        db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": customer, "CLI_DESCRICAO": "OFICINA DO JOÃO", "CRCB_DOCUMENTO": "NF 10",
               "CRCB_DTA_EMIS": "2026-01-01", "CRCB_DTA_VCTO": due, "CRCB_VLR_CTA": value}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID")
}

async fn payable(db: &Db, c: i64, due: &str, value: &str) -> i64 {
    create(
        db,
        c,
        "contaspagar",
        json!({"CMPD_COMP_FORN_ID": 5, "FORN_DESCRICAO": "DISTRIBUIDORA RECIFE LTDA", "CMPD_DOCUMENTO": "NF 77",
               "CMPD_DTA_EMIS": "2026-01-01", "CMPD_DTA_VCTO": due, "CMPD_VLR_TITULO": value}),
    )
    .await
    .expect("payable")["CMPD_ID"]
        .as_i64()
        .expect("CMPD_ID")
}

async fn title(db: &Db, c: i64, name: &str, id: i64) -> Value {
    let key = if name == "contasreceber" {
        "CRCB_ID"
    } else {
        "CMPD_ID"
    };
    let mut filter = serde_json::Map::new();
    filter.insert(key.into(), json!(id));
    let mut found = rows(db, c, name, Value::Object(filter)).await;
    assert_eq!(found.len(), 1, "{name} {id}");
    found.remove(0)
}

fn message(r: erp_platform::Result<Value>) -> String {
    crate::message(r)
}

#[tokio::test]
async fn partial_then_full_settlement_then_reversals_keep_the_account_right() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "1000.00").await;
    parameters(
        &db,
        c,
        json!({"PARF_PERC_JUROS_DIA": "0.0333", "PARF_PERC_MULTA": "2", "PARF_DIAS_CARENCIA": 3,
               "PARF_BCO_ID_RECEBER": bank}),
    )
    .await;
    let id = receivable(&db, c, 7, "2026-03-10", "300.00").await;
    let key = id.to_string();

    // Shown before confirming: 200,00 ten days late (beyond 3 of grace).
    let preview = action(
        &db,
        c,
        "contasreceber",
        "calculo",
        &[("emp", "1")],
        json!({"DATA": "2026-03-20", "TITULOS": [{"ID": id, "VALOR": "200.00"}]}),
    )
    .await
    .expect("preview");
    let p = &preview[0];
    assert_eq!(
        (
            p["DIAS_ATRASO"].as_i64(),
            dec(&p["JUROS"]),
            dec(&p["MULTA"]),
            dec(&p["TOTAL"]),
            p["PODE_BAIXAR"].as_bool()
        ),
        (Some(10), d("0.67"), d("4.00"), d("204.67"), Some(true))
    );

    // Partial, on the due date, into the parameters' account: no charges.
    let out = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-03-10", "TITULOS": [{"ID": id, "VALOR": "100.00"}]}),
    )
    .await
    .expect("partial");
    assert_eq!(out["msg"], "Baixa realizada com sucesso.");
    let first = out["baixas"][0]["BAIX_ID"].as_i64().expect("BAIX_ID");
    assert_eq!(dec(&out["baixas"][0]["BAIX_TOTAL"]), d("100.00"));
    assert_eq!(dec(&out["baixas"][0]["SALDO"]), d("200.00"));
    let t = title(&db, c, "contasreceber", id).await;
    assert_eq!(
        (
            t["CRCB_SITUACAO"].as_str(),
            dec(&t["CRCB_VLR_PAGO"]),
            dec(&t["SALDO"]),
            t["CRCB_DTA_PAG"].as_str()
        ),
        (Some("P"), d("100.00"), d("200.00"), Some("2026-03-10"))
    );
    assert_eq!(balance(&db, c, bank).await, d("1100.00"));

    // A settled title is not edited or deleted by hand.
    let res = resource("contasreceber");
    let e = crate::update_row(&db, c, &res, &key, json!({"CRCB_OBS": "x"})).await;
    assert_eq!(message(e), erp_finance::resources::titles::SETTLED);
    let e = crate::delete_row(&db, c, &res, &key).await;
    assert_eq!(message(e), erp_finance::resources::titles::SETTLED);

    // The rest, ten days late: interest and fine from the parameters.
    let out = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-03-20", "FRMP_ID": null, "TITULOS": [id]}),
    )
    .await
    .expect("full");
    let second = out["baixas"][0]["BAIX_ID"].as_i64().expect("BAIX_ID");
    let b = &out["baixas"][0];
    assert_eq!(
        (
            dec(&b["BAIX_VALOR"]),
            dec(&b["BAIX_JUROS"]),
            dec(&b["BAIX_MULTA"]),
            dec(&b["BAIX_TOTAL"]),
            dec(&b["SALDO"])
        ),
        (d("200.00"), d("0.67"), d("4.00"), d("204.67"), d("0"))
    );
    let t = title(&db, c, "contasreceber", id).await;
    assert_eq!(
        (
            t["CRCB_SITUACAO"].as_str(),
            dec(&t["SALDO"]),
            dec(&t["CRCB_VLR_JUROS"]),
            dec(&t["CRCB_VLR_MULTA"])
        ),
        (Some("Q"), d("0"), d("0.67"), d("4.00"))
    );
    assert_eq!(balance(&db, c, bank).await, d("1304.67"));
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"TITULOS": [id]}),
    )
    .await;
    assert_eq!(message(e), format!("Título {id} já está pago."));
    let check = action(
        &db,
        c,
        "contasreceber",
        "verifica",
        &[("id", &key), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("verifica");
    assert_eq!(
        (check["PODE_BAIXAR"].as_bool(), check["SITUACAO"].as_str()),
        (Some(false), Some("Q"))
    );
    let listed = action(
        &db,
        c,
        "contasreceber",
        "baixas",
        &[("id", &key), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("settlements");
    assert_eq!(listed.as_array().map(Vec::len), Some(2));
    assert_eq!(listed[0]["BAIX_ID"].as_i64(), Some(second), "newest first");

    // The settlement's movement is not edited by hand.
    let moves = rows(
        &db,
        c,
        "movimentacaobancaria",
        json!({"MBCA_BAIX_ID": second}),
    )
    .await;
    assert_eq!(moves.len(), 1);
    assert_eq!(
        (
            moves[0]["MBCA_TIPO"].as_str(),
            moves[0]["MBCA_ORIGEM"].as_str()
        ),
        (Some("C"), Some("BAIXA"))
    );
    let mv = resource("movimentacaobancaria");
    let mkey = moves[0]["MBCA_ID"].to_string();
    let e = crate::update_row(&db, c, &mv, &mkey, json!({"MBCA_VALOR": "1.00"})).await;
    assert_eq!(
        message(e),
        erp_finance::resources::movements::FROM_SETTLEMENT
    );
    let e = crate::delete_row(&db, c, &mv, &mkey).await;
    assert_eq!(
        message(e),
        erp_finance::resources::movements::FROM_SETTLEMENT
    );

    // Reversed: the title reopens by what that settlement took and the movement is
    // undone by an opposite one.
    let out = action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &second.to_string()), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("reversal");
    assert_eq!(
        (out["msg"].as_str(), out["CRCB_SITUACAO"].as_str()),
        (Some("Baixa estornada com sucesso."), Some("P"))
    );
    assert_eq!(dec(&out["SALDO"]), d("200.00"));
    let t = title(&db, c, "contasreceber", id).await;
    assert_eq!(
        (
            dec(&t["CRCB_VLR_PAGO"]),
            dec(&t["CRCB_VLR_JUROS"]),
            dec(&t["CRCB_VLR_MULTA"]),
            t["CRCB_DTA_PAG"].as_str()
        ),
        (d("100.00"), d("0"), d("0"), Some("2026-03-10"))
    );
    assert_eq!(balance(&db, c, bank).await, d("1100.00"));
    let moves = rows(
        &db,
        c,
        "movimentacaobancaria",
        json!({"MBCA_BAIX_ID": second, "ORDENACAO": "MBCA_ID"}),
    )
    .await;
    assert_eq!(
        moves
            .iter()
            .map(|m| (
                m["MBCA_TIPO"].as_str().unwrap_or_default().to_string(),
                m["MBCA_ORIGEM"].as_str().unwrap_or_default().to_string(),
                dec(&m["MBCA_VALOR"])
            ))
            .collect::<Vec<_>>(),
        [
            ("C".to_string(), "BAIXA".to_string(), d("204.67")),
            ("D".to_string(), "ESTORNO".to_string(), d("204.67"))
        ]
    );
    let e = action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &second.to_string()), ("emp", "1")],
        Value::Null,
    )
    .await;
    assert_eq!(message(e), format!("Baixa {second} já foi estornada."));
    let out = action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &first.to_string()), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("first reversal");
    assert_eq!(out["CRCB_SITUACAO"], "A");
    let t = title(&db, c, "contasreceber", id).await;
    assert_eq!(
        (dec(&t["SALDO"]), t["CRCB_DTA_PAG"].clone()),
        (d("300.00"), Value::Null)
    );
    assert_eq!(balance(&db, c, bank).await, d("1000.00"));
    // Its history stays: the title can no longer be deleted.
    let e = crate::delete_row(&db, c, &res, &key).await;
    assert_eq!(
        message(e),
        "Título com baixas estornadas não pode ser excluído."
    );

    // The settled receivables of March: none standing, two reversed.
    let period = json!({"DATA_INI": "2026-03-01", "DATA_FIM": "2026-03-31"});
    let settled = action(
        &db,
        c,
        "contasreceber",
        "baixadas",
        &[("emp", "1")],
        period.clone(),
    )
    .await
    .expect("period");
    assert_eq!(settled, json!([]));
    let mut with_reversed = period.clone();
    with_reversed["ESTORNADAS"] = json!(true);
    let settled = action(
        &db,
        c,
        "contasreceber",
        "baixadas",
        &[("emp", "1")],
        with_reversed,
    )
    .await
    .expect("reversed");
    assert_eq!(settled.as_array().map(Vec::len), Some(2));
    assert_eq!(settled[0]["CLI_DESCRICAO"], "OFICINA DO JOÃO");
    action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-03-09", "TITULOS": [{"ID": id, "DESCONTO": "5.00"}]}),
    )
    .await
    .expect("with discount");
    let settled = action(&db, c, "contasreceber", "baixadas", &[("emp", "1")], period)
        .await
        .expect("period");
    assert_eq!(settled.as_array().map(Vec::len), Some(1));
    assert_eq!(
        (
            dec(&settled[0]["BAIX_VALOR"]),
            dec(&settled[0]["BAIX_TOTAL"])
        ),
        (d("300.00"), d("295.00"))
    );
    assert_eq!(balance(&db, c, bank).await, d("1295.00"));
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixadas",
        &[("emp", "1")],
        json!({"CLIENTE": 1}),
    )
    .await;
    assert_eq!(message(e), "Filtro inválido: 'CLIENTE'.");
}

/// Settles `body` in a transaction of its own, committed when it succeeds.
async fn settle(db: &Db, c: i64, body: Value) -> erp_platform::Result<Value> {
    action(
        &db.clone(),
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        body,
    )
    .await
}

#[tokio::test]
async fn two_settlements_of_one_title_at_once_never_overpay() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "0").await;
    let id = receivable(&db, c, 7, "2030-01-01", "500.00").await;

    // The first holds the title (its transaction still open) while the second
    // starts; the second waits, then sees what the first left.
    let res = resource("contasreceber");
    let call = res
        .actions
        .iter()
        .find(|a| a.name == "baixa")
        .expect("baixa")
        .clone();
    let params = std::collections::HashMap::from([("emp".to_string(), "1".to_string())]);
    let body =
        json!({"DATA": "2026-06-01", "BCO_ID": bank, "TITULOS": [{"ID": id, "VALOR": "300.00"}]});
    let mut first = db.begin_tenant(c).await.expect("tx");
    call.run(
        &mut first,
        &res,
        &crate::caller(c),
        Some(1),
        &params,
        body.clone(),
    )
    .await
    .expect("first");
    let second = tokio::spawn({
        let (db, body) = (db.clone(), body.clone());
        async move { settle(&db, c, body).await }
    });
    // The second settlement waits on the title's row lock (seen in pg_stat_activity),
    // not on a clock.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&db.pool)
        .await
        .expect("activity");
        if waiting > 0 {
            break;
        }
        assert!(
            !second.is_finished(),
            "the second settlement did not wait for the title"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "the second settlement never waited"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(!second.is_finished(), "the second waits for the title");
    first.commit().await.expect("commit");
    let e = second.await.expect("task");
    assert_eq!(
        message(e),
        format!("Valor da baixa do título {id} (R$ 300,00) maior que o saldo (R$ 200,00).")
    );
    let t = title(&db, c, "contasreceber", id).await;
    assert_eq!(
        (dec(&t["CRCB_VLR_PAGO"]), dec(&t["SALDO"])),
        (d("300.00"), d("200.00"))
    );
    assert_eq!(balance(&db, c, bank).await, d("300.00"));

    // Both for the whole balance, racing: one pays, the other is told it is paid.
    let body = json!({"DATA": "2026-06-01", "BCO_ID": bank, "TITULOS": [id]});
    let (a, b) = tokio::join!(settle(&db, c, body.clone()), settle(&db, c, body));
    let outcomes = [a.is_ok(), b.is_ok()];
    assert_eq!(outcomes.iter().filter(|ok| **ok).count(), 1, "{outcomes:?}");
    let refused = if a.is_ok() { b } else { a };
    assert_eq!(message(refused), format!("Título {id} já está pago."));
    assert_eq!(balance(&db, c, bank).await, d("500.00"));
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM finance.baixas WHERE NOT baix_estornada"
        )
        .await,
        2
    );
}

#[tokio::test]
async fn payables_are_settled_quickly_all_or_nothing() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "2000.00").await;
    parameters(
        &db,
        c,
        json!({"PARF_PERC_JUROS_DIA": "0.0333", "PARF_PERC_MULTA": "2", "PARF_DIAS_CARENCIA": 0,
               "PARF_BCO_ID_PAGAR": bank}),
    )
    .await;
    let a = payable(&db, c, "2026-01-10", "100.00").await;
    let b = payable(&db, c, "2026-01-20", "50.00").await;
    let x = payable(&db, c, "2026-02-01", "70.00").await;

    let listed = action(
        &db,
        c,
        "baixacontaspagar",
        "filtros",
        &[("emp", "1")],
        json!({"CMPD_COMP_FORN_ID": 5, "DATA_BAIXA": "2026-01-20", "ORDENACAO": "CMPD_DTA_VCTO", "LIMIT": 2}),
    )
    .await
    .expect("filtros");
    assert_eq!(listed["count"], 3);
    let dados = listed["dados"].as_array().expect("dados");
    assert_eq!(dados.len(), 2, "a page of LIMIT rows, the count of all");
    assert_eq!(dados[0]["CMPD_ID"].as_i64(), Some(a));
    assert_eq!(dados[0]["FORN_DESCRICAO"], "DISTRIBUIDORA RECIFE LTDA");
    // 100 x 0,0333% x 10 days = 0,333 -> 0,33; fine 2,00.
    assert_eq!(
        (
            dados[0]["DIAS_ATRASO"].as_i64(),
            dec(&dados[0]["JUROS_CALC"]),
            dec(&dados[0]["MULTA_CALC"]),
            dec(&dados[0]["TOTAL_CALC"])
        ),
        (Some(10), d("0.33"), d("2.00"), d("102.33"))
    );
    assert_eq!(
        (
            dados[1]["DIAS_ATRASO"].as_i64(),
            dec(&dados[1]["TOTAL_CALC"])
        ),
        (Some(0), d("50.00"))
    );

    // One of the list already paid: nothing of the list is settled.
    action(
        &db,
        c,
        "contaspagar",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-01-25", "TITULOS": [x]}),
    )
    .await
    .expect("paid");
    assert_eq!(balance(&db, c, bank).await, d("1930.00"));
    let e = action(
        &db,
        c,
        "baixacontaspagar",
        "rapida",
        &[("emp", "1")],
        json!({"DATA": "2026-01-20", "TITULOS": [a, b, x]}),
    )
    .await;
    assert_eq!(message(e), format!("Título {x} já está pago."));
    for id in [a, b] {
        assert_eq!(title(&db, c, "contaspagar", id).await["CMPD_SITUACAO"], "A");
    }
    assert_eq!(balance(&db, c, bank).await, d("1930.00"));

    // The quick settlement pays each balance with its charges (values sent are not
    // taken).
    let out = action(
        &db,
        c,
        "baixacontaspagar",
        "rapida",
        &[("emp", "1")],
        json!({"DATA": "2026-01-20", "TITULOS": [{"ID": a, "VALOR": "1.00"}, b]}),
    )
    .await
    .expect("quick");
    assert_eq!(out["msg"], "Baixas realizadas com sucesso.");
    assert_eq!(dec(&out["BAIX_TOTAL"]), d("152.33"));
    assert_eq!(balance(&db, c, bank).await, d("1777.67"));
    let t = title(&db, c, "contaspagar", a).await;
    assert_eq!(
        (
            t["CMPD_SITUACAO"].as_str(),
            t["CMPD_DTA_MOV"].as_str(),
            dec(&t["CMPD_VLR_JUROS"])
        ),
        (Some("Q"), Some("2026-01-20"), d("0.33"))
    );
    let moves = rows(&db, c, "movimentacaobancaria", json!({"MBCA_TIPO": "D"})).await;
    assert_eq!(moves.len(), 3, "one debit per settled payable");

    let open = action(
        &db,
        c,
        "baixacontaspagar",
        "filtros",
        &[("emp", "1")],
        json!({"CMPD_COMP_FORN_ID": 5}),
    )
    .await
    .expect("open");
    assert_eq!(
        (
            open["count"].as_i64(),
            open["dados"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let paid = action(
        &db,
        c,
        "baixacontaspagar",
        "filtros",
        &[("emp", "1")],
        json!({"CMPD_SITUACAO": "Q"}),
    )
    .await
    .expect("paid");
    assert_eq!(paid["count"], 3);
    let check = action(
        &db,
        c,
        "baixacontaspagar",
        "verifica",
        &[("id", &a.to_string()), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("verifica");
    assert_eq!(
        (check["PODE_BAIXAR"].as_bool(), check["msg"].as_str()),
        (
            Some(false),
            Some(format!("Título {a} já está pago.").as_str())
        )
    );

    // The settlement screen's register writes no title; it reverses settlements.
    let e = create(&db, c, "baixacontaspagar", json!({"CMPD_COMP_FORN_ID": 5})).await;
    assert_eq!(
        message(e),
        erp_finance::resources::titles::SETTLEMENT_SCREEN_READ_ONLY
    );
    let settled = action(
        &db,
        c,
        "contaspagar",
        "baixas",
        &[("id", &b.to_string()), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("b's settlements");
    let sid = settled[0]["BAIX_ID"].to_string();
    action(
        &db,
        c,
        "baixacontaspagar",
        "estorno",
        &[("id", &sid), ("emp", "1")],
        Value::Null,
    )
    .await
    .expect("reversal");
    assert_eq!(title(&db, c, "contaspagar", b).await["CMPD_SITUACAO"], "A");
    assert_eq!(balance(&db, c, bank).await, d("1827.67"));
    // A receivable's reversal call does not reverse a payable's settlement.
    let e = action(
        &db,
        c,
        "contasreceber",
        "estorno",
        &[("id", &sid), ("emp", "1")],
        Value::Null,
    )
    .await;
    assert_eq!(message(e), format!("Baixa {sid} não encontrada."));
}

#[tokio::test]
async fn a_customers_titles_manual_movements_and_validations() {
    let db = crate::db().await;
    let c = crate::client();
    let bank = account(&db, c, "100.00").await;
    let open = receivable(&db, c, 7, "2026-01-01", "80.00").await;
    let paid = receivable(&db, c, 7, "2026-01-05", "20.00").await;
    receivable(&db, c, 8, "2026-01-01", "10.00").await;
    action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "DATA": "2026-01-05", "TITULOS": [paid]}),
    )
    .await
    .expect("paid");
    let of = |kind: &'static str| {
        let db = db.clone();
        async move {
            action(
                &db,
                c,
                "contasreceber",
                "cliente",
                &[("emp", "1"), ("cliId", "7"), ("type", kind)],
                Value::Null,
            )
            .await
        }
    };
    let ids = |v: Value| -> Vec<i64> {
        v.as_array()
            .map(|a| a.iter().filter_map(|r| r["CRCB_ID"].as_i64()).collect())
            .unwrap_or_default()
    };
    assert_eq!(ids(of("abertos").await.expect("open")), [open]);
    assert_eq!(ids(of("pagos").await.expect("paid")), [paid]);
    assert_eq!(ids(of("todos").await.expect("all")), [open, paid]);
    assert_eq!(ids(of("vencidos").await.expect("overdue")), [open]);
    assert_eq!(
        message(of("x").await),
        "Tipo inválido: informe abertos, pagos, vencidos ou todos."
    );

    // Instalments of a value by a condition, nothing written.
    let cond = create(&db, c, "condicaopagamento", json!({"CNDP_DESCRICAO": "30/60/90", "CNDP_PARCELAS": 3, "CNDP_DIAS_PRIMEIRA": 30, "CNDP_INTERVALO": 30}))
        .await
        .expect("condition");
    let sim = action(
        &db,
        c,
        "contasreceber",
        "simular",
        &[("emp", "1")],
        json!({"TOTAL": "100.00", "DATA": "2026-01-10", "CNDP_ID": cond["CNDP_ID"]}),
    )
    .await
    .expect("simulate");
    assert_eq!(
        sim,
        json!([
            {"PARCELA": 1, "VENCIMENTO": "2026-02-09", "VALOR": 33.34},
            {"PARCELA": 2, "VENCIMENTO": "2026-03-11", "VALOR": 33.33},
            {"PARCELA": 3, "VENCIMENTO": "2026-04-10", "VALOR": 33.33}
        ])
    );

    // Manual movements move the balance; a missing account is refused.
    assert_eq!(balance(&db, c, bank).await, d("120.00"));
    let m = create(&db, c, "movimentacaobancaria", json!({"MBCA_BCO_ID": bank, "MBCA_DTA_MOV": "2026-01-06", "MBCA_TIPO": "D", "MBCA_VALOR": "30.00", "MBCA_HISTORICO": "TARIFA BANCÁRIA"}))
        .await
        .expect("fee");
    assert_eq!(m["MBCA_ORIGEM"], "MANUAL");
    assert_eq!(balance(&db, c, bank).await, d("90.00"));
    let mv = resource("movimentacaobancaria");
    crate::update_row(
        &db,
        c,
        &mv,
        &m["MBCA_ID"].to_string(),
        json!({"MBCA_TIPO": "C"}),
    )
    .await
    .expect("now a credit");
    assert_eq!(balance(&db, c, bank).await, d("150.00"));
    crate::delete_row(&db, c, &mv, &m["MBCA_ID"].to_string())
        .await
        .expect("removed");
    assert_eq!(balance(&db, c, bank).await, d("120.00"));
    let e = create(&db, c, "movimentacaobancaria", json!({"MBCA_BCO_ID": 999, "MBCA_DTA_MOV": "2026-01-06", "MBCA_TIPO": "C", "MBCA_VALOR": "1.00", "MBCA_HISTORICO": "X"}))
        .await;
    assert_eq!(message(e), erp_finance::bank::UNKNOWN_ACCOUNT);

    // Validations of titles and settlements.
    let e = create(&db, c, "contasreceber", json!({"CRCB_CLI_ID": 7, "CRCB_DTA_EMIS": "2026-02-01", "CRCB_DTA_VCTO": "2026-01-01", "CRCB_VLR_CTA": "1.00"}))
        .await;
    assert_eq!(
        message(e),
        "A data de vencimento não pode ser anterior à data de emissão."
    );
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"TITULOS": [open]}),
    )
    .await;
    assert_eq!(
        message(e),
        "Informe a conta bancária da baixa (ou a conta padrão nos parâmetros financeiros)."
    );
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "TITULOS": [open, open]}),
    )
    .await;
    assert_eq!(
        message(e),
        format!("Título {open} informado mais de uma vez.")
    );
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "TITULOS": [{"ID": open, "VALOR": "1,005"}]}),
    )
    .await;
    assert_eq!(message(e), "Valor aceita no máximo 2 casas decimais.");
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "TITULOS": [{"ID": open, "VALOR": "10.00", "DESCONTO": "10.01"}]}),
    )
    .await;
    assert_eq!(
        message(e),
        format!("O desconto do título {open} não pode ser maior que o valor da baixa.")
    );
    let e = action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": 999, "TITULOS": [open]}),
    )
    .await;
    assert_eq!(message(e), erp_finance::bank::UNKNOWN_ACCOUNT);
    assert_eq!(
        title(&db, c, "contasreceber", open).await["CRCB_SITUACAO"],
        "A",
        "nothing of a refused settlement stays"
    );
    let e = create(
        &db,
        c,
        "parametrosfinanceiro",
        json!({"PARF_PERC_MULTA": "2"}),
    )
    .await;
    assert!(e.is_ok(), "{e:?}");
    let e = create(
        &db,
        c,
        "parametrosfinanceiro",
        json!({"PARF_PERC_MULTA": "3"}),
    )
    .await;
    assert_eq!(
        message(e),
        "Os parâmetros financeiros desta empresa já estão cadastrados."
    );
}

#[tokio::test]
async fn another_tenant_sees_and_settles_nothing() {
    let db = crate::db().await;
    let (c, other) = (crate::client(), crate::client());
    let bank = account(&db, c, "0").await;
    let id = receivable(&db, c, 7, "2026-01-01", "80.00").await;
    action(
        &db,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"BCO_ID": bank, "TITULOS": [{"ID": id, "VALOR": "30.00"}]}),
    )
    .await
    .expect("settled");
    account(&db, other, "0").await;

    assert!(rows(&db, other, "contasreceber", json!({}))
        .await
        .is_empty());
    assert!(rows(&db, other, "movimentacaobancaria", json!({}))
        .await
        .is_empty());
    let key = id.to_string();
    for (call, params, body) in [
        (
            "verifica",
            vec![("id", key.as_str()), ("emp", "1")],
            Value::Null,
        ),
        (
            "baixas",
            vec![("id", key.as_str()), ("emp", "1")],
            Value::Null,
        ),
        (
            "baixa",
            vec![("emp", "1")],
            json!({"BCO_ID": 1, "TITULOS": [id]}),
        ),
    ] {
        let e = action(&db, other, "contasreceber", call, &params, body).await;
        assert_eq!(message(e), format!("Título {id} não encontrado."), "{call}");
    }
    let e = action(
        &db,
        other,
        "contasreceber",
        "estorno",
        &[("id", "1"), ("emp", "1")],
        Value::Null,
    )
    .await;
    assert_eq!(message(e), "Baixa 1 não encontrada.");
    let settled = action(
        &db,
        other,
        "contasreceber",
        "baixadas",
        &[("emp", "1")],
        json!({}),
    )
    .await
    .expect("list");
    assert_eq!(settled, json!([]));
    for t in [
        "contasreceber",
        "baixas",
        "movimentacaobancaria",
        "documentos",
    ] {
        assert_eq!(
            count(&db, other, &format!("SELECT count(*) FROM finance.{t}")).await,
            0,
            "{t}"
        );
    }
    assert_eq!(
        dec(&title(&db, c, "contasreceber", id).await["SALDO"]),
        d("50.00")
    );
}
