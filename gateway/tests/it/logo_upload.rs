//! The company logo: checked, stored, served only to its client.

use std::sync::Arc;

use reqwest::Method;
use serde_json::json;

use crate::{admin, app, login, read, serial, OTHER};

fn png() -> Vec<u8> {
    // 1x1 transparent PNG.
    vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}

#[tokio::test]
async fn company_logo_upload_is_checked_stored_and_served_only_to_its_client() {
    let _turn = serial().await;
    let a = admin().await;
    let bad = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(b"<svg onload=alert(1)>".to_vec()).file_name("logo.png"),
    );
    let (status, body) = read(
        a.req(Method::PUT, "/empresas/uploads/1/2")
            .multipart(bad)
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["msg"], json!("Permitidos apenas imagens e PDF!"));

    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(png()).file_name("logo.png"),
    );
    let (status, body) = read(
        a.req(Method::PUT, "/empresas/uploads/1/2")
            .multipart(form)
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let url = body["url"].as_str().expect("url").to_string();
    let name = body["EMP_IMG_LOGO_REL"]
        .as_str()
        .expect("stored name")
        .to_string();
    let r = a.req(Method::GET, &url).send().await.expect("get");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("image/png")
    );
    assert_eq!(
        r.bytes().await.map(|b| b.to_vec()).unwrap_or_default(),
        png()
    );

    // The session cookie works for <img>; another client never gets the file.
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let browser = reqwest::Client::builder()
        .cookie_provider(jar)
        .build()
        .expect("client");
    let login = browser
        .post(format!("{}/usuarios/sessions", app().base))
        .json(&json!({"cpfcnpj": crate::DEMO, "usuario": "admin", "senha": "admin123"}))
        .send()
        .await
        .expect("login");
    assert_eq!(login.status().as_u16(), 200);
    assert_eq!(
        browser
            .get(format!("{}{url}", app().base))
            .send()
            .await
            .expect("img")
            .status()
            .as_u16(),
        200
    );
    let b = login_b().await;
    let r = b.req(Method::GET, &url).send().await.expect("get");
    assert_eq!(
        r.status().as_u16(),
        404,
        "client B must not read client A's file"
    );

    let (status, _) = a
        .call(
            Method::DELETE,
            &format!("/empresas/uploads/1/2/{name}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        a.req(Method::GET, &url)
            .send()
            .await
            .expect("get")
            .status()
            .as_u16(),
        404
    );
}

async fn login_b() -> crate::User {
    login(OTHER, "admin", "senhaB123").await
}
