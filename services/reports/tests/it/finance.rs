//! The finance reports from finance's facts: receivables due in the period (open,
//! all), the receipts (a reversed settlement left out), the bank movements with
//! the opening and running balances (a removed movement left out), the finance
//! indicators of the dashboard; redelivered facts change no total, another
//! tenant sees nothing, an empty period answers 204; PDF text and XLSX cells.

use erp_platform::db::Db;
use erp_proto::finance::v1::{MovimentoBancario, Settlement, TituloSituacao};
use erp_reports::facts::finance::{BankMovement, TitleStanding};
use prost::Message as _;
use serde_json::{json, Value};

use crate::{artifacts, call, deliver, file, message, pdf_text, record, with, xlsx_rows};

#[allow(clippy::too_many_arguments)]
fn title(
    c: i64,
    kind: &str,
    id: i64,
    person: i64,
    due: &str,
    value: &str,
    paid: &str,
    centre: i64,
) -> TituloSituacao {
    let v: rust_decimal::Decimal = value.parse().expect("value");
    let p: rust_decimal::Decimal = paid.parse().expect("paid");
    TituloSituacao {
        client_id: c,
        emp_id: 1,
        kind: kind.into(),
        title_id: id,
        origin: "manual".into(),
        instalment: 1,
        instalments: 1,
        value: value.into(),
        paid: paid.into(),
        balance: (v - p).to_string(),
        status: if p.is_zero() {
            "A"
        } else if p == v {
            "Q"
        } else {
            "P"
        }
        .into(),
        change: "criado".into(),
        person_id: person,
        person_name: format!("PESSOA {person}"),
        document: format!("DOC-{id}"),
        issued_on: "2026-10-01".into(),
        due_on: due.into(),
        cost_centre_id: centre,
        ..Default::default()
    }
}

fn settled(
    mut t: TituloSituacao,
    id: i64,
    day: &str,
    value: &str,
    extra: (&str, &str),
) -> TituloSituacao {
    let v: rust_decimal::Decimal = value.parse().expect("value");
    let total = v
        + extra.0.parse::<rust_decimal::Decimal>().expect("interest")
        + extra.1.parse::<rust_decimal::Decimal>().expect("fine");
    t.change = "baixa".into();
    t.settlement_id = id;
    t.settlement = Some(Settlement {
        settled_on: day.into(),
        value: value.into(),
        interest: extra.0.into(),
        fine: extra.1.into(),
        discount: "0".into(),
        total: total.to_string(),
        bank_id: 2,
        method_id: 0,
        advance_id: 0,
    });
    t
}

pub async fn fact(db: &Db, c: i64, event: &str, t: &TituloSituacao) -> bool {
    deliver(
        db,
        "reports-titulos",
        c,
        TitleStanding,
        message(c, event, "erp.finance.titulo.situacao", t.encode_to_vec()),
    )
    .await
    .expect("title fact")
}

async fn movement(db: &Db, c: i64, id: i64, day: &str, kind: &str, value: &str, change: &str) {
    let m = MovimentoBancario {
        client_id: c,
        emp_id: 1,
        movement_id: id,
        bank_id: 2,
        moved_on: day.into(),
        kind: kind.into(),
        value: value.into(),
        history: format!("MOVIMENTO {id}"),
        origin: "MANUAL".into(),
        change: change.into(),
        ..Default::default()
    };
    deliver(
        db,
        "reports-movbancario",
        c,
        BankMovement,
        message(
            c,
            &format!("mb-{c}-{id}-{change}"),
            erp_proto::subjects::MOVIMENTO_BANCARIO,
            m.encode_to_vec(),
        ),
    )
    .await
    .expect("movement");
}

/// Receivables 1 (300.00, settled 300 + 3.10 + 6.00), 2 (200.50, 100.25 settled),
/// 3 (99.99, settled then reversed); payables of supplier 5: 1 (1500.00, cost
/// centre 3, paid), 2 (250.75, cost centre 4, 50.75 paid); bank 2 opening
/// 1000.00 with movements 500.00 before the period and 309.10 C, 1500.00 D,
/// 100.25 C in it (10.00 D removed).
async fn seed(db: &Db, c: i64) {
    use erp_reports::copies::*;
    record(
        db,
        c,
        CLIENTES,
        "clientes",
        json!({"CLI_ID": 7, "CLI_DESCRICAO": "OFICINA DO JOÃO"}),
    )
    .await;
    record(
        db,
        c,
        FORNECEDORES,
        "fornecedores",
        json!({"FORN_ID": 5, "FORN_DESCRICAO": "DISTRIBUIDORA SUL LTDA"}),
    )
    .await;
    record(
        db,
        c,
        BANCOS,
        "bancos",
        json!({"BCO_ID": 2, "BCO_DESCRICAO": "BANCO DO BRASIL", "BCO_SALDO_INICIAL": "1000.00"}),
    )
    .await;
    record(
        db,
        c,
        GRUPOS_CENTRO,
        "gruposcentro",
        json!({"GRHP_ID": 1, "GRHP_DESCRICAO": "DESPESAS ADMINISTRATIVAS"}),
    )
    .await;
    record(
        db,
        c,
        CENTROS,
        "centros",
        json!({"HISP_ID": 3, "HISP_DESCRICAO": "ALUGUEL", "HISP_GRHP_ID": 1}),
    )
    .await;
    record(
        db,
        c,
        CENTROS,
        "centros",
        json!({"HISP_ID": 4, "HISP_DESCRICAO": "ENERGIA", "HISP_GRHP_ID": 1}),
    )
    .await;

    let r1 = title(c, "R", 1, 7, "2026-10-10", "300.00", "0", 0);
    let r2 = title(c, "R", 2, 7, "2026-10-20", "200.50", "0", 0);
    let r3 = title(c, "R", 3, 7, "2026-11-05", "99.99", "0", 0);
    for (i, t) in [&r1, &r2, &r3].into_iter().enumerate() {
        assert!(fact(db, c, &format!("r{i}-{c}"), t).await);
    }
    let paid1 = settled(
        title(c, "R", 1, 7, "2026-10-10", "300.00", "300.00", 0),
        10,
        "2026-10-12",
        "300.00",
        ("3.10", "6.00"),
    );
    assert!(fact(db, c, &format!("b10-{c}"), &paid1).await);
    let part2 = settled(
        title(c, "R", 2, 7, "2026-10-20", "200.50", "100.25", 0),
        11,
        "2026-10-21",
        "100.25",
        ("0", "0"),
    );
    assert!(fact(db, c, &format!("b11-{c}"), &part2).await);
    let paid3 = settled(
        title(c, "R", 3, 7, "2026-11-05", "99.99", "99.99", 0),
        12,
        "2026-11-05",
        "99.99",
        ("0", "0"),
    );
    assert!(fact(db, c, &format!("b12-{c}"), &paid3).await);
    let mut back3 = settled(
        title(c, "R", 3, 7, "2026-11-05", "99.99", "0", 0),
        12,
        "2026-11-05",
        "99.99",
        ("0", "0"),
    );
    back3.change = "estorno".into();
    assert!(fact(db, c, &format!("e12-{c}"), &back3).await);

    let p1 = settled(
        title(c, "P", 1, 5, "2026-10-15", "1500.00", "1500.00", 3),
        20,
        "2026-10-15",
        "1500.00",
        ("0", "0"),
    );
    assert!(fact(db, c, &format!("b20-{c}"), &p1).await);
    let p2 = settled(
        title(c, "P", 2, 5, "2026-10-25", "250.75", "50.75", 4),
        21,
        "2026-10-26",
        "50.75",
        ("0", "0"),
    );
    assert!(fact(db, c, &format!("b21-{c}"), &p2).await);

    movement(db, c, 1, "2026-09-30", "C", "500.00", "criado").await;
    movement(db, c, 2, "2026-10-12", "C", "309.10", "criado").await;
    movement(db, c, 3, "2026-10-15", "D", "1500.00", "criado").await;
    movement(db, c, 4, "2026-10-21", "C", "100.25", "criado").await;
    movement(db, c, 5, "2026-10-30", "D", "10.00", "criado").await;
    movement(db, c, 5, "2026-10-30", "D", "10.00", "excluido").await;
}

fn period() -> Value {
    json!({"DATA_INI": "2026-10-01", "DATA_FIM": "2026-11-30"})
}

#[tokio::test]
async fn finance_reports_from_the_facts() {
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    seed(&db, c).await;

    // Receivables still open: 2 (100.25 left) and 3 (99.99, its settlement reversed).
    let out = call(&db, c, "relatorio_contasreceber", &[], period())
        .await
        .expect("open");
    assert_eq!(out["dados"].as_array().map(Vec::len), Some(2));
    assert_eq!(out["dados"][0]["CLIENTE"], "OFICINA DO JOÃO");
    assert_eq!(out["dados"][0]["PARCELA"], "1/1");
    assert_eq!(
        out["totais"],
        json!({"VALOR": 300.49, "PAGO": 100.25, "SALDO": 200.24})
    );
    let all = with(period(), "SITUACAO", json!("T"));
    let out = call(&db, c, "relatorio_contasreceber", &[], all.clone())
        .await
        .expect("all");
    assert_eq!(
        out["totais"],
        json!({"VALOR": 600.49, "PAGO": 400.25, "SALDO": 200.24})
    );

    // A redelivered fact (same event id: the inbox skips it) and the same fact
    // under another id (the same rows again) change no total.
    let paid1 = settled(
        title(c, "R", 1, 7, "2026-10-10", "300.00", "300.00", 0),
        10,
        "2026-10-12",
        "300.00",
        ("3.10", "6.00"),
    );
    assert!(!fact(&db, c, &format!("b10-{c}"), &paid1).await);
    assert!(fact(&db, c, &format!("b10-again-{c}"), &paid1).await);
    let r1 = title(c, "R", 1, 7, "2026-10-10", "300.00", "0", 0);
    assert!(
        fact(&db, c, &format!("r1-late-{c}"), &r1).await,
        "a late 'criado' leaves the settled title"
    );
    let out = call(&db, c, "relatorio_contasreceber", &[], all.clone())
        .await
        .expect("again");
    assert_eq!(
        out["totais"],
        json!({"VALOR": 600.49, "PAGO": 400.25, "SALDO": 200.24})
    );

    // Receipts: settlements 10 and 11 (12 was reversed).
    let out = call(&db, c, "relatorio_recebimentos", &[], period())
        .await
        .expect("receipts");
    assert_eq!(
        out["totais"],
        json!({"VALOR": 400.25, "ACRESCIMOS": 9.1, "DESCONTO": 0, "TOTAL": 409.35})
    );
    assert_eq!(out["dados"][0]["BANCO"], "BANCO DO BRASIL");

    // Payables due in the period, open: title 2 (200.00 left), supplier named.
    let out = call(&db, c, "relatorio_contaspagar", &[], period())
        .await
        .expect("payables");
    assert_eq!(out["dados"][0]["FORNECEDOR"], "DISTRIBUIDORA SUL LTDA");
    assert_eq!(out["dados"][0]["CENTRO_CUSTO"], "ENERGIA");
    assert_eq!(
        out["totais"],
        json!({"VALOR": 250.75, "PAGO": 50.75, "SALDO": 200})
    );

    // Bank movements: opening 1000 + 500 = 1500; +309.10 -1500 +100.25 = 409.35.
    let out = call(&db, c, "relatorio_movimentacaobancaria", &[], period())
        .await
        .expect("bank");
    let saldos: Vec<Value> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["SALDO"].clone())
        .collect();
    assert_eq!(
        saldos,
        vec![json!(1500), json!(1809.1), json!(309.1), json!(409.35)]
    );
    assert_eq!(out["dados"][0]["HISTORICO"], "Saldo anterior");
    assert_eq!(out["totais"], json!({"CREDITO": 409.35, "DEBITO": 1500}));

    // The dashboard.
    let out = call(
        &db,
        c,
        "dashboard",
        &[("nome", "despesacentrocusto")],
        period(),
    )
    .await
    .expect("centres");
    assert_eq!(
        out,
        json!({"dados": [{"ROTULO": "ALUGUEL", "VALOR": 1500}, {"ROTULO": "ENERGIA", "VALOR": 50.75}], "TOTAL": 1550.75})
    );
    let out = call(
        &db,
        c,
        "dashboard",
        &[("nome", "despesagrupocentrocusto")],
        period(),
    )
    .await
    .expect("groups");
    assert_eq!(
        out,
        json!({"dados": [{"ROTULO": "DESPESAS ADMINISTRATIVAS", "VALOR": 1550.75}], "TOTAL": 1550.75})
    );
    let out = call(&db, c, "dashboard", &[("nome", "contaspagar")], period())
        .await
        .expect("payables");
    assert_eq!(out["dados"][0], json!({"ROTULO": "Pago", "VALOR": 1550.75}));
    assert_eq!(
        out["TOTAL"],
        json!(1750.75),
        "paid plus open (overdue or not)"
    );
    let out = call(&db, c, "dashboard", &[("nome", "contasreceber")], period())
        .await
        .expect("receivables");
    assert_eq!(
        out["dados"][0],
        json!({"ROTULO": "Recebido", "VALOR": 400.25})
    );
    assert_eq!(out["TOTAL"], json!(600.49));

    // PDF (text read back, one page drawn to PNG) and XLSX (cells read back).
    let out = call(
        &db,
        c,
        "relatorio_movimentacaobancaria",
        &[],
        with(period(), "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    if let Some(text) = pdf_text(&file(&out, "application/pdf"), "movimentacao-bancaria") {
        assert!(text.contains("Movimentação Bancária"), "{text}");
        assert!(text.contains("Saldo anterior"));
        assert!(text.contains("BANCO DO BRASIL"));
        assert!(
            text.contains("1.809,10") && text.contains("409,35") && text.contains("1.500,00"),
            "{text}"
        );
    }
    let out = call(
        &db,
        c,
        "relatorio_contasreceber",
        &[],
        with(all, "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    if let Some(text) = pdf_text(&file(&out, "application/pdf"), "contas-receber") {
        assert!(text.contains("Relatório de Contas a Receber"));
        assert!(text.contains("OFICINA DO JOÃO"));
        assert!(
            text.contains("600,49") && text.contains("400,25") && text.contains("200,24"),
            "{text}"
        );
    }
    let out = call(
        &db,
        c,
        "relatorio_recebimentos",
        &[],
        with(period(), "FORMATO", json!("xlsx")),
    )
    .await
    .expect("xlsx");
    let rows = xlsx_rows(&file(&out, crate::XLSX), "recebimentos");
    let total = rows[0]
        .iter()
        .position(|h| h == "Recebido")
        .expect("Recebido column");
    let cells: Vec<&str> = rows[1..].iter().map(|r| r[total].as_str()).collect();
    assert_eq!(
        cells,
        vec!["309.1", "100.25", "409.35"],
        "the settlements and the total row"
    );
    assert!(artifacts().exists());

    // Another tenant sees nothing; this client's fact under its name is refused.
    let other = crate::CTX.client();
    let out = call(&db, other, "relatorio_contasreceber", &[], period())
        .await
        .expect("other");
    assert_eq!(out, json!([]));
    let e = deliver(
        &db,
        "reports-titulos",
        other,
        TitleStanding,
        message(
            other,
            &format!("x-{other}"),
            "erp.finance.titulo.situacao",
            paid1.encode_to_vec(),
        ),
    )
    .await;
    assert!(e.is_err(), "another client's fact");
    // An empty period: 204.
    let out = call(
        &db,
        c,
        "relatorio_recebimentos",
        &[],
        json!({"DATA_INI": "2025-01-01", "DATA_FIM": "2025-01-31"}),
    )
    .await
    .expect("empty");
    assert_eq!(out, json!([]));
}
