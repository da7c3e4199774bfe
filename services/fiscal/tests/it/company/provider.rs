//! The provider's side: each document type's settings, the company and its
//! logo at the fake Nuvem Fiscal, and the answer without credentials.

use erp_fiscal::nuvemfiscal::types::Ambiente;
use erp_fiscal::nuvemfiscal::MISSING_CREDENTIALS;
use serde_json::json;

use super::{cnpj, env, msg};
use crate::{db, CTX};

#[tokio::test]
async fn each_document_type_s_settings_reach_the_provider() {
    let db = db().await;
    let me = CTX.caller(CTX.client(), 1);
    let doc = cnpj("440000000001");
    let e = env(true).await;
    e.register_company(&db, &me, &doc).await;
    e.call(
        &db,
        &me,
        "salvar",
        &[("emp", "1")],
        json!({"EMPS_NFE_AMBIENTE": 1, "EMPS_NFE_REGIME": 3}),
    )
    .await
    .expect("saved");
    let out = e
        .call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", "nfe"), ("EMP_CGC", &doc)],
            json!({}),
        )
        .await
        .expect("PUT /empresasservicos/nuvemfiscal/nfe");
    assert_eq!(
        (out["msg"].as_str(), out["ambiente"].as_str()),
        (
            Some("Configuração de NF-e enviada à Nuvem Fiscal."),
            Some("producao")
        )
    );
    assert_eq!(e.fake().requests("PUT", &format!("/empresas/{doc}/nfe")), 1);
    let nfe = e
        .provider()
        .consultar_config_nfe(&doc)
        .await
        .expect("NF-e settings at the provider");
    assert_eq!((nfe.ambiente, nfe.CRT), (Ambiente::Producao, Some(3)));

    // cte_os is the provider's cteos; the body's settings are saved first.
    e.call(
        &db,
        &me,
        "nuvemfiscal",
        &[("TIPO", "cte_os"), ("EMP_CGC", &doc)],
        json!({"EMPS_CTE_OS_REGIME": 1}),
    )
    .await
    .expect("cte_os");
    assert_eq!(
        e.fake().requests("PUT", &format!("/empresas/{doc}/cteos")),
        1
    );
    let r = e
        .call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", "nfce"), ("EMP_CGC", &doc)],
            json!({}),
        )
        .await;
    assert_eq!(
        msg(r),
        (
            400,
            "Para a NFC-e, informe o ID e o código do CSC (Serviços fiscais › NFC-e).".into()
        )
    );
    e.call(
        &db,
        &me,
        "nuvemfiscal",
        &[("TIPO", "nfce"), ("EMP_CGC", &doc)],
        json!({"EMPS_NFCE_IDCSC": 1, "EMPS_NFCE_CSC": "ABC123"}),
    )
    .await
    .expect("nfce with its CSC");
    e.call(&db, &me, "nuvemfiscal", &[("TIPO", "nfse"), ("EMP_CGC", &doc)], json!({"EMPS_NFSE_SERIE": "A", "EMPS_NFSE_LOTE": 1, "EMPS_NFSE_NR_RPS": 10, "EMPS_NFSE_SENHA": "p"}))
        .await
        .expect("nfse");
    for t in ["cte", "mdfe", "distnfe", "dce", "nfcom"] {
        e.call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", t), ("EMP_CGC", &doc)],
            json!({}),
        )
        .await
        .expect(t);
    }
    for p in ["nfce", "nfse", "cte", "mdfe", "distnfe", "dce", "nfcom"] {
        assert_eq!(
            e.fake().requests("PUT", &format!("/empresas/{doc}/{p}")),
            1,
            "{p}"
        );
    }

    let r = e
        .call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", "nfx"), ("EMP_CGC", &doc)],
            json!({}),
        )
        .await;
    assert_eq!(
        msg(r),
        (400, "Tipo de documento inválido: use nfe, nfce, nfse, cte, mdfe, distnfe, cte_os, dce ou nfcom.".into())
    );
    let r = e
        .call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", "nfe"), ("EMP_CGC", &cnpj("440000000002"))],
            json!({}),
        )
        .await;
    let (status, text) = msg(r);
    assert_eq!(status, 400);
    assert!(text.contains("não é o da empresa"), "{text}");

    let without = env(false).await;
    let r = without
        .call(
            &db,
            &me,
            "nuvemfiscal",
            &[("TIPO", "nfe"), ("EMP_CGC", &doc)],
            json!({}),
        )
        .await;
    assert_eq!(msg(r), (409, MISSING_CREDENTIALS.into()));
}

#[tokio::test]
async fn the_company_and_its_logo_at_the_provider() {
    let db = db().await;
    let me = CTX.caller(CTX.client(), 1);
    let doc = cnpj("550000000001");
    let e = env(true).await;
    let r = e
        .call(
            &db,
            &me,
            "cadastrarnuvemfiscal",
            &[],
            json!({"EMP_CGC": doc, "EMP_DESCRICAO": "X"}),
        )
        .await;
    assert_eq!(
        msg(r),
        (400, "Para cadastrar a empresa na Nuvem Fiscal, informe: E-mail, Endereço, Bairro, Cidade (IBGE), UF, CEP.".into())
    );
    e.register_company(&db, &me, &doc).await;
    // Again: the provider has it, so it is updated.
    let out = e.register_company(&db, &me, &doc).await;
    assert_eq!(
        out["msg"],
        "Cadastro da empresa atualizado na Nuvem Fiscal."
    );
    assert_eq!(e.fake().requests("PUT", &format!("/empresas/{doc}")), 1);

    let png = [b"\x89PNG\r\n\x1a\n".as_slice(), &[0u8; 64]].concat();
    let name = e.upload(&me, me.emp_id, "png", &png);
    let params = [("CPF_CNPJ", doc.as_str())];
    let body = json!({"arquivo": {"nome": name, "original": "logo.png"}});
    e.call(&db, &me, "logonuvemfiscal", &params, body)
        .await
        .expect("logo sent");
    assert!(!e.uploaded(&me, me.emp_id, &name));
    assert_eq!(
        e.fake()
            .requests("PUT", &format!("/empresas/{doc}/logotipo")),
        1
    );
    e.call(&db, &me, "excluirlogonuvemfiscal", &params, json!({}))
        .await
        .expect("logo removed");
    assert_eq!(
        e.fake()
            .requests("DELETE", &format!("/empresas/{doc}/logotipo")),
        1
    );

    // Another company's CNPJ is not this company's to remove.
    let r = e
        .call(
            &db,
            &me,
            "excluirnuvemfiscal",
            &[("CPF_CNPJ", &cnpj("550000000002"))],
            json!({}),
        )
        .await;
    assert_eq!(msg(r).0, 400);
    let out = e
        .call(&db, &me, "excluirnuvemfiscal", &params, json!({}))
        .await
        .expect("removed");
    assert_eq!(out["msg"], "Empresa excluída da Nuvem Fiscal.");
    assert_eq!(e.fake().requests("DELETE", &format!("/empresas/{doc}")), 1);
    assert!(e.provider().consultar_empresa(&doc).await.is_err());
}
