//! The service order reports from the finished service orders' facts: the orders
//! of the period with their totals, the services by sector (one with no sector
//! under 'Sem setor'), the vehicles' history, the dashboard's sales by sector; a
//! redelivered fact changes no total; another tenant's is refused; PDF and XLSX.

use erp_platform::db::Db;
use erp_proto::orders::v1::{OrdemServicoFinalizada, ServiceOrderLine};
use erp_reports::facts::service_orders::FinishedServiceOrder;
use prost::Message as _;
use serde_json::{json, Value};

use crate::{call, deliver, file, message, pdf_text, record, with, xlsx_rows};

fn line(
    kind: &str,
    item: i64,
    id: i64,
    qty: &str,
    unit: &str,
    total: &str,
    sector: i64,
) -> ServiceOrderLine {
    ServiceOrderLine {
        kind: kind.into(),
        item,
        item_id: id,
        description: format!("item {id}"),
        quantity: qty.into(),
        unit_price: unit.into(),
        discount: "0".into(),
        surcharge: "0".into(),
        total: total.into(),
        sector_id: sector,
        mechanic_id: if kind == "S" { 3 } else { 0 },
    }
}

#[allow(clippy::too_many_arguments)]
fn order(
    c: i64,
    id: i64,
    vehicle: i64,
    km: i64,
    closed: &str,
    lines: Vec<ServiceOrderLine>,
) -> OrdemServicoFinalizada {
    let sum = |kind: &str| -> rust_decimal::Decimal {
        lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.total.parse::<rust_decimal::Decimal>().expect("total"))
            .sum()
    };
    let (services, parts) = (sum("S"), sum("P"));
    OrdemServicoFinalizada {
        client_id: c,
        emp_id: 1,
        ordem_id: id,
        serie: "OS".into(),
        customer_id: 7,
        customer_name: "AUTO PEÇAS".into(),
        vehicle_id: vehicle,
        odometer: km,
        entered_on: "2026-10-01".into(),
        closed_on: closed.into(),
        services_total: services.to_string(),
        products_total: parts.to_string(),
        surcharges: "0".into(),
        discounts: "0".into(),
        total: (services + parts).to_string(),
        user_id: 1,
        lines,
        responsible_id: 0,
    }
}

async fn finish(
    db: &Db,
    c: i64,
    event: &str,
    ev: &OrdemServicoFinalizada,
) -> erp_platform::Result<bool> {
    deliver(
        db,
        "reports-ordemservico-finalizada",
        c,
        FinishedServiceOrder,
        message(
            c,
            event,
            "erp.orders.ordemservico.finalizada",
            ev.encode_to_vec(),
        ),
    )
    .await
}

fn october() -> Value {
    json!({"DATA_INI": "2026-10-01", "DATA_FIM": "2026-10-31"})
}

/// Vehicle 10 (ABC1D23): OS 1 on 05/10 (service 1 in MECÂNICA 2 × 80.00, part
/// 5 × 12.30) and OS 2 on 20/10 at 16,000 km (service 2 with no sector 150.00);
/// vehicle 11: OS 3 on 25/10 (service 1 in MECÂNICA 1 × 80.00); OS 4 is
/// November's.
async fn seed(db: &Db, c: i64) {
    use erp_reports::copies::*;
    record(
        db,
        c,
        CLIENTES,
        "clientes",
        json!({"CLI_ID": 7, "CLI_DESCRICAO": "AUTO PEÇAS LTDA"}),
    )
    .await;
    record(
        db,
        c,
        VEICULOS,
        "veiculo",
        json!({"VEIC_ID": 10, "VEIC_PLACA1": "ABC1D23", "VEIC_CLI_ID": 7}),
    )
    .await;
    record(
        db,
        c,
        VEICULOS,
        "veiculo",
        json!({"VEIC_ID": 11, "VEIC_PLACA1": "XYZ9K88", "VEIC_CLI_ID": 7}),
    )
    .await;
    record(
        db,
        c,
        SETORES,
        "setorservico",
        json!({"SETS_ID": 4, "SETS_DESCRICAO": "MECÂNICA"}),
    )
    .await;
    record(
        db,
        c,
        SERVICOS,
        "servico",
        json!({"SERV_ID": 1, "SERV_DESCRICAO": "ALINHAMENTO"}),
    )
    .await;
    record(
        db,
        c,
        SERVICOS,
        "servico",
        json!({"SERV_ID": 2, "SERV_DESCRICAO": "FUNILARIA"}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 5, "PROD_DESCRICAO": "PASTILHA DE FREIO"}),
    )
    .await;
    record(
        db,
        c,
        COLABORADORES,
        "colaborador",
        json!({"COLA_ID": 3, "COLA_NOME": "JOÃO"}),
    )
    .await;
    let orders = [
        order(
            c,
            1,
            10,
            15000,
            "2026-10-05",
            vec![
                line("S", 1, 1, "2", "80", "160.00", 4),
                line("P", 1, 5, "5", "12.3", "61.50", 0),
            ],
        ),
        order(
            c,
            2,
            10,
            16000,
            "2026-10-20",
            vec![line("S", 1, 2, "1", "150", "150.00", 0)],
        ),
        order(
            c,
            3,
            11,
            0,
            "2026-10-25",
            vec![line("S", 1, 1, "1", "80", "80.00", 4)],
        ),
        order(
            c,
            4,
            11,
            0,
            "2026-11-02",
            vec![line("S", 1, 1, "1", "80", "80.00", 4)],
        ),
    ];
    for o in &orders {
        assert!(finish(db, c, &format!("os-{c}-{}", o.ordem_id), o)
            .await
            .expect("finish"));
    }
}

#[tokio::test]
async fn service_order_reports_and_sales_by_sector() {
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    seed(&db, c).await;

    let out = call(&db, c, "relatorio_ordemservico", &[], october())
        .await
        .expect("os");
    let ids: Vec<&Value> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| &r["ORDEM"])
        .collect();
    assert_eq!(ids, vec![&json!(1), &json!(2), &json!(3)]);
    assert_eq!(out["dados"][0]["CLIENTE"], "AUTO PEÇAS LTDA");
    assert_eq!(out["dados"][0]["VEICULO"], "ABC1D23");
    assert_eq!(out["dados"][2]["KM"], Value::Null, "no odometer read");
    assert_eq!(
        out["totais"],
        json!({"SERVICOS": 390, "PECAS": 61.5, "ACRESCIMOS": 0, "DESCONTOS": 0, "TOTAL": 451.5})
    );
    let out = call(
        &db,
        c,
        "relatorio_ordemservico",
        &[],
        with(october(), "VEIC_ID", json!(11)),
    )
    .await
    .expect("vehicle 11");
    assert_eq!(out["totais"]["TOTAL"], json!(80));

    // A redelivered fact under another event id changes nothing; the same event id is not applied.
    let again = order(
        c,
        1,
        10,
        15000,
        "2026-10-05",
        vec![line("S", 1, 1, "2", "80", "160.00", 4)],
    );
    assert!(finish(&db, c, &format!("os-{c}-1-again"), &again)
        .await
        .expect("again"));
    assert!(!finish(&db, c, &format!("os-{c}-1"), &again)
        .await
        .expect("same id"));
    // Another tenant's fact is refused.
    let other = order(c + 1, 9, 10, 0, "2026-10-05", vec![]);
    assert!(finish(&db, c, &format!("os-{c}-other"), &other)
        .await
        .is_err());

    let out = call(&db, c, "relatorio_ordemservicosetor", &[], october())
        .await
        .expect("setor");
    let rows: Vec<(Value, Value, Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["SETOR"].clone(),
                r["ORDEM"].clone(),
                r["SERVICO"].clone(),
                r["TOTAL"].clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                json!("MECÂNICA"),
                json!(1),
                json!("ALINHAMENTO"),
                json!(160)
            ),
            (json!("MECÂNICA"), json!(3), json!("ALINHAMENTO"), json!(80)),
            (json!("Sem setor"), json!(2), json!("FUNILARIA"), json!(150)),
        ]
    );
    assert_eq!(out["dados"][0]["MECANICO"], "JOÃO");
    assert_eq!(out["totais"], json!({"QUANTIDADE": 4, "TOTAL": 390}));

    let out = call(
        &db,
        c,
        "relatorio_ordemservicohistorico",
        &[],
        with(october(), "VEIC_ID", json!(10)),
    )
    .await
    .expect("historico");
    let rows: Vec<(Value, Value, Value, Value)> = out["dados"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["ORDEM"].clone(),
                r["KM"].clone(),
                r["TIPO"].clone(),
                r["DESCRICAO"].clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                json!(1),
                json!(15000),
                json!("Serviço"),
                json!("ALINHAMENTO")
            ),
            (
                json!(1),
                json!(15000),
                json!("Peça"),
                json!("PASTILHA DE FREIO")
            ),
            (json!(2), json!(16000), json!("Serviço"), json!("FUNILARIA")),
        ]
    );
    assert_eq!(out["totais"]["TOTAL"], json!(371.5));

    let out = call(&db, c, "dashboard", &[("nome", "vendassetor")], october())
        .await
        .expect("dashboard");
    assert_eq!(
        out,
        json!({"dados": [{"ROTULO": "MECÂNICA", "VALOR": 240}, {"ROTULO": "Sem setor", "VALOR": 150}], "TOTAL": 390})
    );

    let out = call(
        &db,
        c,
        "relatorio_ordemservicosetor",
        &[],
        with(october(), "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    if let Some(text) = pdf_text(&file(&out, "application/pdf"), "os-por-setor") {
        assert!(text.contains("Ordens de Serviço por Setor"), "{text}");
        assert!(
            text.contains("MECÂNICA") && text.contains("Sem setor"),
            "{text}"
        );
        assert!(text.contains("240,00") && text.contains("390,00"), "{text}");
    }
    let out = call(
        &db,
        c,
        "relatorio_ordemservico",
        &[],
        with(october(), "FORMATO", json!("xlsx")),
    )
    .await
    .expect("xlsx");
    let rows = xlsx_rows(&file(&out, crate::XLSX), "ordens-de-servico");
    let total = rows[0]
        .iter()
        .position(|h| h == "Total")
        .expect("Total column");
    assert_eq!(rows.last().map(|r| r[total].as_str()), Some("451.5"));

    // September has none: the empty list (204 at the gateway); November has one.
    let out = call(
        &db,
        c,
        "relatorio_ordemservico",
        &[],
        json!({"DATA_INI": "2026-09-01", "DATA_FIM": "2026-09-30"}),
    )
    .await
    .expect("empty");
    assert_eq!(out, json!([]));
    let out = call(
        &db,
        c,
        "relatorio_ordemservico",
        &[],
        json!({"DATA_INI": "2026-11-01", "DATA_FIM": "2026-11-30"}),
    )
    .await
    .expect("november");
    assert_eq!(out["totais"]["TOTAL"], json!(80));
}
