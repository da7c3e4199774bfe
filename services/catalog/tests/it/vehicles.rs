//! Vehicles and equipment against a migrated catalog: plate, chassis, RENAVAM, year
//! and brand/model rules with their exact messages, and every declared call (the
//! automatic vehicle, equipment images, type services by pair, contract equipment).
//! The table-driven round trip of these registers runs in `parties` (with the
//! customers they point at).

use std::sync::atomic::{AtomicI64, Ordering};

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use serde_json::{json, Map, Value};

use crate::parties::{action, create, create_err, res};

/// Client ids of this module only.
fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(20_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

async fn db() -> Db {
    Db::connect(&crate::setup().await).await.expect("app pool")
}

fn caller(client_id: i64) -> Caller {
    Caller { client_id, user_id: 3, emp_id: 1, privileged: false }
}

fn upload(name: &str) -> Value {
    json!({"arquivo": {"nome": name, "original": "foto.png", "tamanho": 10, "url": format!("/uploads/1/{name}")}})
}

/// A customer, two vehicle brands with a model each, an equipment type, two
/// equipment brands with a model each.
async fn base(tx: &mut Tx, me: &Caller) {
    create(
        tx,
        &res("clientes"),
        me,
        json!({"CLI_DESCRICAO": "OFICINA", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    for (brand, model) in [("VOLKSWAGEN", "GOL"), ("FIAT", "UNO")] {
        create(
            tx,
            &res("marcaveiculo"),
            me,
            json!({"MRCV_DESCRICAO": brand}),
        )
        .await;
        let id = if brand == "FIAT" { 2 } else { 1 };
        create(
            tx,
            &res("modeloveiculo"),
            me,
            json!({"MDLV_MRCV_ID": id, "MDLV_DESCRICAO": model}),
        )
        .await;
    }
    create(
        tx,
        &res("tipoequipamento"),
        me,
        json!({"TPEQ_DESCRICAO": "COMPRESSOR"}),
    )
    .await;
    for (brand, model) in [("WEG", "W22"), ("SCHULZ", "CSL 10")] {
        create(
            tx,
            &res("marcaequipamento"),
            me,
            json!({"MREQ_DESCRICAO": brand}),
        )
        .await;
        let id = if brand == "SCHULZ" { 2 } else { 1 };
        create(
            tx,
            &res("modeloequipamento"),
            me,
            json!({"MDEQ_MREQ_ID": id, "MDEQ_DESCRICAO": model}),
        )
        .await;
    }
}

#[tokio::test]
async fn vehicle_rules_answer_their_messages() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    let veic = res("veiculo");
    let v = create(
        &mut tx,
        &veic,
        &me,
        json!({"VEIC_PLACA1": "bra-2e19", "VEIC_MRCV_ID": 1, "VEIC_MDLV_ID": 1, "VEIC_CHASSI": "9bwzzz377vt004251",
               "VEIC_RENAVAM": "639884962", "VEIC_UF": "pr", "VEIC_ANO_FABRICACAO": 2020, "VEIC_ANO_MODELO": 2020}),
    )
    .await;
    assert_eq!(v["VEIC_PLACA1"], json!("BRA2E19"));
    assert_eq!(v["VEIC_CHASSI"], json!("9BWZZZ377VT004251"));
    assert_eq!(v["VEIC_RENAVAM"], json!("00639884962"));
    assert_eq!(v["VEIC_UF"], json!("PR"));
    tx.commit().await.expect("commit");

    let cases = [
        (json!({"VEIC_PLACA1": "BR-2E19"}), "Placa inválida."),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_PLACA2": "ABC12345"}),
            "Placa inválida.",
        ),
        (json!({}), "Placa é obrigatório!"),
        (
            json!({"VEIC_PLACA1": "bra2e19"}),
            "Placa já cadastrada para outro veículo.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_CHASSI": "9BWZZZ377VT00425I"}),
            "Chassi inválido.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_RENAVAM": "00639884963"}),
            "RENAVAM inválido.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_MRCV_ID": 1, "VEIC_MDLV_ID": 2}),
            "O modelo não pertence à marca informada.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_ANO_FABRICACAO": 2020, "VEIC_ANO_MODELO": 2022}),
            "O ano do modelo deve ser o ano de fabricação ou o seguinte.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_HODOMETRO": -1}),
            "O campo Hodômetro (km) deve ser maior ou igual a 0 ",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_COMBUSTIVEL": "X"}),
            "Valor inválido para o campo Combustível.",
        ),
        (
            json!({"VEIC_PLACA1": "ABC1234", "VEIC_CLI_ID": 99}),
            "Registro relacionado não encontrado.",
        ),
    ];
    for (v, msg) in cases {
        assert_eq!(create_err(&db, &veic, &me, v.clone()).await, msg, "{v}");
    }

    // Brands and models list by id (spec §9) whatever the names.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let brands = query::list(&mut tx, &res("marcaveiculo"), &me, None, &Map::new())
        .await
        .expect("list");
    let names: Vec<&str> = brands
        .iter()
        .filter_map(|r| r["MRCV_DESCRICAO"].as_str())
        .collect();
    assert_eq!(names, vec!["VOLKSWAGEN", "FIAT"]);
    let e = create_err(
        &db,
        &res("marcaveiculo"),
        &me,
        json!({"MRCV_DESCRICAO": "fiat"}),
    )
    .await;
    assert_eq!(e, "Descrição já cadastrada para outra marca de veículo.");
    // A brand with models cannot go.
    let e = query::delete(&mut tx, &res("marcaveiculo"), &me, None, &["2".into()])
        .await
        .expect_err("in use");
    assert_eq!(e.http_status(), 409);
}

#[tokio::test]
async fn automatic_vehicle_finds_or_creates_by_plate() {
    let db = db().await;
    let me = caller(client());
    let veic = res("veiculo");
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    let params = [("emp", "1")];
    let made = action(
        &mut tx,
        &veic,
        &me,
        "automatico",
        &params,
        json!({"VEIC_PLACA1": "xyz-9a88", "CLI_ID": 1}),
    )
    .await
    .expect("created");
    assert_eq!(made["VEIC_PLACA1"], json!("XYZ9A88"));
    assert_eq!(made["VEIC_CLI_ID"], json!(1));
    let again = action(
        &mut tx,
        &veic,
        &me,
        "automatico",
        &params,
        json!({"VEIC_PLACA1": "XYZ9A88"}),
    )
    .await
    .expect("found");
    assert_eq!(again["VEIC_ID"], made["VEIC_ID"]);
    assert_eq!(
        query::count(&mut tx, &veic, &me, Some(1), &Map::new())
            .await
            .expect("count"),
        1
    );
    let other = action(
        &mut tx,
        &veic,
        &me,
        "automatico",
        &[("emp", "2")],
        json!({"VEIC_PLACA1": "XYZ9A88"}),
    )
    .await
    .expect("other company");
    assert_eq!(other["VEIC_EMP_ID"], json!(2), "plates are per company");
    for (b, msg) in [
        (json!({"VEIC_PLACA1": "XYZ-99"}), "Placa inválida."),
        (json!({}), "Placa é obrigatório!"),
    ] {
        let e = action(&mut tx, &veic, &me, "automatico", &params, b)
            .await
            .expect_err("refused");
        assert_eq!(e.public_message(), msg);
    }
}

#[tokio::test]
async fn equipment_rules_and_contract_items() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    let eq = create(
        &mut tx,
        &res("equipamento"),
        &me,
        json!({"EQPT_SERIE": "SN1", "EQPT_MREQ_ID": 2, "EQPT_MDEQ_ID": 2, "EQPT_CLI_ID": 1}),
    )
    .await;
    let eq2 = create(
        &mut tx,
        &res("equipamento"),
        &me,
        json!({"EQPT_SERIE": "SN1-B"}),
    )
    .await;
    let second_customer = create(
        &mut tx,
        &res("clientes"),
        &me,
        json!({"CLI_DESCRICAO": "OUTRO", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    let contract = create(
        &mut tx,
        &res("contratocliente"),
        &me,
        json!({"CONT_CLI_ID": 1, "CONT_DESCRICAO": "Manutenção", "CONT_VALOR": "90", "CONT_DATA_INI": "2026-01-01"}),
    )
    .await;
    create(
        &mut tx,
        &res("contratoseqpt"),
        &me,
        json!({"CONTE_CONT_ID": contract["CONT_ID"], "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": eq["EQPT_ID"], "CONTE_DESCRICAO": "Linha 1"}),
    )
    .await;
    tx.commit().await.expect("commit");

    let cases = [
        (
            "equipamento",
            json!({"EQPT_SERIE": "SN2", "EQPT_DTA_INSTALACAO": "2026-03-01", "EQPT_DTA_GARANTIA": "2026-02-28"}),
            "O fim da garantia deve ser maior ou igual à data de instalação.",
        ),
        (
            "equipamento",
            json!({"EQPT_SERIE": "SN2", "EQPT_DTA_FABRICACAO": "2026-03-01", "EQPT_DTA_INSTALACAO": "2026-01-01"}),
            "A data de instalação deve ser maior ou igual à data de fabricação.",
        ),
        (
            "equipamento",
            json!({"EQPT_SERIE": "SN2", "EQPT_MREQ_ID": 1, "EQPT_MDEQ_ID": 2}),
            "O modelo não pertence à marca informada.",
        ),
        (
            "equipamento",
            json!({"EQPT_DESCRICAO": "Sem série"}),
            "Número de Série é obrigatório!",
        ),
        (
            "contratoseqpt",
            json!({"CONTE_CONT_ID": contract["CONT_ID"], "CONTE_CLI_ID": second_customer["CLI_ID"], "CONTE_EQPT_ID": eq2["EQPT_ID"]}),
            "O cliente informado não é o cliente do contrato.",
        ),
        (
            "contratoseqpt",
            json!({"CONTE_CONT_ID": contract["CONT_ID"], "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": eq["EQPT_ID"]}),
            "Equipamento já incluído neste contrato.",
        ),
        (
            "tipoequipamentoserv",
            json!({"TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 5, "TEQS_DESCRICAO": "X", "TEQS_PERIODICIDADE_DIAS": 0}),
            "O campo Periodicidade (dias) deve ser maior ou igual a 1 ",
        ),
    ];
    for (name, v, msg) in cases {
        assert_eq!(
            create_err(&db, &res(name), &me, v.clone()).await,
            msg,
            "{name} {v}"
        );
    }

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let items = res("contratoseqpt");
    let cont = contract["CONT_ID"].to_string();
    let rows = action(
        &mut tx,
        &items,
        &me,
        "do_contrato",
        &[("contract", &cont), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("list");
    assert_eq!(rows[0]["CONTE_DESCRICAO"], json!("Linha 1"));
    let none = action(
        &mut tx,
        &items,
        &me,
        "do_contrato",
        &[("contract", "999"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("list");
    assert_eq!(none, json!([]));
}

#[tokio::test]
async fn equipment_images_upload_replace_and_delete_by_name() {
    let db = db().await;
    let me = caller(client());
    let img = res("equipamentosimg");
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    let eq = create(
        &mut tx,
        &res("equipamento"),
        &me,
        json!({"EQPT_SERIE": "SN-IMG"}),
    )
    .await;
    let id = eq["EQPT_ID"].to_string();
    let params = [("id", id.as_str()), ("emp", "1")];

    let first = action(&mut tx, &img, &me, "enviar", &params, upload("f1.png"))
        .await
        .expect("upload");
    assert_eq!(first["EQIM_IMAGEM"], json!("f1.png"));
    assert_eq!(first["EQIM_DESCRICAO"], json!("foto.png"));
    assert_eq!(first["EQIM_USR_ID"], json!(3));
    let mut replace = upload("f2.png");
    replace["EQIM_ID"] = json!(first["EQIM_ID"].to_string());
    let replaced = action(&mut tx, &img, &me, "enviar", &params, replace)
        .await
        .expect("replace");
    assert_eq!(replaced["EQIM_ID"], first["EQIM_ID"]);
    assert_eq!(replaced["EQIM_IMAGEM"], json!("f2.png"));
    assert_eq!(replaced["anterior"], json!("f1.png"));

    for i in 2..=12 {
        action(
            &mut tx,
            &img,
            &me,
            "enviar",
            &params,
            upload(&format!("g{i}.png")),
        )
        .await
        .expect("upload");
    }
    let e = action(&mut tx, &img, &me, "enviar", &params, upload("g13.png"))
        .await
        .expect_err("gallery limit");
    assert_eq!(
        e.public_message(),
        "O equipamento já tem 12 imagens; exclua uma antes de enviar outra."
    );

    let del = [("id", id.as_str()), ("emp", "1"), ("nome", "f2.png")];
    let gone = action(&mut tx, &img, &me, "excluir_arquivo", &del, json!({}))
        .await
        .expect("delete");
    assert_eq!(gone["arquivo"], json!("f2.png"));
    let e = action(&mut tx, &img, &me, "excluir_arquivo", &del, json!({}))
        .await
        .expect_err("already gone");
    assert_eq!(e.public_message(), "Imagem não encontrada.");
    action(&mut tx, &img, &me, "enviar", &params, upload("g13.png"))
        .await
        .expect("room again");
    let e = action(
        &mut tx,
        &img,
        &me,
        "enviar",
        &[("id", "999"), ("emp", "1")],
        upload("x.png"),
    )
    .await
    .expect_err("no equipment");
    assert_eq!(e.http_status(), 409, "the image needs its equipment");
}

#[tokio::test]
async fn type_services_are_addressed_by_pair() {
    let db = db().await;
    let me = caller(client());
    let teqs = res("tipoequipamentoserv");
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    create(&mut tx, &teqs, &me, json!({"TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 40, "TEQS_DESCRICAO": "Troca de óleo", "TEQS_PERIODICIDADE_DIAS": 180})).await;
    let pair = [("typeId", "1"), ("servId", "40")];
    let row = action(&mut tx, &teqs, &me, "consultar_par", &pair, json!({}))
        .await
        .expect("get");
    assert_eq!(row["TEQS_DESCRICAO"], json!("Troca de óleo"));
    action(&mut tx, &teqs, &me, "excluir_par", &pair, json!({}))
        .await
        .expect("delete");
    let e = action(&mut tx, &teqs, &me, "consultar_par", &pair, json!({}))
        .await
        .expect_err("gone");
    assert_eq!(
        e.public_message(),
        "Serviço não encontrado para o tipo de equipamento."
    );
    // Deleting a type takes its services along.
    create(
        &mut tx,
        &teqs,
        &me,
        json!({"TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 41, "TEQS_DESCRICAO": "Limpeza"}),
    )
    .await;
    query::delete(&mut tx, &res("tipoequipamento"), &me, None, &["1".into()])
        .await
        .expect("type");
    assert_eq!(
        query::count(&mut tx, &teqs, &me, None, &Map::new())
            .await
            .expect("count"),
        0
    );
}
