//! A quote's and a billing order's PDF (`orcamento.pdf`, `pedido.pdf`): a PDF file
//! named after the document, holding its number, customer, lines and total in
//! pt-BR, and nothing for another tenant. `ERP_PDF_PREVIEW=<dir>` also writes each
//! PDF there, to look at.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::Engine;
use serde_json::{json, Value};

use crate::{action, client, create, db, seed_copies};

/// The file a call answered: (type, name, bytes).
fn file(v: &Value) -> (String, String, Vec<u8>) {
    let f = &v["$arquivo"];
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(f["base64"].as_str().expect("base64"))
        .expect("decode");
    (
        f["tipo"].as_str().unwrap_or_default().to_string(),
        f["nome"].as_str().unwrap_or_default().to_string(),
        bytes,
    )
}

/// The PDF's text, its words joined by single spaces.
fn text(pdf: &[u8], name: &str) -> String {
    if let Some(dir) = std::env::var_os("ERP_PDF_PREVIEW") {
        std::fs::write(std::path::Path::new(&dir).join(name), pdf).expect("preview");
    }
    let mut child = Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pdftotext (poppler-utils)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pdf)
        .expect("write");
    let out = child.wait_with_output().expect("pdftotext");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The customer's CNPJ as orders' copy holds it, and the company as identity's
/// fact gives it to orders' copy (`copies::Companies`).
async fn documents(db: &erp_platform::db::Db, c: i64) {
    use erp_platform::bus::{apply_once, Effect, Message, CLIENT_HEADER};
    use prost::Message as _;
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE orders.clientes SET documento = '11222333000181' WHERE client_id = $1 AND cli_id = 1")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("seed");
    tx.commit().await.expect("commit");
    let company = erp_proto::erp::v1::RecordChanged {
        resource: "empresas".into(),
        op: "alterado".into(),
        client_id: c,
        emp_id: 1,
        key: vec!["1".into()],
        row_json: serde_json::to_vec(&json!({"EMP_ID": 1, "EMP_DESCRICAO": "OFICINA MODELO LTDA",
            "EMP_FANTASIA": "Modelo", "EMP_CGC": "12.345.678/0001-95", "EMP_CIDADE": "Caxias do Sul", "EMP_UF": "RS"}))
        .expect("row"),
    };
    let mut msg = Message::new(
        format!("emp-{c}"),
        "erp.identity.empresa.alterado",
        company.encode_to_vec().into(),
    );
    msg.headers.push((CLIENT_HEADER.into(), c.to_string()));
    let applied = apply_once(
        db,
        "orders",
        "orders-empresas",
        &format!("emp-{c}"),
        c,
        move |tx| Box::pin(async move { erp_orders::copies::Companies.apply(tx, c, &msg).await }),
    )
    .await
    .expect("orders' copy of the company");
    assert!(applied);
}

#[tokio::test]
async fn a_quotes_pdf_holds_its_number_customer_lines_and_total() {
    let db = db().await;
    let (c, other) = (client(), client());
    seed_copies(&db, c).await;
    seed_copies(&db, other).await;
    documents(&db, c).await;
    let q = create(&db, c, "orcamento", json!({"ORCA_CLI_ID": 1, "ORCA_DTA_EMIS": "2026-11-22", "ORCA_OBS": "Validade de 10 dias."}))
        .await
        .expect("quote");
    let qid = q["ORCA_ID"].as_i64().expect("id");
    let id = qid.to_string();
    for (prod, qty, disc) in [(1, "2", "0"), (3, "1", "30")] {
        create(&db, c, "orcamentoproduto", json!({"ORCP_ORCA_ID": qid, "ORCP_PROD_ID": prod, "ORCP_QTDE": qty, "ORCP_VLR_DESC": disc}))
            .await
            .expect("product");
    }
    create(
        &db,
        c,
        "orcamentoservico",
        json!({"ORCI_ORCA_ID": qid, "ORCI_SERV_ID": 1, "ORCI_QTDE": "1", "ORCI_VLR_UNIT": "1200"}),
    )
    .await
    .expect("service");

    let answer = action(&db, c, "orcamento", "pdf", &[("ORCA_ID", &id)])
        .await
        .expect("pdf");

    let (kind, name, pdf) = file(&answer);
    assert_eq!(
        (kind.as_str(), name),
        ("application/pdf", format!("orcamento_{id}.pdf"))
    );
    assert!(pdf.starts_with(b"%PDF"));
    let t = text(&pdf, "orcamento.pdf");
    // 2 x 35,90 + 180 = 251,80; 1.200 of services; 30 off -> 1.421,80.
    for want in [
        format!("Orçamento nº {id}"),
        "Emissão: 22/11/2026".into(),
        "OFICINA MODELO LTDA".into(),
        "CNPJ 12.345.678/0001-95".into(),
        "Caxias do Sul/RS".into(),
        "Oficina do Zé Ltda".into(),
        "CNPJ 11.222.333/0001-81".into(),
        "Porto Alegre/RS".into(),
        "Filtro de óleo".into(),
        "Pastilha de freio".into(),
        "Troca de óleo".into(),
        "1.200,00".into(),
        "Produtos R$ 251,80".into(),
        "Descontos R$ 30,00".into(),
        "Total R$ 1.421,80".into(),
        "Validade de 10 dias.".into(),
    ] {
        assert!(t.contains(&want), "{want} in {t}");
    }

    let missing = action(&db, other, "orcamento", "pdf", &[("ORCA_ID", &id)]).await;
    assert!(
        matches!(&missing, Err(erp_platform::Error::NotFound(m)) if m == "Orçamento não encontrado."),
        "{missing:?}"
    );
}

#[tokio::test]
async fn an_orders_pdf_holds_its_number_customer_lines_and_total() {
    let db = db().await;
    let (c, other) = (client(), client());
    seed_copies(&db, c).await;
    seed_copies(&db, other).await;
    documents(&db, c).await;
    let o = create(
        &db,
        c,
        "pedido",
        json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": 1, "PEDF_DTA_EMISSAO": "2026-11-22"}),
    )
    .await
    .expect("order");
    let oid = o["PEDF_ID"].as_i64().expect("id");
    let id = oid.to_string();
    create(
        &db,
        c,
        "pedidoproduto",
        json!({
            "PEDI_PEDF_ID": oid, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 2, "PEDI_QTDE": "3",
            "PEDI_VLR_UNITARIO": "42.50", "PEDI_VLR_DESCONTO": "7.50"
        }),
    )
    .await
    .expect("product");
    create(&db, c, "pedidoservico", json!({
        "PFOS_PEDF_ID": oid, "PFOS_PEDF_SERIE": "1", "PFOS_SERV_ID": 2, "PFOS_QTDE": "1", "PFOS_VLR_UNIT": "1500"
    }))
    .await
    .expect("service");

    let params = [("PEDF_ID", id.as_str()), ("PEDF_SERIE", "1")];
    let answer = action(&db, c, "pedido", "pdf", &params).await.expect("pdf");

    let (kind, name, pdf) = file(&answer);
    assert_eq!(
        (kind.as_str(), name),
        ("application/pdf", format!("pedido_{id}_1.pdf"))
    );
    assert!(pdf.starts_with(b"%PDF"));
    let t = text(&pdf, "pedido.pdf");
    // 3 x 42,50 = 127,50, 7,50 off; 1.500 of services -> 1.620,00.
    for want in [
        format!("Pedido nº {id}/1"),
        "Emissão: 22/11/2026".into(),
        "Oficina do Zé Ltda".into(),
        "CNPJ 11.222.333/0001-81".into(),
        "Óleo 5W30".into(),
        "Revisão de freios".into(),
        "Produtos R$ 127,50".into(),
        "Serviços R$ 1.500,00".into(),
        "Descontos R$ 7,50".into(),
        "Total R$ 1.620,00".into(),
    ] {
        assert!(t.contains(&want), "{want} in {t}");
    }

    let missing = action(&db, other, "pedido", "pdf", &params).await;
    assert!(
        matches!(&missing, Err(erp_platform::Error::NotFound(m)) if m == "Pedido não encontrado."),
        "{missing:?}"
    );
    let wrong_serie = action(
        &db,
        c,
        "pedido",
        "pdf",
        &[("PEDF_ID", &id), ("PEDF_SERIE", "2")],
    )
    .await;
    assert!(matches!(wrong_serie, Err(erp_platform::Error::NotFound(_))));
}
