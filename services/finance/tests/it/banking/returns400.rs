//! Real CNAB 400 returns (kivanio/brcobranca's Itaú and Bradesco files, see
//! tests/fixtures/README.md) processed on an account of that bank: slips are
//! numbered as the file's titles, the file goes through the same call as any
//! return, and exactly the titles it pays are settled with its values (Itaú's
//! credit is the value less the fee, so the payer paid both); the same file
//! again settles nothing.

use std::path::Path;

use erp_platform::db::Db;
use serde_json::{json, Value};

use super::{call, copies, data_dir, upload};
use crate::{balance, count, create, d, dec};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cnab")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

/// A receivable of customer 9 issued before the file's dates.
async fn receivable(db: &Db, c: i64, due: &str, value: &str) -> i64 {
    create(
        db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": 9, "CLI_DESCRICAO": "TRANSPORTES SÃO JOÃO LTDA", "CRCB_DOCUMENTO": "NF 77",
               "CRCB_DTA_EMIS": "2013-05-02", "CRCB_DTA_VCTO": due, "CRCB_VLR_CTA": value}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID")
}

/// The slip of `title` with nosso número `number`: the account's next number is
/// set to it before the slip is generated. Answers the slip's id.
async fn slip_numbered(db: &Db, dir: &Path, c: i64, bank: i64, title: i64, number: i64) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE finance.banco SET bco_prox_nosso_numero = $1 WHERE bco_id = $2")
        .bind(number)
        .bind(bank)
        .execute(&mut *tx)
        .await
        .expect("next number");
    tx.commit().await.expect("commit");
    let out = call(
        db,
        dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"BCO_ID": bank, "TITULOS": [title]}),
    )
    .await
    .expect("gerar");
    out[0]["BOL_ID"].as_i64().expect("BOL_ID")
}

async fn slip_status(db: &Db, c: i64, slip: i64) -> String {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_scalar::<_, String>(
        "SELECT bol_situacao::text FROM finance.boletos WHERE bol_id = $1",
    )
    .bind(slip)
    .fetch_one(&mut *tx)
    .await
    .expect("status")
}

/// (paid, interest, open balance) of a receivable.
async fn paid(
    db: &Db,
    c: i64,
    title: i64,
) -> (rust_decimal::Decimal, rust_decimal::Decimal, String) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let row: (rust_decimal::Decimal, rust_decimal::Decimal, String) = sqlx::query_as(
        "SELECT tit_pago, tit_juros, tit_situacao::text FROM finance.contasreceber WHERE tit_id = $1",
    )
    .bind(title)
    .fetch_one(&mut *tx)
    .await
    .expect("receivable");
    row
}

async fn process(db: &Db, dir: &Path, c: i64, bank: i64, name: &str, bytes: &[u8]) -> Value {
    call(
        db,
        dir,
        c,
        "boletos",
        "retorno",
        &[("emp", "1")],
        upload(dir, c, name, bytes, bank),
    )
    .await
    .expect("retorno")
}

/// The answer's lines of slips of this account (the others were not found).
fn found(r: &Value) -> Vec<(String, String)> {
    r["TITULOS"]
        .as_array()
        .expect("titles")
        .iter()
        .filter(|t| !t["BOL_ID"].is_null())
        .map(|t| {
            (
                t["NOSSO_NUMERO"].as_str().unwrap_or("").to_string(),
                t["RESULTADO"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn itau_400_return_settles_exactly_its_paid_titles_once() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let bank = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "ITAÚ COBRANÇA", "BCO_COMPE": "341", "BCO_AGENCIA": "0730",
               "BCO_CONTA": "03511", "BCO_CONTA_DV": "0", "BCO_CARTEIRA": "109",
               "BCO_LAYOUT_CNAB": "400", "BCO_SALDO_INICIAL": "0"}),
    )
    .await
    .expect("account")["BCO_ID"]
        .as_i64()
        .expect("BCO_ID");
    copies(&db, c, 9).await;
    // Titles 00000011 (40,00 paid: 37,90 credited + 2,10 fee) and 00003136
    // (48,75 with 1,02 of interest: 47,67 credited + 2,10) are paid; 27714592
    // is written off (09, fee 2,10).
    let a = receivable(&db, c, "2013-05-20", "40.00").await;
    let b = receivable(&db, c, "2013-05-20", "48.75").await;
    let w = receivable(&db, c, "2013-05-10", "40.00").await;
    // Slip 3 is not in the file; title 00000035 (no slip here) must not be
    // taken for it, as "35 without its last digit" would.
    let x = receivable(&db, c, "2013-05-20", "40.00").await;
    let slip_a = slip_numbered(&db, &dir, c, bank, a, 11).await;
    let slip_b = slip_numbered(&db, &dir, c, bank, b, 3136).await;
    let slip_w = slip_numbered(&db, &dir, c, bank, w, 27714592).await;
    let slip_x = slip_numbered(&db, &dir, c, bank, x, 3).await;

    let file = fixture("brcobranca_CNAB400ITAU.RET");
    let r = process(&db, &dir, c, bank, "CNAB400ITAU.RET", &file).await;
    assert_eq!(r["LEIAUTE"], "Itaú CNAB 400", "{r}");
    assert_eq!(r["JA_PROCESSADO"], false);
    assert_eq!(r["LIQUIDADOS"], 2, "{r}");
    assert_eq!(r["BAIXADOS"], 1, "{r}");
    assert_eq!(r["REGISTRADOS"], 0);
    assert_eq!(r["RECUSADOS"], 0);
    assert_eq!(r["IGNORADOS"], 49, "the 49 other titles have no slip here");
    assert_eq!(r["AVISOS"], json!([]));
    assert_eq!(r["LINHAS_COMPLETADAS"], 0);
    assert_eq!(r["TITULOS"].as_array().map(Vec::len), Some(52));
    assert_eq!(
        found(&r),
        vec![
            ("11".to_string(), "Liquidado (R$ 40,00)".to_string()),
            ("3136".to_string(), "Liquidado (R$ 49,77)".to_string()),
            ("27714592".to_string(), "Baixado".to_string()),
        ]
    );
    let line = |nosso: &str| {
        r["TITULOS"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["NOSSO_NUMERO"] == nosso))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(line("11")["CRCB_ID"], a);
    assert_eq!(dec(&line("11")["VALOR_PAGO"]), d("40.00"));
    assert_eq!(dec(&line("11")["TARIFA"]), d("2.10"));
    assert_eq!(line("3136")["CRCB_ID"], b);
    assert_eq!(dec(&line("3136")["VALOR_PAGO"]), d("49.77"));
    assert_eq!(dec(&line("3136")["JUROS"]), d("1.02"));
    assert_eq!(line("35")["BOL_ID"], Value::Null);

    // The receivables: a and b paid with the file's values, w and x open.
    assert_eq!(paid(&db, c, a).await, (d("40.00"), d("0"), "Q".to_string()));
    assert_eq!(
        paid(&db, c, b).await,
        (d("48.75"), d("1.02"), "Q".to_string())
    );
    assert_eq!(paid(&db, c, w).await.0, d("0"));
    assert_eq!(paid(&db, c, x).await.0, d("0"));
    assert_eq!(slip_status(&db, c, slip_a).await, "P");
    assert_eq!(slip_status(&db, c, slip_b).await, "P");
    assert_eq!(slip_status(&db, c, slip_w).await, "B");
    assert_eq!(slip_status(&db, c, slip_x).await, "G");
    // The account: 40,00 + 49,77 credited, three fees of 2,10 debited; what the
    // two settlements left is Itaú's "valor principal" (37,90 + 47,67).
    let movements = "SELECT count(*) FROM finance.movimentacaobancaria";
    assert_eq!(count(&db, c, movements).await, 5);
    assert_eq!(balance(&db, c, bank).await, d("83.47"));
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.baixas").await,
        2
    );
    let occurrences = "SELECT count(*) FROM finance.boletoocorrencias";
    assert_eq!(count(&db, c, occurrences).await, 52);

    // The same file again settles nothing.
    let r = process(&db, &dir, c, bank, "CNAB400ITAU.RET", &file).await;
    assert_eq!(r["JA_PROCESSADO"], true);
    assert_eq!(r["LIQUIDADOS"], 0);
    assert_eq!(r["BAIXADOS"], 0);
    assert_eq!(r["IGNORADOS"], 52);
    assert!(
        found(&r)
            .iter()
            .all(|(_, result)| result == "Já processado"),
        "{r}"
    );
    assert_eq!(count(&db, c, movements).await, 5);
    assert_eq!(balance(&db, c, bank).await, d("83.47"));
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.baixas").await,
        2
    );
    assert_eq!(count(&db, c, occurrences).await, 52);
    assert_eq!(paid(&db, c, a).await.0, d("40.00"));
    assert_eq!(paid(&db, c, b).await.0, d("48.75"));
}

#[tokio::test]
async fn bradesco_400_return_registers_and_writes_off_without_settling() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let bank = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "BRADESCO COBRANÇA", "BCO_COMPE": "237", "BCO_AGENCIA": "1467",
               "BCO_AGENCIA_DV": "2", "BCO_CONTA": "19669", "BCO_CONTA_DV": "0", "BCO_CARTEIRA": "09",
               "BCO_CONVENIO": "4540691", "BCO_LAYOUT_CNAB": "400", "BCO_SALDO_INICIAL": "0"}),
    )
    .await
    .expect("account")["BCO_ID"]
        .as_i64()
        .expect("BCO_ID");
    copies(&db, c, 9).await;
    // 51350000004-P and 51350000007-4 are confirmed (02, fee 1,60 each);
    // 50980000002-8 is written off (10). The file pays nothing.
    let e1 = receivable(&db, c, "2015-05-25", "180.00").await;
    let e2 = receivable(&db, c, "2015-05-25", "720.00").await;
    let w = receivable(&db, c, "2015-05-06", "200.00").await;
    let slip_e1 = slip_numbered(&db, &dir, c, bank, e1, 51350000004).await;
    let slip_e2 = slip_numbered(&db, &dir, c, bank, e2, 51350000007).await;
    let slip_w = slip_numbered(&db, &dir, c, bank, w, 50980000002).await;

    let file = fixture("brcobranca_CNAB400BRADESCO.RET");
    let r = process(&db, &dir, c, bank, "CNAB400BRADESCO.RET", &file).await;
    assert_eq!(r["LEIAUTE"], "Bradesco CNAB 400", "{r}");
    assert_eq!(r["REGISTRADOS"], 2, "{r}");
    assert_eq!(r["BAIXADOS"], 1, "{r}");
    assert_eq!(r["LIQUIDADOS"], 0);
    assert_eq!(r["IGNORADOS"], 3);
    // The first title's check digit disagrees with its number: said, not fatal.
    assert_eq!(
        r["AVISOS"],
        json!([
            "Linha 2, campo nosso_numero_dv (posições 82-82): dígito do nosso número 00000000030-3 não confere com a carteira 09 (esperado 5); título lido pelo número."
        ])
    );
    assert_eq!(
        found(&r),
        vec![
            ("51350000004".to_string(), "Registrado".to_string()),
            ("51350000007".to_string(), "Registrado".to_string()),
            ("50980000002".to_string(), "Baixado".to_string()),
        ]
    );
    assert_eq!(slip_status(&db, c, slip_e1).await, "R");
    assert_eq!(slip_status(&db, c, slip_e2).await, "R");
    assert_eq!(slip_status(&db, c, slip_w).await, "B");
    for title in [e1, e2, w] {
        assert_eq!(paid(&db, c, title).await.0, d("0"));
    }
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.baixas").await,
        0
    );
    // The two entry fees.
    assert_eq!(balance(&db, c, bank).await, d("-3.20"));

    let r = process(&db, &dir, c, bank, "CNAB400BRADESCO.RET", &file).await;
    assert_eq!(r["JA_PROCESSADO"], true);
    assert_eq!(r["REGISTRADOS"], 0);
    assert_eq!(r["BAIXADOS"], 0);
    assert_eq!(balance(&db, c, bank).await, d("-3.20"));
}
