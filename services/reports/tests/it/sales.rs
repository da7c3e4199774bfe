//! The sales reports from the invoiced orders' facts: per order, per product
//! (grouped), the ABC curves with their months over whole and cut periods (by
//! item and by customer), the commission; a redelivered sale changes nothing;
//! an empty period and refusals in pt-BR.

use serde_json::json;

use crate::{call, line, period, sale, seed, with, CTX, ONE_AT_A_TIME};

#[tokio::test]
async fn sales_reports_from_the_facts() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let db = CTX.db().await;
    let c = CTX.client();
    seed(&db, c).await;
    // The same order again under another event id changes nothing.
    assert!(
        sale(
            &db,
            c,
            &format!("s1-again-{c}"),
            10,
            7,
            "2026-10-15",
            4,
            vec![line("P", 1, 1, "20", "35", "700.00")]
        )
        .await
    );

    // Per order.
    let out = call(&db, c, "relatorio_vendas", &[], period())
        .await
        .expect("vendas");
    let rows = out["dados"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["PEDIDO"], "10/1");
    assert_eq!(rows[0]["CLIENTE"], "OFICINA DO JOÃO");
    assert_eq!(rows[0]["FORMA_PAGAMENTO"], "PIX");
    assert_eq!(out["totais"]["VALOR_TOTAL"], json!(1000));

    // Per product, grouped by group: FILTROS 1 (700 + 100), ÓLEOS 2 (150), 3 (50).
    let out = call(&db, c, "relatorio_vendasprodutos", &[], period())
        .await
        .expect("produtos");
    let rows = out["dados"].as_array().expect("rows");
    let got: Vec<(String, i64, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["GRUPO"].as_str().unwrap_or("").into(),
                r["PROD_ID"].as_i64().unwrap_or(0),
                r["QTDE"].to_string(),
                r["VALOR"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "FILTROS".to_string(),
                1,
                "22".to_string(),
                "800".to_string()
            ),
            ("ÓLEOS".to_string(), 2, "5".to_string(), "150".to_string()),
            ("ÓLEOS".to_string(), 3, "2.5".to_string(), "50".to_string()),
        ]
    );
    assert_eq!(out["totais"], json!({"QTDE": 29.5, "VALOR": 1000}));
    // A group filter.
    let out = call(
        &db,
        c,
        "relatorio_vendasprodutos",
        &[],
        with(period(), "GRUP_ID", json!(2)),
    )
    .await
    .expect("grupo");
    assert_eq!(out["totais"]["VALOR"], json!(200));

    // ABC of products: 800 (80%: A), 150 (95%: B, 80 before), 50 (C, 95 before);
    // monthly: product 1 had 700 in October, 100 in November.
    let out = call(&db, c, "relatorio_curvaprodutos", &[], period())
        .await
        .expect("curva");
    let rows = out["dados"].as_array().expect("rows");
    let classes: Vec<&str> = rows
        .iter()
        .map(|r| r["CLASSE"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(classes, vec!["A", "B", "C"]);
    assert_eq!(rows[0]["PRODUTO"], "FILTRO DE ÓLEO PSL 55");
    assert_eq!(rows[0]["PARTICIPACAO"], json!(80));
    assert_eq!(rows[1]["ACUMULADO"], json!(95));
    assert_eq!(rows[0]["M10"], json!(700));
    assert_eq!(rows[0]["M11"], json!(100));
    assert_eq!(rows[0]["M13"], json!(800));
    assert_eq!(out["totais"]["M13"], json!(1000));
    // Periods that cut months read whole months from the monthly rollup and the
    // other days from the daily one: every sale is counted once, and only
    // inside its period (by item and, through another rollup, by customer).
    for (from, to, by_item, by_customer) in [
        (
            "2026-10-15",
            "2026-11-19",
            vec![(1, 800), (2, 150)],
            vec![(7, 850), (8, 100)],
        ),
        (
            "2026-10-16",
            "2026-11-30",
            vec![(1, 100), (3, 50)],
            vec![(8, 100), (7, 50)],
        ),
        (
            "2026-11-01",
            "2026-11-30",
            vec![(1, 100), (3, 50)],
            vec![(8, 100), (7, 50)],
        ),
        ("2026-11-04", "2026-11-20", vec![(3, 50)], vec![(7, 50)]),
        (
            "2026-09-01",
            "2026-12-31",
            vec![(1, 800), (2, 150), (3, 50)],
            vec![(7, 900), (8, 100)],
        ),
    ] {
        let body = json!({"DATA_INI": from, "DATA_FIM": to});
        for (report, key, want) in [
            ("relatorio_curvaprodutos", "PROD_ID", &by_item),
            ("relatorio_curvaclientes", "CLI_ID", &by_customer),
        ] {
            let out = call(&db, c, report, &[], body.clone()).await.expect(report);
            let got: Vec<(i64, i64)> = out["dados"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| {
                    (
                        r[key].as_i64().unwrap_or(0),
                        r["VALOR"].as_i64().unwrap_or(-1),
                    )
                })
                .collect();
            assert_eq!(&got, want, "{report} {from}..{to}");
        }
    }
    // Customers: 7 bought 900, 8 bought 100.
    let out = call(&db, c, "relatorio_curvaclientes", &[], period())
        .await
        .expect("clientes");
    assert_eq!(out["dados"][0]["CLIENTE"], "OFICINA DO JOÃO");
    assert_eq!(out["dados"][0]["VALOR"], json!(900));
    // Commission: Carlos sold 900 through customer 7 at 5% = 45.
    let out = call(&db, c, "relatorio_comissao", &[], period())
        .await
        .expect("comissao");
    assert_eq!(
        out["dados"],
        json!([{"COLA_ID": 3, "REPRESENTANTE": "Carlos Vendedor", "CLIENTES": 1,
        "VALOR_VENDAS": 900, "PERC_COMISSAO": 5, "VALOR_COMISSAO": 45}])
    );

    // An empty period answers the empty list (204 at the gateway).
    let out = call(
        &db,
        c,
        "relatorio_vendas",
        &[],
        json!({"DATA_INI": "2025-01-01", "DATA_FIM": "2025-01-31"}),
    )
    .await
    .expect("empty");
    assert_eq!(out, json!([]));
    // Refusals in pt-BR.
    let e = call(
        &db,
        c,
        "relatorio_vendas",
        &[],
        json!({"DATA_INI": "2026-11-30", "DATA_FIM": "2026-11-01"}),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.public_message()).as_deref(),
        Some("A data final deve ser igual ou posterior à inicial.")
    );
    let e = call(
        &db,
        c,
        "relatorio_vendas",
        &[],
        with(period(), "FORMATO", json!("doc")),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.public_message()).as_deref(),
        Some("Formato inválido: use json, pdf ou xlsx.")
    );
    let e = call(
        &db,
        c,
        "relatorio_vendas",
        &[],
        json!({"DATA_FIM": "2026-11-01"}),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.public_message()).as_deref(),
        Some("Data inicial é obrigatório!")
    );

    // Another tenant sees nothing, and its fact about this client is refused.
    let other = CTX.client();
    let out = call(&db, other, "relatorio_vendas", &[], period())
        .await
        .expect("other");
    assert_eq!(out, json!([]));
}
