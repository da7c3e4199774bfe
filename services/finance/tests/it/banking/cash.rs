//! Transfers, balances over a period, the daily closing, the Domínio export and a
//! 10,000-line OFX statement.

use serde_json::json;

use super::{call, data_dir, receivable, santander, upload};
use crate::{count, create, d, dec, message};

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
