use serde_json::{json, Value};

use crate::{action, client, create, db, message, registry};

#[tokio::test]
async fn every_register_passes_the_table_driven_test() {
    let db = db().await;
    let all = registry();
    // The payables settlement screen's register writes nothing by the generic
    // calls (checked in `settlement`).
    let writable: Vec<erp_platform::resource::Resource> = all
        .all()
        .iter()
        .filter(|r| !erp_finance::resources::READ_ONLY.contains(&r.name.as_str()))
        .map(|r| (**r).clone())
        .collect();
    for r in all.all() {
        assert_eq!(
            r.sample.is_none(),
            erp_finance::resources::READ_ONLY.contains(&r.name.as_str()),
            "{}: a sample exactly when writable",
            r.name
        );
    }
    let reg = erp_platform::resource::Registry::new(writable).expect("writable registry");
    let c = client();
    let n = erp_platform::testing::exercise_registry(&db, &reg, c)
        .await
        .expect("exercise_registry");
    assert_eq!(n, reg.all().len());
    assert_eq!(n, 14);
    // The sample movement was written, changed and removed: the account it moved
    // was deleted with nothing left on it, and no movement remains.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM finance.movimentacaobancaria")
        .fetch_one(&mut *tx)
        .await
        .expect("movements");
    assert_eq!(left, 0);
}

#[tokio::test]
async fn the_order_index_of_every_register_builds() {
    let reg = registry();
    erp_platform::resource::ensure_order_indexes(&crate::config(), &reg)
        .await
        .expect("order indexes");
}

#[tokio::test]
async fn bank_upload_stores_certificate_or_key_by_tipo() {
    let db = db().await;
    let c = client();
    let bank = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "SICOOB", "BCO_COMPE": "756"}),
    )
    .await
    .expect("bank");
    let id = bank["BCO_ID"].to_string();
    let file = |name: &str| json!({"nome": name, "original": "cert.pem", "tamanho": 10, "url": "/uploads/1/x"});

    let row = action(
        &db,
        c,
        "banco",
        "uploads",
        &[("id", &id), ("emp", "1")],
        json!({"arquivo": file("a.pem"), "tipo": "CERTIFICATE"}),
    )
    .await
    .expect("certificate");
    assert_eq!(row["BCO_CERTIFICADO"], "a.pem");
    assert_eq!(row["BCO_CHAVE"], Value::Null);

    let row = action(
        &db,
        c,
        "banco",
        "uploads",
        &[("id", &id), ("emp", "1")],
        json!({"arquivo": file("b.key"), "tipo": "key"}),
    )
    .await
    .expect("key");
    assert_eq!(row["BCO_CERTIFICADO"], "a.pem");
    assert_eq!(row["BCO_CHAVE"], "b.key");

    let r = action(
        &db,
        c,
        "banco",
        "uploads",
        &[("id", &id), ("emp", "1")],
        json!({"arquivo": file("c.pem")}),
    )
    .await;
    assert_eq!(message(r), "Tipo é obrigatório!");
    let r = action(
        &db,
        c,
        "banco",
        "uploads",
        &[("id", &id), ("emp", "1")],
        json!({"arquivo": file("c.pem"), "tipo": "PFX"}),
    )
    .await;
    assert_eq!(message(r), "Tipo inválido: informe CERTIFICATE ou KEY.");
    let r = action(
        &db,
        c,
        "banco",
        "uploads",
        &[("id", "999"), ("emp", "1")],
        json!({"arquivo": file("c.pem"), "tipo": "KEY"}),
    )
    .await;
    assert_eq!(message(r), "Registro não encontrado.");
    // The upload columns cannot be set by an ordinary write.
    let other = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "CAIXA", "BCO_TIPO_CONTA": "X", "BCO_CHAVE": "x.key"}),
    )
    .await
    .expect("bank");
    assert_eq!(other["BCO_CHAVE"], Value::Null);
}

#[tokio::test]
async fn bank_validations() {
    let db = db().await;
    let c = client();
    let r = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "X", "BCO_COMPE": "0a1"}),
    )
    .await;
    assert_eq!(message(r), "Banco: informe apenas números.");
    let r = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "X", "BCO_CHAVE_PIX": "a@b.com"}),
    )
    .await;
    assert_eq!(message(r), "Tipo da Chave Pix é obrigatório!");
    let r = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "X", "BCO_PERC_JUROS": "101"}),
    )
    .await;
    assert_eq!(message(r), "Valor Máximo permitido para o campo: 100");
    let r = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "X", "BCO_TIPO_CONTA": "Z"}),
    )
    .await;
    assert_eq!(message(r), "Valor inválido para o campo Tipo de Conta.");
    let r = create(&db, c, "banco", json!({"BCO_COMPE": "001"})).await;
    assert_eq!(message(r), "Descrição é obrigatório!");
    // An overdrawn opening balance is allowed.
    let row = create(
        &db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "X", "BCO_SALDO_INICIAL": "-250,50"}),
    )
    .await
    .expect("negative balance");
    assert_eq!(row["BCO_SALDO_INICIAL"].to_string(), "-250.5");
}

#[tokio::test]
async fn payment_condition_validations() {
    let db = db().await;
    let c = client();
    let r = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "X", "CNDP_PARCELAS": 0}),
    )
    .await;
    assert_eq!(
        message(r),
        "O campo Número de Parcelas deve ser maior ou igual a 1 "
    );
    let r = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "X", "CNDP_PERC_DESCONTO": "5", "CNDP_PERC_ACRESCIMO": "2"}),
    )
    .await;
    assert_eq!(
        message(r),
        "Informe desconto ou acréscimo, não os dois na mesma condição."
    );
    let r = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "X", "CNDP_PARCELAS": 2, "CNDP_PERC_ENTRADA": "100"}),
    )
    .await;
    assert_eq!(
        message(r),
        "Com entrada de 100% a condição deve ter uma única parcela."
    );
    let r = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "X", "CNDP_PERC_ENTRADA": "10.12345"}),
    )
    .await;
    assert_eq!(
        message(r),
        "O campo Entrada (%) aceita no máximo 4 casas decimais."
    );
    let row = create(
        &db,
        c,
        "condicaopagamento",
        json!({"CNDP_DESCRICAO": "À VISTA"}),
    )
    .await
    .expect("defaults");
    assert_eq!(
        (
            row["CNDP_PARCELAS"].as_i64(),
            row["CNDP_INTERVALO"].as_i64()
        ),
        (Some(1), Some(30))
    );
    let r = create(
        &db,
        c,
        "formapagamento",
        json!({"FRMP_DESCRICAO": "X", "FRMP_TIPO": "07"}),
    )
    .await;
    assert_eq!(message(r), "Valor inválido para o campo Tipo.");
    let r = create(
        &db,
        c,
        "tefadquirinte",
        json!({"TEFA_ADQUIRINTE": "X", "TEFA_CNPJ": "11.111.111/1111-11"}),
    )
    .await;
    assert!(message(r).contains("inválido"), "CNPJ check");
}

#[tokio::test]
async fn due_date_days_are_listed_per_condition() {
    let db = db().await;
    let c = client();
    let a = create(
        &db,
        c,
        "condicaovencimento",
        json!({"CNDV_DESCRICAO": "DIAS 10 E 25"}),
    )
    .await
    .expect("a");
    let b = create(
        &db,
        c,
        "condicaovencimento",
        json!({"CNDV_DESCRICAO": "OUTRA"}),
    )
    .await
    .expect("b");
    let (a, b) = (
        a["CNDV_ID"].as_i64().expect("id"),
        b["CNDV_ID"].as_i64().expect("id"),
    );
    for (cond, day, month) in [(a, 25, 0), (a, 10, 1), (b, 5, 0)] {
        create(
            &db,
            c,
            "condicaovencimentodias",
            json!({"CNDV_ID": cond, "ID_DIAS": day, "ID_MES": month}),
        )
        .await
        .expect("day");
    }
    let r = create(
        &db,
        c,
        "condicaovencimentodias",
        json!({"CNDV_ID": a, "ID_DIAS": 32, "ID_MES": 0}),
    )
    .await;
    assert_eq!(message(r), "Valor Máximo permitido para o campo: 31");
    let r = create(
        &db,
        c,
        "condicaovencimentodias",
        json!({"CNDV_ID": a, "ID_DIAS": 25, "ID_MES": 0}),
    )
    .await;
    assert_eq!(message(r), "Registro já cadastrado.");

    let rows = action(
        &db,
        c,
        "condicaovencimentodias",
        "dias",
        &[("id", &a.to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("list");
    let got: Vec<(i64, i64, String)> = rows
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["ID_DIAS"].as_i64().unwrap_or(0),
                r["ID_MES"].as_i64().unwrap_or(0),
                r["CNDD_DESCRICAO"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (25, 0, "Dia 25 - mês da emissão".to_string()),
            (10, 1, "Dia 10 - 1 mês após a emissão".to_string()),
        ]
    );
    // Deleting the condition removes its days.
    let res = crate::resource("condicaovencimento");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_platform::resource::query::delete(
        &mut tx,
        &res,
        &crate::caller(c),
        Some(1),
        &[a.to_string()],
    )
    .await
    .expect("delete");
    tx.commit().await.expect("commit");
    let rows = action(
        &db,
        c,
        "condicaovencimentodias",
        "dias",
        &[("id", &a.to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("list");
    assert_eq!(rows, json!([]));
}

#[tokio::test]
async fn cost_centre_structure_and_group_search() {
    let db = db().await;
    let c = client();
    let g = create(
        &db,
        c,
        "grupohistoricopadrao",
        json!({"GRHP_DESCRICAO": "VENDAS", "GRHP_TIPO": "R"}),
    )
    .await
    .expect("g");
    let gid = g["GRHP_ID"].as_i64().expect("id");
    create(
        &db,
        c,
        "historicopadrao",
        json!({"HISP_DESCRICAO": "VENDA DE PRODUTOS", "HISP_TIPO": "R", "HISP_GRHP_ID": gid}),
    )
    .await
    .expect("in group");
    create(
        &db,
        c,
        "historicopadrao",
        json!({"HISP_DESCRICAO": "TARIFAS BANCÁRIAS", "HISP_TIPO": "D"}),
    )
    .await
    .expect("loose");
    let r = create(
        &db,
        c,
        "historicopadrao",
        json!({"HISP_DESCRICAO": "X", "HISP_TIPO": "D", "HISP_GRHP_ID": 999}),
    )
    .await;
    assert_eq!(
        r.err().map(|e| e.http_status()),
        Some(409),
        "the group must exist"
    );

    let tree = action(&db, c, "historicopadrao", "estrutura", &[], json!({}))
        .await
        .expect("tree");
    assert_eq!(tree[0]["GRHP_DESCRICAO"], "VENDAS");
    assert_eq!(
        tree[0]["children"][0]["HISP_DESCRICAO"],
        "VENDA DE PRODUTOS"
    );
    assert_eq!(tree[1]["GRHP_DESCRICAO"], "SEM GRUPO");
    assert_eq!(
        tree[1]["children"][0]["HISP_DESCRICAO"],
        "TARIFAS BANCÁRIAS"
    );
    assert_eq!(tree.as_array().map(Vec::len), Some(2));

    let found = action(
        &db,
        c,
        "grupohistoricopadrao",
        "pesquisar",
        &[("GRHP_ID", &gid.to_string()), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("by id");
    assert_eq!(found[0]["GRHP_DESCRICAO"], "VENDAS");
    let found = action(
        &db,
        c,
        "grupohistoricopadrao",
        "pesquisar",
        &[("GRHP_ID", "vend"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("by text");
    assert_eq!(found[0]["GRHP_ID"].as_i64(), Some(gid));
    let none = action(
        &db,
        c,
        "grupohistoricopadrao",
        "pesquisar",
        &[("GRHP_ID", "999"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("none");
    assert_eq!(none, json!([]));
}

#[tokio::test]
async fn clients_do_not_see_each_others_rows() {
    let db = db().await;
    let (a, b) = (client(), client());
    create(
        &db,
        a,
        "historico",
        json!({"HIST_DESCRICAO": "SÓ DO CLIENTE A"}),
    )
    .await
    .expect("a");
    let res = crate::resource("historico");
    let mut tx = db.begin_tenant(b).await.expect("tx");
    let rows = erp_platform::resource::query::list(
        &mut tx,
        &res,
        &crate::caller(b),
        None,
        &serde_json::Map::new(),
    )
    .await
    .expect("list");
    assert!(rows.is_empty());
}
