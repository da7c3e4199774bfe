//! A supplier's NF-e XML through `POST /compra/uploads/{emp}`: the gateway accepts
//! an XML file, the orders service reads what the gateway stored and answers the
//! new purchase; files that are not XML, XML bombs, a company outside the user's
//! and a key imported twice are refused.

use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::Value;

use crate::{admin, read, serial};

fn fixture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../services/orders/tests/fixtures/nfe_compra_ipi_frete.xml"
    ))
    .expect("orders' NF-e fixture")
}

#[tokio::test]
async fn an_nfe_xml_is_imported_over_http_and_hostile_files_are_refused() {
    let _turn = serial().await;
    let a = admin().await;
    let upload = |emp: i64, bytes: Vec<u8>, name: &str| {
        let form = Form::new().part("file", Part::bytes(bytes).file_name(name.to_string()));
        a.req(Method::POST, &format!("/compra/uploads/{emp}"))
            .multipart(form)
    };
    let png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
    let bomb = b"<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY l \"l\"><!ENTITY l2 \"&l;&l;\">]><NFe>&l2;</NFe>".to_vec();
    for (bytes, name, want) in [
        (png, "nfe.xml", "O arquivo não é um XML."),
        (fixture(), "nfe.png", "O arquivo não é um XML."),
        (
            bomb,
            "nfe.xml",
            "Arquivo XML inválido: declarações DOCTYPE/ENTITY não são aceitas.",
        ),
    ] {
        let (status, body) = read(upload(1, bytes, name).send().await.expect("upload")).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some(want)),
            "{name}: {body}"
        );
    }
    let (status, _) = read(
        upload(999, fixture(), "nfe.xml")
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 403);

    let (status, body) = read(
        upload(1, fixture(), "NFe31250611.xml")
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut keys: Vec<&String> = body
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    keys.sort();
    assert_eq!(keys, ["avisos", "compra", "itens"]);
    assert_eq!(body["compra"]["COMP_VLR_TOTAL"].to_string(), "824.71");
    let links: Vec<&str> = body["itens"]
        .as_array()
        .map(|i| i.iter().filter_map(|i| i["VINCULO"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(links.len(), 3);
    let id = body["compra"]["COMP_ID"].as_i64().expect("id");

    let (status, again) = read(
        upload(1, fixture(), "nfe.xml")
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 409, "{again}");
    let listed = a
        .call(
            Method::POST,
            "/compra/filtrocontador/1",
            Some(serde_json::json!({})),
        )
        .await;
    assert_eq!(listed.0, 200);
    assert_eq!(listed.1["count"], Value::from(1));

    // Its items are new to the demo catalog: finalizing names them.
    let (status, out) = a
        .call(
            Method::POST,
            &format!("/compra/finalizar/{id}/1"),
            Some(serde_json::json!({})),
        )
        .await;
    assert_eq!(status, 400, "{out}");
    assert!(
        out["msg"].as_str().is_some_and(
            |m| m.starts_with("Vincule os itens a um produto antes de finalizar: 1 - ")
        ),
        "{out}"
    );
}
