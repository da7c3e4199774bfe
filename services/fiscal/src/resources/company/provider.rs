//! What the calls to the Nuvem Fiscal share (the client or `MISSING_CREDENTIALS`,
//! the provider's errors in pt-BR, whose company a CPF/CNPJ is) and
//! `PUT /empresasservicos/nuvemfiscal/{tipo}/{EMP_CGC}`: one document type's
//! settings sent to the provider.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{body_map, param};
use erp_platform::resource::{ActionHandler, Call, Resource};
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::settings::{load, save, secrets};
use super::{company, Ctx};
use crate::nuvemfiscal::types::*;
use crate::nuvemfiscal::{self as nf, NuvemFiscal, MISSING_CREDENTIALS};

pub const DOCUMENT_TAKEN: &str =
    "Este CPF/CNPJ já está nas configurações fiscais de outra empresa.";
pub const UNKNOWN_TYPE: &str =
    "Tipo de documento inválido: use nfe, nfce, nfse, cte, mdfe, distnfe, cte_os, dce ou nfcom.";
pub const NO_DOCUMENT: &str =
    "A empresa não tem CPF/CNPJ nas configurações fiscais: cadastre-a na Nuvem Fiscal antes.";
const NOT_REGISTERED: &str =
    "A empresa não está cadastrada na Nuvem Fiscal: cadastre-a e tente de novo.";

/// The client, or 409 with `MISSING_CREDENTIALS`: the product runs without
/// them, and a call that needs the provider asks for what the company must set
/// up (a precondition the user fixes, not a fault of the server).
pub(crate) fn client(ctx: &Ctx) -> Result<&NuvemFiscal> {
    ctx.client
        .as_ref()
        .ok_or_else(|| Error::Conflict(MISSING_CREDENTIALS.into()))
}

/// The provider's error in words for the user.
pub(crate) fn provider_message(e: &nf::Error) -> String {
    match e {
        nf::Error::Invalid(m) => m.clone(),
        nf::Error::Api { status: 404, .. } => NOT_REGISTERED.into(),
        nf::Error::Api { message, errors, .. } => {
            let details: Vec<&str> = errors.iter().filter_map(|d| d.message.as_deref()).collect();
            if details.is_empty() {
                format!("Nuvem Fiscal: {message}")
            } else {
                format!("Nuvem Fiscal: {message} ({})", details.join("; "))
            }
        }
        other => other.to_string(),
    }
}

/// The provider's error as this service's: the request's fault is a 400 (404
/// and 409 as such), the provider's or the network's a 503.
pub(crate) fn provider_error(e: nf::Error) -> Error {
    let msg = provider_message(&e);
    match e {
        nf::Error::Invalid(_) => Error::Validation(msg),
        nf::Error::Api { status: 404, .. } => Error::NotFound(msg),
        nf::Error::Api { status: 409, .. } => Error::Conflict(msg),
        nf::Error::Api { status: 429, .. } => Error::TooManyRequests(msg),
        nf::Error::Api { status: 401 | 403, .. } => Error::Unavailable(msg),
        nf::Error::Api { status: 400..=499, .. } => Error::Validation(msg),
        _ => Error::Unavailable(msg),
    }
}

/// A CPF/CNPJ of a path or body, unmasked.
pub(super) fn document(raw: &str) -> Result<String> {
    CpfCnpj::parse(raw)
        .map(|d| d.as_str().to_string())
        .map_err(|e| Error::validation(e.to_string()))
}

fn masked(doc: &str) -> String {
    CpfCnpj::parse(doc).map_or_else(|_| doc.to_string(), |d| d.to_string())
}

fn not_the_company(doc: &str, stored: &str) -> Error {
    Error::validation(format!(
        "O CPF/CNPJ {} não é o da empresa: as configurações fiscais dela usam {}.",
        masked(doc),
        masked(stored)
    ))
}

/// Records `doc` as the company's (creating its settings row when needed) or
/// checks it is the one recorded. A CPF/CNPJ recorded for another company, of
/// any client, is refused ([`DOCUMENT_TAKEN`]).
pub(super) async fn claim(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    doc: &str,
) -> Result<()> {
    let stored: Option<String> = sqlx::query_scalar(
        "INSERT INTO fiscal.empresas_servicos (client_id, emps_emp_id, emps_cpf_cnpj, emps_usr_id)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (client_id, emps_emp_id) DO UPDATE
         SET emps_cpf_cnpj = coalesce(empresas_servicos.emps_cpf_cnpj, EXCLUDED.emps_cpf_cnpj)
         RETURNING emps_cpf_cnpj",
    )
    .bind(caller.client_id)
    .bind(emp)
    .bind(doc)
    .bind((caller.user_id > 0).then_some(caller.user_id))
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| res.constraint_error(e))?;
    match stored {
        Some(s) if s != doc => Err(not_the_company(doc, &s)),
        _ => Ok(()),
    }
}

/// Checks `doc` is the CPF/CNPJ recorded in the company's settings.
pub(super) async fn owned(tx: &mut Tx, caller: &Caller, emp: i64, doc: &str) -> Result<()> {
    let stored: Option<Option<String>> = sqlx::query_scalar(
        "SELECT emps_cpf_cnpj FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(caller.client_id)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    match stored.flatten() {
        None => Err(Error::validation(NO_DOCUMENT)),
        Some(s) if s != doc => Err(not_the_company(doc, &s)),
        Some(_) => Ok(()),
    }
}

/// `answer` with `aviso`: what went wrong without failing the call.
pub(super) fn with_notice(mut answer: Value, notices: Vec<String>) -> Value {
    if let (false, Value::Object(m)) = (notices.is_empty(), &mut answer) {
        m.insert("aviso".into(), Value::from(notices.join(" ")));
    }
    answer
}

/// The document types of the path, as the provider names their settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocType {
    Nfe,
    Nfce,
    Nfse,
    Cte,
    Mdfe,
    Distnfe,
    /// `cte_os` in our path, `cteos` in the provider's.
    CteOs,
    Dce,
    Nfcom,
}

impl DocType {
    pub fn parse(s: &str) -> Option<DocType> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "nfe" => DocType::Nfe,
            "nfce" => DocType::Nfce,
            "nfse" => DocType::Nfse,
            "cte" => DocType::Cte,
            "mdfe" => DocType::Mdfe,
            "distnfe" => DocType::Distnfe,
            "cte_os" | "cteos" => DocType::CteOs,
            "dce" => DocType::Dce,
            "nfcom" => DocType::Nfcom,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            DocType::Nfe => "NF-e",
            DocType::Nfce => "NFC-e",
            DocType::Nfse => "NFS-e",
            DocType::Cte => "CT-e",
            DocType::Mdfe => "MDF-e",
            DocType::Distnfe => "distribuição de NF-e",
            DocType::CteOs => "CT-e OS",
            DocType::Dce => "DC-e",
            DocType::Nfcom => "NFCom",
        }
    }

    /// The prefix of its environment field (`EMPS_{prefix}_AMBIENTE`).
    fn prefix(self) -> &'static str {
        match self {
            DocType::Nfe => "NFE",
            DocType::Nfce => "NFCE",
            DocType::Nfse => "NFSE",
            DocType::Cte => "CTE",
            DocType::Mdfe => "MDFE",
            DocType::Distnfe => "DIST",
            DocType::CteOs => "CTE_OS",
            DocType::Dce => "DCE",
            DocType::Nfcom => "NFCON",
        }
    }
}

fn int(row: &Value, key: &str) -> Option<i64> {
    row.get(key).and_then(Value::as_i64)
}

fn crt(row: &Value, prefix: &str) -> Option<i32> {
    int(row, &format!("EMPS_{prefix}_REGIME")).and_then(|v| i32::try_from(v).ok())
}

fn flag(row: &Value, key: &str) -> Option<bool> {
    row.get(key).and_then(Value::as_bool)
}

/// Produção when the settings say 1, homologação otherwise (the default).
fn ambiente(row: &Value, prefix: &str) -> Ambiente {
    match int(row, &format!("EMPS_{prefix}_AMBIENTE")) {
        Some(1) => Ambiente::Producao,
        _ => Ambiente::Homologacao,
    }
}

/// Sends one document type's settings (`row`, with the opened secrets).
async fn send(
    c: &NuvemFiscal,
    t: DocType,
    doc: &str,
    row: &Value,
    secrets: [Option<String>; 3],
) -> Result<()> {
    let [csc, senha, token] = secrets;
    let amb = ambiente(row, t.prefix());
    let sent = match t {
        DocType::Nfe => c
            .alterar_config_nfe(
                doc,
                &EmpresaConfigNfe { CRT: crt(row, "NFE"), ambiente: amb },
            )
            .await
            .map(drop),
        DocType::Nfce => {
            let id = int(row, "EMPS_NFCE_IDCSC").and_then(|v| i32::try_from(v).ok());
            let (Some(id_csc), Some(csc)) = (id, csc) else {
                return Err(Error::validation(
                    "Para a NFC-e, informe o ID e o código do CSC (Serviços fiscais › NFC-e).",
                ));
            };
            let config = EmpresaConfigNfce {
                CRT: crt(row, "NFCE"),
                sefaz: EmpresaConfigNfceSefaz { id_csc, csc },
                ambiente: amb,
            };
            c.alterar_config_nfce(doc, &config).await.map(drop)
        }
        DocType::Nfse => {
            let serie = row.get("EMPS_NFSE_SERIE").and_then(Value::as_str);
            let (Some(serie), Some(lote), Some(numero)) = (
                serie,
                int(row, "EMPS_NFSE_LOTE"),
                int(row, "EMPS_NFSE_NR_RPS"),
            ) else {
                return Err(Error::validation(
                    "Para a NFS-e, informe a série do RPS, o próximo lote e o próximo número do RPS.",
                ));
            };
            let login = row
                .get("EMPS_NFSE_LOGIN")
                .and_then(Value::as_str)
                .map(String::from);
            let opt = |k: &str| int(row, k).and_then(|v| i32::try_from(v).ok());
            let reg = (opt("EMPS_NFSE_OPT_SIMPLES"), opt("EMPS_NFSE_REG_ESP_TRIB"));
            let config = EmpresaConfigNfse {
                regTrib: (reg != (None, None)).then_some(EmpresaConfigNfseRegTrib {
                    opSimpNac: reg.0,
                    regApTribSN: None,
                    regEspTrib: reg.1,
                }),
                rps: EmpresaConfigRps { lote, serie: serie.to_string(), numero },
                prefeitura: (login.is_some() || senha.is_some() || token.is_some())
                    .then_some(EmpresaConfigPrefeitura { login, senha, token }),
                incentivo_fiscal: flag(row, "EMPS_NFSE_INC_FISCAL"),
                ambiente: amb,
            };
            c.alterar_config_nfse(doc, &config).await.map(drop)
        }
        DocType::Cte => c
            .alterar_config_cte(
                doc,
                &EmpresaConfigCte { CRT: crt(row, "CTE"), ambiente: amb },
            )
            .await
            .map(drop),
        DocType::Mdfe => c
            .alterar_config_mdfe(doc, &EmpresaConfigMdfe { ambiente: amb })
            .await
            .map(drop),
        DocType::Distnfe => {
            let config = EmpresaConfigDistribuicaoNfe {
                distribuicao_automatica: flag(row, "EMPS_DIST_AUTOMATICA"),
                distribuicao_intervalo_horas: None,
                ciencia_automatica: flag(row, "EMPS_DIST_CIENCIA_AUT"),
                ambiente: amb,
            };
            c.alterar_config_distnfe(doc, &config).await.map(drop)
        }
        DocType::CteOs => {
            let config = EmpresaConfigCteOs { CRT: crt(row, "CTE_OS"), ambiente: amb };
            c.alterar_config_cteos(doc, &config).await.map(drop)
        }
        DocType::Dce => c
            .alterar_config_dce(doc, &EmpresaConfigDce { ambiente: amb })
            .await
            .map(drop),
        DocType::Nfcom => {
            let config = EmpresaConfigNfcom { CRT: crt(row, "NFCON"), ambiente: amb };
            c.alterar_config_nfcom(doc, &config).await.map(drop)
        }
    };
    sent.map_err(provider_error)
}

/// Whether a body carries settings to save (more than the company and user).
fn carries_settings(body: &serde_json::Map<String, Value>) -> bool {
    body.keys()
        .any(|k| k.starts_with("EMPS_") && k != "EMPS_EMP_ID" && k != "EMPS_USR_ID")
}

/// `PUT /empresasservicos/nuvemfiscal/{TIPO}/{EMP_CGC}`: saves the settings the
/// body carries (as `PUT /empresasservicos/{emp}` does), then sends that type's
/// stored settings to the provider for the company's CPF/CNPJ.
pub(super) struct PushConfig(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for PushConfig {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let t = DocType::parse(param(params, "TIPO")?)
            .ok_or_else(|| Error::validation(UNKNOWN_TYPE))?;
        let doc = document(param(params, "EMP_CGC")?)?;
        let emp = company(emp, params)?;
        let c = client(&self.0)?;
        let body = body_map(body);
        if carries_settings(&body) {
            save(tx, res, caller, emp, &body).await?;
        }
        claim(tx, res, caller, emp, &doc).await?;
        let row = load(tx, res, caller, emp)
            .await?
            .ok_or_else(Error::not_found)?;
        let opened = match t {
            DocType::Nfce | DocType::Nfse => secrets(tx, &self.0, caller.client_id, emp).await?,
            _ => [None, None, None],
        };
        send(c, t, &doc, &row, opened).await?;
        Ok(json!({
            "code": 200,
            "msg": format!("Configuração de {} enviada à Nuvem Fiscal.", t.label()),
            "tipo": param(params, "TIPO")?.to_ascii_lowercase(),
            "ambiente": ambiente(&row, t.prefix()).as_str(),
            "cpf_cnpj": doc,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_of_the_spec_is_known_and_cte_os_is_the_provider_s_cteos() {
        for t in [
            "nfe", "nfce", "nfse", "cte", "mdfe", "distnfe", "cte_os", "dce", "nfcom",
        ] {
            assert!(DocType::parse(t).is_some(), "{t}");
        }
        assert_eq!(DocType::parse("CTE_OS"), Some(DocType::CteOs));
        assert_eq!(DocType::parse("nfse2"), None);
    }

    #[test]
    fn provider_errors_keep_their_meaning() {
        let api = |status: u16| nf::Error::Api {
            status,
            code: "X".into(),
            message: "falhou".into(),
            errors: vec![ErrorDetail { code: None, message: Some("campo x".into()) }],
        };
        assert_eq!(provider_error(api(400)).http_status(), 400);
        assert_eq!(
            provider_error(api(400)).public_message(),
            "Nuvem Fiscal: falhou (campo x)"
        );
        assert_eq!(provider_error(api(404)).public_message(), NOT_REGISTERED);
        assert_eq!(provider_error(api(401)).http_status(), 503);
        assert_eq!(provider_error(api(502)).http_status(), 503);
        assert_eq!(provider_error(api(409)).http_status(), 409);
    }
}
