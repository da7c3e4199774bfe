//! The supplier calls: the customer with the supplier's document, the search and
//! the products of a supplier.

use serde_json::json;

use super::{action, caller, client, create, create_err, db, res};

#[tokio::test]
async fn supplier_calls() {
    let db = db().await;
    let me = caller(client());
    let (forn, prod) = (res("fornecedor"), res("fornecedorprod"));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let both = create(
        &mut tx,
        &forn,
        &me,
        json!({"FORN_DESCRICAO": "METALÚRGICA ABC", "FORN_CGC": "11.444.777/0001-61"}),
    )
    .await;
    let only = create(
        &mut tx,
        &forn,
        &me,
        json!({"FORN_DESCRICAO": "TRANSPORTES XYZ", "FORN_CGC": "11.222.333/0001-81"}),
    )
    .await;
    let none = create(
        &mut tx,
        &forn,
        &me,
        json!({"FORN_DESCRICAO": "SEM DOCUMENTO"}),
    )
    .await;
    let cli = create(
        &mut tx,
        &res("clientes"),
        &me,
        json!({"CLI_DESCRICAO": "METALÚRGICA ABC LTDA", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "11444777000161"}),
    )
    .await;

    let found = action(
        &mut tx,
        &forn,
        &me,
        "cliente",
        &[("id", &both["FORN_ID"].to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("customer");
    assert_eq!(found["CLI_ID"], cli["CLI_ID"]);
    for (id, emp) in [(&only, "1"), (&none, "1"), (&both, "2")] {
        let e = action(
            &mut tx,
            &forn,
            &me,
            "cliente",
            &[("id", &id["FORN_ID"].to_string()), ("emp", emp)],
            json!({}),
        )
        .await
        .expect_err("no customer");
        assert_eq!(e.public_message(), "Cliente não encontrado.");
        assert_eq!(e.http_status(), 404);
    }

    let blank = action(
        &mut tx,
        &forn,
        &me,
        "pesquisar",
        &[("filter", " ")],
        json!({}),
    )
    .await
    .expect("search");
    assert_eq!(blank, json!([]), "no filter, no suppliers");
    let rows = action(
        &mut tx,
        &forn,
        &me,
        "pesquisar",
        &[("filter", "transp")],
        json!({}),
    )
    .await
    .expect("search");
    assert_eq!(rows[0]["FORN_DESCRICAO"], json!("TRANSPORTES XYZ"));
    assert_eq!(rows.as_array().map(Vec::len), Some(1));

    for (f, p, code) in [(&both, 1, "A-1"), (&both, 2, "A-2"), (&only, 1, "X-1")] {
        create(
            &mut tx,
            &prod,
            &me,
            json!({"FOPR_FORN_ID": f["FORN_ID"], "FOPR_PROD_ID": p, "FOPR_CODIGO": code}),
        )
        .await;
    }
    let rows = action(
        &mut tx,
        &prod,
        &me,
        "do_fornecedor",
        &[("id", &both["FORN_ID"].to_string())],
        json!({"ORDENACAO": "FOPR_CODIGO DESC"}),
    )
    .await
    .expect("products");
    let codes: Vec<&str> = rows
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["FOPR_CODIGO"].as_str())
        .collect();
    assert_eq!(codes, vec!["A-2", "A-1"]);
    tx.commit().await.expect("commit");
    let e = create_err(
        &db,
        &prod,
        &me,
        json!({"FOPR_FORN_ID": both["FORN_ID"], "FOPR_PROD_ID": 1, "FOPR_CODIGO": "DUP"}),
    )
    .await;
    assert_eq!(
        e, "Produto já cadastrado para este fornecedor.",
        "one code per supplier and product"
    );
}
