//! The A1 certificate: read with its password, checked against the company,
//! sealed at rest, sent to the provider (or kept with a warning), removed.

use serde_json::json;

use super::{cnpj, contains, env, msg, pfx, stored_certificate, valid};
use crate::{db, CTX};
use erp_fiscal::nuvemfiscal::MISSING_CREDENTIALS;

#[tokio::test]
async fn the_certificate_is_read_sealed_and_sent_to_the_provider() {
    let db = db().await;
    let e = env(true).await;
    let me = CTX.caller(CTX.client(), 1);
    let doc = "11444777000161";
    let path = format!("/empresas/{doc}/certificado");
    let registered = e.register_company(&db, &me, "11.444.777/0001-61").await;
    assert_eq!(registered["msg"], "Empresa cadastrada na Nuvem Fiscal.");
    assert_eq!(e.fake().requests("POST", "/empresas"), 1);

    let password = "S3nh@-do-A1";
    let (from, until) = valid();
    let file = pfx(
        "EMPRESA TESTE LTDA:11444777000161",
        from,
        until,
        &[0x0A, 0x1B, 0x2C, 0x3D],
        password,
    );

    // A wrong password changes nothing and leaves no file behind.
    let (name, r) = e
        .send_certificate(&db, &me, &file, "senha-errada", "11.444.777/0001-61")
        .await;
    assert_eq!(msg(r), (400, "Senha do certificado incorreta.".into()));
    assert!(!e.uploaded(&me, 1, &name), "the upload is removed");
    assert_eq!(stored_certificate(&db, me.client_id).await, (None, None));
    assert_eq!(e.fake().requests("PUT", &path), 0);

    let (name, r) = e
        .send_certificate(&db, &me, &file, password, "11.444.777/0001-61")
        .await;
    let row = r.expect("certificate accepted");
    assert!(
        !e.uploaded(&me, 1, &name),
        "no plain .pfx stays in the uploads folder"
    );
    assert_eq!(row["msg"], "Certificado digital salvo com sucesso.");
    assert_eq!(row.get("aviso"), None, "{row}");
    assert_eq!(row["EMPS_CERT_SERIE"], "0A1B2C3D");
    assert_eq!(
        row["EMPS_CERT_TITULAR"],
        "EMPRESA TESTE LTDA:11444777000161"
    );
    assert_eq!(row["EMPS_CERT_CPF_CNPJ"], doc);
    assert_eq!(row["EMPS_CERTIFICADO"], "certificado-a1.pfx");
    let (y, m, d) = until;
    assert_eq!(row["EMPS_CERT_VALIDADE"], format!("{y:04}-{m:02}-{d:02}"));
    let (y, m, d) = from;
    assert_eq!(
        row["EMPS_CERT_VALIDADE_INI"],
        format!("{y:04}-{m:02}-{d:02}")
    );
    assert_eq!(
        (
            row["EMPS_CERT_VENCIDO"].as_bool(),
            row["EMPS_CERT_NUVEMFISCAL"].as_bool()
        ),
        (Some(false), Some(true))
    );
    assert!(row["EMPS_CERT_DTA_ENVIO"].is_string());
    assert!(!row.to_string().contains(password));

    let (stored_pfx, stored_password) = stored_certificate(&db, me.client_id).await;
    let (stored_pfx, stored_password) = (
        stored_pfx.expect("pfx kept"),
        stored_password.expect("password kept"),
    );
    assert_ne!(stored_pfx, file, "the .pfx is not kept as sent");
    assert!(!contains(&stored_pfx, &file[..64]));
    assert!(!contains(&stored_pfx, password.as_bytes()));
    assert!(!contains(&stored_password, password.as_bytes()));

    assert_eq!(e.fake().requests("PUT", &path), 1);
    let at_provider = e
        .provider()
        .consultar_certificado(doc)
        .await
        .expect("provider has it");
    assert_eq!(at_provider.cpf_cnpj.as_deref(), Some(doc));

    let rows = e
        .call(&db, &me, "filtro", &[("emp", "1")], json!({}))
        .await
        .expect("filtro");
    let shown = rows[0]["EMPS_CERT_SITUACAO"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(shown.starts_with("Válido até"), "{shown}");
    assert!(!rows.to_string().contains(password));

    let params = [
        ("emp", "1"),
        ("CPF_CNPJ", doc),
        ("ARQUIVO", "certificado-a1.pfx"),
    ];
    let out = e
        .call(&db, &me, "excluircertificado", &params, json!({}))
        .await
        .expect("DELETE");
    assert_eq!(
        (out["msg"].as_str(), out.get("aviso")),
        (Some("Certificado digital excluído."), None)
    );
    assert_eq!(stored_certificate(&db, me.client_id).await, (None, None));
    assert_eq!(e.fake().requests("DELETE", &path), 1);
}

#[tokio::test]
async fn another_company_s_certificate_is_refused_and_an_expired_one_is_kept_flagged() {
    let db = db().await;
    let me = CTX.caller(CTX.client(), 1);
    let doc = cnpj("220000000001");
    let password = "1234";
    let (from, until) = valid();
    let e = env(false).await;

    let someone_else = pfx(
        &format!("OUTRA EMPRESA LTDA:{}", cnpj("330000000001")),
        from,
        until,
        &[1],
        password,
    );
    let (_, r) = e
        .send_certificate(&db, &me, &someone_else, password, &doc)
        .await;
    let (status, text) = msg(r);
    assert_eq!(status, 400);
    assert!(
        text.starts_with("O certificado digital é do CPF/CNPJ 33.000.000/0001-"),
        "{text}"
    );
    assert_eq!(stored_certificate(&db, me.client_id).await, (None, None));

    let expired = pfx(
        &format!("EMPRESA:{doc}"),
        (2020, 1, 1),
        (2021, 1, 1),
        &[2],
        password,
    );
    let (_, r) = e.send_certificate(&db, &me, &expired, password, &doc).await;
    let row = r.expect("an expired certificate is kept");
    assert_eq!(row["EMPS_CERT_VENCIDO"].as_bool(), Some(true));
    assert_eq!(row["EMPS_CERT_SITUACAO"], "Vencido em 01/01/2021");
    let notice = row["aviso"].as_str().unwrap_or_default();
    assert!(
        notice.starts_with("Certificado digital vencido em 01/01/2021"),
        "{notice}"
    );
    assert!(stored_certificate(&db, me.client_id).await.0.is_some());

    // Without credentials: kept, and MISSING_CREDENTIALS as a warning.
    let good = pfx(&format!("EMPRESA:{doc}"), from, until, &[3], password);
    let (_, r) = e.send_certificate(&db, &me, &good, password, &doc).await;
    let row = r.expect("kept without a provider");
    assert_eq!(row["aviso"], MISSING_CREDENTIALS);
    assert_eq!(
        (
            row["EMPS_CERT_VENCIDO"].as_bool(),
            row["EMPS_CERT_NUVEMFISCAL"].as_bool()
        ),
        (Some(false), Some(false))
    );

    // Registering the company at the provider later sends the kept certificate.
    let with = env(true).await;
    let out = with.register_company(&db, &me, &doc).await;
    assert_eq!(
        (out["certificado_enviado"].as_bool(), out.get("aviso")),
        (Some(true), None),
        "{out}"
    );
    assert_eq!(
        with.fake()
            .requests("PUT", &format!("/empresas/{doc}/certificado")),
        1
    );
    let rows = with
        .call(&db, &me, "filtro", &[("emp", "1")], json!({}))
        .await
        .expect("filtro");
    assert_eq!(rows[0]["EMPS_CERT_NUVEMFISCAL"].as_bool(), Some(true));
}
