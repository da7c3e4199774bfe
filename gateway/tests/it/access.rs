//! The tenant guard, isolation between clients, operators and program permissions.

use reqwest::Method;
use serde_json::{json, Value};

use crate::{admin, login, seller, serial, snapshot, FAKE_OPERATOR, OTHER};

/// Every identity route naming a company the user may not work in: 403 and nothing
/// read or written. The salesperson may work in company 1 only; 2 exists in the
/// same client, 99 nowhere.
#[tokio::test]
async fn identity_routes_refuse_companies_outside_the_users() {
    let _turn = serial().await;
    let u = seller().await;
    let me = u.id();
    let before = snapshot().await;
    for emp in [2, 99] {
        let cases: Vec<(Method, String, Option<Value>)> = vec![
            (Method::GET, format!("/empresa/consulta/{emp}"), None),
            (Method::GET, format!("/empresas/{emp}"), None),
            (Method::POST, format!("/empresas/{emp}"), None),
            (
                Method::PUT,
                format!("/empresas/{emp}"),
                Some(json!({"EMP_DESCRICAO": "invadida"})),
            ),
            (Method::DELETE, format!("/empresas/{emp}"), None),
            (Method::POST, format!("/usuarios/{emp}"), Some(json!({}))),
            (
                Method::POST,
                format!("/usuarios/registros/{emp}"),
                Some(json!({})),
            ),
            (Method::GET, format!("/usuarios/{me}/{emp}"), None),
            (
                Method::PUT,
                format!("/usuarios/{me}/{emp}"),
                Some(json!({"USR_NOME": "x"})),
            ),
            (Method::DELETE, format!("/usuarios/{me}/{emp}"), None),
            (Method::GET, format!("/usuarios/pesquisar/a/{emp}"), None),
            (
                Method::PUT,
                format!("/usuariosModificacoes/{me}/{emp}"),
                Some(json!({"USR_NOME": "x"})),
            ),
            (
                Method::POST,
                format!("/validausuarios/{emp}"),
                Some(json!({"USR_USUARIO": "admin", "USR_SENHA": "admin123"})),
            ),
            (Method::GET, format!("/subgrupousuario/{emp}/{me}"), None),
            (
                Method::POST,
                format!("/subgrupousuario/{emp}/{me}"),
                Some(json!({})),
            ),
            (
                Method::POST,
                format!("/subgrupousuario/{emp}"),
                Some(json!({})),
            ),
            (
                Method::PUT,
                format!("/subgrupousuario/1/{emp}"),
                Some(json!({"SGUS_GSUB_ID": 1})),
            ),
            (
                Method::DELETE,
                format!("/subgrupousuario/1/{emp}/{me}"),
                None,
            ),
            (Method::PUT, format!("/empresas/uploads/{emp}/2"), None),
            (
                Method::DELETE,
                format!("/empresas/uploads/{emp}/2/x.png"),
                None,
            ),
            (Method::GET, format!("/uploads/{emp}/x.png"), None),
            // Companies named in bodies.
            (
                Method::POST,
                "/usuarios".into(),
                Some(
                    json!({"USR_EMP_ID": emp, "USR_USUARIO": "intruso", "USR_NOME": "x", "USR_SENHA": "123456"}),
                ),
            ),
            (
                Method::POST,
                "/subgrupousuario".into(),
                Some(json!({"SGUS_EMP_ID": emp, "SGUS_USR_ID": me, "SGUS_GSUB_ID": 1})),
            ),
            (
                Method::POST,
                "/empresas/filtro".into(),
                Some(json!({"EMP_ID": emp})),
            ),
            (
                Method::POST,
                "/usuarios/filtro".into(),
                Some(json!({"EMP_ID": emp})),
            ),
            (
                Method::PUT,
                format!("/usuariosModificacoes/{me}/1"),
                Some(json!({"USR_NOME": "x", "USR_EMP_ID": emp})),
            ),
            (
                Method::POST,
                "/validausuarios/1".into(),
                Some(json!({"USR_USUARIO": "admin", "itens": [{"X_EMP_ID": emp}]})),
            ),
        ];
        for (m, path, body) in cases {
            let (status, resp) = u.call(m.clone(), &path, body).await;
            assert_eq!(status, 403, "{m} {path}: {resp}");
            assert_eq!(resp["code"], json!(403), "{m} {path}");
        }
    }
    assert_eq!(
        snapshot().await,
        before,
        "a refused request changed the database"
    );
}

/// Client A's administrator reaches only client A's rows, whatever the path, id or
/// body says; both clients number their companies and users from 1.
#[tokio::test]
async fn a_client_never_reaches_another_clients_rows() {
    let _turn = serial().await;
    let a = admin().await;
    let b = login(OTHER, "admin", "senhaB123").await;
    let before_b = b.call(Method::GET, "/empresas/1", None).await.1;
    assert_eq!(before_b["EMP_DESCRICAO"], json!("EMPRESA DO CLIENTE B"));

    let (_, mine) = a.call(Method::GET, "/empresas/1", None).await;
    assert_eq!(mine["EMP_DESCRICAO"], json!("OFICINA DEMO LTDA"));
    let (_, users) = a
        .call(Method::POST, "/usuarios/1", Some(json!({"LIMIT": 100})))
        .await;
    let names: Vec<&str> = users
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["USR_NOME"].as_str())
        .collect();
    assert!(!names.iter().any(|n| n.contains("Cliente B")), "{names:?}");
    let (_, found) = a
        .call(Method::GET, "/usuarios/pesquisar/Cliente B/1", None)
        .await;
    assert!(found.as_array().is_none_or(|v| v.is_empty()));

    // A body naming the other client changes only the caller's own rows.
    let (status, row) = a
        .call(
            Method::PUT,
            "/empresas/1",
            Some(json!({"client_id": 3, "CLIENT_ID": 3, "EMP_FANTASIA": "Oficina A"})),
        )
        .await;
    assert_eq!(status, 200, "{row}");
    let (_, after_b) = b.call(Method::GET, "/empresas/1", None).await;
    assert_eq!(after_b, before_b, "client B's company changed");
    let (status, _) = a.call(Method::GET, "/empresas/3", None).await;
    assert_eq!(status, 403);

    // Creating a company: the new one belongs to the caller's client and the caller
    // may work in it at once.
    let (status, created) = a.call(Method::POST, "/empresas", Some(json!({"EMP_ID": 1, "EMP_DESCRICAO": "FILIAL NOVA", "EMP_CGC": "11.444.777/0001-61", "EMP_REGIME": "MEI"}))).await;
    assert_eq!(status, 200, "{created}");
    let id = created["EMP_ID"].as_i64().expect("id");
    assert!(id >= 3);
    let (_, b_companies) = b
        .call(Method::POST, "/empresas/filtro", Some(json!({})))
        .await;
    assert_eq!(b_companies.as_array().map(Vec::len), Some(1));
    let mut status = 0;
    for _ in 0..50 {
        status = a
            .call(Method::GET, &format!("/empresa/consulta/{id}"), None)
            .await
            .0;
        if status == 200 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, 200);
    let (status, _) = a
        .call(Method::DELETE, &format!("/empresas/{id}"), None)
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn program_permissions_are_enforced() {
    let s = seller().await;
    let (status, body) = s
        .call(Method::POST, "/empresas/filtro", Some(json!({})))
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        body["msg"],
        json!("Usuário sem permissão para consultar em Empresas.")
    );
    let (status, _) = s.call(Method::POST, "/usuarios/1", Some(json!({}))).await;
    assert_eq!(status, 403);
    let (status, _) = s
        .call(Method::POST, "/programas", Some(json!({"PROG_ID": 5000})))
        .await;
    assert_eq!(status, 403);
    let a = admin().await;
    let (status, _) = a.call(Method::POST, "/usuarios/1", Some(json!({}))).await;
    assert_eq!(status, 200);
    // Programs are the product's: a tenant administrator cannot change them.
    let (status, _) = a
        .call(
            Method::PUT,
            "/programas/101",
            Some(json!({"PROG_DESCRICAO": "x"})),
        )
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn operators_are_privileged_only_in_the_operator_client() {
    let op = login("00.000.000/0001-91", "suporte", "suporte123").await;
    assert_eq!(op.login["privilegiado"], json!(true));
    let (status, _) = op
        .call(Method::POST, "/empresas/filtro", Some(json!({})))
        .await;
    assert_eq!(status, 200);
    let fake = login(FAKE_OPERATOR, "admin", "falso123").await;
    assert_eq!(fake.login["privilegiado"], json!(false));
    assert_eq!(fake.login["empresa"]["EMP_ID"], json!(9999));
    let (status, _) = fake
        .call(
            Method::PUT,
            "/programas/101",
            Some(json!({"PROG_DESCRICAO": "x"})),
        )
        .await;
    assert_eq!(status, 403);
    let gql = fake
        .req(Method::POST, "/graphql")
        .json(&json!({"query": "{ me { privileged } }"}))
        .send()
        .await
        .expect("send");
    let (_, body) = crate::read(gql).await;
    assert_eq!(body["data"]["me"]["privileged"], json!(false));
}
