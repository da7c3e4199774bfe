//! The NF-e XML import: the own fixture read into a purchase with the totals of
//! `ICMSTot` to the cent and the instalments of its `dup`s, items matched by GTIN
//! and by the supplier's code a user linked, every public fixture imported, a key
//! imported twice refused, hostile files refused with nothing written.

use serde_json::{json, Value};

use super::*;
use crate::{client, db};

#[tokio::test]
async fn the_own_nfe_becomes_a_purchase_with_its_totals_and_instalments() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let out = import(&db, c, &own_fixture()).await.expect("import");
    let mut keys: Vec<&String> = out.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["avisos", "compra", "itens"]);
    let h = &out["compra"];
    // ICMSTot of the file, to the cent; the items' sums, not typed totals.
    for (field, want) in [
        ("COMP_VLR_PRODUTOS", "680.99"),
        ("COMP_VLR_DESCONTO", "29.05"),
        ("COMP_VLR_FRETE", "40.00"),
        ("COMP_VLR_SEGURO", "4.50"),
        ("COMP_VLR_OUTRAS", "5.00"),
        ("COMP_VLR_IPI", "52.86"),
        ("COMP_VLR_ST", "70.41"),
        ("COMP_VLR_BC_ICMS", "701.44"),
        ("COMP_VLR_ICMS", "126.26"),
        ("COMP_VLR_TOTAL", "824.71"),
    ] {
        assert_eq!(d(&h[field]), n(want), "{field}");
    }
    assert_eq!(h["COMP_TOTALIZADOR_MANUAL"], json!(false));
    assert_eq!(d(&h["COMP_VLR_DIFERENCA"]), n("0"));
    assert_eq!(h["COMP_SITUACAO"], "A");
    assert_eq!(h["COMP_CHAVE"], OWN_KEY);
    assert_eq!(
        (h["COMP_NUMERO"].as_i64(), s(&h["COMP_SERIE"])),
        (Some(4471), "1".into())
    );
    assert_eq!(h["COMP_MODELO"], "55");
    assert_eq!(h["COMP_DTA_EMISSAO"], "2025-06-14");
    assert_eq!(h["COMP_FORN_ID"].as_i64(), Some(1));
    assert_eq!(h["COMP_FORN_DESC"], "Metalúrgica Fixa Forte Ltda");
    assert_eq!(h["COMP_CFOP"], "1401");
    assert_eq!(h["COMP_MOD_FRETE"], "0");
    assert_eq!(h["COMP_TRANSP_DESC"], "Transportes Exemplo Ltda");
    // Item 2 by its GTIN; the others are new to the catalog.
    let itens = out["itens"].as_array().expect("items");
    let links: Vec<(String, Value)> = itens
        .iter()
        .map(|i| (s(&i["VINCULO"]), i["CMPP_PROD_ID"].clone()))
        .collect();
    assert_eq!(
        links,
        [
            ("novo".to_string(), Value::Null),
            ("gtin".into(), json!(2)),
            ("novo".into(), Value::Null)
        ]
    );
    // 10 CX that the NF-e taxes as 120 UN: 12 UN per CX, counted in stock as UN.
    assert_eq!(
        (
            d(&itens[0]["CMPP_FATOR"]),
            s(&itens[0]["CMPP_UNIDADE"]),
            s(&itens[0]["CMPP_UNIDADE_ESTOQUE"])
        ),
        (n("12"), "CX".into(), "UN".into())
    );
    assert_eq!(
        (
            s(&itens[1]["CMPP_UNIDADE"]),
            s(&itens[1]["CMPP_UNIDADE_ESTOQUE"])
        ),
        ("UN".into(), "UN".into())
    );
    assert_eq!(d(&itens[0]["CMPP_VLR_ST"]), n("59.14"));
    assert_eq!(s(&itens[0]["CMPP_COD_FORNECEDOR"]), "PAR-M8-CX12");
    // The supplier and the recipient are known: only the homologation notice.
    let avisos: Vec<String> = out["avisos"]
        .as_array()
        .expect("avisos")
        .iter()
        .map(s)
        .collect();
    assert_eq!(
        avisos,
        ["NF-e emitida em ambiente de homologação: não tem valor fiscal."]
    );
    // The instalments are the dups.
    let id = h["COMP_ID"].as_i64().expect("id");
    let dups: Vec<(String, String, rust_decimal::Decimal)> =
        list(&db, c, "comprapagamentos", json!({"CMPD_COMP_ID": id}))
            .await
            .iter()
            .map(|p| {
                (
                    s(&p["CMPD_NUMERO"]),
                    s(&p["CMPD_DTA_VCTO"]),
                    d(&p["CMPD_VLR_TITULO"]),
                )
            })
            .collect();
    assert_eq!(
        dups,
        [
            ("001".to_string(), "2025-07-14".to_string(), n("274.90")),
            ("002".into(), "2025-08-13".into(), n("274.90")),
            ("003".into(), "2025-09-12".into(), n("274.91")),
        ]
    );
    // The same key again: refused, naming the purchase; nothing more written.
    let (status, msg) = refusal(import(&db, c, &own_fixture()).await);
    assert_eq!(status, 409);
    assert_eq!(
        msg,
        format!("NF-e já importada: a chave de acesso {OWN_KEY} está na compra {id}.")
    );
    assert_eq!(count(&db, c, "compras").await, 1);
}

#[tokio::test]
async fn a_linked_item_is_matched_by_its_supplier_code_next_time() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    imported_and_linked(&db, c).await;
    let (xml, key) = own_fixture_as(4472);
    let out = import(&db, c, &xml).await.expect("second import");
    assert_eq!(out["compra"]["COMP_CHAVE"], key.as_str());
    let links: Vec<(String, Option<i64>)> = out["itens"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| (s(&i["VINCULO"]), i["CMPP_PROD_ID"].as_i64()))
        .collect();
    assert_eq!(
        links,
        [
            ("fornecedor".to_string(), Some(1)),
            ("fornecedor".into(), Some(2)),
            ("fornecedor".into(), Some(3)),
        ]
    );
}

#[tokio::test]
async fn an_unknown_supplier_and_another_recipient_are_imported_with_warnings() {
    let db = db().await;
    let c = client();
    // Nothing seeded but the company, with another document.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("INSERT INTO orders.empresas (client_id, emp_id, documento) VALUES ($1, 1, '11444777000161')")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("company");
    tx.commit().await.expect("commit");
    let out = import(&db, c, &own_fixture()).await.expect("import");
    let h = &out["compra"];
    assert_eq!(h["COMP_FORN_ID"], Value::Null);
    assert_eq!(h["COMP_FORN_DESC"], "Metalurgica Fixa Forte Ltda");
    assert_eq!(h["COMP_FORN_CNPJ"], SUPPLIER_DOC);
    assert_eq!(h["COMP_FORN_IBGE"], "3106200");
    let avisos: Vec<String> = out["avisos"]
        .as_array()
        .expect("avisos")
        .iter()
        .map(s)
        .collect();
    assert!(
        avisos.contains(&"NF-e destinada a outro CPF/CNPJ (44.555.666/0001-81), não ao da empresa (11.444.777/0001-61).".to_string()),
        "{avisos:?}"
    );
    assert!(
        avisos.iter().any(|a| a.starts_with(
            "Fornecedor Metalurgica Fixa Forte Ltda (CPF/CNPJ 11.222.333/0001-81) não cadastrado"
        )),
        "{avisos:?}"
    );
    // All items are new without the catalog.
    assert!(out["itens"]
        .as_array()
        .expect("items")
        .iter()
        .all(|i| i["VINCULO"] == "novo"));
    // Finalizing needs the supplier and the products.
    let id = h["COMP_ID"].as_i64().expect("id").to_string();
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "finalizar",
            &[("COMP_ID", &id)],
            json!({}),
        )
        .await,
    );
    assert_eq!(status, 400);
    assert_eq!(
        msg,
        "Vincule os itens a um produto antes de finalizar: 1 - PARAFUSO SEXTAVADO M8 X 40 ZINCADO CX C/12; \
         2 - ARRUELA LISA 8MM ZINCADA; 3 - CHAVE COMBINADA 17MM."
    );
}

#[tokio::test]
async fn every_public_fixture_imports_with_the_totals_of_its_icmstot() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let dir = shared_fixture_dir();
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("shared fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "fixtures in {}", dir.display());
    let mut imported = 0;
    for path in &files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).expect("fixture");
        // A public example may be broken (the NFC-e's access key has a wrong check
        // digit): the import refuses it as the parser does.
        let parsed = match erp_orders::purchases::nfe_xml::parse(&bytes) {
            Ok(p) => p,
            Err(e) => {
                assert_eq!(
                    refusal(import(&db, c, &bytes).await),
                    (400, e.to_string()),
                    "{name}"
                );
                continue;
            }
        };
        imported += 1;
        let out = import(&db, c, &bytes)
            .await
            .unwrap_or_else(|e| panic!("{name}: {}", e.public_message()));
        let h = &out["compra"];
        let t = &parsed.icms_tot;
        // The invoice as the purchase keeps it: the items' totals, or the NF-e's
        // kept as typed totals where they differ (said in the warnings).
        let manual = h["COMP_TOTALIZADOR_MANUAL"] == json!(true);
        let effective = |computed: &str, typed: &str| {
            if manual && !h[typed].is_null() {
                d(&h[typed])
            } else {
                d(&h[computed])
            }
        };
        assert_eq!(
            effective("COMP_VLR_TOTAL", "COMP_MAN_TOTAL"),
            t.v_nf,
            "{name}: vNF"
        );
        assert_eq!(
            effective("COMP_VLR_FRETE", "COMP_MAN_FRETE"),
            t.v_frete,
            "{name}: vFrete"
        );
        assert_eq!(
            effective("COMP_VLR_DESCONTO", "COMP_MAN_DESCONTO"),
            t.v_desc,
            "{name}: vDesc"
        );
        assert_eq!(
            effective("COMP_VLR_IPI", "COMP_MAN_IPI"),
            t.v_ipi,
            "{name}: vIPI"
        );
        assert_eq!(
            effective("COMP_VLR_ST", "COMP_MAN_ST"),
            t.v_st + t.v_fcp_st,
            "{name}: vST"
        );
        if !manual {
            assert_eq!(d(&h["COMP_VLR_PRODUTOS"]), t.v_prod, "{name}: vProd");
        }
        let id = h["COMP_ID"].as_i64().expect("id");
        let instalments: Vec<rust_decimal::Decimal> =
            list(&db, c, "comprapagamentos", json!({"CMPD_COMP_ID": id}))
                .await
                .iter()
                .map(|p| d(&p["CMPD_VLR_TITULO"]))
                .collect();
        let dups: Vec<rust_decimal::Decimal> = parsed
            .cobr
            .iter()
            .flat_map(|c| &c.dup)
            .map(|d| d.v_dup)
            .collect();
        assert_eq!(instalments, dups, "{name}: instalments");
        assert_eq!(
            out["itens"].as_array().map(Vec::len),
            Some(parsed.items.len()),
            "{name}: items"
        );
    }
    assert!(imported >= 7, "{imported} fixtures imported");
    assert_eq!(count(&db, c, "compras").await, imported);
}

/// 1,000,000,000 "lol"s if expanded.
const BILLION_LAUGHS: &str = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<nfeProc><NFe><infNFe versao="4.00" Id="NFe31250611222333000181550010000044711528391741"><ide><natOp>&lol9;</natOp></ide></infNFe></NFe></nfeProc>"#;

#[tokio::test]
async fn hostile_files_get_400_in_portuguese_and_nothing_is_written() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let xml = String::from_utf8(own_fixture()).expect("utf-8");
    // The key's last digit changed: the check digit no longer holds.
    let bad_digit = xml.replace(OWN_KEY, &format!("{}2", &OWN_KEY[..43]));
    let mut huge = b"<?xml version=\"1.0\"?><nfeProc>".to_vec();
    huge.resize(20 * 1024 * 1024, b' ');
    let png: Vec<u8> = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13].to_vec();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "billion laughs",
            BILLION_LAUGHS.as_bytes().to_vec(),
            "Arquivo XML inválido: declarações DOCTYPE/ENTITY não são aceitas.",
        ),
        ("20 MB", huge, "Arquivo muito grande (máximo 5 MB)."),
        ("PNG renamed .xml", png, "O arquivo não é um XML."),
        (
            "wrong check digit",
            bad_digit.into_bytes(),
            "Chave de acesso inválida: dígito verificador não confere.",
        ),
        (
            "not an NF-e",
            b"<html><body>nota</body></html>".to_vec(),
            "O arquivo não é uma NF-e (nfeProc ou NFe).",
        ),
    ];
    for (what, bytes, want) in cases {
        let name = store(c, &bytes);
        let out = call(
            &db,
            c,
            "compra",
            "uploads",
            &[],
            json!({"arquivo": {"nome": name}}),
        )
        .await;
        assert_eq!(refusal(out), (400, want.to_string()), "{what}");
        assert!(!stored_exists(c, &name), "{what}: the refused file stays");
    }
    let (status, msg) = refusal(import(&db, c, b"<nfeProc><NFe>").await);
    assert_eq!(status, 400);
    assert!(msg.starts_with("XML malformado: "), "{msg}");
    for table in ["compras", "compra_produtos", "compra_pagamentos", "outbox"] {
        assert_eq!(count(&db, c, table).await, 0, "{table}");
    }
}
