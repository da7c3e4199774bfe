//! Login, tokens and the login rate limit.

use erp_gateway::auth::Jwt;
use reqwest::Method;
use serde_json::json;

use crate::{admin, app, http, login, read, try_login, DEMO, OTHER};

#[tokio::test]
async fn login_with_right_and_wrong_passwords() {
    let u = admin().await;
    assert!(!u.token.is_empty());
    assert_eq!(u.login["empresa"]["EMP_ID"], json!(1));
    assert_eq!(u.login["usuario"]["USR_USUARIO"], json!("admin"));
    assert!(u.login["programas"]
        .as_array()
        .is_some_and(|p| p.len() > 100));

    for (doc, user, pass) in [
        (DEMO, "admin", "errada"),
        (DEMO, "ninguem", "admin123"),
        (OTHER, "admin", "admin123"),
        ("123", "admin", "admin123"),
    ] {
        let (status, body) = try_login(doc, user, pass).await;
        assert_eq!(status, 401, "{doc} {user}");
        assert_eq!(body["msg"], json!("Usuário ou senha inválidos."));
    }
    let (status, body) = try_login(DEMO, "admin", "").await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], json!(400));
}

#[tokio::test]
async fn bad_tokens_get_401() {
    let u = admin().await;
    let (status, _) = u
        .call(Method::GET, "/programasusuario/montamenu/1", None)
        .await;
    assert_eq!(status, 200);

    let anonymous = http()
        .get(format!("{}/programasusuario/montamenu/1", app().base))
        .send()
        .await
        .expect("send");
    assert_eq!(anonymous.status().as_u16(), 401);

    let secret = app().cfg.jwt_secret.clone().unwrap_or_default();
    let jwt = Jwt::new(&secret, 60);
    let now = chrono::Utc::now().timestamp();
    let (expired, _) = jwt.mint_at(2, 1, 1, now - 7200, now - 3600).expect("mint");
    let (foreign, _) = Jwt::new("some-other-secret-some-other-secret", 60)
        .mint(2, 1, 1)
        .expect("mint");
    let mut parts: Vec<String> = u.token.split('.').map(String::from).collect();
    let payload = parts[1].clone();
    parts[1] = payload.chars().rev().collect();
    let tampered = parts.join(".");
    use base64::Engine;
    let none = format!(
        "{}.{}.",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#),
        payload
    );
    for (name, token) in [
        ("expired", expired),
        ("foreign", foreign),
        ("tampered", tampered),
        ("alg=none", none),
        ("garbage", "abc".into()),
    ] {
        let r = http()
            .get(format!("{}/programasusuario/montamenu/1", app().base))
            .bearer_auth(token)
            .send()
            .await
            .expect("send");
        let (status, body) = read(r).await;
        assert_eq!(status, 401, "{name}");
        assert_eq!(body["code"], json!(401), "{name}");
    }

    // The client comes from the token only: a header naming another client is refused.
    let r = u
        .req(Method::GET, "/programasusuario/montamenu/1")
        .header("x-erp-client", "3")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 401);
    let r = u
        .req(Method::GET, "/programasusuario/montamenu/1")
        .header("x-erp-client", "2")
        .header("x-erp-user", "1")
        .header("x-erp-screen", "/clientes")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn a_logged_out_token_is_refused() {
    let u = login(DEMO, "admin", "admin123").await;
    let (status, _) = u.call(Method::POST, "/usuarios/logout", None).await;
    assert_eq!(status, 200);
    let (status, body) = u
        .call(Method::GET, "/programasusuario/montamenu/1", None)
        .await;
    assert_eq!(status, 401);
    assert_eq!(body["msg"], json!("Sessão encerrada."));
    let gql = u
        .req(Method::POST, "/graphql")
        .json(&json!({"query": "{ me { user { login } } }"}))
        .send()
        .await
        .expect("send");
    let (_, body) = read(gql).await;
    assert_eq!(
        body["errors"][0]["extensions"]["code"],
        json!("UNAUTHENTICATED")
    );
}

/// After 100 failures within the window the next attempt is refused before the
/// password is checked: even the right password gets 429.
#[tokio::test]
async fn the_101st_failed_login_is_refused_without_checking_the_password() {
    for i in 0..100 {
        let (status, _) = try_login(OTHER, "bloqueado", "errada").await;
        assert_eq!(status, 401, "attempt {i}");
    }
    let (status, body) = try_login(OTHER, "bloqueado", "certa123").await;
    assert_eq!(status, 429);
    assert_eq!(body["msg"], json!(erp_gateway::session::TOO_MANY));
    // Another login name of the same client is not affected.
    let (status, _) = try_login(OTHER, "admin", "senhaB123").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn graphql_login_returns_a_session() {
    let r = http()
        .post(format!("{}/graphql", app().base))
        .json(&json!({"query": "mutation($i: LoginInput!) { login(input: $i) { token session { clientId privileged user { login } company { id taxId } companies { id } } } }",
                      "variables": {"i": {"cpfcnpj": DEMO, "login": "admin", "password": "admin123"}}}))
        .send()
        .await
        .expect("send");
    let (status, body) = read(r).await;
    assert_eq!(status, 200);
    let s = &body["data"]["login"]["session"];
    assert_eq!(s["clientId"], json!(2));
    assert_eq!(s["privileged"], json!(false));
    assert_eq!(s["companies"].as_array().map(Vec::len), Some(2));
    let r = http()
        .post(format!("{}/graphql", app().base))
        .json(&json!({"query": "mutation { login(input: {cpfcnpj: \"11.222.333/0001-81\", login: \"admin\", password: \"x\"}) { token } }"}))
        .send()
        .await
        .expect("send");
    let (_, body) = read(r).await;
    assert_eq!(
        body["errors"][0]["extensions"]["code"],
        json!("UNAUTHENTICATED")
    );
    assert_eq!(
        body["errors"][0]["message"],
        json!("Usuário ou senha inválidos.")
    );
}
