//! The CNAB remittance and return of an account's slips, and the reconciliation
//! of what the return settled with the bank's OFX statement.

use chrono::NaiveDate;
use erp_finance::collection::cnab::layout::{write_record, Value as Cnab};
use erp_finance::collection::cnab::{parse_remittance, tables240 as t240, CnabLayout, Command};
use serde_json::json;

use super::{call, copies, data_dir, date, receivable, santander, upload};
use crate::{count, d, dec, message};

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

/// `erp.finance.boleto.situacao` in the client's outbox, in order: (change, value).
async fn slip_facts(db: &erp_platform::db::Db, c: i64) -> Vec<(String, String)> {
    use prost::Message as _;
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let payloads: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM finance.outbox WHERE client_id = $1 AND subject = $2 ORDER BY id",
    )
    .bind(c)
    .bind(erp_proto::subjects::BOLETO_SITUACAO)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    payloads
        .iter()
        .map(|p| erp_proto::finance::v1::BoletoSituacao::decode(p.as_slice()).expect("fact"))
        .map(|f| (f.change, f.value))
        .collect()
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
    // The slips' facts, once each: two generated, b written off, a paid by the
    // return (101,50 with its interest); the file again published nothing.
    assert_eq!(
        slip_facts(&db, c).await,
        vec![
            ("gerado".to_string(), "100.00".to_string()),
            ("gerado".to_string(), "250.50".to_string()),
            ("baixado".to_string(), "250.50".to_string()),
            ("pago".to_string(), "101.50".to_string()),
        ]
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
