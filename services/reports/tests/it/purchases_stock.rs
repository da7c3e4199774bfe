//! The purchase, supplier, product and stock reports from the purchases', the
//! payables' and the stock ledger's facts: purchases of the period (a cancelled
//! one left out), the suppliers' ledger with the balance before the period and
//! the running balance, the suppliers and products lists, the stock movements
//! and the days of cover; a redelivered movement changes no total; PDF and XLSX.

use erp_platform::db::Db;
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada};
use erp_proto::stock::v1::MovimentoRegistrado;
use erp_reports::facts::purchases::{CancelledPurchase, FinalizedPurchase};
use erp_reports::facts::stock::StockMovement;
use prost::Message as _;
use serde_json::{json, Value};

use crate::finance::fact;
use crate::{call, deliver, file, message, pdf_text, record, with, xlsx_rows};

async fn purchase(db: &Db, c: i64, id: i64, day: &str, total: &str) {
    let ev = CompraFinalizada {
        client_id: c,
        emp_id: 1,
        compra_id: id,
        supplier_id: 5,
        supplier_name: "DISTRIBUIDORA SUL".into(),
        number: format!("{}", 1000 + id),
        serie: "1".into(),
        issued_on: day.into(),
        entered_on: day.into(),
        total: total.into(),
        ..Default::default()
    };
    assert!(deliver(
        db,
        "reports-compra-finalizada",
        c,
        FinalizedPurchase,
        message(
            c,
            &format!("cf-{c}-{id}"),
            "erp.orders.compra.finalizada",
            ev.encode_to_vec()
        ),
    )
    .await
    .expect("purchase"));
}

#[allow(clippy::too_many_arguments)]
async fn stock(
    db: &Db,
    c: i64,
    event: &str,
    id: i64,
    product: i64,
    day: &str,
    kind: &str,
    qty: &str,
    after: &str,
) -> bool {
    let ev = MovimentoRegistrado {
        client_id: c,
        emp_id: 1,
        product_id: product,
        kind: kind.into(),
        quantity: qty.into(),
        unit_cost: "12.5".into(),
        balance_after: after.into(),
        average_cost_after: "12.5".into(),
        origin: if kind == "E" { "COMPRA" } else { "PEDIDO" }.into(),
        origin_id: format!("{id}"),
        movement_id: id,
        moved_on: day.into(),
        ..Default::default()
    };
    deliver(
        db,
        "reports-estoque",
        c,
        StockMovement,
        message(
            c,
            event,
            "erp.stock.movimento.registrado",
            ev.encode_to_vec(),
        ),
    )
    .await
    .expect("movement")
}

/// Supplier 5: purchases 1000.00 (September), 2500.50 (October), 300.00
/// (October, cancelled); its payable 3500.50 with 400.00 paid in September,
/// 1000.00 in October and 50.00 paid and reversed. Product 1 (group FILTROS):
/// +10, -3, -1.5 in October (5.5 left at 12.50); product 2: +4.
async fn seed(db: &Db, c: i64) {
    use erp_reports::copies::*;
    record(
        db,
        c,
        FORNECEDORES,
        "fornecedores",
        json!({"FORN_ID": 5, "FORN_DESCRICAO": "DISTRIBUIDORA SUL LTDA",
        "FORN_CGC": "11.222.333/0001-81", "FORN_CIDADE": "Curitiba", "FORN_UF": "PR"}),
    )
    .await;
    record(
        db,
        c,
        GRUPOS,
        "grupos",
        json!({"GRUP_ID": 1, "GRUP_DESCRICAO": "FILTROS"}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 1, "PROD_DESCRICAO": "FILTRO DE AR", "PROD_GRUP_ID": 1,
        "PROD_VALOR": "30", "PROD_UNID_ID": 1, "UNID_ABREVIADA": "UN"}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 2, "PROD_DESCRICAO": "FILTRO DE ÓLEO", "PROD_GRUP_ID": 1}),
    )
    .await;
    purchase(db, c, 1, "2026-09-20", "1000.00").await;
    purchase(db, c, 2, "2026-10-05", "2500.50").await;
    purchase(db, c, 3, "2026-10-18", "300.00").await;
    let cancel = CompraCancelada { client_id: c, emp_id: 1, compra_id: 3, ..Default::default() };
    assert!(deliver(
        db,
        "reports-compra-cancelada",
        c,
        CancelledPurchase,
        message(
            c,
            &format!("cc-{c}"),
            "erp.orders.compra.cancelada",
            cancel.encode_to_vec()
        )
    )
    .await
    .expect("cancel"));

    use erp_proto::finance::v1::{Settlement, TituloSituacao};
    let payable =
        |paid: &str, balance: &str, settlement: i64, day: &str, value: &str, change: &str| {
            TituloSituacao {
                client_id: c,
                emp_id: 1,
                kind: "P".into(),
                title_id: 9,
                origin: "compra".into(),
                instalment: 1,
                instalments: 1,
                value: "3500.50".into(),
                paid: paid.into(),
                balance: balance.into(),
                status: "P".into(),
                change: change.into(),
                person_id: 5,
                issued_on: "2026-09-20".into(),
                due_on: "2026-12-20".into(),
                settlement_id: settlement,
                settlement: Some(Settlement {
                    settled_on: day.into(),
                    value: value.into(),
                    total: value.into(),
                    bank_id: 2,
                    ..Default::default()
                }),
                ..Default::default()
            }
        };
    assert!(
        fact(
            db,
            c,
            &format!("p1-{c}"),
            &payable("400.00", "3100.50", 30, "2026-09-25", "400.00", "baixa")
        )
        .await
    );
    assert!(
        fact(
            db,
            c,
            &format!("p2-{c}"),
            &payable("1400.00", "2100.50", 31, "2026-10-10", "1000.00", "baixa")
        )
        .await
    );
    assert!(
        fact(
            db,
            c,
            &format!("p3-{c}"),
            &payable("1450.00", "2050.50", 32, "2026-10-11", "50.00", "baixa")
        )
        .await
    );
    assert!(
        fact(
            db,
            c,
            &format!("p4-{c}"),
            &payable("1400.00", "2100.50", 32, "2026-10-11", "50.00", "estorno")
        )
        .await
    );

    assert!(
        stock(
            db,
            c,
            &format!("m1-{c}"),
            1,
            1,
            "2026-10-01",
            "E",
            "10",
            "10"
        )
        .await
    );
    assert!(stock(db, c, &format!("m2-{c}"), 2, 1, "2026-10-10", "S", "3", "7").await);
    assert!(stock(db, c, &format!("m4-{c}"), 4, 2, "2026-10-15", "E", "4", "4").await);
    assert!(
        stock(
            db,
            c,
            &format!("m3-{c}"),
            3,
            1,
            "2026-10-20",
            "S",
            "1.5",
            "5.5"
        )
        .await
    );
}

fn october() -> Value {
    json!({"DATA_INI": "2026-10-01", "DATA_FIM": "2026-10-30"})
}

#[tokio::test]
async fn purchase_supplier_product_and_stock_reports() {
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    seed(&db, c).await;

    let out = call(&db, c, "relatorio_compras", &[], october())
        .await
        .expect("compras");
    assert_eq!(out["dados"].as_array().map(Vec::len), Some(1));
    assert_eq!(out["dados"][0]["FORNECEDOR"], "DISTRIBUIDORA SUL LTDA");
    assert_eq!(out["dados"][0]["NOTA"], "1002/1");
    assert_eq!(out["totais"], json!({"TOTAL": 2500.5}));
    let out = call(
        &db,
        c,
        "relatorio_compras",
        &[],
        with(october(), "CANCELADAS", json!("T")),
    )
    .await
    .expect("all");
    assert_eq!(out["totais"], json!({"TOTAL": 2800.5}));

    // The ledger: 1000 - 400 before October; +2500.50, -1000.00 (the reversed 50 left out).
    let out = call(&db, c, "relatorio_razaofornecedor", &[], october())
        .await
        .expect("razao");
    let lines: Vec<(Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["HISTORICO"].clone(), r["SALDO"].clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (json!("Saldo anterior"), json!(600)),
            (json!("Compra 2 - NF 1002"), json!(3100.5)),
            (json!("Pagamento título 9 - parcela 1/1"), json!(2100.5)),
        ]
    );
    assert_eq!(
        out["totais"],
        json!({"COMPRAS": 2500.5, "PAGAMENTOS": 1000})
    );

    let out = call(&db, c, "relatorio_fornecedores", &[], october())
        .await
        .expect("fornecedores");
    assert_eq!(
        out["dados"],
        json!([{"FORN_ID": 5, "FORNECEDOR": "DISTRIBUIDORA SUL LTDA", "CNPJ": "11.222.333/0001-81",
        "CIDADE": "Curitiba", "UF": "PR", "FONE": "", "COMPRAS": 1, "VALOR_COMPRAS": 2500.5, "SALDO_PAGAR": 2100.5}])
    );

    // A redelivered movement under another event id changes nothing.
    assert!(
        stock(
            &db,
            c,
            &format!("m2-again-{c}"),
            2,
            1,
            "2026-10-10",
            "S",
            "3",
            "7"
        )
        .await
    );
    assert!(
        !stock(
            &db,
            c,
            &format!("m2-{c}"),
            2,
            1,
            "2026-10-10",
            "S",
            "3",
            "7"
        )
        .await
    );
    let out = call(&db, c, "relatorio_movimentacaoestoque", &[], october())
        .await
        .expect("movimentos");
    assert_eq!(out["totais"], json!({"ENTRADA": 14, "SAIDA": 4.5}));
    assert_eq!(out["dados"][2]["SALDO"], json!(5.5));
    let out = call(&db, c, "relatorio_produtos", &[], october())
        .await
        .expect("produtos");
    assert_eq!(out["dados"][0]["PRODUTO"], "FILTRO DE AR");
    assert_eq!(out["dados"][0]["UNIDADE"], "UN");
    assert_eq!(out["dados"][0]["VALOR_ESTOQUE"], json!(68.75));
    assert_eq!(out["totais"]["ESTOQUE"], json!(9.5));
    assert_eq!(out["totais"]["VALOR_ESTOQUE"], json!(118.75));

    // 4.5 out in 30 days: 0.15 a day; 5.5 last 36.7 days from 2026-10-30.
    let out = call(&db, c, "relatorio_estimativaestoque", &[], october())
        .await
        .expect("estimativa");
    assert_eq!(out["dados"][0]["MEDIA_DIARIA"], json!(0.15));
    assert_eq!(out["dados"][0]["DIAS_COBERTURA"], json!(36.7));
    assert_eq!(out["dados"][0]["DATA_RUPTURA"], "2026-12-05");
    assert_eq!(
        out["dados"][1]["DIAS_COBERTURA"],
        Value::Null,
        "no exits: no estimate"
    );
    // The last 15 days: 1.5 out, 0.1 a day, 55 days.
    let out = call(
        &db,
        c,
        "relatorio_estimativaestoque",
        &[],
        with(october(), "DIAS", json!(15)),
    )
    .await
    .expect("15");
    assert_eq!(out["dados"][0]["DIAS_COBERTURA"], json!(55));
    let e = call(
        &db,
        c,
        "relatorio_estimativaestoque",
        &[],
        with(october(), "DIAS", json!(0)),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.public_message()).as_deref(),
        Some("Dias de consumo inválido.")
    );

    let out = call(
        &db,
        c,
        "relatorio_razaofornecedor",
        &[],
        with(october(), "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    if let Some(text) = pdf_text(&file(&out, "application/pdf"), "razao-fornecedores") {
        assert!(text.contains("Razão de Fornecedores"));
        assert!(text.contains("Saldo anterior") && text.contains("600,00"));
        assert!(
            text.contains("2.500,50") && text.contains("2.100,50") && text.contains("1.000,00"),
            "{text}"
        );
    }
    let out = call(
        &db,
        c,
        "relatorio_movimentacaoestoque",
        &[],
        with(october(), "FORMATO", json!("xlsx")),
    )
    .await
    .expect("xlsx");
    let rows = xlsx_rows(&file(&out, crate::XLSX), "movimentacao-estoque");
    let saida = rows[0]
        .iter()
        .position(|h| h == "Saída")
        .expect("Saída column");
    let (last, lines) = rows[1..].split_last().expect("rows");
    let exits: Vec<&str> = lines.iter().map(|r| r[saida].as_str()).collect();
    assert_eq!(exits, vec!["", "3", "1.5", ""]);
    assert_eq!(
        (last[0].as_str(), last[saida].as_str()),
        ("Total geral", "4.5")
    );

    // Another tenant, an empty period.
    let other = crate::CTX.client();
    assert_eq!(
        call(&db, other, "relatorio_compras", &[], october())
            .await
            .expect("other"),
        json!([])
    );
    let out = call(
        &db,
        c,
        "relatorio_movimentacaoestoque",
        &[],
        json!({"DATA_INI": "2025-01-01", "DATA_FIM": "2025-01-31"}),
    )
    .await
    .expect("empty");
    assert_eq!(out, json!([]));
}
