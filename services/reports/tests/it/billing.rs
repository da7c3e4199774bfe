//! The billing reports from the sales and their NF-e facts: the orders per
//! document series, the accountant's billing (an NF-e told before its sale,
//! another cancelled), the sales by payment method; and the requisitions' report
//! from the stock ledger's requisition movements (an undone line taken back);
//! the goods out on open conditional sales from their states (a late, older
//! state changes nothing).

use erp_platform::db::Db;
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada};
use erp_proto::orders::v1::{CondicionalSituacao, ConditionalLine};
use erp_proto::stock::v1::MovimentoRegistrado;
use erp_reports::facts::conditional::ConditionalState;
use erp_reports::facts::fiscal::{NfeIssued, NfeVoided};
use erp_reports::facts::stock::StockMovement;
use prost::Message as _;
use serde_json::{json, Value};

use crate::{call, deliver, file, line, message, pdf_text, record, sale, with};

fn october() -> Value {
    json!({"DATA_INI": "2026-10-01", "DATA_FIM": "2026-10-31"})
}

async fn nfe(db: &Db, c: i64, pedido: i64, numero: i64) {
    let ev = NfeAutorizada {
        client_id: c,
        emp_id: 1,
        pedido_id: pedido,
        serie: "1".into(),
        chave: format!("4126101122233300018155001{numero:09}10000000{pedido:02}"),
        protocolo: format!("14126000000{numero}"),
        numero,
        nfe_serie: 1,
        authorised_at: "2026-10-10T10:00:00-03:00".into(),
    };
    assert!(deliver(
        db,
        "reports-nfe-autorizada",
        c,
        NfeIssued,
        message(
            c,
            &format!("nfe-{c}-{pedido}"),
            "erp.fiscal.nfe.autorizada",
            ev.encode_to_vec()
        ),
    )
    .await
    .expect("nfe"));
}

async fn requisition(db: &Db, c: i64, movement: i64, origin: &str, kind: &str, qty: &str) {
    let ev = MovimentoRegistrado {
        client_id: c,
        emp_id: 1,
        product_id: 1,
        kind: kind.into(),
        quantity: qty.into(),
        unit_cost: "12.5".into(),
        balance_after: "0".into(),
        average_cost_after: "12.5".into(),
        origin: "REQUISICAO".into(),
        origin_id: origin.into(),
        movement_id: movement,
        moved_on: "2026-10-12".into(),
        ..Default::default()
    };
    assert!(deliver(
        db,
        "reports-estoque",
        c,
        StockMovement,
        message(
            c,
            &format!("rq-{c}-{movement}"),
            "erp.stock.movimento.registrado",
            ev.encode_to_vec()
        ),
    )
    .await
    .expect("movement"));
}

#[tokio::test]
async fn series_accountant_billing_payment_methods_and_requisitions() {
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    use erp_reports::copies::*;
    record(
        &db,
        c,
        CLIENTES,
        "clientes",
        json!({"CLI_ID": 7, "CLI_DESCRICAO": "AUTO PEÇAS LTDA", "CLI_CGC": "11.222.333/0001-81"}),
    )
    .await;
    record(
        &db,
        c,
        FORMAS,
        "formas",
        json!({"FRMP_ID": 2, "FRMP_DESCRICAO": "PIX"}),
    )
    .await;
    record(
        &db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 1, "PROD_DESCRICAO": "FILTRO DE AR"}),
    )
    .await;
    // The NF-e of order 11 arrives before its sale.
    nfe(&db, c, 11, 501).await;
    assert!(
        sale(
            &db,
            c,
            &format!("s10-{c}"),
            10,
            7,
            "2026-10-05",
            2,
            vec![line("P", 1, 1, "2", "50", "100.00")]
        )
        .await
    );
    assert!(
        sale(
            &db,
            c,
            &format!("s11-{c}"),
            11,
            7,
            "2026-10-10",
            2,
            vec![line("P", 1, 1, "1", "250.5", "250.50")]
        )
        .await
    );
    assert!(
        sale(
            &db,
            c,
            &format!("s12-{c}"),
            12,
            8,
            "2026-10-20",
            0,
            vec![line("P", 1, 1, "4", "10", "40.00")]
        )
        .await
    );
    nfe(&db, c, 12, 502).await;
    let cancel = NfeCancelada {
        client_id: c,
        emp_id: 1,
        pedido_id: 12,
        serie: "1".into(),
        ..Default::default()
    };
    assert!(deliver(
        &db,
        "reports-nfe-cancelada",
        c,
        NfeVoided,
        message(
            c,
            &format!("nfc-{c}"),
            "erp.fiscal.nfe.cancelada",
            cancel.encode_to_vec()
        ),
    )
    .await
    .expect("cancel"));

    let out = call(&db, c, "relatorio_seriesdocumento", &[], october())
        .await
        .expect("series");
    assert_eq!(
        out["dados"],
        json!([{"SERIE": "1", "PEDIDOS": 3, "PRIMEIRO": 10, "ULTIMO": 12, "NFES": 1,
                "PRODUTOS": 390.5, "SERVICOS": 0, "TOTAL": 390.5}])
    );

    let out = call(&db, c, "relatorio_faturamentocontabil", &[], october())
        .await
        .expect("contabil");
    let rows: Vec<(Value, Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["PEDIDO"].clone(), r["NFE"].clone(), r["CPF_CNPJ"].clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (json!("10/1"), json!(""), json!("11.222.333/0001-81")),
            (json!("11/1"), json!("501/1"), json!("11.222.333/0001-81")),
            (json!("12/1"), json!("502/1 (cancelada)"), json!("")),
        ]
    );
    assert_eq!(out["dados"][1]["CHAVE"].as_str().map(str::len), Some(44));
    assert_eq!(out["totais"]["TOTAL"], json!(390.5));
    let only = call(
        &db,
        c,
        "relatorio_faturamentocontabil",
        &[],
        with(october(), "NFE", json!("C")),
    )
    .await
    .expect("with nfe");
    assert_eq!(only["totais"]["TOTAL"], json!(250.5));
    let none = call(
        &db,
        c,
        "relatorio_faturamentocontabil",
        &[],
        with(october(), "NFE", json!("S")),
    )
    .await
    .expect("without nfe");
    assert_eq!(none["totais"]["TOTAL"], json!(140));
    let e = call(
        &db,
        c,
        "relatorio_faturamentocontabil",
        &[],
        with(october(), "NFE", json!("X")),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.public_message()).as_deref(),
        Some("NF-e inválido.")
    );

    let out = call(&db, c, "relatorio_formaspagamento", &[], october())
        .await
        .expect("formas");
    let rows: Vec<(Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["FORMA"].clone(), r["TOTAL"].clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (json!("PIX"), json!(100)),
            (json!("PIX"), json!(250.5)),
            (json!("Sem forma de pagamento"), json!(40)),
        ]
    );
    let out = call(
        &db,
        c,
        "relatorio_formaspagamento",
        &[],
        with(october(), "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    if let Some(text) = pdf_text(&file(&out, "application/pdf"), "formas-pagamento") {
        assert!(
            text.contains("Vendas por Forma de Pagamento") && text.contains("PIX"),
            "{text}"
        );
        assert!(text.contains("350,50") && text.contains("390,50"), "{text}");
    }

    // Requisition 3: 2 out, then 0.5 more out and that line undone; requisition 12: 1 out.
    requisition(&db, c, 1, "3/1", "S", "2").await;
    requisition(&db, c, 2, "3/2", "S", "0.5").await;
    requisition(&db, c, 3, "3/2", "E", "0.5").await;
    requisition(&db, c, 4, "12/5", "S", "1").await;
    let out = call(&db, c, "relatorio_requisicao", &[], october())
        .await
        .expect("requisicoes");
    let rows: Vec<(Value, Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["REQUISICAO"].clone(),
                r["QUANTIDADE"].clone(),
                r["VALOR"].clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (json!("Requisição 3"), json!(2), json!(25)),
            (json!("Requisição 3"), json!(0.5), json!(6.25)),
            (json!("Requisição 3"), json!(-0.5), json!(-6.25)),
            (json!("Requisição 12"), json!(1), json!(12.5)),
        ]
    );
    assert_eq!(out["totais"], json!({"QUANTIDADE": 3, "VALOR": 37.5}));
    let one = call(
        &db,
        c,
        "relatorio_requisicao",
        &[],
        with(october(), "REQU_ID", json!(12)),
    )
    .await
    .expect("one");
    assert_eq!(one["totais"]["VALOR"], json!(12.5));
}

fn cond_line(item: i64, product: i64, qty: &str, back: &str, unit: &str) -> ConditionalLine {
    ConditionalLine {
        item,
        product_id: product,
        description: format!("PRODUTO {product}"),
        quantity: qty.into(),
        returned: back.into(),
        unit_price: unit.into(),
    }
}

async fn cond_state(db: &Db, c: i64, event: &str, ev: CondicionalSituacao) -> bool {
    deliver(
        db,
        "reports-condicional",
        c,
        ConditionalState,
        message(
            c,
            event,
            "erp.orders.condicional.situacao",
            ev.encode_to_vec(),
        ),
    )
    .await
    .expect("state")
}

#[tokio::test]
async fn open_conditionals_from_their_states() {
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    let state =
        |id: i64, status: &str, version: i64, lines: Vec<ConditionalLine>| CondicionalSituacao {
            client_id: c,
            emp_id: 1,
            cond_id: id,
            customer_id: 7,
            customer_name: "OFICINA DO ZÉ LTDA".into(),
            left_on: "2026-10-20".into(),
            return_on: String::new(),
            status: status.into(),
            lines,
            version,
        };
    // Conditional 1 as the orders test leaves it: line 1 4 out, 1 back at 42.50;
    // line 2 2 out at 35.90. Its older state (3 out, none back) arrives late.
    let now = vec![
        cond_line(1, 2, "4", "1", "42.50"),
        cond_line(2, 1, "2", "0", "35.90"),
    ];
    assert!(cond_state(&db, c, &format!("cs-{c}-2"), state(1, "A", 200, now)).await);
    assert!(
        cond_state(
            &db,
            c,
            &format!("cs-{c}-1"),
            state(1, "A", 100, vec![cond_line(1, 2, "3", "0", "42.50")])
        )
        .await
    );
    // Conditional 2 was closed; conditional 3 removed.
    assert!(
        cond_state(
            &db,
            c,
            &format!("cs-{c}-3"),
            state(2, "F", 300, vec![cond_line(1, 3, "1", "0", "10")])
        )
        .await
    );
    assert!(
        cond_state(
            &db,
            c,
            &format!("cs-{c}-4"),
            state(3, "A", 400, vec![cond_line(1, 3, "1", "0", "10")])
        )
        .await
    );
    assert!(cond_state(&db, c, &format!("cs-{c}-5"), state(3, "X", 500, vec![])).await);

    let out = call(&db, c, "relatorio_condicional", &[], october())
        .await
        .expect("condicionais");
    let rows = out["dados"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["CONDICIONAL"], "Condicional 1 - OFICINA DO ZÉ LTDA");
    // 6 out, 1 back, 5 pending; 42.50 back; 3 x 42.50 + 2 x 35.90 = 199.30 pending.
    assert_eq!(
        out["totais"],
        json!({"QTDE_SAIDA": 6, "QTDE_DEVOLVIDA": 1, "QTDE_PENDENTE": 5, "VLR_DEVOLVIDO": 42.5, "VLR_PENDENTE": 199.3})
    );
    let other = call(
        &db,
        c,
        "relatorio_condicional",
        &[],
        with(october(), "CLI_ID", json!(8)),
    )
    .await
    .expect("other customer");
    assert_eq!(other, json!([]));
}
