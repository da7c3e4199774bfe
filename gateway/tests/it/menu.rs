//! Menus, favourites and grants.

use reqwest::Method;
use serde_json::{json, Value};

use crate::{admin, read, seller, serial};

fn names(rows: &Value) -> Vec<String> {
    rows.as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["PROG_NOME"].as_str().map(String::from))
        .collect()
}

#[tokio::test]
async fn a_user_sees_only_granted_programs_as_a_three_level_tree() {
    let s = seller().await;
    let (status, rows) = s
        .call(
            Method::GET,
            &format!("/programasusuario/montamenu/{}", s.id()),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let progs = names(&rows);
    assert!(progs.contains(&"clientes".to_string()));
    assert!(!progs.contains(&"empresas".to_string()));
    assert!(rows.as_array().into_iter().flatten().all(|r| matches!(
        r["PROG_NIVEL1"].as_str(),
        Some("Cadastros" | "Vendas" | "Comunicação")
    )));

    let r = s.req(Method::POST, "/graphql").json(&json!({"query": "{ menu { label children { label program { name } children { label program { name webPath } } } } }"})).send().await.expect("send");
    let (_, body) = read(r).await;
    let menu = body["data"]["menu"].as_array().cloned().unwrap_or_default();
    let top: Vec<&str> = menu.iter().filter_map(|n| n["label"].as_str()).collect();
    assert!(
        top.contains(&"Cadastros") && !top.contains(&"Administração"),
        "{top:?}"
    );
    let cadastros = menu
        .iter()
        .find(|n| n["label"] == json!("Cadastros"))
        .expect("Cadastros");
    let clientes = cadastros["children"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|l2| l2["children"].as_array().cloned().unwrap_or_default())
        .find(|leaf| leaf["program"]["name"] == json!("clientes"));
    assert_eq!(
        clientes.map(|c| c["program"]["webPath"].clone()),
        Some(json!("/clientes"))
    );

    // Someone else's menu is a user administrator's business.
    let (status, _) = s
        .call(Method::GET, "/programasusuario/montamenu/1", None)
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn favourite_toggles_and_shows_in_the_next_menu() {
    let _turn = serial().await;
    let s = seller().await;
    let me = s.id();
    let fav = |rows: &Value| {
        rows.as_array()
            .into_iter()
            .flatten()
            .find(|r| r["PROG_ID"] == json!(101))
            .map(|r| r["PRGU_FAVORITO"].clone())
    };
    let (_, before) = s
        .call(Method::GET, &format!("/programasusuario/{me}"), None)
        .await;
    assert_eq!(fav(&before), Some(json!(0)));
    let (status, r) = s
        .call(Method::PUT, &format!("/programasusuario/101/{me}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(r["PRGU_FAVORITO"], json!(1));
    let (_, menu) = s
        .call(
            Method::GET,
            &format!("/programasusuario/montamenu/{me}"),
            None,
        )
        .await;
    assert_eq!(fav(&menu), Some(json!(1)));
    let r = s
        .req(Method::POST, "/graphql")
        .json(&json!({"query": "mutation { toggleFavorite(programId: 101) { favorite name } }"}))
        .send()
        .await
        .expect("send");
    let (_, body) = read(r).await;
    assert_eq!(
        body["data"]["toggleFavorite"]["favorite"],
        json!(false),
        "{body}"
    );
    let (_, menu) = s
        .call(
            Method::GET,
            &format!("/programasusuario/montamenu/{me}"),
            None,
        )
        .await;
    assert_eq!(fav(&menu), Some(json!(0)));
    // Not someone else's favourites.
    let (status, _) = s.call(Method::PUT, "/programasusuario/101/1", None).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn a_grant_takes_effect_on_the_next_request() {
    let _turn = serial().await;
    let a = admin().await;
    let s = seller().await;
    let (status, _) = s
        .call(Method::POST, "/parametrosgenerico/filtro", Some(json!({})))
        .await;
    assert_eq!(status, 403);
    let gerenciador: i64 = {
        let (_, rows) = a
            .call(Method::GET, "/programas/menucadastrousuario", None)
            .await;
        rows.as_array()
            .into_iter()
            .flatten()
            .find(|r| r["PROG_NOME"] == json!("gerenciadorempresas"))
            .and_then(|r| r["PROG_ID"].as_i64())
            .expect("program")
    };
    let (status, g) = a
        .call(
            Method::POST,
            "/programasusuario",
            Some(json!({"PRGU_USUARIO": s.id(), "PRGU_PROG_ID": gerenciador, "PRGU_CONSULTA": 1})),
        )
        .await;
    assert_eq!(status, 200, "{g}");
    let mut status = 0;
    for _ in 0..50 {
        status = s
            .call(Method::POST, "/parametrosgenerico/filtro", Some(json!({})))
            .await
            .0;
        if status != 403 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, 204, "an empty register list answers 204");
    let (status, _) = a
        .call(
            Method::DELETE,
            &format!("/programasusuario/{gerenciador}/{}", s.id()),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let mut status = 0;
    for _ in 0..50 {
        status = s
            .call(Method::POST, "/parametrosgenerico/filtro", Some(json!({})))
            .await
            .0;
        if status == 403 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, 403);
}
