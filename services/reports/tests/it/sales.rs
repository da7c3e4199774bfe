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

/// A delivered batch is folded into the rollups at once: orders that share a
/// day, item and customer, the same order again under another event id inside
/// the batch, and a second tenant's batch; the rollups equal the sums of the
/// lines, and a batch with a bad fact is applied one by one (the bad fact
/// refused, the others kept).
#[tokio::test]
async fn a_batch_of_invoices_is_folded_into_the_rollups_once() {
    use erp_platform::bus::consumer::apply_delivered;
    use erp_platform::bus::{Effect, Outcome};
    use prost::Message as _;
    use std::sync::Arc;

    let _turn = ONE_AT_A_TIME.lock().await;
    let db = CTX.db().await;
    let c = CTX.client();
    let effect: Arc<dyn Effect> = Arc::new(erp_reports::facts::InvoicedOrder);
    let fact = |id: &str, pedido: i64, customer: i64, day: &str, method: i64, lines: Vec<_>| {
        let ev = crate::invoice(c, pedido, customer, day, method, lines);
        crate::message(
            c,
            &format!("{id}-{c}"),
            "erp.orders.pedido.faturado",
            ev.encode_to_vec(),
        )
    };
    let two = || {
        vec![
            line("P", 1, 1, "2", "30", "60.00"),
            line("P", 2, 2, "1", "40", "40.00"),
        ]
    };
    let batch = vec![
        fact("b1", 501, 7, "2026-10-01", 4, two()),
        fact("b2", 502, 7, "2026-10-01", 4, two()),
        fact(
            "b3",
            503,
            8,
            "2026-10-02",
            5,
            vec![line("S", 1, 9, "1", "100", "100.00")],
        ),
        fact("b1-again", 501, 7, "2026-10-01", 4, two()),
    ];
    let out = apply_delivered(&db, "reports", "reports-pedido-faturado", &effect, &batch).await;
    assert_eq!(out, vec![Outcome::Ack; 4]);

    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rollup: Vec<(String, i64, String, String, i32)> = sqlx::query_as(
        "SELECT dta::text, item_id, qtde::text, valor::text, linhas FROM reports.vendasitemdia
         WHERE client_id = $1 ORDER BY dta, tipo, item_id",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("rollup");
    // Product 1 on the 1st: two orders × 2 at 60.00; product 2: 2 × 1 at 40.00;
    // the service on the 2nd; order 501 counted once.
    assert_eq!(
        rollup,
        vec![
            ("2026-10-01".into(), 1, "4.0000".into(), "120.00".into(), 2),
            ("2026-10-01".into(), 2, "2.0000".into(), "80.00".into(), 2),
            ("2026-10-02".into(), 9, "1.0000".into(), "100.00".into(), 1),
        ]
    );
    let same: bool = sqlx::query_scalar(
        "SELECT (SELECT array_agg(x ORDER BY x) FROM (
                     SELECT (dta, tipo, item_id, cli_id, qtde, valor, linhas)::text AS x FROM reports.vendasdia
                     WHERE client_id = $1) a)
              = (SELECT array_agg(x ORDER BY x) FROM (
                     SELECT (dta, tipo, item_id, cli_id, sum(qtde), sum(vlr_total), count(*)::int)::text AS x
                     FROM reports.vendasitens WHERE client_id = $1 GROUP BY dta, tipo, item_id, cli_id) b)",
    )
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("compare");
    assert!(same, "vendasdia is the sum of the lines");
    let ten_days: Vec<(String, i64, String, String, i32)> = sqlx::query_as(
        "SELECT inicio::text, item_id, qtde::text, valor::text, linhas FROM reports.vendasdecendio
         WHERE client_id = $1 ORDER BY inicio, tipo, item_id",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("ten days");
    // The 1st and the 2nd of October are both in the decêndio of the 1st.
    assert_eq!(
        ten_days,
        vec![
            ("2026-10-01".into(), 1, "4.0000".into(), "120.00".into(), 2),
            ("2026-10-01".into(), 2, "2.0000".into(), "80.00".into(), 2),
            ("2026-10-01".into(), 9, "1.0000".into(), "100.00".into(), 1),
        ]
    );
    let methods: Vec<(String, i64, String, i32)> = sqlx::query_as(
        "SELECT dta::text, frmp_id, total::text, pedidos FROM reports.vendasformadia
         WHERE client_id = $1 ORDER BY dta, frmp_id",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("methods");
    assert_eq!(
        methods,
        vec![
            ("2026-10-01".into(), 4, "200.00".into(), 2),
            ("2026-10-02".into(), 5, "100.00".into(), 1),
        ]
    );
    drop(tx);

    // A batch with a fact whose line is of no known kind: that one is refused,
    // the other order of the batch still counts.
    let batch = vec![
        fact("b4", 504, 7, "2026-10-03", 4, two()),
        fact(
            "b5",
            505,
            7,
            "2026-10-03",
            4,
            vec![line("X", 1, 1, "1", "1", "1.00")],
        ),
    ];
    let out = apply_delivered(&db, "reports", "reports-pedido-faturado", &effect, &batch).await;
    assert_eq!(out, vec![Outcome::Ack; 2]);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let day3: Vec<(String, i32)> = sqlx::query_as(
        "SELECT total::text, pedidos FROM reports.vendasformadia WHERE client_id = $1 AND dta = '2026-10-03'",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("day 3");
    assert_eq!(day3, vec![("100.00".to_string(), 1)]);
    let refused: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM reports.vendas WHERE client_id = $1 AND pedf_id = 505",
    )
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("refused");
    assert_eq!(refused, 0);
}
