//! `GET /produtosinfreplicador/{PROD_ID}/{emp}` and
//! `GET /produtosgradereplicador/{PROD_ID}/{emp}`: a product's information rows and
//! grid replicated to the same product of the client's other companies, their
//! refusals, all or nothing on a failure midway, and another client's product out
//! of reach.

use std::collections::HashMap;

use erp_catalog::resources::products::{self, classification, replicate, sub_registers};
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use serde_json::{json, Value};
use sqlx::{Connection, Executor};

use super::{body, caller, client, db};

const BARCODE: &str = "7891000315507";
const VARIANT_BARCODE: &str = "7894900011517";

async fn make(tx: &mut Tx, res: &Resource, me: &Caller, emp: i64, v: Value) -> Value {
    query::create(tx, res, me, Some(emp), &body(v.clone()))
        .await
        .unwrap_or_else(|e| panic!("{} {v}: {e}", res.name))
}

async fn replicate(
    tx: &mut Tx,
    me: &Caller,
    res: &Resource,
    product: i64,
    emp: i64,
) -> erp_platform::Result<Value> {
    let a = res
        .actions
        .iter()
        .find(|a| a.name == "replicar")
        .expect("declared");
    let params: HashMap<String, String> =
        [("PROD_ID", product.to_string()), ("emp", emp.to_string())]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
    a.run(tx, res, me, Some(emp), &params, json!({})).await
}

async fn replicate_in(
    db: &Db,
    me: &Caller,
    res: &Resource,
    product: i64,
    emp: i64,
) -> erp_platform::Result<Value> {
    let mut tx = db.begin_tenant(me.client_id).await?;
    let out = replicate(&mut tx, me, res, product, emp).await?;
    tx.commit().await?;
    Ok(out)
}

async fn refusal(db: &Db, me: &Caller, res: &Resource, product: i64, emp: i64) -> (u16, String) {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let e = replicate(&mut tx, me, res, product, emp)
        .await
        .expect_err("refused");
    (e.http_status(), e.public_message())
}

fn done(emp: i64, prod: i64, created: u32, updated: u32, kept: u32) -> Value {
    json!({"EMP_ID": emp, "PROD_ID": prod, "INCLUIDOS": created, "ALTERADOS": updated, "MANTIDOS": kept})
}

/// (title, text) of a product's information rows, in id order.
async fn infos(db: &Db, me: &Caller, emp: i64, prod: i64) -> Vec<(String, String)> {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    sqlx::query_as(
        "SELECT proi_descricao, coalesce(proi_informacao, '') FROM catalog.produtosinf
          WHERE proi_emp_id = $1 AND proi_prod_id = $2 ORDER BY proi_id",
    )
    .bind(emp)
    .bind(prod)
    .fetch_all(&mut *tx)
    .await
    .expect("infos")
}

/// (size id, colour id, barcode, price) of a product's grid, in id order.
async fn grid(
    db: &Db,
    me: &Caller,
    emp: i64,
    prod: i64,
) -> Vec<(Option<i64>, Option<i64>, Option<String>, Option<String>)> {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    sqlx::query_as(
        "SELECT prgr_tam_id, prgr_cor_id, prgr_cbar, prgr_valor::text FROM catalog.produtosgrade
          WHERE prgr_emp_id = $1 AND prgr_prod_id = $2 ORDER BY prgr_id",
    )
    .bind(emp)
    .bind(prod)
    .fetch_all(&mut *tx)
    .await
    .expect("grid")
}

struct Products {
    /// The product in companies 1, 2 and 3 (same barcode; ids 1, 2 and 1).
    one: i64,
    two: i64,
    three: i64,
}

/// Companies 1 to 3, each with a unit and the size GG (company 3's is its second
/// size), the colour AZUL, and the same product (by barcode) in each; company 2
/// numbers it 2.
async fn companies(tx: &mut Tx, me: &Caller) -> Products {
    make(
        tx,
        &classification::cor(),
        me,
        1,
        json!({"COR_DESCRICAO": "AZUL"}),
    )
    .await;
    make(
        tx,
        &classification::tamanho(),
        me,
        3,
        json!({"TAM_DESCRICAO": "P"}),
    )
    .await;
    let prod = products::produtos();
    let mut ids = Vec::new();
    for emp in 1..=3 {
        make(
            tx,
            &classification::unidade(),
            me,
            emp,
            json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
        )
        .await;
        make(
            tx,
            &classification::tamanho(),
            me,
            emp,
            json!({"TAM_DESCRICAO": "GG"}),
        )
        .await;
        if emp == 2 {
            make(
                tx,
                &prod,
                me,
                emp,
                json!({"PROD_DESCRICAO": "OUTRO", "PROD_UNID_ID": 1}),
            )
            .await;
        }
        let p = make(
            tx,
            &prod,
            me,
            emp,
            json!({"PROD_DESCRICAO": "PARAFUSO", "PROD_UNID_ID": 1, "PROD_CBAR": BARCODE}),
        )
        .await;
        ids.push(p["PROD_ID"].as_i64().expect("id"));
    }
    Products { one: ids[0], two: ids[1], three: ids[2] }
}

#[tokio::test]
async fn information_rows_merge_into_the_same_product_elsewhere() {
    let db = db().await;
    let me = caller(client());
    let inf = sub_registers::produtosinf();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    assert_eq!((p.one, p.two, p.three), (1, 2, 1));
    for (title, text) in [("GARANTIA", "12 meses"), ("APLICAÇÃO", "Madeira")] {
        make(
            &mut tx,
            &inf,
            &me,
            1,
            json!({"PROI_PROD_ID": p.one, "PROI_DESCRICAO": title, "PROI_INFORMACAO": text}),
        )
        .await;
    }
    for (title, text) in [("Garantia", "6 meses"), ("OUTRA", "fica")] {
        make(
            &mut tx,
            &inf,
            &me,
            2,
            json!({"PROI_PROD_ID": p.two, "PROI_DESCRICAO": title, "PROI_INFORMACAO": text}),
        )
        .await;
    }
    tx.commit().await.expect("commit");

    let out = replicate_in(&db, &me, &inf, p.one, 1)
        .await
        .expect("replicated");
    assert_eq!(out, json!([done(2, 2, 1, 1, 0), done(3, 1, 2, 0, 0)]));
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        infos(&db, &me, 2, p.two).await,
        pairs(&[
            ("GARANTIA", "12 meses"),
            ("OUTRA", "fica"),
            ("APLICAÇÃO", "Madeira")
        ]),
        "paired by title, the target's own row kept"
    );
    assert_eq!(
        infos(&db, &me, 3, p.three).await,
        pairs(&[("GARANTIA", "12 meses"), ("APLICAÇÃO", "Madeira")])
    );
    let again = replicate_in(&db, &me, &inf, p.one, 1).await.expect("again");
    assert_eq!(again, json!([done(2, 2, 0, 0, 2), done(3, 1, 0, 0, 2)]));
}

#[tokio::test]
async fn the_grid_goes_with_each_companys_sizes() {
    let db = db().await;
    let me = caller(client());
    let grade = sub_registers::produtosgrade();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    let blue = make(
        &mut tx,
        &grade,
        &me,
        1,
        json!({"PRGR_PROD_ID": p.one, "PRGR_TAM_ID": 1, "PRGR_COR_ID": 1, "PRGR_CBAR": VARIANT_BARCODE, "PRGR_VALOR": "0.80"}),
    )
    .await;
    make(
        &mut tx,
        &grade,
        &me,
        1,
        json!({"PRGR_PROD_ID": p.one, "PRGR_TAM_ID": 1}),
    )
    .await;
    tx.commit().await.expect("commit");

    let out = replicate_in(&db, &me, &grade, p.one, 1)
        .await
        .expect("replicated");
    assert_eq!(out, json!([done(2, 2, 2, 0, 0), done(3, 1, 2, 0, 0)]));
    let variant = |size: i64, colour: Option<i64>, barcode: Option<&str>, price: Option<&str>| {
        (
            Some(size),
            colour,
            barcode.map(String::from),
            price.map(String::from),
        )
    };
    assert_eq!(
        grid(&db, &me, 2, p.two).await,
        [
            variant(1, Some(1), Some(VARIANT_BARCODE), Some("0.80")),
            variant(1, None, None, None)
        ]
    );
    assert_eq!(
        grid(&db, &me, 3, p.three).await,
        [
            variant(2, Some(1), Some(VARIANT_BARCODE), Some("0.80")),
            variant(2, None, None, None)
        ],
        "company 3's GG"
    );

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    query::update(
        &mut tx,
        &grade,
        &me,
        Some(1),
        &[blue["PRGR_ID"].to_string()],
        &body(json!({"PRGR_VALOR": "0.85"})),
    )
    .await
    .expect("price");
    tx.commit().await.expect("commit");
    let again = replicate_in(&db, &me, &grade, p.one, 1)
        .await
        .expect("again");
    assert_eq!(again, json!([done(2, 2, 0, 1, 1), done(3, 1, 0, 1, 1)]));
    assert_eq!(
        grid(&db, &me, 3, p.three).await[0].3.as_deref(),
        Some("0.85")
    );
}

#[tokio::test]
async fn refusals_name_the_company_and_change_nothing() {
    let db = db().await;
    let me = caller(client());
    let (inf, grade, prod) = (
        sub_registers::produtosinf(),
        sub_registers::produtosgrade(),
        products::produtos(),
    );
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    // Known by reference in companies 1 and 2 only; known nowhere else at all.
    let by_ref = make(
        &mut tx,
        &prod,
        &me,
        1,
        json!({"PROD_DESCRICAO": "ARRUELA", "PROD_UNID_ID": 1, "PROD_REFERENCIA": "ARR-9"}),
    )
    .await;
    make(
        &mut tx,
        &prod,
        &me,
        2,
        json!({"PROD_DESCRICAO": "ARRUELA 2", "PROD_UNID_ID": 1, "PROD_REFERENCIA": " arr-9 "}),
    )
    .await;
    let only_here = make(
        &mut tx,
        &prod,
        &me,
        1,
        json!({"PROD_DESCRICAO": "PREGO", "PROD_UNID_ID": 1, "PROD_CBAR": "7891234567895"}),
    )
    .await;
    let no_code = make(
        &mut tx,
        &prod,
        &me,
        1,
        json!({"PROD_DESCRICAO": "SEM CÓDIGO", "PROD_UNID_ID": 1}),
    )
    .await;
    make(
        &mut tx,
        &classification::tamanho(),
        &me,
        1,
        json!({"TAM_DESCRICAO": "XG"}),
    )
    .await;
    make(
        &mut tx,
        &grade,
        &me,
        1,
        json!({"PRGR_PROD_ID": p.one, "PRGR_TAM_ID": 2}),
    )
    .await;
    make(
        &mut tx,
        &inf,
        &me,
        1,
        json!({"PROI_PROD_ID": p.one, "PROI_DESCRICAO": "GARANTIA"}),
    )
    .await;
    tx.commit().await.expect("commit");
    let id = |v: &Value| v["PROD_ID"].as_i64().expect("id");

    assert_eq!(
        refusal(&db, &me, &inf, 99, 1).await,
        (404, replicate::MISSING.into())
    );
    assert_eq!(
        refusal(&db, &me, &inf, id(&no_code), 1).await,
        (400, replicate::NO_CODE.into())
    );
    assert_eq!(
        refusal(&db, &me, &inf, id(&by_ref), 1).await,
        (
            409,
            "O produto de referência ARR-9 não está cadastrado na empresa 3: nada foi replicado."
                .into()
        )
    );
    assert_eq!(
        refusal(&db, &me, &grade, id(&only_here), 1).await,
        (409, "O produto de código de barras 7891234567895 não está cadastrado nas empresas 2, 3: nada foi replicado.".into())
    );
    assert_eq!(
        refusal(&db, &me, &grade, p.one, 1).await,
        (
            409,
            "Empresa 2: o tamanho XG não está cadastrado: nada foi replicado.".into()
        )
    );
    assert_eq!(
        refusal(&db, &me, &inf, p.two, 2).await,
        (400, replicate::NO_INFO.into())
    );
    assert_eq!(
        refusal(&db, &me, &grade, p.two, 2).await,
        (400, replicate::NO_GRID.into())
    );
    let alone = caller(client());
    let mut tx = db.begin_tenant(alone.client_id).await.expect("tx");
    make(
        &mut tx,
        &classification::unidade(),
        &alone,
        1,
        json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
    )
    .await;
    let single = make(
        &mut tx,
        &prod,
        &alone,
        1,
        json!({"PROD_DESCRICAO": "ÚNICO", "PROD_UNID_ID": 1, "PROD_CBAR": BARCODE}),
    )
    .await;
    tx.commit().await.expect("commit");
    assert_eq!(
        refusal(&db, &alone, &inf, id(&single), 1).await,
        (400, replicate::NO_COMPANIES.into())
    );

    assert!(infos(&db, &me, 2, p.two).await.is_empty());
    assert!(grid(&db, &me, 2, p.two).await.is_empty());
}

#[tokio::test]
async fn a_conflict_in_a_later_company_undoes_the_earlier_ones() {
    let db = db().await;
    let me = caller(client());
    let grade = sub_registers::produtosgrade();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    make(
        &mut tx,
        &grade,
        &me,
        1,
        json!({"PRGR_PROD_ID": p.one, "PRGR_TAM_ID": 1, "PRGR_CBAR": VARIANT_BARCODE}),
    )
    .await;
    make(
        &mut tx,
        &grade,
        &me,
        1,
        json!({"PRGR_PROD_ID": p.one, "PRGR_COR_ID": 1}),
    )
    .await;
    // Company 3 already uses the variant's barcode on another product's grid.
    let other = make(
        &mut tx,
        &products::produtos(),
        &me,
        3,
        json!({"PROD_DESCRICAO": "OUTRO", "PROD_UNID_ID": 1}),
    )
    .await;
    make(
        &mut tx,
        &grade,
        &me,
        3,
        json!({"PRGR_PROD_ID": other["PROD_ID"], "PRGR_CBAR": VARIANT_BARCODE}),
    )
    .await;
    tx.commit().await.expect("commit");

    assert_eq!(
        refusal(&db, &me, &grade, p.one, 1).await,
        (
            409,
            "Empresa 3: Código de barras já cadastrado em outra variação da grade.".into()
        )
    );
    assert!(
        grid(&db, &me, 2, p.two).await.is_empty(),
        "company 2 written first, undone"
    );
    assert!(grid(&db, &me, 3, p.three).await.is_empty());
}

#[tokio::test]
async fn a_failure_midway_leaves_every_company_as_it_was() {
    let db = db().await;
    let me = caller(client());
    let inf = sub_registers::produtosinf();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    make(
        &mut tx,
        &inf,
        &me,
        1,
        json!({"PROI_PROD_ID": p.one, "PROI_DESCRICAO": "GARANTIA", "PROI_INFORMACAO": "1 ano"}),
    )
    .await;
    make(
        &mut tx,
        &inf,
        &me,
        2,
        json!({"PROI_PROD_ID": p.two, "PROI_DESCRICAO": "GARANTIA", "PROI_INFORMACAO": "6 meses"}),
    )
    .await;
    tx.commit().await.expect("commit");

    // Company 3's insert fails, for this client only, after company 2 was updated.
    let cfg = crate::setup().await;
    let mut admin = sqlx::PgConnection::connect(&cfg.database_url)
        .await
        .expect("admin");
    let trigger = format!("it_fail_info_{}", me.client_id);
    admin
        .execute(
            format!(
                "CREATE FUNCTION catalog.{trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN RAISE EXCEPTION 'falha injetada' USING ERRCODE = '23514'; END $$;
                 CREATE TRIGGER {trigger} BEFORE INSERT ON catalog.produtosinf FOR EACH ROW
                   WHEN (NEW.client_id = {c} AND NEW.proi_emp_id = 3) EXECUTE FUNCTION catalog.{trigger}();",
                c = me.client_id
            )
            .as_str(),
        )
        .await
        .expect("trigger");
    let refused = refusal(&db, &me, &inf, p.one, 1).await;
    admin
        .execute(
            format!(
                "DROP TRIGGER {trigger} ON catalog.produtosinf; DROP FUNCTION catalog.{trigger}();"
            )
            .as_str(),
        )
        .await
        .expect("drop trigger");
    assert_eq!(
        refused,
        (400, "Empresa 3: Valor não permitido para o campo.".into())
    );
    assert_eq!(
        infos(&db, &me, 2, p.two).await,
        [("GARANTIA".to_string(), "6 meses".to_string())],
        "company 2 as it was"
    );
    assert!(infos(&db, &me, 3, p.three).await.is_empty());
}

#[tokio::test]
async fn another_clients_product_is_out_of_reach() {
    let db = db().await;
    let owner = caller(client());
    let inf = sub_registers::produtosinf();
    let mut tx = db.begin_tenant(owner.client_id).await.expect("tx");
    let p = companies(&mut tx, &owner).await;
    make(
        &mut tx,
        &inf,
        &owner,
        1,
        json!({"PROI_PROD_ID": p.one, "PROI_DESCRICAO": "GARANTIA"}),
    )
    .await;
    tx.commit().await.expect("commit");

    let stranger = caller(client());
    assert_eq!(
        refusal(&db, &stranger, &inf, p.one, 1).await,
        (404, replicate::MISSING.into())
    );
    assert!(infos(&db, &owner, 2, p.two).await.is_empty());
    assert!(infos(&db, &owner, 3, p.three).await.is_empty());
}

/// A user of companies 1 and 2 replicates into 2 only: company 3, which the
/// client has but the user does not, is left alone.
#[tokio::test]
async fn only_the_callers_companies_receive_a_replication() {
    let db = db().await;
    let me = caller(client());
    let inf = sub_registers::produtosinf();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = companies(&mut tx, &me).await;
    make(
        &mut tx,
        &inf,
        &me,
        1,
        json!({"PROI_PROD_ID": p.one, "PROI_DESCRICAO": "GARANTIA", "PROI_INFORMACAO": "12 meses"}),
    )
    .await;
    let a = inf
        .actions
        .iter()
        .find(|a| a.name == "replicar")
        .expect("declared");
    let params: HashMap<String, String> = [
        ("PROD_ID".to_string(), p.one.to_string()),
        ("emp".into(), "1".into()),
    ]
    .into();
    let mut cx = erp_platform::resource::call::Ctx::new(&mut tx, &inf, &me, Some(1))
        .for_companies(vec![1, 2]);
    let reply = a
        .handler
        .run(&mut cx, &params, &json!({}))
        .await
        .expect("replicated");
    let out: Value = serde_json::from_slice(&reply.json).expect("json");
    assert_eq!(out, json!([done(2, 2, 1, 0, 0)]));
    tx.commit().await.expect("commit");
    assert!(
        infos(&db, &me, 3, p.three).await.is_empty(),
        "company 3 untouched"
    );
}
