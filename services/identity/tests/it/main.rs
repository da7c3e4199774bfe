//! Identity's registers through the table-driven register test, on one migrated
//! database for the whole binary (each test under client ids of its own).

use erp_platform::testing::TestCtx;

static CTX: TestCtx = TestCtx::new("identity", |cfg| {
    Box::pin(async move { erp_identity::migrate(&cfg).await })
});

#[tokio::test]
async fn every_identity_register_round_trips() {
    let db = CTX.db().await;
    let registry = erp_identity::resources::registry().expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &registry, 77)
        .await
        .expect("registers");
    assert_eq!(n, registry.all().len());
}

#[tokio::test]
async fn a_users_password_is_hashed_and_never_read_back() {
    let db = CTX.db().await;
    let registry = erp_identity::resources::registry().expect("registry");
    let caller = CTX.caller(5, 0);
    let (empresas, usuarios) = (
        registry.get("empresas").expect("empresas"),
        registry.get("usuarios").expect("usuarios"),
    );
    let mut tx = db.begin_tenant(5).await.expect("tx");
    let body = |v: serde_json::Value| v.as_object().cloned().unwrap_or_default();
    erp_platform::resource::query::create(
        &mut tx,
        empresas,
        &caller,
        None,
        &body(serde_json::json!({"EMP_DESCRICAO": "X", "EMP_CGC": "11.444.777/0001-61"})),
    )
    .await
    .expect("company");
    let e = erp_platform::resource::query::create(
        &mut tx,
        usuarios,
        &caller,
        Some(1),
        &body(serde_json::json!({"USR_USUARIO": "ana", "USR_NOME": "Ana"})),
    )
    .await
    .expect_err("no password");
    assert_eq!(e.to_string(), "Senha é obrigatório!");
    let e = erp_platform::resource::query::create(
        &mut tx,
        usuarios,
        &caller,
        Some(1),
        &body(serde_json::json!({"USR_USUARIO": "ana", "USR_NOME": "Ana", "USR_SENHA": "123"})),
    )
    .await
    .expect_err("short");
    assert_eq!(
        e.to_string(),
        "O campo Senha deve ter no minimo 6 caracteres."
    );
    let row = erp_platform::resource::query::create(
        &mut tx,
        usuarios,
        &caller,
        Some(1),
        &body(
            serde_json::json!({"USR_USUARIO": "ana", "USR_NOME": "Ana", "USR_SENHA": "segredo1"}),
        ),
    )
    .await
    .expect("user");
    assert!(row.get("USR_SENHA").is_none());
    let hash: String = sqlx::query_scalar(
        "SELECT usr_senha_hash FROM identity.usuarios WHERE usr_usuario = 'ana'",
    )
    .fetch_one(&mut *tx)
    .await
    .expect("hash");
    assert!(hash.starts_with("$argon2id$"));
    let dup = erp_platform::resource::query::create(
        &mut tx,
        usuarios,
        &caller,
        Some(1),
        &body(
            serde_json::json!({"USR_USUARIO": "ANA", "USR_NOME": "Outra", "USR_SENHA": "segredo2"}),
        ),
    )
    .await
    .expect_err("duplicate login");
    assert_eq!(
        (dup.http_status(), dup.public_message()),
        (
            409,
            "Usuário já em uso: escolha outro nome de usuário.".to_string()
        )
    );
}

/// A create of `name` as client 6 in company 1 (programs need an operator).
async fn create(
    tx: &mut erp_platform::db::Tx,
    registry: &erp_platform::resource::Registry,
    name: &str,
    privileged: bool,
    v: serde_json::Value,
) -> erp_platform::Result<serde_json::Value> {
    let res = registry.get(name).expect("declared");
    let emp = res.company.as_ref().map(|_| 1);
    let body = v.as_object().cloned().unwrap_or_default();
    let caller = erp_platform::grpc::Caller { client_id: 6, user_id: 0, emp_id: 1, privileged };
    erp_platform::resource::query::create(tx, res, &caller, emp, &body).await
}

/// Each unique key a user can hit answers its register's message with status 409.
#[tokio::test]
async fn duplicates_answer_their_message() {
    let db = CTX.db().await;
    let registry = erp_identity::resources::registry().expect("registry");
    let mut tx = db.begin_tenant(6).await.expect("tx");
    create(
        &mut tx,
        &registry,
        "empresas",
        false,
        serde_json::json!({"EMP_DESCRICAO": "X", "EMP_CGC": "11.444.777/0001-61"}),
    )
    .await
    .expect("company");
    create(
        &mut tx,
        &registry,
        "usuarios",
        false,
        serde_json::json!({"USR_USUARIO": "ana", "USR_NOME": "Ana", "USR_SENHA": "segredo1"}),
    )
    .await
    .expect("user");
    create(
        &mut tx,
        &registry,
        "subgrupousuario",
        false,
        serde_json::json!({"SGUS_USR_ID": 1, "SGUS_GSUB_ID": 4}),
    )
    .await
    .expect("subgroup");
    create(
        &mut tx,
        &registry,
        "programas",
        true,
        serde_json::json!({"PROG_ID": 9101, "PROG_NOME": "duplicado", "PROG_DESCRICAO": "Tela", "PROG_NIVEL1": "Administração", "PROG_NIVEL3": "Tela", "PROG_ORDEM": 1}),
    )
    .await
    .expect("program");
    tx.commit().await.expect("commit");
    for (name, privileged, v, message) in [
        (
            "empresas",
            false,
            serde_json::json!({"EMP_DESCRICAO": "Y", "EMP_CGC": "11444777000161"}),
            "CNPJ/CPF já cadastrado para outra empresa.",
        ),
        (
            "usuarios",
            false,
            serde_json::json!({"USR_USUARIO": "Ana", "USR_NOME": "Outra", "USR_SENHA": "segredo2"}),
            "Usuário já em uso: escolha outro nome de usuário.",
        ),
        (
            "subgrupousuario",
            false,
            serde_json::json!({"SGUS_USR_ID": 1, "SGUS_GSUB_ID": 4}),
            "Subgrupo já liberado para este usuário.",
        ),
        (
            "programas",
            true,
            serde_json::json!({"PROG_ID": 9101, "PROG_NOME": "outro", "PROG_DESCRICAO": "Tela", "PROG_NIVEL1": "Administração", "PROG_NIVEL3": "Tela", "PROG_ORDEM": 1}),
            "Código já cadastrado para outro programa.",
        ),
        (
            "programas",
            true,
            serde_json::json!({"PROG_ID": 9102, "PROG_NOME": "duplicado", "PROG_DESCRICAO": "Tela", "PROG_NIVEL1": "Administração", "PROG_NIVEL3": "Tela", "PROG_ORDEM": 1}),
            "Nome já cadastrado para outro programa.",
        ),
    ] {
        let mut tx = db.begin_tenant(6).await.expect("tx");
        let e = create(&mut tx, &registry, name, privileged, v.clone())
            .await
            .expect_err("duplicate");
        assert_eq!(
            (e.http_status(), e.public_message()),
            (409, message.to_string()),
            "{name} {v}"
        );
    }
}
