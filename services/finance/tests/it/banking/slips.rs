//! Slips: 100 generated at once, their codes read back; the PDF; changes, payment
//! and refusals.

use std::collections::HashSet;
use std::path::PathBuf;

use erp_finance::collection::barcode::{Barcode, LinhaDigitavel};
use erp_finance::collection::pix::parse_brcode;
use serde_json::json;

use super::{call, copies, data_dir, date, receivable, santander};
use crate::{count, create, d, message};

#[tokio::test]
async fn a_hundred_slips_at_once_get_distinct_numbers_and_codes_that_read_back() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let bank = santander(&db, c).await;
    copies(&db, c, 7).await;
    let mut titles = Vec::new();
    for i in 0..100 {
        titles.push(receivable(&db, c, 7, "2026-12-21", &format!("{}.{:02}", 100 + i, i)).await);
    }
    let mut tasks = Vec::new();
    for t in &titles {
        let (db, dir, t) = (db.clone(), dir.clone(), *t);
        tasks.push(tokio::spawn(async move {
            call(
                &db,
                &dir,
                c,
                "boletos",
                "gerar",
                &[],
                json!({"BCO_ID": bank, "TITULOS": [t]}),
            )
            .await
        }));
    }
    let mut numbers = HashSet::new();
    let mut barcodes = HashSet::new();
    for (i, task) in tasks.into_iter().enumerate() {
        let out = task.await.expect("join").expect("gerar");
        let s = &out[0];
        assert_eq!(s["CRCB_ID"], titles[i]);
        numbers.insert(s["NOSSO_NUMERO"].as_str().expect("nosso").to_string());
        let code = s["CODIGO_BARRAS"].as_str().expect("barcode");
        barcodes.insert(code.to_string());
        let b = Barcode::parse(code).expect("valid barcode");
        assert_eq!(b.bank(), "033");
        let value = d(&format!("{}.{:02}", 100 + i, i));
        assert_eq!(b.amount(), value);
        assert_eq!(b.due_date(date("2026-11-24")), Some(date("2026-12-21")));
        // The linha digitável is the same barcode.
        let linha =
            LinhaDigitavel::parse(s["LINHA_DIGITAVEL"].as_str().expect("linha")).expect("linha");
        assert_eq!(linha.to_barcode().as_str(), code);
        // Pix: the account's key, the amount, the company.
        let pix = parse_brcode(s["PIX_COPIA_COLA"].as_str().expect("pix")).expect("brcode");
        assert_eq!(pix.key.as_deref(), Some("11444777000161"));
        assert_eq!(pix.amount, Some(value));
        assert_eq!(pix.merchant_name, "OFICINA MODELO LTDA");
    }
    assert_eq!(numbers.len(), 100, "100 distinct nosso números");
    assert_eq!(barcodes.len(), 100);
    // The next number moved past all of them.
    let next = count(
        &db,
        c,
        &format!("SELECT bco_prox_nosso_numero FROM finance.banco WHERE bco_id = {bank}"),
    )
    .await;
    assert_eq!(next, 101);
    // Asking again for a title with a slip answers the same slip.
    let again = call(
        &db,
        &dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"BCO_ID": bank, "TITULOS": [titles[0]]}),
    )
    .await
    .expect("again");
    assert!(numbers.contains(again[0]["NOSSO_NUMERO"].as_str().expect("nosso")));
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.boletos").await,
        100
    );
    // The next number cannot go back below what was used.
    let res = crate::resource("banco");
    let err = crate::update_row(&db, c, &res, &bank.to_string(), json!({"BCO_DESCRICAO": "SANTANDER COBRANÇA", "BCO_TIPO_CONTA": "C", "BCO_PROX_NOSSO_NUMERO": 50})).await;
    assert_eq!(
        message(err),
        "O nosso número 50 já foi usado nesta conta: o próximo deve ser maior que 100."
    );
}

/// A Santander CNAB 240 return with one title: occurrence `code` for slip
/// sequence `seq`, paid `paid` with `interest` and fee `fee` on `day`.
#[tokio::test]
async fn slip_pdf_change_and_refusals() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let today_date = {
        let mut tx = db.begin_tenant(c).await.expect("tx");
        erp_finance::titles::today(&mut tx).await.expect("today")
    };
    // A new due date two months ahead, whenever the test runs.
    let new_due = (today_date + chrono::Duration::days(60))
        .format("%Y-%m-%d")
        .to_string();
    let bank = santander(&db, c).await;
    copies(&db, c, 3).await;
    let t = receivable(&db, c, 3, "2026-12-10", "1234.56").await;
    let s = call(
        &db,
        &dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"BCO_ID": bank, "CRCB_ID": t}),
    )
    .await
    .expect("gerar");
    let id = s[0]["BOL_ID"].as_i64().expect("id");
    let pdf = call(
        &db,
        &dir,
        c,
        "boletos",
        "pdf",
        &[],
        json!({"BOL_IDS": [id]}),
    )
    .await
    .expect("pdf");
    let file = &pdf[erp_platform::resource::FILE_REPLY];
    assert_eq!(file["tipo"], "application/pdf");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(file["base64"].as_str().expect("content"))
        .expect("base64");
    assert!(bytes.starts_with(b"%PDF"));
    let out = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join("test-artifacts/finance");
    std::fs::create_dir_all(&out).expect("artifacts");
    std::fs::write(out.join("boleto.pdf"), &bytes).expect("pdf written");
    if let Ok(text) = std::process::Command::new("pdftotext")
        .arg(out.join("boleto.pdf"))
        .arg("-")
        .output()
    {
        if text.status.success() {
            let text = String::from_utf8_lossy(&text.stdout);
            let linha = LinhaDigitavel::parse(s[0]["LINHA_DIGITAVEL"].as_str().expect("linha"))
                .expect("linha");
            assert!(
                text.contains(&linha.formatted()),
                "the PDF shows the linha digitável"
            );
            assert!(text.contains("1.234,56"));
            assert!(text.contains("TRANSPORTES SÃO JOÃO LTDA"));
        }
    }

    // A new due date: same nosso número, new barcode, the receivable follows.
    let changed = call(
        &db,
        &dir,
        c,
        "boletos",
        "atualizar",
        &[],
        json!({"BOL_ID": id, "DTA_VCTO": new_due}),
    )
    .await
    .expect("atualizar");
    assert_eq!(changed["NOSSO_NUMERO"], s[0]["NOSSO_NUMERO"]);
    assert_ne!(changed["CODIGO_BARRAS"], s[0]["CODIGO_BARRAS"]);
    let b = Barcode::parse(changed["CODIGO_BARRAS"].as_str().expect("code")).expect("barcode");
    assert_eq!(b.due_date(today_date), Some(date(&new_due)));
    assert_eq!(
        count(&db, c, &format!("SELECT count(*) FROM finance.contasreceber WHERE tit_id = {t} AND tit_dta_vcto = '{new_due}'")).await,
        1
    );
    // Refusals in pt-BR that change nothing.
    let e = call(
        &db,
        &dir,
        c,
        "boletos",
        "atualizar",
        &[],
        json!({"BOL_ID": id, "VALOR": "9999.00"}),
    )
    .await;
    assert_eq!(
        message(e),
        "O valor do boleto (R$ 9.999,00) não pode passar do saldo do título (R$ 1.234,56)."
    );
    let e = call(
        &db,
        &dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"TITULOS": [t]}),
    )
    .await;
    assert_eq!(message(e), "Conta bancária é obrigatório!");
    let e = call(
        &db,
        &dir,
        c,
        "boletos",
        "baixa",
        &[],
        json!({"BOL_ID": id, "TIPO": "X"}),
    )
    .await;
    assert_eq!(message(e), "Tipo inválido: informe PAGO ou BAIXA.");
    // Paid at the counter: the receivable is settled on the slip's account.
    let paid = call(
        &db,
        &dir,
        c,
        "boletos",
        "baixa",
        &[],
        json!({"BOL_ID": id, "TIPO": "PAGO", "DATA": today_date.format("%Y-%m-%d").to_string()}),
    )
    .await
    .expect("pago");
    assert_eq!(paid["BOL_SITUACAO"], "P");
    assert_eq!(crate::balance(&db, c, bank).await, d("1234.56"));
    let e = call(
        &db,
        &dir,
        c,
        "boletos",
        "baixa",
        &[],
        json!({"BOL_ID": id, "TIPO": "BAIXA"}),
    )
    .await;
    assert!(message(e).contains("está pago e não pode ser baixado"));
    // A bank without slips, an account without CNAB layout.
    let other = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "CAIXA INTERNO", "BCO_TIPO_CONTA": "X"}),
    )
    .await
    .expect("cash")["BCO_ID"]
        .as_i64()
        .expect("id");
    let t2 = receivable(&db, c, 3, "2026-12-10", "10.00").await;
    let e = call(
        &db,
        &dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"BCO_ID": other, "TITULOS": [t2]}),
    )
    .await;
    assert_eq!(
        message(e),
        "Informe o banco (código COMPE) da conta 'CAIXA INTERNO' para emitir boletos."
    );
    assert_eq!(
        count(
            &db,
            c,
            &format!("SELECT count(*) FROM finance.boletos WHERE bol_crcb_id = {t2}")
        )
        .await,
        0
    );
    let today = today_date.format("%Y-%m-%d").to_string();
    let day = call(
        &db,
        &dir,
        c,
        "boletos",
        "dia",
        &[("bank", &bank.to_string()), ("emp", "1"), ("day", &today)],
        json!({}),
    )
    .await
    .expect("dia");
    // The slip issued today on this account, paid.
    let listed: Vec<(i64, String)> = day
        .as_array()
        .expect("list")
        .iter()
        .map(|s| {
            (
                s["BOL_ID"].as_i64().unwrap_or(0),
                s["BOL_SITUACAO"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(listed, vec![(id, "P".to_string())]);
}
