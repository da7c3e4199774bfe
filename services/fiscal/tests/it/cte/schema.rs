//! The request a CT-e sends, against the provider's OpenAPI description
//! (`CtePedidoEmissao` of Nuvem Fiscal 2.58): every property we send exists at
//! its place with the spec's type, enum and lengths, and every required one
//! is there; it also reads back as the spec's type unchanged.

use std::sync::OnceLock;

use erp_fiscal::nuvemfiscal::types::CtePedidoEmissao;
use serde_json::{json, Value};

use super::super::{client, create, CTX};
use super::{env, seed, typed};

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/nuvemfiscal-openapi-2.58.yaml"
);

fn spec() -> &'static Value {
    static S: OnceLock<Value> = OnceLock::new();
    S.get_or_init(|| {
        let text = std::fs::read_to_string(SPEC).expect("the OpenAPI description");
        serde_norway::from_str(&text).expect("it parses")
    })
}

fn resolve(schema: &Value) -> &Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => spec()
            .pointer(&format!(
                "/components/schemas/{}",
                r.trim_start_matches("#/components/schemas/")
            ))
            .unwrap_or_else(|| panic!("{r} not in the spec")),
        None => schema,
    }
}

fn check(schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    let schema = resolve(schema);
    let ty = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object");
    let mut fail = |what: String| errors.push(format!("{path}: {what}"));
    match value {
        Value::Null => fail("null".into()),
        Value::Bool(_) if ty != "boolean" => fail(format!("boolean, spec says {ty}")),
        Value::Number(n) => {
            let integer = n.as_i64().is_some();
            if !(ty == "number" || (ty == "integer" && integer)) {
                fail(format!("number {n}, spec says {ty}"));
            }
        }
        Value::String(s) => {
            let len = s.chars().count() as u64;
            if ty != "string" {
                fail(format!("string, spec says {ty}"));
            } else if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
                if !allowed.iter().any(|a| a.as_str() == Some(s)) {
                    fail(format!("'{s}' not in {allowed:?}"));
                }
            } else if schema
                .get("maxLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| len > m)
                || schema
                    .get("minLength")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| len < m)
            {
                fail(format!("'{s}' does not fit the spec's length"));
            }
        }
        Value::Array(items) => {
            if ty != "array" {
                fail(format!("array, spec says {ty}"));
                return;
            }
            for (i, item) in items.iter().enumerate() {
                check(&schema["items"], item, &format!("{path}[{i}]"), errors);
            }
        }
        Value::Object(map) => {
            if ty != "object" {
                fail(format!("object, spec says {ty}"));
                return;
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (key, v) in map {
                match props.and_then(|p| p.get(key)) {
                    Some(prop) => check(prop, v, &format!("{path}.{key}"), errors),
                    None => errors.push(format!("{path}: '{key}' is not in the schema")),
                }
            }
            for required in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !map.contains_key(required) {
                    errors.push(format!("{path}: required '{required}' missing"));
                }
            }
        }
        _ => {}
    }
}

pub(super) async fn request_of(env: &super::Env, c: i64, id: i64) -> CtePedidoEmissao {
    let mut tx = env.db.begin_tenant(c).await.expect("tx");
    erp_fiscal::resources::cte::emission::preview(&mut tx, c, 1, id)
        .await
        .expect("request")
}

pub(super) fn assert_follows_the_spec(pedido: &CtePedidoEmissao) -> Value {
    let json = serde_json::to_value(pedido).expect("json");
    let mut errors = Vec::new();
    check(
        &json!({"$ref": "#/components/schemas/CtePedidoEmissao"}),
        &json,
        "CtePedidoEmissao",
        &mut errors,
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let back: CtePedidoEmissao = serde_json::from_value(json.clone()).expect("reads back");
    assert_eq!(&back, pedido);
    json
}

#[tokio::test]
async fn cte_request_follows_the_provider_schema() {
    let env = env(true).await;
    let c = client();
    seed(&env.db, c).await;
    // ICMS 00 computed, the sender takes the service, a new vehicle.
    let id = typed(&env.db, c, json!({})).await;
    create(&env.db, c, "cteveiculosnovos", json!({"CTVN_CTE_ID": id, "CTVN_CHASSI": "9bw zzz377vt004251",
        "CTVN_COR": "01", "CTVN_DESC_COR": "BRANCO", "CTVN_MODELO": "123456", "CTVN_VLR_UNIT": "85000.00",
        "CTVN_VLR_FRETE": "900.00"}))
        .await
        .expect("vehicle");
    let pedido = request_of(&env, c, id).await;
    let json = assert_follows_the_spec(&pedido);
    let inf = &pedido.infCte;
    assert_eq!(
        (inf.ide.cUF, inf.ide.r#mod, inf.ide.serie, inf.ide.nCT),
        (35, Some(57), 1, 501)
    );
    assert_eq!(
        (inf.ide.CFOP.as_str(), inf.ide.modal.as_str(), inf.ide.tpCTe),
        ("5353", "01", 0)
    );
    assert_eq!(inf.ide.toma3.as_ref().map(|t| t.toma), Some(0));
    assert_eq!(inf.ide.indIEToma, 1);
    assert_eq!(inf.emit.CNPJ.as_deref(), Some("11222333000181"));
    assert_eq!(
        inf.rem.as_ref().and_then(|r| r.CNPJ.as_deref()),
        Some("11444777000161")
    );
    assert_eq!(
        inf.dest.as_ref().map(|d| d.enderDest.cMun.as_str()),
        Some("3509502")
    );
    let icms = inf.imp.ICMS.ICMS00.as_ref().expect("ICMS00");
    assert_eq!(
        (icms.vBC.to_string(), icms.vICMS.to_string()),
        ("1500.75".into(), "180.09".into())
    );
    assert_eq!(json["infCte"]["vPrest"]["vTPrest"], json!(1500.75));
    let norm = inf.infCTeNorm.as_ref().expect("infCTeNorm");
    assert_eq!(
        norm.infModal.rodo.as_ref().map(|r| r.RNTRC.as_str()),
        Some("12345678")
    );
    assert_eq!(
        norm.infDoc.as_ref().map(|d| d.infNFe[0].chave.as_str()),
        Some(super::NFE_KEY)
    );
    assert_eq!(norm.veicNovos[0].chassi, "9BWZZZ377VT004251");
    assert_eq!(
        inf.compl.as_ref().map(|c| c.ObsCont[0].xTexto.as_str()),
        Some("SP")
    );
    // Nothing was numbered or sent.
    assert_eq!(super::next_number(&env.db, c).await, 501);
    assert_eq!(env.fake().requests("POST", "/cte"), 0);
    // Reduced base (20), exempt (40), others (90), another taker typed.
    for (cst, extra) in [
        ("20", json!({"CTE_PERC_RED_BC": "20"})),
        ("40", json!({})),
        ("90", json!({"CTE_VLR_BC_ICMS": "1000.00"})),
    ] {
        let mut body = json!({"CTE_CST": cst, "CTE_TOMADOR": 4, "CTE_CNPJCPF": "123.456.789-09",
            "CTE_TOMA_NOME": "TOMADOR PESSOA FISICA", "CTE_TOMA_ENDERECO": "Rua C", "CTE_TOMA_BAIRRO": "Centro",
            "CTE_TOMA_MUN_IBGE": "3304557", "CTE_TOMA_MUNICIPIO": "Rio de Janeiro", "CTE_TOMA_UF": "RJ"});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        let id = typed(&env.db, c, body).await;
        let pedido = request_of(&env, c, id).await;
        assert_follows_the_spec(&pedido);
        let ide = &pedido.infCte.ide;
        let toma = ide.toma4.as_ref().expect("toma4");
        assert_eq!(
            (toma.toma, toma.CPF.as_deref(), ide.indIEToma),
            (4, Some("12345678909"), 9)
        );
        let i = &pedido.infCte.imp.ICMS;
        match cst {
            "20" => assert_eq!(
                i.ICMS20.as_ref().map(|x| x.vBC.to_string()),
                Some("1200.60".into())
            ),
            "40" => assert_eq!(i.ICMS45.as_ref().map(|x| x.CST.as_str()), Some("40")),
            _ => assert_eq!(
                i.ICMS90.as_ref().map(|x| x.vICMS.to_string()),
                Some("120.00".into())
            ),
        }
    }
    let _ = CTX.caller(c, 1);
}
