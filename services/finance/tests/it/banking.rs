//! Banking over the real database: bank slips (100 generated at once on one
//! account get 100 distinct 'nosso número'; barcode, linha digitável and Pix read
//! back to the title's amount and due date), the CNAB remittance re-parsed to the
//! slips it was made of, a return file that settles exactly its title (and
//! nothing the second time), the OFX statement imported once with its accents,
//! the reconciliation suggestion of that settlement confirmed and undone,
//! transfers, period balances, the daily closing, the accounting export, and
//! another tenant seeing none of it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use erp_finance::collection::barcode::{Barcode, LinhaDigitavel};
use erp_finance::collection::cnab::layout::{write_record, Value as Cnab};
use erp_finance::collection::cnab::{parse_remittance, tables240 as t240, CnabLayout, Command};
use erp_finance::collection::pix::parse_brcode;
use erp_platform::db::Db;
use serde_json::{json, Value};

use crate::{count, create, d, dec, message};

fn data_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("erp-finance-banking-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("data dir");
    dir
}

/// Runs declared call `action` of register `name` with uploads under `data_dir`.
async fn call(
    db: &Db,
    dir: &Path,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let reg = erp_finance::resources::registry_in(dir).expect("registry");
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

/// Stores `bytes` where the gateway keeps client `c`'s uploads of company 1 and
/// answers the body an upload call receives.
fn upload(dir: &Path, c: i64, name: &str, bytes: &[u8], bank: i64) -> Value {
    let folder = dir.join("uploads").join(c.to_string()).join("1");
    std::fs::create_dir_all(&folder).expect("uploads");
    let stored = format!("{}-{name}", uuid_like());
    std::fs::write(folder.join(&stored), bytes).expect("write upload");
    json!({"arquivo": {"nome": stored, "original": name}, "BCO_ID": bank.to_string()})
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("u{}", N.fetch_add(1, Ordering::Relaxed))
}

/// A Santander (033) account with CNAB 240, a Pix key, 2% fine and 1% a month.
async fn santander(db: &Db, c: i64) -> i64 {
    create(
        db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "SANTANDER COBRANÇA", "BCO_COMPE": "033", "BCO_AGENCIA": "3214",
               "BCO_CONTA": "13000123", "BCO_CONTA_DV": "4", "BCO_CARTEIRA": "101",
               "BCO_COD_BENEFICIARIO": "7070777", "BCO_CONVENIO": "321400000130001", "BCO_LAYOUT_CNAB": "240",
               "BCO_TIPO_CHAVE_PIX": "CNPJ", "BCO_CHAVE_PIX": "11444777000161",
               "BCO_PERC_MULTA": "2", "BCO_PERC_JUROS": "1", "BCO_SALDO_INICIAL": "0"}),
    )
    .await
    .expect("account")["BCO_ID"]
        .as_i64()
        .expect("BCO_ID")
}

/// Finance's copies of the company and of customer `id` (what catalog's and
/// identity's facts would have written).
async fn copies(db: &Db, c: i64, customer: i64) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "INSERT INTO finance.empresas (client_id, emp_id, descricao, documento, endereco, numero, bairro, cidade, uf, cep)
         VALUES ($1, 1, 'OFICINA MODELO LTDA', '11444777000161', 'Rua Sinimbu', '1234', 'Centro', 'Caxias do Sul', 'RS', '95020002')
         ON CONFLICT DO NOTHING",
    )
    .bind(c)
    .execute(&mut *tx)
    .await
    .expect("company");
    sqlx::query(
        "INSERT INTO finance.clientes (client_id, emp_id, cli_id, descricao, documento, endereco, numero, bairro, cep,
             cidade, uf, copiado)
         VALUES ($1, 1, $2, 'TRANSPORTES SÃO JOÃO LTDA', '11222333000181', 'Avenida Paulista', '1000', 'Bela Vista',
                 '01310100', 'São Paulo', 'SP', true)
         ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET descricao = EXCLUDED.descricao,
             documento = EXCLUDED.documento, endereco = EXCLUDED.endereco, numero = EXCLUDED.numero,
             bairro = EXCLUDED.bairro, cep = EXCLUDED.cep, cidade = EXCLUDED.cidade, uf = EXCLUDED.uf, copiado = true",
    )
    .bind(c)
    .bind(customer)
    .execute(&mut *tx)
    .await
    .expect("customer");
    tx.commit().await.expect("commit");
}

async fn receivable(db: &Db, c: i64, customer: i64, due: &str, value: &str) -> i64 {
    create(
        db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": customer, "CLI_DESCRICAO": "TRANSPORTES SÃO JOÃO LTDA", "CRCB_DOCUMENTO": "NF 501",
               "CRCB_DTA_EMIS": "2026-11-20", "CRCB_DTA_VCTO": due, "CRCB_VLR_CTA": value}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID")
}

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
}

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
fn return_file(
    seq: i64,
    code: &str,
    face: &str,
    paid: &str,
    interest: &str,
    fee: &str,
    day: NaiveDate,
) -> Vec<u8> {
    let dv =
        erp_finance::collection::barcode::santander_nosso_numero_dv(&seq.to_string()).expect("dv");
    let nosso = format!("{seq:012}{dv}");
    let t = |s: &str| Cnab::Text(s.to_string());
    let lines = vec![
        write_record(
            &t240::RETURN_FILE_HEADER,
            1,
            &vec![
                ("banco", t("033")),
                ("lote", t("0000")),
                ("registro", t("0")),
                ("tipo_inscricao", t("2")),
                ("inscricao", t("11444777000161")),
                ("codigo_arquivo", t("2")),
                ("data_geracao", Cnab::Date(Some(day))),
                ("hora_geracao", t("080000")),
                ("nsa", Cnab::Num(1)),
            ],
        ),
        write_record(
            &t240::RETURN_OTHER,
            2,
            &vec![
                ("banco", t("033")),
                ("lote", t("0001")),
                ("registro", t("1")),
            ],
        ),
        write_record(
            &t240::T,
            3,
            &vec![
                ("banco", t("033")),
                ("lote", t("0001")),
                ("registro", t("3")),
                ("sequencial", t("00001")),
                ("segmento", t("T")),
                ("movimento", t(code)),
                ("nosso_numero", t(&nosso)),
                ("numero_documento", t("NF 501")),
                ("vencimento", Cnab::Date(Some(date("2026-12-21")))),
                ("valor", Cnab::Money(d(face))),
                ("tarifa", Cnab::Money(d(fee))),
                ("motivos", t("")),
            ],
        ),
        write_record(
            &t240::U,
            4,
            &vec![
                ("banco", t("033")),
                ("lote", t("0001")),
                ("registro", t("3")),
                ("sequencial", t("00002")),
                ("segmento", t("U")),
                ("movimento", t(code)),
                ("juros", Cnab::Money(d(interest))),
                ("valor_pago", Cnab::Money(d(paid))),
                ("data_ocorrencia", Cnab::Date(Some(day))),
                ("data_credito", Cnab::Date(Some(day))),
            ],
        ),
        write_record(
            &t240::RETURN_BATCH_TRAILER,
            5,
            &vec![
                ("banco", Cnab::Num(33)),
                ("lote", Cnab::Num(1)),
                ("quantidade_registros", Cnab::Num(4)),
            ],
        ),
        write_record(
            &t240::RETURN_FILE_TRAILER,
            6,
            &vec![
                ("banco", Cnab::Num(33)),
                ("quantidade_lotes", Cnab::Num(1)),
                ("quantidade_registros", Cnab::Num(6)),
            ],
        ),
    ];
    let lines: Vec<String> = lines.into_iter().map(|l| l.expect("record")).collect();
    format!("{}\r\n", lines.join("\r\n")).into_bytes()
}

#[tokio::test]
async fn remittance_return_and_reconciliation_settle_exactly_once() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let bank = santander(&db, c).await;
    copies(&db, c, 9).await;
    let a = receivable(&db, c, 9, "2026-12-21", "100.00").await;
    let b = receivable(&db, c, 9, "2027-01-21", "250.50").await;
    let slips = call(
        &db,
        &dir,
        c,
        "boletos",
        "gerar",
        &[],
        json!({"EMP_ID": 1, "BCO_ID": bank, "TITULOS": [a, b]}),
    )
    .await
    .expect("gerar");
    assert_eq!(slips.as_array().map(Vec::len), Some(2));

    // Remittance: the file re-parses to the two slips, and they are sent.
    let out = call(
        &db,
        &dir,
        c,
        "boletos",
        "remessa",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await
    .expect("remessa");
    let file = &out[erp_platform::resource::FILE_REPLY];
    assert_eq!(file["nome"], "REM033_000001.REM");
    use base64::Engine;
    let content = base64::engine::general_purpose::STANDARD
        .decode(file["base64"].as_str().expect("content"))
        .expect("base64");
    let parsed = parse_remittance(CnabLayout::Santander240, &content).expect("re-parses");
    assert_eq!(parsed.slips.len(), 2);
    assert_eq!(parsed.slips[0].nosso_numero, "1");
    assert_eq!(parsed.slips[0].amount, d("100.00"));
    assert_eq!(parsed.slips[0].due_date, date("2026-12-21"));
    assert_eq!(parsed.slips[0].payer.document, "11222333000181");
    assert_eq!(parsed.slips[0].payer.name, "TRANSPORTES SAO JOAO LTDA");
    assert_eq!(parsed.slips[1].amount, d("250.50"));
    assert!(parsed.slips.iter().all(|s| s.command == Command::Entry));
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM finance.boletos WHERE bol_situacao = 'E'"
        )
        .await,
        2
    );
    let none = call(
        &db,
        &dir,
        c,
        "boletos",
        "remessa",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await;
    assert_eq!(message(none), "Nenhum boleto a enviar para esta conta.");

    // Write one off: the next remittance carries the write-off command (02).
    let slip_b = slips[1]["BOL_ID"].as_i64().expect("id");
    call(
        &db,
        &dir,
        c,
        "boletos",
        "baixa",
        &[],
        json!({"BOL_ID": slip_b, "TIPO": "BAIXA"}),
    )
    .await
    .expect("write off");
    let out = call(
        &db,
        &dir,
        c,
        "boletos",
        "remessa",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await
    .expect("second remittance");
    let content = base64::engine::general_purpose::STANDARD
        .decode(
            out[erp_platform::resource::FILE_REPLY]["base64"]
                .as_str()
                .expect("content"),
        )
        .expect("base64");
    let parsed = parse_remittance(CnabLayout::Santander240, &content).expect("re-parses");
    assert_eq!(parsed.slips.len(), 1);
    assert_eq!(parsed.slips[0].command, Command::WriteOff);
    assert_eq!(parsed.file_sequence, Some(2));

    // The bank confirms slip a, then pays it with interest and a fee.
    let day = date("2026-11-23");
    let confirm = return_file(1, "02", "100.00", "0", "0", "0", day);
    let r = call(
        &db,
        &dir,
        c,
        "boletos",
        "retorno",
        &[("emp", "1")],
        upload(&dir, c, "ret1.ret", &confirm, bank),
    )
    .await
    .expect("confirmation");
    assert_eq!(r["REGISTRADOS"], 1, "{r}");
    let paid = return_file(1, "06", "100.00", "101.50", "1.50", "2.35", day);
    let r = call(
        &db,
        &dir,
        c,
        "boletos",
        "retorno",
        &[("emp", "1")],
        upload(&dir, c, "ret2.ret", &paid, bank),
    )
    .await
    .expect("return");
    assert_eq!(r["LIQUIDADOS"], 1, "{r}");
    assert_eq!(r["JA_PROCESSADO"], false);
    assert_eq!(r["TITULOS"][0]["CRCB_ID"], a);
    assert!(
        r["TITULOS"][0]["RESULTADO"]
            .as_str()
            .unwrap_or("")
            .starts_with("Liquidado"),
        "{r}"
    );
    let title = count(&db, c, &format!("SELECT count(*) FROM finance.contasreceber WHERE tit_id = {a} AND tit_situacao = 'Q' AND tit_juros = 1.50")).await;
    assert_eq!(title, 1, "the receivable is paid with its interest");
    let movements = count(&db, c, "SELECT count(*) FROM finance.movimentacaobancaria").await;
    assert_eq!(movements, 2, "the settlement's credit and the fee's debit");
    assert_eq!(crate::balance(&db, c, bank).await, d("99.15"));

    // The same file again settles nothing.
    let r = call(
        &db,
        &dir,
        c,
        "boletos",
        "retorno",
        &[("emp", "1")],
        upload(&dir, c, "ret2.ret", &paid, bank),
    )
    .await
    .expect("again");
    assert_eq!(r["JA_PROCESSADO"], true);
    assert_eq!(r["LIQUIDADOS"], 0);
    assert_eq!(r["TITULOS"][0]["RESULTADO"], "Já processado");
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.movimentacaobancaria").await,
        2
    );
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.baixas").await,
        1
    );
    let check = call(
        &db,
        &dir,
        c,
        "boletos",
        "verificar",
        &[],
        json!({"BOL_ID": slips[0]["BOL_ID"]}),
    )
    .await
    .expect("verificar");
    assert_eq!(check["PAGO"], true);
    assert_eq!(check["REGISTRADO"], true);
    assert_eq!(check["OCORRENCIAS"].as_array().map(Vec::len), Some(2));

    // The statement shows the credit of 101,50 and the fee: imported once, the
    // settlement suggested and confirmed, the fee posted from the line.
    let ofx = "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nCHARSET:1252\r\n\r\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\
<CURDEF>BRL<BANKACCTFROM><BANKID>033<BRANCHID>3214<ACCTID>13000123-4<ACCTTYPE>CHECKING</BANKACCTFROM>\
<BANKTRANLIST><DTSTART>20261101<DTEND>20261124\
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261123120000[-03:EST]<TRNAMT>101,50<FITID>A1<MEMO>CR\u{c9}DITO COBRAN\u{c7}A</STMTTRN>\
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261123<TRNAMT>-2,35<FITID>A2<MEMO>TARIFA COBRAN\u{c7}A</STMTTRN>\
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261124<TRNAMT>-15,90<FITID>A3<MEMO>TARIFA PACOTE SERVI\u{c7}OS</STMTTRN>\
</BANKTRANLIST><LEDGERBAL><BALAMT>83,25<DTASOF>20261124</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>";
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(ofx);
    let r = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "ofx",
        &[("emp", "1")],
        upload(&dir, c, "ext.ofx", &bytes, bank),
    )
    .await
    .expect("ofx");
    assert_eq!(r["IMPORTADOS"], 3, "{r}");
    assert_eq!(r["SUGERIDOS"], 2, "{r}");
    let r = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "ofx",
        &[("emp", "1")],
        upload(&dir, c, "ext.ofx", &bytes, bank),
    )
    .await
    .expect("ofx again");
    assert_eq!(r["IMPORTADOS"], 0);
    assert_eq!(r["IGNORADOS"], 3);
    let lines = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "pendentes",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await
    .expect("pendentes");
    let lines = lines.as_array().expect("lines");
    let credit = lines
        .iter()
        .find(|l| l["CONB_TIPO"] == "C")
        .expect("credit line");
    assert_eq!(
        credit["CONB_HISTORICO"], "CRÉDITO COBRANÇA",
        "the CP-1252 memo survives"
    );
    assert_eq!(dec(&credit["CONB_VALOR"]), d("101.50"));
    let suggestion = &credit["SUGESTOES"][0];
    assert_eq!(suggestion["MOTIVO"], "Mesmo valor e mesma data");
    call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "conciliar",
        &[("emp", "1")],
        json!({"CONB_ID": credit["CONB_ID"], "MBCA_IDS": suggestion["MBCA_IDS"]}),
    )
    .await
    .expect("confirm");
    let fee_line = lines
        .iter()
        .find(|l| l["CONB_FITID"] == "A2")
        .expect("fee line");
    call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "conciliar",
        &[("emp", "1")],
        json!({"CONB_ID": fee_line["CONB_ID"], "MBCA_IDS": fee_line["SUGESTOES"][0]["MBCA_IDS"]}),
    )
    .await
    .expect("confirm fee");
    let pack = lines
        .iter()
        .find(|l| l["CONB_FITID"] == "A3")
        .expect("package line");
    assert_eq!(pack["SUGESTOES"].as_array().map(Vec::len), Some(0));
    let wrong = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "conciliar",
        &[("emp", "1")],
        json!({"CONB_ID": pack["CONB_ID"], "MBCA_IDS": suggestion["MBCA_IDS"]}),
    )
    .await;
    assert_eq!(
        message(wrong),
        format!(
            "O movimento {} é um crédito e o lançamento do extrato um débito.",
            suggestion["MBCA_IDS"][0]
        )
    );
    call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "lancar",
        &[("emp", "1")],
        json!({"CONB_ID": pack["CONB_ID"]}),
    )
    .await
    .expect("post");
    let bal = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "saldo",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await
    .expect("saldo");
    assert_eq!(dec(&bal["SALDO_EXTRATO"]), d("83.25"));
    assert_eq!(dec(&bal["SALDO_SISTEMA"]), d("83.25"));
    assert_eq!(dec(&bal["DIFERENCA"]), d("0"));
    assert_eq!(bal["PENDENTES"], 0);
    // Undo the posted line: its movement goes, the balance comes back.
    call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "desfazer",
        &[("emp", "1"), ("id", &pack["CONB_ID"].to_string())],
        json!({}),
    )
    .await
    .expect("undo");
    assert_eq!(crate::balance(&db, c, bank).await, d("99.15"));

    // Another tenant sees none of it.
    let other = crate::client();
    let r = call(
        &db,
        &dir,
        other,
        "boletos",
        "verificar",
        &[],
        json!({"BOL_ID": slips[0]["BOL_ID"]}),
    )
    .await;
    assert!(
        message(r).starts_with("Boleto"),
        "another tenant's slip is not found"
    );
    let r = call(
        &db,
        &dir,
        other,
        "conciliacaobancaria",
        "pendentes",
        &[("emp", "1")],
        json!({"BCO_ID": bank}),
    )
    .await
    .expect("other tenant lines");
    assert_eq!(r.as_array().map(Vec::len), Some(0));
}

#[tokio::test]
async fn slip_pdf_change_and_refusals() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
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
    let out = std::env::var("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir())
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
        json!({"BOL_ID": id, "DTA_VCTO": "2027-01-15"}),
    )
    .await
    .expect("atualizar");
    assert_eq!(changed["NOSSO_NUMERO"], s[0]["NOSSO_NUMERO"]);
    assert_ne!(changed["CODIGO_BARRAS"], s[0]["CODIGO_BARRAS"]);
    let b = Barcode::parse(changed["CODIGO_BARRAS"].as_str().expect("code")).expect("barcode");
    assert_eq!(b.due_date(date("2026-11-24")), Some(date("2027-01-15")));
    assert_eq!(
        count(&db, c, &format!("SELECT count(*) FROM finance.contasreceber WHERE tit_id = {t} AND tit_dta_vcto = '2027-01-15'")).await,
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
        json!({"BOL_ID": id, "TIPO": "PAGO", "DATA": "2026-11-24"}),
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
    let day = call(
        &db,
        &dir,
        c,
        "boletos",
        "dia",
        &[
            ("bank", &bank.to_string()),
            ("emp", "1"),
            ("day", "2026-11-24"),
        ],
        json!({}),
    )
    .await
    .expect("dia");
    assert!(day.as_array().is_some());
}

#[tokio::test]
async fn transfers_balances_daily_closing_and_accounting_export() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let a = crate::account(&db, c, "1000.00").await;
    let b = crate::account(&db, c, "0").await;
    let legs = call(&db, &dir, c, "movimentacaobancaria", "transferencia", &[("emp", "1")],
                    json!({"BCO_ID_ORIGEM": a, "BCO_ID_DESTINO": b, "DATA": "2026-11-20", "VALOR": "300.00", "HISTORICO": "reforço"}))
        .await
        .expect("transfer");
    assert_eq!(legs.as_array().map(Vec::len), Some(2));
    assert_eq!(crate::balance(&db, c, a).await, d("700.00"));
    assert_eq!(crate::balance(&db, c, b).await, d("300.00"));
    let e = call(
        &db,
        &dir,
        c,
        "movimentacaobancaria",
        "transferencia",
        &[("emp", "1")],
        json!({"BCO_ID_ORIGEM": a, "BCO_ID_DESTINO": a, "DATA": "2026-11-20", "VALOR": "1"}),
    )
    .await;
    assert_eq!(
        message(e),
        "As contas de origem e destino devem ser diferentes."
    );
    create(&db, c, "movimentacaobancaria",
           json!({"MBCA_BCO_ID": a, "MBCA_DTA_MOV": "2026-11-21", "MBCA_TIPO": "C", "MBCA_VALOR": "50.00", "MBCA_HISTORICO": "DEPÓSITO"}))
        .await
        .expect("deposit");
    let bs = call(
        &db,
        &dir,
        c,
        "movimentacaobancaria",
        "saldos",
        &[("emp", "1")],
        json!({"DATA_INI": "2026-11-21", "DATA_FIM": "2026-11-30", "BCO_ID": a}),
    )
    .await
    .expect("saldos");
    assert_eq!(dec(&bs[0]["SALDO_ANTERIOR"]), d("700.00"));
    assert_eq!(dec(&bs[0]["CREDITOS"]), d("50.00"));
    assert_eq!(dec(&bs[0]["SALDO_FINAL"]), d("750.00"));

    // The day's cash, then closing it: nothing more on or before it.
    let day = call(
        &db,
        &dir,
        c,
        "movdiario",
        "dia",
        &[("emp", "1")],
        json!({"DATA": "2026-11-21"}),
    )
    .await
    .expect("dia");
    assert_eq!(dec(&day["SALDO_INICIAL"]), d("1000.00"));
    assert_eq!(dec(&day["ENTRADAS"]), d("50.00"));
    assert_eq!(dec(&day["SALDO_FINAL"]), d("1050.00"));
    assert_eq!(day["FECHADO"], false);
    call(
        &db,
        &dir,
        c,
        "movdiario",
        "fechar",
        &[("emp", "1")],
        json!({"DATA": "2026-11-21"}),
    )
    .await
    .expect("fechar");
    let e = create(&db, c, "movimentacaobancaria",
                   json!({"MBCA_BCO_ID": a, "MBCA_DTA_MOV": "2026-11-20", "MBCA_TIPO": "D", "MBCA_VALOR": "5.00", "MBCA_HISTORICO": "TARIFA"}))
        .await;
    assert_eq!(message(e), "O movimento diário está fechado até 21/11/2026: reabra o dia para lançar movimentos em 20/11/2026.");
    let e = call(
        &db,
        &dir,
        c,
        "movdiario",
        "fechar",
        &[("emp", "1")],
        json!({"DATA": "2026-11-21"}),
    )
    .await;
    assert_eq!(message(e), "O dia 21/11/2026 já está fechado.");
    call(
        &db,
        &dir,
        c,
        "movdiario",
        "reabrir",
        &[("emp", "1")],
        json!({"DATA": "2026-11-21"}),
    )
    .await
    .expect("reabrir");
    create(&db, c, "movimentacaobancaria",
           json!({"MBCA_BCO_ID": a, "MBCA_DTA_MOV": "2026-11-20", "MBCA_TIPO": "D", "MBCA_VALOR": "5.00", "MBCA_HISTORICO": "TARIFA"}))
        .await
        .expect("open again");

    // Deleting one leg of the transfer deletes both.
    let res = crate::resource("movimentacaobancaria");
    crate::delete_row(&db, c, &res, &legs[0]["MBCA_ID"].to_string())
        .await
        .expect("delete transfer");
    assert_eq!(crate::balance(&db, c, b).await, d("0.00"));

    // Accounting export: without configuration, a clear refusal; then the file.
    let e = call(
        &db,
        &dir,
        c,
        "integracaodominio",
        "baixaparcela",
        &[("emp", "1")],
        json!({"DATA_INI": "2026-11-01", "DATA_FIM": "2026-11-30"}),
    )
    .await;
    assert_eq!(message(e), erp_finance::accounting::NOT_CONFIGURED);
    call(&db, &dir, c, "integracaodominio", "configuracao", &[("emp", "1")],
         json!({"INTD_COD_EMPRESA": "77", "INTD_CONTA_CLIENTES": "1.1.2.01", "INTD_CONTA_FORNECEDORES": "2.1.1.01",
                "INTD_CONTA_CAIXA": "1.1.1.01", "INTD_CONTA_RECEITA": "3.1.1.01", "INTD_CONTA_JUROS": "3.2.1.05"}))
        .await
        .expect("configuracao");
    let t = receivable(&db, c, 4, "2026-11-30", "80.00").await;
    crate::action(&db, c, "contasreceber", "baixa", &[("emp", "1")],
                  json!({"TITULOS": [{"ID": t, "JUROS": "1.20", "MULTA": "0"}], "DATA": "2026-11-22", "BCO_ID": a}))
        .await
        .expect("settle");
    let out = call(
        &db,
        &dir,
        c,
        "integracaodominio",
        "baixaparcela",
        &[("emp", "1")],
        json!({"DATA_INI": "2026-11-01", "DATA_FIM": "2026-11-30"}),
    )
    .await
    .expect("export");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(
            out[erp_platform::resource::FILE_REPLY]["base64"]
                .as_str()
                .expect("content"),
        )
        .expect("base64");
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&bytes);
    assert_eq!(
        text,
        "77;22/11/2026;1.1.1.01;1.1.2.01;80,00;;Recebimento TRANSPORTES SÃO JOÃO LTDA parcela 1/1;NF 501;\r\n\
         77;22/11/2026;1.1.1.01;3.2.1.05;1,20;;Juros - Recebimento TRANSPORTES SÃO JOÃO LTDA parcela 1/1;NF 501;\r\n"
    );
}

#[tokio::test]
async fn a_ten_thousand_line_statement_imports_once() {
    let db = crate::db().await;
    let c = crate::client();
    let dir = data_dir();
    let bank = santander(&db, c).await;
    let mut ofx = String::from(
        "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nCHARSET:1252\r\n\r\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\
         <CURDEF>BRL<BANKACCTFROM><BANKID>033<ACCTID>13000123-4</BANKACCTFROM><BANKTRANLIST>",
    );
    for i in 0..10_000 {
        let sign = if i % 3 == 0 { "-" } else { "" };
        ofx.push_str(&format!(
            "<STMTTRN><TRNTYPE>OTHER<DTPOSTED>202611{:02}<TRNAMT>{sign}{},{:02}<FITID>L{i}<MEMO>LANÇAMENTO {i}</STMTTRN>",
            1 + i % 28,
            1 + i % 900,
            i % 100
        ));
    }
    ofx.push_str("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>");
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&ofx);
    let started = std::time::Instant::now();
    let r = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "ofx",
        &[("emp", "1")],
        upload(&dir, c, "big.ofx", &bytes, bank),
    )
    .await
    .expect("import");
    // The figure for the closing note (speed is the benchmarks' to assert).
    eprintln!("10,000-line OFX imported in {:?}", started.elapsed());
    assert_eq!(r["IMPORTADOS"], 10_000);
    let r = call(
        &db,
        &dir,
        c,
        "conciliacaobancaria",
        "ofx",
        &[("emp", "1")],
        upload(&dir, c, "big.ofx", &bytes, bank),
    )
    .await
    .expect("again");
    assert_eq!(r["IMPORTADOS"], 0);
    assert_eq!(r["IGNORADOS"], 10_000);
    assert_eq!(
        count(
            &db,
            c,
            &format!("SELECT count(*) FROM finance.conciliacaobancaria WHERE conb_bco_id = {bank}")
        )
        .await,
        10_000
    );
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM finance.conciliacaobancaria WHERE conb_historico = 'LANÇAMENTO 7' AND conb_tipo = 'C'").await,
        1
    );
}
