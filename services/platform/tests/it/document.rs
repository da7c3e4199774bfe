//! A document declared only by its descriptors (`docs` with product and service
//! lines, tests/it/migrations): the engine computes its totals from the lines,
//! refuses changes once it is issued, stamps its creator, fills lines from the item
//! source, merges and duplicates it, and replaces its image.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::document::{copy, ops, ItemInfo, ItemSource, LineKind};
use erp_platform::resource::images::{RemoveImage, ReplaceImage};
use erp_platform::resource::{
    query, ActionHandler, Button, Call, DbType, Document, Field, Kind, Lines, Resource, Role, Total,
};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use crate::{client, db};

const ISSUED: &str = "Documento emitido não pode ser alterado.";
const MISSING: &str = "Documento não encontrado.";
const LOCKED: &str = "Produtos baixados do estoque não podem ser alterados.";

/// Items 1 and 2 exist (products and services alike); anything else does not.
struct Items;

#[async_trait]
impl ItemSource for Items {
    async fn item(
        &self,
        _tx: &mut Tx,
        kind: LineKind,
        _client: i64,
        _emp: i64,
        id: i64,
    ) -> erp_platform::Result<Option<ItemInfo>> {
        let name = match kind {
            LineKind::Product => "Parafuso",
            LineKind::Service => "Mão de obra",
        };
        Ok((id <= 2).then(|| ItemInfo {
            description: format!("{name} {id}"),
            unit_name: Some("UN".into()),
            price: Decimal::from_str(if id == 1 { "12.50" } else { "3.333" }).ok(),
        }))
    }
}

/// The test document's transition: an open document becomes issued.
struct Emit;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EmitIn {
    #[serde(rename = "DOC_ID")]
    id: i64,
}

#[async_trait::async_trait]
impl erp_platform::resource::call::Operation for Emit {
    type In = EmitIn;
    type Out = erp_platform::resource::call::Done;
    async fn run(
        &self,
        cx: &mut erp_platform::resource::call::Ctx<'_>,
        i: EmitIn,
    ) -> erp_platform::Result<Self::Out> {
        let emp = cx.emp()?;
        let done = sqlx::query(
            "UPDATE plat_it.docs SET doc_situacao = 'F' WHERE client_id = $1 AND doc_emp_id = $2 AND doc_id = $3 AND doc_situacao = 'A'",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(i.id)
        .execute(&mut **cx.tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(erp_platform::Error::Conflict(
                "Documento já emitido.".into(),
            ));
        }
        Ok(erp_platform::resource::call::Done::ok("Documento emitido."))
    }
}

fn header() -> Resource {
    Resource::new("docs", "Documentos", "plat_it", "docs", "docs")
        .screen("/docs")
        .key(&["DOC_ID"])
        .company("DOC_EMP_ID")
        .label("DOC_CLIENTE")
        .order("DOC_ID DESC")
        .call(
            "PUT",
            "/docs/emitir/{DOC_ID}/{emp}",
            "emitir",
            erp_platform::resource::ActionPerm::Update,
            "Emitir",
            Emit,
        )
        .button(Button::new("Emitir").open_when(&["A"]).confirm(
            "Emitir",
            "Emitir o documento {DOC_ID}?",
            "Emitir",
        ))
        .fields(vec![
            Field::id("DOC_ID", "Número"),
            Field::int("DOC_EMP_ID", "Empresa"),
            Field::text("DOC_CLIENTE", "Cliente").required().len(100),
            Field::date("DOC_DATA", "Data"),
            Field::textarea("DOC_OBS", "Observações").len(500),
            Field::money("DOC_ACRESCIMO", "Acréscimo do documento").role(Role::ExtraSurcharge),
            Field::money("DOC_VLR_PROD", "Produtos").total(Total::Products),
            Field::money("DOC_VLR_SERV", "Serviços").total(Total::Services),
            Field::money("DOC_VLR_ACRE", "Acréscimos").total(Total::Surcharges),
            Field::money("DOC_VLR_FRETE", "Frete").total(Total::Freight),
            Field::money("DOC_VLR_DESC", "Descontos").total(Total::Discounts),
            Field::money("DOC_VLR_TOTAL", "Total").total(Total::Grand),
            Field::options(
                "DOC_SITUACAO",
                "Situação",
                DbType::Text,
                &[("A", "Aberto"), ("F", "Emitido")],
            )
            .read_only(),
            Field::int("DOC_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::upload("DOC_IMAGEM", "Imagem", &["png"]),
            Field::boolean("DOC_BAIXADO", "Estoque baixado").read_only(),
        ])
}

fn products() -> Resource {
    Resource::new(
        "docprodutos",
        "Produtos do Documento",
        "plat_it",
        "doc_produtos",
        "docs",
    )
    .key(&["DP_DOC_ID", "DP_ITEM"])
    .seq_key()
    .company("DP_EMP_ID")
    .label("DP_DESCRICAO")
    .order("DP_ITEM")
    .fields(vec![
        Field::int("DP_DOC_ID", "Documento").required(),
        Field::int("DP_EMP_ID", "Empresa"),
        Field::int("DP_ITEM", "Item").read_only(),
        Field::reference("DP_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .role(Role::Item),
        Field::text("DP_DESCRICAO", "Descrição")
            .len(200)
            .role(Role::Description),
        Field::decimal("DP_QTDE", "Quantidade")
            .scale(4)
            .required()
            .role(Role::Quantity),
        Field::money("DP_VLR_UNIT", "Unitário")
            .scale(4)
            .role(Role::UnitPrice),
        Field::money("DP_VLR_DESC", "Desconto").role(Role::Discount),
        Field::money("DP_VLR_FRETE", "Frete").role(Role::Freight),
        Field::money("DP_VLR_TOTAL", "Total").role(Role::LineTotal),
    ])
}

fn services() -> Resource {
    Resource::new(
        "docservicos",
        "Serviços do Documento",
        "plat_it",
        "doc_servicos",
        "docs",
    )
    .key(&["DS_DOC_ID", "DS_ITEM"])
    .seq_key()
    .company("DS_EMP_ID")
    .label("DS_DESCRICAO")
    .order("DS_ITEM")
    .fields(vec![
        Field::int("DS_DOC_ID", "Documento").required(),
        Field::int("DS_EMP_ID", "Empresa"),
        Field::int("DS_ITEM", "Item").read_only(),
        Field::reference("DS_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .role(Role::Item),
        Field::text("DS_DESCRICAO", "Descrição")
            .len(200)
            .role(Role::Description),
        Field::decimal("DS_QTDE", "Quantidade")
            .scale(4)
            .required()
            .role(Role::Quantity),
        Field::money("DS_VLR_UNIT", "Unitário")
            .scale(4)
            .role(Role::UnitPrice),
        Field::money("DS_VLR_ACRE", "Acréscimo").role(Role::Surcharge),
        Field::money("DS_VLR_TOTAL", "Total").role(Role::LineTotal),
    ])
}

fn document() -> Vec<Resource> {
    Document::new(header())
        .status("DOC_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("F", "done")])
        .missing(MISSING)
        .date("DOC_DATA")
        .items(Arc::new(Items))
        .line(
            products(),
            Lines::products(&["DP_DOC_ID"])
                .editable(&[Role::Quantity, Role::Discount])
                .locked_by("DOC_BAIXADO", LOCKED),
        )
        .line(services(), Lines::services(&["DS_DOC_ID"]))
        .build()
        .expect("the document holds together")
}

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap_or_default()
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn caller(c: i64, user: i64) -> Caller {
    Caller { client_id: c, user_id: user, emp_id: 1, privileged: false }
}

fn dec(v: &Value) -> Decimal {
    erp_platform::resource::params::dec(v).unwrap_or_default()
}

/// (products, services, surcharges, freight, discounts, total) of a header row.
fn totals(row: &Value) -> [Decimal; 6] {
    [
        "DOC_VLR_PROD",
        "DOC_VLR_SERV",
        "DOC_VLR_ACRE",
        "DOC_VLR_FRETE",
        "DOC_VLR_DESC",
        "DOC_VLR_TOTAL",
    ]
    .map(|k| dec(&row[k]))
}

struct Docs {
    header: Resource,
    products: Resource,
    services: Resource,
}

fn docs() -> Docs {
    let mut all = document().into_iter();
    let (Some(header), Some(products), Some(services)) = (all.next(), all.next(), all.next())
    else {
        panic!("header and two kinds of lines");
    };
    Docs { header, products, services }
}

#[tokio::test]
async fn totals_follow_the_lines_and_an_issued_document_refuses_changes() {
    let db = db().await;
    let (c, me) = {
        let c = client();
        (c, caller(c, 7))
    };
    let x = docs();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    // The creator is stamped; a body cannot choose it.
    let h = query::create(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &body(json!({"DOC_CLIENTE": "Oficina", "DOC_USR_ID": 99})),
    )
    .await
    .expect("header");
    assert_eq!(h["DOC_USR_ID"], json!(7));
    let id = h["DOC_ID"].as_i64().expect("id");
    // Products: 3 x 19.90 = 59.70 - 4.70 discount, freight 15; 0.125 x 39.99 =
    // 4.99875 -> 5.00. Service: 1.5 x 80 = 120 + 10 surcharge.
    // total = 59.70 + 5.00 + 120 + 10 + 15 - 4.70 = 205.00
    for line in [
        json!({"DP_DOC_ID": id, "DP_PROD_ID": 1, "DP_QTDE": "3", "DP_VLR_UNIT": "19.90", "DP_VLR_DESC": "4.70", "DP_VLR_FRETE": "15"}),
        json!({"DP_DOC_ID": id, "DP_PROD_ID": 2, "DP_QTDE": "0.125", "DP_VLR_UNIT": "39.99"}),
    ] {
        query::create(&mut tx, &x.products, &me, Some(1), &body(line))
            .await
            .expect("product line");
    }
    let s = query::create(&mut tx, &x.services, &me, Some(1), &body(json!({"DS_DOC_ID": id, "DS_SERV_ID": 1, "DS_QTDE": "1.5", "DS_VLR_UNIT": "80", "DS_VLR_ACRE": "10"})))
        .await
        .expect("service line");
    assert_eq!(dec(&s["DS_VLR_TOTAL"]), d("130.00"), "the line's net value");
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id.to_string()])
        .await
        .expect("get");
    assert_eq!(
        totals(&h),
        [
            d("64.70"),
            d("120.00"),
            d("10.00"),
            d("15.00"),
            d("4.70"),
            d("205.00")
        ]
    );
    // A quantity change, the header's own surcharge, a deleted line: the totals follow.
    query::update(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &[id.to_string(), "1".into()],
        &body(json!({"DP_QTDE": "2"})),
    )
    .await
    .expect("edit line");
    let h = query::update(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &[id.to_string()],
        &body(json!({"DOC_ACRESCIMO": "2.345"})),
    )
    .await;
    assert_eq!(
        h.err().map(|e| e.to_string()),
        Some("O campo Acréscimo do documento aceita no máximo 2 casas decimais.".into())
    );
    query::update(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &[id.to_string()],
        &body(json!({"DOC_ACRESCIMO": "2.35"})),
    )
    .await
    .expect("header surcharge");
    query::delete(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &[id.to_string(), "2".into()],
    )
    .await
    .expect("delete line");
    // 2 x 19.90 = 39.80 - 4.70, freight 15; service 120 + 10; surcharge 2.35
    // -> 39.80 + 120 + 12.35 + 15 - 4.70 = 182.45
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id.to_string()])
        .await
        .expect("get");
    assert_eq!(
        totals(&h),
        [
            d("39.80"),
            d("120.00"),
            d("12.35"),
            d("15.00"),
            d("4.70"),
            d("182.45")
        ]
    );
    // A line the arithmetic cannot take is refused with its message.
    let e = query::create(&mut tx, &x.products, &me, Some(1), &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 1, "DP_QTDE": "1", "DP_VLR_UNIT": "10", "DP_VLR_DESC": "10.01"})))
        .await
        .expect_err("discount above the value");
    assert_eq!(
        e.to_string(),
        "O desconto não pode ser maior que o valor do item."
    );
    tx.commit().await.expect("commit");

    // Issued by its typed transition (path parameters read into its input): every
    // change is refused with the document's message, and nothing changes.
    let emit = x
        .header
        .actions
        .iter()
        .find(|a| a.name == "emitir")
        .expect("declared");
    let params: std::collections::HashMap<String, String> = [
        ("DOC_ID".to_string(), id.to_string()),
        ("emp".into(), "1".into()),
    ]
    .into();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let out = emit
        .run(&mut tx, &x.header, &me, Some(1), &params, json!({}))
        .await
        .expect("issue");
    assert_eq!(out, json!({"code": 200, "msg": "Documento emitido."}));
    let again = emit
        .run(&mut tx, &x.header, &me, Some(1), &params, json!({}))
        .await;
    assert_eq!(
        again.err().map(|e| e.to_string()).as_deref(),
        Some("Documento já emitido.")
    );
    let bad: std::collections::HashMap<String, String> =
        [("DOC_ID".to_string(), "x".to_string())].into();
    let refused = emit
        .run(&mut tx, &x.header, &me, Some(1), &bad, json!({}))
        .await;
    assert_eq!(
        refused.err().map(|e| e.to_string()).as_deref(),
        Some("Parâmetro DOC_ID inválido.")
    );
    tx.commit().await.expect("commit");
    for what in [
        "header",
        "new line",
        "line edit",
        "line delete",
        "header delete",
    ] {
        let mut tx = db.begin_tenant(c).await.expect("tx");
        let key = [id.to_string()];
        let line = [id.to_string(), "1".into()];
        let r = match what {
            "header" => {
                query::update(
                    &mut tx,
                    &x.header,
                    &me,
                    Some(1),
                    &key,
                    &body(json!({"DOC_OBS": "x"})),
                )
                .await
            }
            "new line" => {
                query::create(
                    &mut tx,
                    &x.products,
                    &me,
                    Some(1),
                    &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 1, "DP_QTDE": "1"})),
                )
                .await
            }
            "line edit" => {
                query::update(
                    &mut tx,
                    &x.products,
                    &me,
                    Some(1),
                    &line,
                    &body(json!({"DP_QTDE": "9"})),
                )
                .await
            }
            "line delete" => query::delete(&mut tx, &x.products, &me, Some(1), &line).await,
            _ => query::delete(&mut tx, &x.header, &me, Some(1), &key).await,
        };
        let e = r.expect_err(what);
        assert_eq!(
            (e.http_status(), e.to_string()),
            (409, ISSUED.to_string()),
            "{what}"
        );
    }
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id.to_string()])
        .await
        .expect("get");
    assert_eq!(dec(&h["DOC_VLR_TOTAL"]), d("182.45"));
    assert!(h["DOC_OBS"].is_null());
    // A line of a document that does not exist: the document's message.
    let e = query::create(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &body(json!({"DP_DOC_ID": id + 1000, "DP_PROD_ID": 1, "DP_QTDE": "1"})),
    )
    .await
    .expect_err("missing header");
    assert_eq!((e.http_status(), e.to_string()), (404, MISSING.to_string()));
}

#[tokio::test]
async fn lines_take_their_item_and_merge_and_a_copy_is_a_new_open_document() {
    let db = db().await;
    let c = client();
    let me = caller(c, 3);
    let x = docs();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let h = query::create(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &body(
            json!({"DOC_CLIENTE": "Distribuidora", "DOC_DATA": "2020-01-01", "DOC_OBS": "urgente"}),
        ),
    )
    .await
    .expect("header");
    let id = h["DOC_ID"].as_i64().expect("id");
    // Without description and price, the item source gives them.
    let l = query::create(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 1, "DP_QTDE": "2"})),
    )
    .await
    .expect("line from the item");
    assert_eq!(
        (
            l["DP_DESCRICAO"].clone(),
            dec(&l["DP_VLR_UNIT"]),
            dec(&l["DP_VLR_TOTAL"])
        ),
        (json!("Parafuso 1"), d("12.50"), d("25.00"))
    );
    tx.commit().await.expect("commit");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let e = query::create(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 9, "DP_QTDE": "1"})),
    )
    .await
    .expect_err("unknown item");
    assert_eq!(e.to_string(), "Produto não encontrado.");
    drop(tx);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    for q in ["3", "1.5"] {
        query::create(
            &mut tx,
            &x.products,
            &me,
            Some(1),
            &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 2, "DP_QTDE": q, "DP_VLR_DESC": "1"})),
        )
        .await
        .expect("line");
    }
    query::create(
        &mut tx,
        &x.services,
        &me,
        Some(1),
        &body(json!({"DS_DOC_ID": id, "DS_SERV_ID": 2, "DS_QTDE": "3"})),
    )
    .await
    .expect("service");
    // Merge the two lines of product 2: 4.5 x 3.333 = 14.9985 -> 15.00, less 2.00.
    let def = x
        .header
        .document
        .as_ref()
        .map(|d| d.def.clone())
        .expect("document");
    let (n, kept) = ops::merge(
        &mut tx,
        &def,
        0,
        &me,
        Some(1),
        &[id.to_string()],
        (2, "Produto não encontrado no documento."),
    )
    .await
    .expect("merge");
    assert_eq!((n, kept), (2, vec![id.to_string(), "2".to_string()]));
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id.to_string()])
        .await
        .expect("get");
    // 25.00 + 15.00 products; 3 x 3.333 = 9.999 -> 10.00 service; less 2.00.
    assert_eq!(
        totals(&h),
        [
            d("40.00"),
            d("10.00"),
            d("0"),
            d("0"),
            d("2.00"),
            d("48.00")
        ]
    );
    tx.commit().await.expect("commit");

    // Duplicate: a new number, open, dated today, the user's fields and every line.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE plat_it.docs SET doc_situacao = 'F' WHERE doc_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .expect("issue");
    let copy = copy::duplicate(
        &mut tx,
        &x.header,
        &caller(c, 8),
        Some(1),
        &[id.to_string()],
        Map::new(),
    )
    .await
    .expect("duplicate");
    let today: String =
        sqlx::query_scalar("SELECT ((now() AT TIME ZONE 'America/Sao_Paulo')::date)::text")
            .fetch_one(&mut *tx)
            .await
            .expect("today");
    assert_ne!(copy["DOC_ID"], json!(id));
    assert_eq!(
        (
            copy["DOC_SITUACAO"].clone(),
            copy["DOC_CLIENTE"].clone(),
            copy["DOC_OBS"].clone(),
            copy["DOC_DATA"].clone(),
            copy["DOC_USR_ID"].clone()
        ),
        (
            json!("A"),
            json!("Distribuidora"),
            json!("urgente"),
            json!(today),
            json!(8)
        )
    );
    assert_eq!(totals(&copy), totals(&h), "same lines, same totals");
    let mut filter = Map::new();
    filter.insert("DP_DOC_ID".into(), copy["DOC_ID"].clone());
    let lines = query::list(&mut tx, &x.products, &me, Some(1), &filter)
        .await
        .expect("lines");
    let got: Vec<(Value, Decimal, Decimal)> = lines
        .iter()
        .map(|l| {
            (
                l["DP_DESCRICAO"].clone(),
                dec(&l["DP_QTDE"]),
                dec(&l["DP_VLR_TOTAL"]),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (json!("Parafuso 1"), d("2"), d("25.00")),
            (json!("Parafuso 2"), d("4.5"), d("13.00"))
        ]
    );
}

#[tokio::test]
async fn an_image_column_is_replaced_and_removed_and_the_metadata_describes_the_document() {
    let db = db().await;
    let c = client();
    let me = caller(c, 1);
    let x = docs();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let h = query::create(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &body(json!({"DOC_CLIENTE": "Loja"})),
    )
    .await
    .expect("header");
    let id = h["DOC_ID"].as_i64().expect("id").to_string();
    let params: HashMap<String, String> = [("id".to_string(), id.clone())].into_iter().collect();
    let replace = ReplaceImage { field: "DOC_IMAGEM", key_params: &["id"], missing: MISSING };
    let upload = |name: &str| json!({"arquivo": {"nome": name, "original": "logo.png", "url": format!("/uploads/1/{name}")}});
    let first = replace
        .run(
            &mut tx,
            Call {
                res: &x.header,
                caller: &me,
                emp: Some(1),
                params: &params,
                body: upload("a.png"),
            },
        )
        .await
        .expect("first");
    assert_eq!(
        (first["DOC_IMAGEM"].clone(), first["anterior"].clone()),
        (json!("a.png"), Value::Null)
    );
    let second = replace
        .run(
            &mut tx,
            Call {
                res: &x.header,
                caller: &me,
                emp: Some(1),
                params: &params,
                body: upload("b.png"),
            },
        )
        .await
        .expect("second");
    assert_eq!(
        (
            second["DOC_IMAGEM"].clone(),
            second["anterior"].clone(),
            second["url"].clone()
        ),
        (json!("b.png"), json!("a.png"), json!("/uploads/1/b.png"))
    );
    let remove = RemoveImage { field: "DOC_IMAGEM", key_params: &["id"], name_param: "name" };
    let mut p = params.clone();
    p.insert("name".into(), "a.png".into());
    // A stale name removes nothing (the query found no row; the transaction goes on).
    match remove
        .run(
            &mut tx,
            Call { res: &x.header, caller: &me, emp: Some(1), params: &p, body: json!({}) },
        )
        .await
    {
        Err(erp_platform::Error::NotFound(m)) => assert_eq!(m, "Imagem não encontrada."),
        other => panic!("a stale name must not remove the image: {other:?}"),
    }
    p.insert("name".into(), "b.png".into());
    let gone = remove
        .run(
            &mut tx,
            Call { res: &x.header, caller: &me, emp: Some(1), params: &p, body: json!({}) },
        )
        .await
        .expect("remove");
    assert_eq!(
        (gone["arquivo"].clone(), gone["DOC_IMAGEM"].clone()),
        (json!("b.png"), Value::Null)
    );
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id])
        .await
        .expect("get");
    assert!(h["DOC_IMAGEM"].is_null());

    // What the web client renders the screen from.
    let meta = x.header.meta();
    let doc = &meta["document"];
    assert_eq!(doc["status"]["field"], "DOC_SITUACAO");
    assert_eq!(doc["status"]["open"], json!(["A"]));
    assert_eq!(doc["dateField"], "DOC_DATA");
    assert_eq!(
        doc["totals"]
            .as_array()
            .map(|t| t.iter().map(|t| t["name"].clone()).collect::<Vec<_>>()),
        Some(vec![
            json!("DOC_ACRESCIMO"),
            json!("DOC_VLR_PROD"),
            json!("DOC_VLR_SERV"),
            json!("DOC_VLR_ACRE"),
            json!("DOC_VLR_FRETE"),
            json!("DOC_VLR_DESC"),
            json!("DOC_VLR_TOTAL")
        ])
    );
    let line = &doc["lines"][0];
    assert_eq!(
        (
            line["resource"].clone(),
            line["kind"].clone(),
            line["parent"].clone(),
            line["item"].clone(),
            line["qty"].clone(),
            line["price"].clone(),
            line["total"].clone(),
            line["editable"].clone()
        ),
        (
            json!("docprodutos"),
            json!("product"),
            json!(["DP_DOC_ID"]),
            json!("DP_PROD_ID"),
            json!("DP_QTDE"),
            json!("DP_VLR_UNIT"),
            json!("DP_VLR_TOTAL"),
            json!(["qty", "discount"])
        )
    );
    assert_eq!(line["lockedBy"], "DOC_BAIXADO");
    assert!(doc["lines"][1]["lockedBy"].is_null());
    assert_eq!(
        doc["status"]["labels"],
        json!([{"value": "A", "text": "Aberto", "tone": "open"}, {"value": "F", "text": "Emitido", "tone": "done"}])
    );
    assert_eq!(meta["actions"][0]["label"], "Emitir");
    assert_eq!(meta["actions"][0]["openWhen"], json!(["A"]));
    assert_eq!(meta["actions"][0]["permission"], "update");
    assert_eq!(meta["actions"][0]["primary"], json!(false));
    // Lines locked by a flag that is not a boolean, and tones without a status, do not build.
    let bad_lock = Document::new(header())
        .line(
            products(),
            Lines::products(&["DP_DOC_ID"]).locked_by("DOC_OBS", LOCKED),
        )
        .build();
    assert!(bad_lock.is_err());
    assert!(Document::new(header())
        .tones(&[("A", "open")])
        .build()
        .is_err());
    assert!(Document::new(header())
        .status("DOC_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "verde")])
        .build()
        .is_err());
    assert!(
        x.products.meta()["document"].is_null(),
        "lines are described by their header"
    );
    // A document whose lines cannot carry its totals does not build.
    let broken = Document::new(header())
        .line(
            Resource::new("x", "X", "plat_it", "doc_produtos", "docs")
                .key(&["DP_DOC_ID", "DP_ITEM"])
                .company("DP_EMP_ID")
                .label("DP_ITEM")
                .fields(vec![
                    Field::int("DP_DOC_ID", "Documento"),
                    Field::int("DP_EMP_ID", "Empresa"),
                    Field::int("DP_ITEM", "Item"),
                    Field::int("DP_PROD_ID", "Produto").role(Role::Item),
                    Field::decimal("DP_QTDE", "Qtde").role(Role::Quantity),
                ]),
            Lines::products(&["DP_DOC_ID"]),
        )
        .build();
    assert!(broken.is_err());
}

/// Once the header's flag is set, its product lines refuse to be added, changed or
/// removed with the declared message; its service lines and header still change.
#[tokio::test]
async fn a_flag_on_the_header_locks_one_kind_of_line() {
    let db = db().await;
    let c = client();
    let me = caller(c, 1);
    let x = docs();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let h = query::create(
        &mut tx,
        &x.header,
        &me,
        Some(1),
        &body(json!({"DOC_CLIENTE": "Oficina"})),
    )
    .await
    .expect("header");
    let id = h["DOC_ID"].as_i64().expect("id");
    let line = query::create(
        &mut tx,
        &x.products,
        &me,
        Some(1),
        &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 1, "DP_QTDE": "2"})),
    )
    .await
    .expect("line before the lock");
    sqlx::query("UPDATE plat_it.docs SET doc_baixado = true WHERE doc_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .expect("lock");
    tx.commit().await.expect("commit");

    let refused = |r: erp_platform::Result<Value>| match r {
        Err(erp_platform::Error::Conflict(m)) => assert_eq!(m, LOCKED),
        other => panic!("expected the lock, got {other:?}"),
    };
    let key = [id.to_string(), line["DP_ITEM"].to_string()];
    let mut tx = db.begin_tenant(c).await.expect("tx");
    refused(
        query::create(
            &mut tx,
            &x.products,
            &me,
            Some(1),
            &body(json!({"DP_DOC_ID": id, "DP_PROD_ID": 2, "DP_QTDE": "1"})),
        )
        .await,
    );
    tx.rollback().await.expect("rollback");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    refused(
        query::update(
            &mut tx,
            &x.products,
            &me,
            Some(1),
            &key,
            &body(json!({"DP_QTDE": "5"})),
        )
        .await,
    );
    tx.rollback().await.expect("rollback");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    refused(
        query::delete(&mut tx, &x.products, &me, Some(1), &key)
            .await
            .map(|_| Value::Null),
    );
    tx.rollback().await.expect("rollback");

    let mut tx = db.begin_tenant(c).await.expect("tx");
    query::create(
        &mut tx,
        &x.services,
        &me,
        Some(1),
        &body(json!({"DS_DOC_ID": id, "DS_SERV_ID": 2, "DS_QTDE": "1"})),
    )
    .await
    .expect("a service line is not locked");
    let h = query::get(&mut tx, &x.header, &me, Some(1), &[id.to_string()])
        .await
        .expect("get");
    // The locked line is as it was: 2 x 12.50, plus the service 3.333 -> 3.33.
    assert_eq!(dec(&h["DOC_VLR_PROD"]), d("25.00"));
    assert_eq!(dec(&h["DOC_VLR_TOTAL"]), d("28.33"));
    tx.commit().await.expect("commit");
}
