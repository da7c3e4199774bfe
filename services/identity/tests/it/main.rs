//! Identity's registers through the table-driven register test, on a fresh database.

#[tokio::test]
async fn every_identity_register_round_trips() {
    let cfg = erp_platform::testing::fresh_database("identity").await;
    erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
    erp_identity::migrate(&cfg).await.expect("migrate");
    let db = erp_platform::db::Db::connect(&cfg).await.expect("db");
    let registry = erp_identity::resources::registry().expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &registry, 77)
        .await
        .expect("registers");
    assert_eq!(n, registry.all().len());
}

#[tokio::test]
async fn a_users_password_is_hashed_and_never_read_back() {
    let cfg = erp_platform::testing::fresh_database("identity").await;
    erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
    erp_identity::migrate(&cfg).await.expect("migrate");
    let db = erp_platform::db::Db::connect(&cfg).await.expect("db");
    let registry = erp_identity::resources::registry().expect("registry");
    let caller = erp_platform::grpc::Caller {
        client_id: 5,
        user_id: 0,
        emp_id: 1,
        privileged: false,
    };
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
    assert_eq!(dup.http_status(), 409);
}
