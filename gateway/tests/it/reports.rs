//! Reports to the cent through the API: a customer, products and a service
//! registered over HTTP in company 1, two billing orders with product and
//! service lines invoiced over HTTP in March 2024 (a month no other test
//! touches), and the reports and dashboard calls answering the totals computed
//! here by hand — in JSON, in the PDF's text and in the XLSX's cells. Invoicing
//! again is refused and changes no total; another client sees none of it.

use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::events::wait_for;
use crate::{admin, login, serial, User, OTHER};

// Company 1, in a month no other test of this binary dates anything in (company 2
// stays empty for the registers' tests).
const EMP: i64 = 1;
const MARCH: (&str, &str) = ("2024-03-01", "2024-03-31");

pub(crate) fn dec(v: &Value) -> Decimal {
    match v {
        Value::Number(n) => n.to_string().parse().unwrap_or_default(),
        Value::String(s) => s.parse().unwrap_or_default(),
        _ => Decimal::ZERO,
    }
}

pub(crate) fn d(s: &str) -> Decimal {
    s.parse().expect("decimal")
}

pub(crate) async fn create(a: &User, name: &str, body: Value) -> Value {
    let registry = erp_gateway::composition::registry().expect("registry");
    let mut row = registry
        .get(name)
        .and_then(|r| r.sample.clone())
        .unwrap_or_else(|| json!({}));
    if let (Some(row), Some(extra)) = (row.as_object_mut(), body.as_object()) {
        row.extend(extra.clone());
    }
    let (status, got) = a.call(Method::POST, &format!("/{name}"), Some(row)).await;
    assert_eq!(status, 200, "{name}: {got}");
    got
}

pub(crate) async fn report(a: &User, path: &str, body: Value) -> (u16, Value) {
    a.call(Method::POST, path, Some(body)).await
}

pub(crate) fn period(from: &str, to: &str) -> Value {
    json!({"EMP_ID": EMP, "DATA_INI": from, "DATA_FIM": to})
}

pub(crate) fn with(mut v: Value, k: &str, x: Value) -> Value {
    v[k] = x;
    v
}

pub(crate) async fn file(a: &User, path: &str, body: Value) -> (String, Vec<u8>) {
    let r = a
        .req(Method::POST, path)
        .json(&body)
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200, "{path}");
    let kind = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (kind, r.bytes().await.expect("bytes").to_vec())
}

pub(crate) fn artifacts() -> std::path::PathBuf {
    // Cargo names the target's scratch directory when it builds integration tests.
    let dir = option_env!("CARGO_TARGET_TMPDIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join("test-artifacts/gateway-reports");
    std::fs::create_dir_all(&dir).expect("artifacts");
    dir
}

#[tokio::test]
async fn invoiced_orders_reach_every_sales_report_to_the_cent_over_http() {
    let _turn = serial().await;
    let a = admin().await;
    let customer = create(
        &a,
        "clientes",
        json!({"CLI_EMP_ID": EMP, "CLI_DESCRICAO": "OFICINA FIDELIDADE LTDA", "CLI_CGC": "33.000.167/0001-01", "CLI_COLA_ID": null,
               "CLI_LIMITE_CREDITO": "100000"}),
    )
    .await;
    let cli = customer["CLI_ID"].as_i64().expect("CLI_ID");
    let unit = create(
        &a,
        "unidade",
        json!({"UNID_EMP_ID": EMP, "UNID_DESCRICAO": "UNIDADE FIDELIDADE", "UNID_ABREVIADA": "uf"}),
    )
    .await;
    let unit = unit["UNID_ID"].as_i64().expect("UNID_ID");
    let mut products = Vec::new();
    for (name, price) in [("FILTRO FIDELIDADE", "12.35"), ("ÓLEO FIDELIDADE", "8.40")] {
        let p = create(
            &a,
            "produtos",
            json!({"PROD_EMP_ID": EMP, "PROD_DESCRICAO": name, "PROD_VALOR": price, "PROD_CBAR": null,
                   "PROD_GSUB_ID": null, "PROD_UNID_ID": unit}),
        )
        .await;
        products.push(p["PROD_ID"].as_i64().expect("PROD_ID"));
    }
    let service = create(
        &a,
        "servico",
        json!({"SERV_EMP_ID": EMP, "SERV_DESCRICAO": "REVISÃO FIDELIDADE", "SERV_GRPS_ID": null, "SERV_TIPS_ID": null, "SERV_SETS_ID": null}),
    )
    .await;
    let serv = service["SERV_ID"].as_i64().expect("SERV_ID");

    // Order 1 (10/03): 3 × 12.35 = 37.05, 2.5 × 8.40 = 21.00, service 80.00
    // → products 58.05, total 138.05. Order 2 (25/03): 1 × 12.35 − 1.35 = 11.00.
    let mut orders = Vec::new();
    for (day, lines, services) in [
        (
            "2024-03-10",
            vec![
                (products[0], "3", "12.35", "0"),
                (products[1], "2.5", "8.40", "0"),
            ],
            vec![(serv, "1", "80")],
        ),
        (
            "2024-03-25",
            vec![(products[0], "1", "12.35", "1.35")],
            vec![],
        ),
    ] {
        let order = create(
            &a,
            "pedido",
            json!({"PEDF_EMP_ID": EMP, "PEDF_SERIE": "1", "PEDF_CLI_ID": cli, "PEDF_DTA_EMISSAO": day}),
        )
        .await;
        let id = order["PEDF_ID"].as_i64().expect("PEDF_ID");
        for (prod, qty, unit, disc) in lines {
            create(
                &a,
                "pedidoproduto",
                json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_EMP_ID": EMP, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": prod,
                       "PEDI_QTDE": qty, "PEDI_VLR_UNITARIO": unit, "PEDI_VLR_DESCONTO": disc}),
            )
            .await;
        }
        for (s, qty, unit) in services {
            create(
                &a,
                "pedidoservico",
                json!({"PFOS_PEDF_ID": id, "PFOS_PEDF_EMP_ID": EMP, "PFOS_PEDF_SERIE": "1", "PFOS_SERV_ID": s,
                       "PFOS_QTDE": qty, "PFOS_VLR_UNIT": unit}),
            )
            .await;
        }
        let (status, body) = a
            .call(Method::PUT, &format!("/pedidogenerator/{id}/{EMP}/1"), None)
            .await;
        assert_eq!(status, 200, "faturar {id}: {body}");
        orders.push(id);
    }
    let march = period(MARCH.0, MARCH.1);
    wait_for("the invoiced orders in the sales report", || {
        let a = &a;
        let march = march.clone();
        async move {
            let (status, body) = report(a, "/vendas/reports", march).await;
            status == 200 && body["dados"].as_array().map_or(0, Vec::len) == 2
        }
    })
    .await;

    let check = |label: &'static str, got: &Value, want: &str| {
        assert_eq!(dec(got), d(want), "{label}: {got}");
    };
    let (_, vendas) = report(&a, "/vendas/reports", march.clone()).await;
    check("vendas: total", &vendas["totais"]["VALOR_TOTAL"], "149.05");
    // The orders' products before their discounts (58.05 + 12.35); the lines'
    // values after them (58.05 + 11.00) in the per-product reports.
    check(
        "vendas: produtos",
        &vendas["totais"]["VALOR_PRODUTOS"],
        "70.40",
    );
    check(
        "vendas: serviços",
        &vendas["totais"]["VALOR_SERVICOS"],
        "80",
    );
    assert_eq!(vendas["dados"][0]["CLIENTE"], "OFICINA FIDELIDADE LTDA");
    let (_, by_product) = report(&a, "/relatoriovendasprodutos", march.clone()).await;
    check("produtos: valor", &by_product["totais"]["VALOR"], "69.05");
    check("produtos: qtde", &by_product["totais"]["QTDE"], "6.5");
    let (_, by_service) = report(&a, "/relatoriovendasservico", march.clone()).await;
    check("serviços: valor", &by_service["totais"]["VALOR"], "80");
    let (_, curve) = report(&a, "/curvaprodutos/reports", march.clone()).await;
    check("curva: março", &curve["totais"]["M3"], "69.05");
    check("curva: filtro", &curve["dados"][0]["VALOR"], "48.05");
    assert_eq!(curve["dados"][0]["CLASSE"], "A");
    let (_, customers) = report(&a, "/curvaClientes/reports", march.clone()).await;
    check("curva de clientes", &customers["totais"]["VALOR"], "149.05");
    // A period that ends inside the month: only order 1.
    let (_, part) = report(
        &a,
        "/curvaprodutos/reports",
        period("2024-02-15", "2024-03-20"),
    )
    .await;
    check("curva até 20/03", &part["totais"]["VALOR"], "58.05");
    // The days of a period without a whole month keep their months.
    check("curva até 20/03: março", &part["totais"]["M3"], "58.05");
    check("curva até 20/03: fevereiro", &part["totais"]["M2"], "0");
    let (_, part) = report(&a, "/vendas/reports", period("2024-03-11", "2024-03-31")).await;
    check("vendas de 11/03", &part["totais"]["VALOR_TOTAL"], "11");
    for (name, want) in [("vendasgrupo", "69.05"), ("formaspagamentos", "149.05")] {
        let (status, body) = report(&a, &format!("/dasboard/{name}"), march.clone()).await;
        assert_eq!(status, 200, "{name}: {body}");
        check(name, &body["TOTAL"], want);
    }

    // The PDF's text and the spreadsheet's cells carry the same totals.
    let (kind, pdf) = file(
        &a,
        "/vendas/reports",
        with(march.clone(), "FORMATO", json!("pdf")),
    )
    .await;
    assert_eq!(kind, "application/pdf");
    let path = artifacts().join("vendas.pdf");
    std::fs::write(&path, &pdf).expect("write pdf");
    // `make test` installs poppler-utils (pdftotext, pdftoppm).
    let out = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "149,05",
        "70,40",
        "80,00",
        "OFICINA FIDELIDADE LTDA",
        "Pág: 1 de 1",
    ] {
        assert!(text.contains(want), "PDF without {want}:\n{text}");
    }
    let _ = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "60"])
        .arg(&path)
        .arg(artifacts().join("vendas"))
        .status();
    let (kind, xlsx) = file(
        &a,
        "/vendas/reports",
        with(march.clone(), "FORMATO", json!("xlsx")),
    )
    .await;
    assert!(kind.contains("spreadsheetml"), "{kind}");
    let path = artifacts().join("vendas.xlsx");
    std::fs::write(&path, &xlsx).expect("write xlsx");
    let cells = {
        use calamine::Reader as _;
        let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).expect("workbook");
        let sheet = book.worksheet_range("Sheet1").expect("Sheet1");
        sheet
            .rows()
            .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    let last = cells.last().expect("a totals row");
    for want in ["149.05", "70.4", "80"] {
        assert!(
            last.iter().any(|c| c == want),
            "XLSX totals row without {want}: {last:?}"
        );
    }

    // Invoicing again is refused (nothing is published) and moves no figure.
    let (status, body) = a
        .call(
            Method::PUT,
            &format!("/pedidogenerator/{}/{EMP}/1", orders[0]),
            None,
        )
        .await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (409, Some("Pedido já faturado.")),
        "{body}"
    );
    let (_, again) = report(&a, "/vendas/reports", march.clone()).await;
    assert_eq!(again["totais"], vendas["totais"]);

    // Another client: not its company, and nothing of this client's in its own.
    let b = login(OTHER, "admin", "senhaB123").await;
    let (status, _) = report(
        &b,
        "/vendas/reports",
        with(march.clone(), "EMP_ID", json!(2)),
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = report(&b, "/vendas/reports", march).await;
    assert_eq!(status, 204, "{body}");
}
