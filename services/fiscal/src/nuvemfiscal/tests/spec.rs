//! Our bodies and paths against the provider's OpenAPI description: every
//! property we send must exist in the schema at that place (walking `$ref`s),
//! with the schema's type, enum and format, and every required property must
//! be there.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use super::samples;
use crate::nuvemfiscal::paths;
use crate::nuvemfiscal::types::*;
use crate::nuvemfiscal::{AUTH_URL, DEFAULT_SCOPE, PRODUCTION_URL};

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/nuvemfiscal-openapi-2.58.yaml"
);

pub fn spec() -> &'static Value {
    static SPEC_JSON: OnceLock<Value> = OnceLock::new();
    SPEC_JSON.get_or_init(|| {
        let text = std::fs::read_to_string(SPEC).unwrap_or_else(|e| panic!("{SPEC}: {e}"));
        serde_norway::from_str(&text).expect("the OpenAPI description parses")
    })
}

/// What a check found: the problems and the schemas it went through.
#[derive(Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub visited: BTreeSet<String>,
}

fn schema_named(name: &str) -> &'static Value {
    spec()
        .pointer(&format!("/components/schemas/{name}"))
        .unwrap_or_else(|| panic!("schema {name} not in the spec"))
}

fn resolve<'a>(schema: &'a Value, report: &mut Report) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            report.visited.insert(name.to_string());
            schema_named(name)
        }
        None => schema,
    }
}

fn check(schema: &Value, value: &Value, path: &str, report: &mut Report) {
    let schema = resolve(schema, report);
    let ty = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object");
    let fail = |what: String| report_error(path, what);
    match value {
        Value::Null if schema.get("nullable") != Some(&Value::Bool(true)) => {
            report
                .errors
                .push(fail("null where the spec does not allow it".into()));
        }
        Value::Bool(_) if ty != "boolean" => {
            report.errors.push(fail(format!("boolean, spec says {ty}")))
        }
        Value::Number(n) => {
            let integer = n.as_i64().is_some() || n.as_u64().is_some();
            if !(ty == "number" || (ty == "integer" && integer)) {
                report
                    .errors
                    .push(fail(format!("number {n}, spec says {ty}")));
            }
        }
        Value::String(s) => {
            if ty != "string" {
                report.errors.push(fail(format!("string, spec says {ty}")));
            } else if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
                if !allowed.iter().any(|a| a.as_str() == Some(s)) {
                    report
                        .errors
                        .push(fail(format!("'{s}' not in the enum {allowed:?}")));
                }
            } else {
                match schema.get("format").and_then(Value::as_str) {
                    Some("date-time") if chrono::DateTime::parse_from_rfc3339(s).is_err() => report
                        .errors
                        .push(fail(format!("'{s}' is not a date-time"))),
                    Some("date") if s.parse::<chrono::NaiveDate>().is_err() => {
                        report.errors.push(fail(format!("'{s}' is not a date")))
                    }
                    _ => {}
                }
            }
        }
        Value::Array(items) => {
            if ty != "array" {
                report.errors.push(fail(format!("array, spec says {ty}")));
                return;
            }
            let item_schema = &schema["items"];
            for (i, item) in items.iter().enumerate() {
                check(item_schema, item, &format!("{path}[{i}]"), report);
            }
        }
        Value::Object(map) => {
            if ty != "object" {
                report.errors.push(fail(format!("object, spec says {ty}")));
                return;
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (key, v) in map {
                match props.and_then(|p| p.get(key)) {
                    Some(prop) => check(prop, v, &format!("{path}.{key}"), report),
                    None => report.errors.push(report_error(
                        path,
                        format!("property '{key}' is not in the schema"),
                    )),
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
                    report
                        .errors
                        .push(report_error(path, format!("required '{required}' missing")));
                }
            }
        }
        _ => {}
    }
}

fn report_error(path: &str, what: String) -> String {
    format!("{path}: {what}")
}

/// Checks `value` (serialized) against the spec's schema `name`.
pub fn check_as<T: Serialize>(name: &str, value: &T) -> Report {
    let json = serde_json::to_value(value).expect("serializes");
    let mut report = Report::default();
    report.visited.insert(name.to_string());
    check(schema_named(name), &json, name, &mut report);
    report
}

pub fn assert_matches<T: Serialize>(name: &str, value: &T) -> Report {
    let report = check_as(name, value);
    assert!(
        report.errors.is_empty(),
        "{name} does not follow the spec:\n{}",
        report.errors.join("\n")
    );
    report
}

#[test]
fn nfe_bodies_follow_the_spec() {
    let mut visited = assert_matches("NfePedidoEmissao", &samples::nfe("84713012", "r1")).visited;
    visited.extend(assert_matches("NfePedidoEmissao", &samples::nfe_simples("r2")).visited);
    // The check went through the groups the samples fill, so it did check
    // them (a property name under any of these would have been caught).
    for schema in [
        "NfeSefazInfNFe",
        "NfeSefazIde",
        "NfeSefazNFref",
        "NfeSefazEmit",
        "NfeSefazEnderEmi",
        "NfeSefazDest",
        "NfeSefazEndereco",
        "NfeSefazDet",
        "NfeSefazProd",
        "NfeSefazImposto",
        "NfeSefazICMS00",
        "NfeSefazICMS20",
        "NfeSefazICMSSN101",
        "NfeSefazICMSSN102",
        "NfeSefazICMSSN500",
        "NfeSefazIpi",
        "NfeSefazIPITrib",
        "NfeSefazPISAliq",
        "NfeSefazPISOutr",
        "NfeSefazPISNT",
        "NfeSefazCOFINSAliq",
        "NfeSefazCOFINSOutr",
        "NfeSefazCOFINSNT",
        "NfeSefazICMSTot",
        "NfeSefazTransp",
        "NfeSefazTransporta",
        "NfeSefazVol",
        "NfeSefazCobr",
        "NfeSefazFat",
        "NfeSefazDup",
        "NfeSefazPag",
        "NfeSefazDetPag",
        "NfeSefazCard",
        "NfeSefazInfAdic",
        "NfeSefazInfRespTec",
    ] {
        assert!(visited.contains(schema), "{schema} was not reached");
    }
}

#[test]
fn cte_and_mdfe_bodies_follow_the_spec() {
    let cte = assert_matches("CtePedidoEmissao", &samples::cte("c1")).visited;
    for schema in [
        "CteSefazIde",
        "CteSefazRem",
        "CteSefazVPrest",
        "CteSefazICMS00",
        "CteSefazInfQ",
        "CteSefazRodo",
    ] {
        assert!(cte.contains(schema), "{schema} was not reached");
    }
    let mdfe = assert_matches("MdfePedidoEmissao", &samples::mdfe("m1")).visited;
    for schema in [
        "MdfeSefazIde",
        "MdfeSefazVeicTracao",
        "MdfeSefazCondutor",
        "MdfeSefazInfNFe",
        "MdfeSefazTot",
    ] {
        assert!(mdfe.contains(schema), "{schema} was not reached");
    }
}

#[test]
fn company_and_event_bodies_follow_the_spec() {
    assert_matches("Empresa", &samples::empresa());
    assert_matches(
        "EmpresaConfigNfe",
        &EmpresaConfigNfe { CRT: Some(1), ambiente: Ambiente::Producao },
    );
    assert_matches(
        "EmpresaConfigNfce",
        &EmpresaConfigNfce {
            CRT: Some(1),
            sefaz: EmpresaConfigNfceSefaz { id_csc: 1, csc: "ABC123".into() },
            ambiente: Ambiente::Homologacao,
        },
    );
    let nfse = assert_matches(
        "EmpresaConfigNfse",
        &EmpresaConfigNfse {
            regTrib: Some(EmpresaConfigNfseRegTrib {
                opSimpNac: Some(3),
                regApTribSN: None,
                regEspTrib: Some(0),
            }),
            rps: EmpresaConfigRps { lote: 1, serie: "A".into(), numero: 10 },
            prefeitura: Some(EmpresaConfigPrefeitura {
                login: Some("empresa".into()),
                senha: Some("senha".into()),
                token: None,
            }),
            incentivo_fiscal: Some(false),
            ambiente: Ambiente::Homologacao,
        },
    );
    for schema in [
        "EmpresaConfigNfseRegTrib",
        "EmpresaConfigRps",
        "EmpresaConfigPrefeitura",
    ] {
        assert!(nfse.visited.contains(schema), "{schema} was not reached");
    }
    assert_matches(
        "EmpresaConfigCteOs",
        &EmpresaConfigCteOs { CRT: Some(3), ambiente: Ambiente::Producao },
    );
    assert_matches(
        "EmpresaConfigDce",
        &EmpresaConfigDce { ambiente: Ambiente::Producao },
    );
    assert_matches(
        "EmpresaConfigDistribuicaoNfe",
        &EmpresaConfigDistribuicaoNfe {
            distribuicao_automatica: Some(true),
            distribuicao_intervalo_horas: None,
            ciencia_automatica: Some(false),
            ambiente: Ambiente::Producao,
        },
    );
    assert_matches(
        "EmpresaConfigNfcom",
        &EmpresaConfigNfcom { CRT: Some(1), ambiente: Ambiente::Homologacao },
    );
    assert_matches(
        "EmpresaPedidoCadastroCertificado",
        &EmpresaPedidoCadastroCertificado { certificado: "MIIK".into(), password: "senha".into() },
    );
    let justificativa = Some("Pedido cancelado pelo cliente".to_string());
    assert_matches(
        "NfePedidoCancelamento",
        &NfePedidoCancelamento { justificativa: justificativa.clone() },
    );
    assert_matches(
        "CtePedidoCancelamento",
        &CtePedidoCancelamento { justificativa },
    );
    assert_matches(
        "NfePedidoCartaCorrecao",
        &NfePedidoCartaCorrecao { correcao: Some("Corrige o peso bruto para 11,25 kg".into()) },
    );
    assert_matches(
        "MdfePedidoEncerramento",
        &MdfePedidoEncerramento {
            data_encerramento: Some(samples::when().date_naive()),
            uf: "MG".into(),
            codigo_municipio: "3106200".into(),
        },
    );
}

#[test]
fn the_check_catches_a_name_the_spec_does_not_have() {
    let mut json = serde_json::to_value(samples::nfe("84713012", "r")).expect("json");
    json["infNFe"]["det"][0]["prod"]["vProduto"] = serde_json::json!(1);
    json["infNFe"]["ide"]["tpNF"] = serde_json::json!("1");
    json["ambiente"] = serde_json::json!("teste");
    let mut report = Report::default();
    check(
        schema_named("NfePedidoEmissao"),
        &json,
        "NfePedidoEmissao",
        &mut report,
    );
    let all = report.errors.join("\n");
    assert!(
        all.contains("infNFe.det[0].prod: property 'vProduto'"),
        "{all}"
    );
    assert!(
        all.contains("infNFe.ide.tpNF: string, spec says integer"),
        "{all}"
    );
    assert!(all.contains("'teste' not in the enum"), "{all}");
    json["infNFe"]
        .as_object_mut()
        .expect("object")
        .remove("emit");
    let mut report = Report::default();
    check(
        schema_named("NfePedidoEmissao"),
        &json,
        "NfePedidoEmissao",
        &mut report,
    );
    assert!(report
        .errors
        .iter()
        .any(|e| e.contains("required 'emit' missing")));
}

#[test]
fn every_path_the_client_calls_is_in_the_spec() {
    let documented = spec()["paths"].as_object().expect("paths");
    for (method, path) in paths::USED {
        let ops = documented
            .get(*path)
            .unwrap_or_else(|| panic!("{path} is not in the spec"));
        assert!(
            ops.get(method.to_lowercase()).is_some(),
            "{method} {path} is not in the spec"
        );
    }
}

#[test]
fn servers_token_url_and_scopes_are_the_spec_s() {
    let s = spec();
    let server = s["servers"][0]["url"].as_str().expect("server");
    assert_eq!(server.trim_end_matches('/'), PRODUCTION_URL);
    let flow = &s["components"]["securitySchemes"]["oauth2"]["flows"]["clientCredentials"];
    assert_eq!(flow["tokenUrl"].as_str(), Some(AUTH_URL));
    let scopes = flow["scopes"].as_object().expect("scopes");
    for scope in DEFAULT_SCOPE.split(' ') {
        assert!(scopes.contains_key(scope), "scope {scope} is not declared");
    }
}

#[test]
fn the_status_enums_are_the_spec_s() {
    let ours = |values: &[&str]| {
        values
            .iter()
            .map(|v| Value::String(v.to_string()))
            .collect::<Vec<_>>()
    };
    let dfe_status: Vec<&str> = [
        DfeStatus::Pendente,
        DfeStatus::Autorizado,
        DfeStatus::Rejeitado,
        DfeStatus::Denegado,
        DfeStatus::Encerrado,
        DfeStatus::Cancelado,
        DfeStatus::Erro,
    ]
    .iter()
    .map(|s| s.as_str())
    .collect();
    assert_eq!(
        schema_named("Dfe")["properties"]["status"]["enum"].as_array(),
        Some(&ours(&dfe_status))
    );
    assert_eq!(
        schema_named("DfeCancelamento")["properties"]["status"]["enum"].as_array(),
        Some(&ours(&["pendente", "registrado", "rejeitado", "erro"]))
    );
    for (status, text) in [
        (EventoStatus::Registrado, "registrado"),
        (EventoStatus::Rejeitado, "rejeitado"),
    ] {
        assert_eq!(
            serde_json::to_value(status).expect("json"),
            Value::String(text.into())
        );
    }
}
