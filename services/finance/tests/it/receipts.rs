//! Receipts as PDF: a receivable's settlement (the company receives, with its
//! logo, in its city), a payable's (the supplier receives), a free-form one with
//! its pt-BR refusals, printed again; the text read back with `pdftotext` and the
//! pages turned into PNG (`pdftoppm -png -r 60`) under
//! `$CARGO_TARGET_TMPDIR/test-artifacts/finance/` to be looked at.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use base64::Engine;
use erp_finance::copies;
use erp_platform::bus::CLIENT_HEADER;
use erp_platform::db::Db;
use erp_proto::erp::v1::RecordChanged;
use prost::Message as _;
use serde_json::{json, Value};

use crate::credit::customer;
use crate::events::deliver;
use crate::{account, create, message};

/// Runs declared call `action` of register `name` with the registers that find
/// uploads under `data_dir`.
async fn call(
    db: &Db,
    data_dir: &Path,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let reg = erp_finance::resources::registry_in(data_dir).expect("registry");
    let res = reg.get(name).expect("register").clone();
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action declared")
        .clone();
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .run(&mut tx, &res, &crate::caller(c), Some(1), &params, body)
        .await?;
    tx.commit().await?;
    Ok(out)
}

/// The bytes of a `file_reply` answer, checked to be a PDF named `name`.
fn pdf_of(out: &Value, name: &str) -> Vec<u8> {
    let f = &out[erp_platform::resource::FILE_REPLY];
    assert_eq!(f["tipo"], "application/pdf");
    assert_eq!(f["nome"], name);
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(f["base64"].as_str().expect("base64"))
        .expect("decode");
    assert!(bytes.starts_with(b"%PDF"), "a PDF");
    bytes
}

fn poppler(tool: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("`{tool}` (poppler-utils) is needed by this test: {e}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success(), "{tool} failed");
    out.stdout
}

/// The PDF's text with its lines joined.
fn text(pdf: &[u8]) -> String {
    String::from_utf8(poppler("pdftotext", &["-", "-"], pdf))
        .expect("utf-8")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `<name>.pdf` and its first page as `<name>-1.png` (60 dpi).
fn artifact(name: &str, pdf: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("test-artifacts")
        .join("finance");
    std::fs::create_dir_all(&dir).expect("artifacts dir");
    std::fs::write(dir.join(format!("{name}.pdf")), pdf).expect("pdf");
    let prefix = dir.join(name);
    let prefix = prefix.to_str().expect("path");
    poppler(
        "pdftoppm",
        &["-png", "-r", "60", "-f", "1", "-l", "1", "-", prefix],
        pdf,
    );
    let png = dir.join(format!("{name}-1.png"));
    assert!(png.exists(), "{}", png.display());
    png
}

async fn company(db: &Db, c: i64, logo: &str) {
    let ev = RecordChanged {
        resource: "empresas".into(),
        op: "criado".into(),
        client_id: c,
        emp_id: 1,
        key: vec!["1".into()],
        row_json: serde_json::to_vec(&json!({
            "EMP_ID": 1, "EMP_DESCRICAO": "Comércio de Alimentos São João Ltda",
            "EMP_CGC": "11.444.777/0001-61", "EMP_ENDERECO": "Rua Sinimbu", "EMP_NUMERO": "1234",
            "EMP_BAIRRO": "Centro", "EMP_CIDADE": "Caxias do Sul", "EMP_UF": "RS", "EMP_CEP": "95020002",
            "EMP_IMG_LOGO_REL": logo
        }))
        .expect("row"),
    };
    let mut m = erp_platform::bus::Message::new(
        format!("empresa-{c}-1"),
        "erp.identity.empresa.criado",
        ev.encode_to_vec().into(),
    );
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    deliver(db, "finance-empresas", c, copies::Companies, m)
        .await
        .expect("company fact");
}

async fn supplier(db: &Db, c: i64) {
    let ev = RecordChanged {
        resource: "fornecedor".into(),
        op: "criado".into(),
        client_id: c,
        emp_id: 1,
        key: vec!["5".into()],
        row_json: serde_json::to_vec(&json!({
            "FORN_ID": 5, "FORN_DESCRICAO": "Distribuidora Recife Ltda", "FORN_CGC": "11222333000181"
        }))
        .expect("row"),
    };
    let mut m = erp_platform::bus::Message::new(
        format!("fornecedor-{c}-5"),
        "erp.catalog.fornecedor.criado",
        ev.encode_to_vec().into(),
    );
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    deliver(
        db,
        "finance-fornecedores",
        c,
        erp_platform::bus::copies::SupplierCopy { schema: "finance" },
        m,
    )
    .await
    .expect("supplier fact");
}

/// A data directory of this test with the company's logo where the gateway puts
/// uploads.
fn data_dir(c: i64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("erp-finance-receipts-{c}"));
    let uploads = dir.join("uploads").join(c.to_string()).join("1");
    std::fs::create_dir_all(&uploads).expect("uploads");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logo.png"),
        uploads.join("logo-empresa.png"),
    )
    .expect("logo");
    dir
}

#[tokio::test]
async fn a_settlement_has_its_receipt_in_figures_and_words() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir(c);
    company(&db, c, "logo-empresa.png").await;
    customer(&db, c, 9, "José Antônio Gonçalves", json!("5000")).await;
    supplier(&db, c).await;
    let bank = account(&db, c, "0").await;
    let method = create(
        &db,
        c,
        "formapagamento",
        json!({"FRMP_DESCRICAO": "PIX", "FRMP_TIPO": "17"}),
    )
    .await
    .expect("method")["FRMP_ID"]
        .clone();
    let title = create(
        &db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": 9, "CLI_DESCRICAO": "JOSE A GONCALVES", "CRCB_DOCUMENTO": "NF 1001",
               "CRCB_DTA_EMIS": "2026-11-01", "CRCB_DTA_VCTO": "2026-11-20", "CRCB_VLR_CTA": "1200.00"}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .clone();
    // 1.200,00 with 34,56 of interest: 1.234,56 received.
    let settled = call(
        &db,
        &dir,
        c,
        "contasreceber",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-11-24", "BCO_ID": bank, "FRMP_ID": method,
               "TITULOS": [{"ID": title, "JUROS": "34.56", "MULTA": "0"}]}),
    )
    .await
    .expect("settle");
    let baixa = settled["baixas"][0]["BAIX_ID"].to_string();

    let out = call(
        &db,
        &dir,
        c,
        "contasreceber",
        "recibo",
        &[("id", &baixa), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("receipt");
    let pdf = pdf_of(&out, &format!("recibo-{baixa}.pdf"));
    let flat = text(&pdf);
    for want in [
        "RECIBO",
        &format!("Nº {baixa}"),
        "R$ 1.234,56",
        "um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos",
        "Recebi(emos) de José Antônio Gonçalves, CPF 123.456.789-09",
        &format!("referente a pagamento da parcela 1/1 do documento NF 1001 (título nº {title}, vencimento em 20/11/2026), com juros de R$ 34,56, pago em PIX."),
        "Caxias do Sul, 24 de novembro de 2026.",
        "Comércio de Alimentos São João Ltda",
        "CNPJ 11.444.777/0001-61",
        "Rua Sinimbu, 1234 – Centro – Caxias do Sul/RS – CEP 95020-002",
    ] {
        assert!(flat.contains(want), "missing '{want}' in: {flat}");
    }
    let png = artifact("recibo-contasreceber", &pdf);
    let size = std::fs::metadata(&png).expect("png").len();
    assert!(size > 1_000, "{} is {size} bytes", png.display());

    // A payable's receipt: the company paid, the supplier received and signs.
    let payable = create(
        &db,
        c,
        "contaspagar",
        json!({"CMPD_COMP_FORN_ID": 5, "FORN_DESCRICAO": "DISTRIB RECIFE", "CMPD_DOCUMENTO": "NF 77",
               "CMPD_DTA_EMIS": "2026-11-01", "CMPD_DTA_VCTO": "2026-11-30", "CMPD_VLR_TITULO": "2000001.10"}),
    )
    .await
    .expect("payable")["CMPD_ID"]
        .clone();
    let paid = call(
        &db,
        &dir,
        c,
        "contaspagar",
        "baixa",
        &[("emp", "1")],
        json!({"DATA": "2026-11-25", "BCO_ID": bank, "TITULOS": [payable]}),
    )
    .await
    .expect("pay");
    let paid_id = paid["baixas"][0]["BAIX_ID"].to_string();
    let out = call(
        &db,
        &dir,
        c,
        "contaspagar",
        "recibo",
        &[("id", &paid_id), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("payable receipt");
    let pdf = pdf_of(&out, &format!("recibo-{paid_id}.pdf"));
    let flat = text(&pdf);
    for want in [
        "R$ 2.000.001,10",
        "dois milhões, um real e dez centavos",
        "Recebi(emos) de Comércio de Alimentos São João Ltda, CNPJ 11.444.777/0001-61",
        "Distribuidora Recife Ltda",
        "CNPJ 11.222.333/0001-81",
        "Caxias do Sul, 25 de novembro de 2026.",
    ] {
        assert!(flat.contains(want), "missing '{want}' in: {flat}");
    }
    artifact("recibo-contaspagar", &pdf);
    // The payables settlement screen answers the same receipt.
    let same = call(
        &db,
        &dir,
        c,
        "baixacontaspagar",
        "recibo",
        &[("id", &paid_id), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("settlement screen receipt");
    assert_eq!(text(&pdf_of(&same, &format!("recibo-{paid_id}.pdf"))), flat);

    // A reversed settlement has no receipt; an unknown one is not found.
    call(
        &db,
        &dir,
        c,
        "contaspagar",
        "estorno",
        &[("id", &paid_id), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("reverse");
    let r = call(
        &db,
        &dir,
        c,
        "contaspagar",
        "recibo",
        &[("id", &paid_id), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(
        message(r),
        format!("Baixa {paid_id} foi estornada: não há recibo.")
    );
    let r = call(
        &db,
        &dir,
        c,
        "contasreceber",
        "recibo",
        &[("id", "999999"), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(message(r), "Baixa 999999 não encontrada.");
    // Another tenant finds none of them.
    let other = crate::client();
    let r = call(
        &db,
        &dir,
        other,
        "contasreceber",
        "recibo",
        &[("id", &baixa), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(message(r), format!("Baixa {baixa} não encontrada."));
}

#[tokio::test]
async fn a_free_form_receipt_is_checked_numbered_and_printed_again() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir(c);
    company(&db, c, "logo-empresa.png").await;
    let body = json!({"VALOR": "1234.56", "PAGADOR": "Maria da Silva", "PAGADOR_DOC": "12345678909",
                      "REFERENTE": "aluguel da sala 2 de novembro/2026", "CIDADE": "Caxias do Sul",
                      "DATA": "2026-11-24"});
    let out = call(
        &db,
        &dir,
        c,
        "recibos",
        "reciboavulso",
        &[("emp", "1")],
        body.clone(),
    )
    .await
    .expect("free receipt");
    let pdf = pdf_of(&out, "recibo-1.pdf");
    let flat = text(&pdf);
    for want in [
        "Nº 1",
        "R$ 1.234,56",
        "Recebi(emos) de Maria da Silva, CPF 123.456.789-09, a importância de um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos referente a aluguel da sala 2 de novembro/2026.",
        "Caxias do Sul, 24 de novembro de 2026.",
        "Comércio de Alimentos São João Ltda",
    ] {
        assert!(flat.contains(want), "missing '{want}' in: {flat}");
    }
    artifact("recibo-avulso", &pdf);

    // Someone else received: no company, no logo; numbered 2.
    let mut other = body.clone();
    other["RECEBEDOR"] = json!("Pedro Álvares");
    other["VALOR"] = json!("0.01");
    other.as_object_mut().expect("object").remove("PAGADOR_DOC");
    let out = call(
        &db,
        &dir,
        c,
        "recibos",
        "reciboavulso",
        &[("emp", "1")],
        other,
    )
    .await
    .expect("second");
    let flat = text(&pdf_of(&out, "recibo-2.pdf"));
    assert!(
        flat.contains("Recebi(emos) de Maria da Silva, a importância de um centavo"),
        "{flat}"
    );
    assert!(flat.contains("Pedro Álvares"), "{flat}");
    assert!(!flat.contains("São João"), "{flat}");

    // Printed again from what was kept.
    let again = call(
        &db,
        &dir,
        c,
        "recibos",
        "reimprimir",
        &[("id", "1"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("again");
    assert!(text(&pdf_of(&again, "recibo-1.pdf")).contains("Maria da Silva, CPF 123.456.789-09"));

    // Refusals answer 400 in pt-BR and issue nothing.
    for (k, v, want) in [
        ("VALOR", json!(null), "Valor é obrigatório!"),
        ("VALOR", json!("dez"), "Valor inválido."),
        (
            "VALOR",
            json!("0"),
            "O campo Valor deve ser maior ou igual a 0,01 ",
        ),
        ("PAGADOR", json!(" "), "Pagador é obrigatório!"),
        ("PAGADOR_DOC", json!("111.111.111-11"), "CPF inválido."),
        ("REFERENTE", json!(null), "Referente é obrigatório!"),
        ("CIDADE", json!(""), "Cidade é obrigatório!"),
        ("DATA", json!("2026-02-30"), "Data inválida"),
    ] {
        let mut b = body.clone();
        b[k] = v;
        let r = call(&db, &dir, c, "recibos", "reciboavulso", &[("emp", "1")], b).await;
        let e = r.expect_err(want);
        assert_eq!(
            (e.http_status(), e.public_message()),
            (400, want.to_string())
        );
    }
    let r = call(
        &db,
        &dir,
        c,
        "recibos",
        "reimprimir",
        &[("id", "3"), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(message(r), "Recibo 3 não encontrado.");
    // The register lists the two issued, and refuses writes.
    let listed = crate::rows(&db, c, "recibos", json!({})).await;
    assert_eq!(listed.len(), 2);
    let r = create(
        &db,
        c,
        "recibos",
        json!({"REC_VALOR": "1", "REC_PAGADOR": "X"}),
    )
    .await;
    assert_eq!(message(r), erp_finance::resources::receipts::READ_ONLY);
}
