//! A company's fiscal services (`empresasservicos`, spec data-and-calls §3
//! "Fiscal services settings" and §7.1): one settings row per company with
//! the environment, tax regime and series of each document type (NF-e, NFC-e,
//! NFS-e, MDF-e, CT-e, CT-e OS, DC-e), the NFC-e CSC, the NFS-e city hall
//! access and RPS numbering, NFCom, the distribution of NF-e received, and the
//! A1 certificate; and the calls that hand all of it to the Nuvem Fiscal.
//!
//! Calls (besides the generic ones of the register):
//! - `GET /empresasservicos/filtro/{emp}`: `[row]`, or no rows (204);
//! - `POST /empresasservicos` (generic create) and `PUT /empresasservicos/{emp}`
//!   (saves, creating the row when there is none);
//! - `PUT /empresasservicos/nuvemfiscal/{tipo}/{EMP_CGC}`: saves the settings
//!   the body carries, then sends that document type's to the provider;
//! - `PUT /empresasservicos/certificado/uploads/{emp}` (multipart `file`,
//!   `SENHA`, `CPF_CNPJ`, `EMPS_EMP_ID`, `EMPS_USR_ID`) and
//!   `DELETE /empresasservicos/certificado/uploads/{emp}/{CPF_CNPJ}/{ARQUIVO}`;
//! - `POST /empresas/nuvemfiscal`, `DELETE /empresas/nuvemfiscal/{CPF_CNPJ}`,
//!   `PUT` (multipart png/jpeg) and `DELETE /empresas/nuvemfiscal/logo/{CPF_CNPJ}`.
//!
//! The provider account is shared by every client, so a call naming a CPF/CNPJ
//! acts only on the company whose settings hold it (`EMPS_CPF_CNPJ`, unique
//! across clients; the first call that names it records it).
//!
//! Secrets never leave in an answer: the CSC and the NFS-e password and token
//! are write-only fields sealed before they are stored (`crate::crypto`); the
//! certificate file and its password are columns no field declares.
//!
//! Layout: here the descriptor and what the handlers share; `settings`: the
//! hooks, reading and saving; `certificate`: the A1 upload and removal;
//! `provider`: what the provider calls share and the settings sent per
//! document type; `registration`: the company and its logo at the provider.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use erp_platform::resource::{uploaded_file, ActionPerm, DbType, Field, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::taxes::codes::ENVIRONMENTS;
use crate::crypto::Sealer;
use crate::nuvemfiscal::NuvemFiscal;

mod certificate;
pub(crate) mod provider;
mod registration;
mod settings;

pub const NAME: &str = "empresasservicos";
const SCHEMA: &str = crate::SCHEMA;

/// What the calls of the register share.
pub struct Ctx {
    /// `None` without Nuvem Fiscal credentials: provider calls answer
    /// `MISSING_CREDENTIALS`.
    pub client: Option<NuvemFiscal>,
    /// `<data dir>/uploads`, where the gateway leaves uploaded files.
    pub uploads: PathBuf,
    pub sealer: Sealer,
}

/// Código de Regime Tributário of the NF-e, NFC-e, CT-e and MDF-e.
pub const REGIMES: [(&str, &str); 4] = [
    ("1", "1 - Simples Nacional"),
    ("2", "2 - Simples Nacional - excesso de sublimite"),
    ("3", "3 - Regime Normal"),
    ("4", "4 - Simples Nacional - MEI"),
];
/// NFCom has no MEI.
const NFCOM_REGIMES: [(&str, &str); 3] = [REGIMES[0], REGIMES[1], REGIMES[2]];
const SIMPLES: [(&str, &str); 3] = [
    ("1", "1 - Não optante"),
    ("2", "2 - Optante - MEI"),
    ("3", "3 - Optante - ME/EPP"),
];
const SPECIAL_REGIMES: [(&str, &str); 7] = [
    ("0", "0 - Nenhum"),
    ("1", "1 - Ato Cooperado (Cooperativa)"),
    ("2", "2 - Estimativa"),
    ("3", "3 - Microempresa Municipal"),
    ("4", "4 - Notário ou Registrador"),
    ("5", "5 - Profissional Autônomo"),
    ("6", "6 - Sociedade de Profissionais"),
];
/// Document types with environment, regime and series: field prefix, name.
const DOCUMENTS: [(&str, &str); 7] = [
    ("NFE", "NF-e"),
    ("NFCE", "NFC-e"),
    ("NFSE", "NFS-e"),
    ("MDFE", "MDF-e"),
    ("CTE", "CT-e"),
    ("CTE_OS", "CT-e OS"),
    ("DCE", "DC-e"),
];
/// Write-only fields sealed before they are stored.
pub const SECRETS: [&str; 3] = ["EMPS_NFCE_CSC", "EMPS_NFSE_SENHA", "EMPS_NFSE_TOKEN"];

/// Where a sealed value of `column` lives (the associated data of its seal).
pub fn place(client: i64, emp: i64, column: &str) -> String {
    format!("fiscal.empresas_servicos:{client}:{emp}:{column}")
}

pub fn all(ctx: Arc<Ctx>) -> Vec<Resource> {
    vec![empresasservicos(ctx)]
}

fn environment(name: &str) -> Field {
    Field::options(name, "Ambiente", DbType::Int, &ENVIRONMENTS)
        .required()
        .default(2.into())
        .width(3)
}

fn series(name: &str) -> Field {
    Field::int(name, "Série").min("0").max("999").width(2)
}

fn secret(name: &str, label: &str) -> Field {
    // The stored text is the sealed value (longer than what is typed).
    Field::password(name, label).len(1024).width(4)
}

fn fields() -> Vec<Field> {
    let mut f = vec![
        Field::int("EMPS_EMP_ID", "Empresa").list().width(2),
        Field::int("EMPS_USR_ID", "Usuário").server(),
        Field::cpf_cnpj("EMPS_CPF_CNPJ", "CPF/CNPJ").list().width(4),
    ];
    for (prefix, _) in DOCUMENTS {
        f.push(environment(&format!("EMPS_{prefix}_AMBIENTE")));
        f.push(
            Field::options(
                &format!("EMPS_{prefix}_REGIME"),
                "Regime Tributário (CRT)",
                DbType::Int,
                &REGIMES,
            )
            .width(4),
        );
        if prefix == "NFSE" {
            f.push(
                Field::text("EMPS_NFSE_SERIE", "Série do RPS")
                    .len(20)
                    .width(2),
            );
        } else {
            f.push(series(&format!("EMPS_{prefix}_SERIE")));
        }
    }
    f.extend([
        Field::int("EMPS_NFCE_IDCSC", "ID do CSC")
            .min("1")
            .max("999999")
            .width(2),
        secret("EMPS_NFCE_CSC", "CSC"),
        Field::int("EMPS_NFSE_LOTE", "Próximo Lote")
            .min("1")
            .width(2),
        Field::int("EMPS_NFSE_NR_RPS", "Próximo Número do RPS")
            .min("1")
            .width(3),
        Field::text("EMPS_NFSE_LOGIN", "Login da Prefeitura")
            .len(255)
            .width(4),
        secret("EMPS_NFSE_SENHA", "Senha da Prefeitura"),
        secret("EMPS_NFSE_TOKEN", "Token da Prefeitura"),
        Field::boolean("EMPS_NFSE_INC_FISCAL", "Incentivo Fiscal").default(false.into()),
        Field::options(
            "EMPS_NFSE_OPT_SIMPLES",
            "Simples Nacional",
            DbType::Int,
            &SIMPLES,
        ),
        Field::options(
            "EMPS_NFSE_REG_ESP_TRIB",
            "Regime Especial de Tributação",
            DbType::Int,
            &SPECIAL_REGIMES,
        ),
        environment("EMPS_NFCON_AMBIENTE"),
        Field::options(
            "EMPS_NFCON_REGIME",
            "Regime Tributário (CRT)",
            DbType::Int,
            &NFCOM_REGIMES,
        )
        .width(4),
        environment("EMPS_DIST_AMBIENTE"),
        Field::boolean("EMPS_DIST_CIENCIA_AUT", "Ciência Automática").default(false.into()),
        Field::boolean("EMPS_DIST_AUTOMATICA", "Distribuição Automática").default(false.into()),
        Field::upload("EMPS_CERTIFICADO", "Certificado Digital A1", &["pfx"]).width(6),
        Field::text("EMPS_CERT_TITULAR", "Titular")
            .read_only()
            .width(6),
        Field::text("EMPS_CERT_CPF_CNPJ", "CPF/CNPJ do Certificado")
            .read_only()
            .width(3),
        Field::text("EMPS_CERT_EMISSOR", "Autoridade Certificadora").read_only(),
        Field::text("EMPS_CERT_SERIE", "Número de Série")
            .read_only()
            .width(4),
        Field::date("EMPS_CERT_VALIDADE_INI", "Válido desde").read_only(),
        Field::date("EMPS_CERT_VALIDADE", "Válido até")
            .read_only()
            .list(),
        Field::boolean("EMPS_CERT_VENCIDO", "Vencido")
            .read_only()
            .width(2),
        Field::timestamp("EMPS_CERT_DTA_ENVIO", "Enviado à Nuvem Fiscal em"),
        Field::boolean("EMPS_CERT_NUVEMFISCAL", "Na Nuvem Fiscal")
            .read_only()
            .width(2),
    ]);
    f
}

fn empresasservicos(ctx: Arc<Ctx>) -> Resource {
    let mut r = Resource::new(
        NAME,
        "Serviços Fiscais da Empresa",
        SCHEMA,
        "empresas_servicos",
        "empresas",
    )
    .natural_key()
    .key(&["EMPS_EMP_ID"])
    .company("EMPS_EMP_ID")
    .label("EMPS_CPF_CNPJ")
    .order("EMPS_EMP_ID")
    .constraint(
        "empresas_servicos_pkey",
        "As configurações fiscais desta empresa já estão cadastradas: altere-as.",
    )
    .constraint("empresas_servicos_cpf_cnpj_key", provider::DOCUMENT_TAKEN)
    .hooks(Arc::new(settings::SettingsHooks(ctx.clone())))
    .sample(json!({
        "EMPS_CPF_CNPJ": "11.222.333/0001-81", "EMPS_NFE_AMBIENTE": 2, "EMPS_NFE_REGIME": 1,
        "EMPS_NFE_SERIE": 1, "EMPS_NFCE_SERIE": 1, "EMPS_NFCE_IDCSC": 1, "EMPS_NFSE_SERIE": "A",
        "EMPS_NFSE_LOTE": 1, "EMPS_NFSE_NR_RPS": 1, "EMPS_DIST_CIENCIA_AUT": true
    }))
    .fields(fields())
    .group(Some("Empresa"), true, 12, &["EMPS_EMP_ID", "EMPS_CPF_CNPJ"]);
    for (prefix, name) in DOCUMENTS {
        let names = ["AMBIENTE", "REGIME", "SERIE"].map(|s| format!("EMPS_{prefix}_{s}"));
        let mut group: Vec<&str> = names.iter().map(String::as_str).collect();
        match prefix {
            "NFCE" => group.extend(["EMPS_NFCE_IDCSC", "EMPS_NFCE_CSC"]),
            "NFSE" => group.extend([
                "EMPS_NFSE_LOTE",
                "EMPS_NFSE_NR_RPS",
                "EMPS_NFSE_OPT_SIMPLES",
                "EMPS_NFSE_REG_ESP_TRIB",
                "EMPS_NFSE_INC_FISCAL",
                "EMPS_NFSE_LOGIN",
                "EMPS_NFSE_SENHA",
                "EMPS_NFSE_TOKEN",
            ]),
            _ => {}
        }
        r = r.group(Some(name), true, 12, &group);
    }
    r.group(Some("NFCom"), true, 12, &["EMPS_NFCON_AMBIENTE", "EMPS_NFCON_REGIME"])
        .group(
            Some("Distribuição de NF-e"),
            true,
            12,
            &["EMPS_DIST_AMBIENTE", "EMPS_DIST_CIENCIA_AUT", "EMPS_DIST_AUTOMATICA"],
        )
        .group(
            Some("Certificado Digital"),
            true,
            12,
            &[
                "EMPS_CERTIFICADO",
                "EMPS_CERT_TITULAR",
                "EMPS_CERT_CPF_CNPJ",
                "EMPS_CERT_EMISSOR",
                "EMPS_CERT_SERIE",
                "EMPS_CERT_VALIDADE_INI",
                "EMPS_CERT_VALIDADE",
                "EMPS_CERT_VENCIDO",
                "EMPS_CERT_NUVEMFISCAL",
                "EMPS_CERT_DTA_ENVIO",
            ],
        )
        .action(
            "GET",
            "/empresasservicos/filtro/{emp}",
            "filtro",
            ActionPerm::View,
            "Serviços fiscais: configurações da empresa",
            Arc::new(settings::Filter),
        )
        .action(
            "PUT",
            "/empresasservicos/{emp}",
            "salvar",
            ActionPerm::Update,
            "Serviços fiscais: salvar as configurações da empresa",
            Arc::new(settings::Save),
        )
        .action(
            "PUT",
            "/empresasservicos/nuvemfiscal/{TIPO}/{EMP_CGC}",
            "nuvemfiscal",
            ActionPerm::Update,
            "Serviços fiscais: enviar à Nuvem Fiscal a configuração de um tipo de documento (nfe, nfce, nfse, cte, mdfe, distnfe, cte_os, dce, nfcom)",
            Arc::new(provider::PushConfig(ctx.clone())),
        )
        .upload_action(
            "PUT",
            "/empresasservicos/certificado/uploads/{emp}",
            "certificado",
            &["pfx"],
            "Serviços fiscais: enviar o certificado digital A1 (campos SENHA, CPF_CNPJ, EMPS_EMP_ID, EMPS_USR_ID)",
            Arc::new(certificate::Upload(ctx.clone())),
        )
        .action(
            "DELETE",
            "/empresasservicos/certificado/uploads/{emp}/{CPF_CNPJ}/{ARQUIVO}",
            "excluircertificado",
            ActionPerm::Delete,
            "Serviços fiscais: excluir o certificado digital",
            Arc::new(certificate::Remove(ctx.clone())),
        )
        .action(
            "POST",
            "/empresas/nuvemfiscal",
            "cadastrarnuvemfiscal",
            ActionPerm::Update,
            "Empresas: cadastrar (ou atualizar) a empresa na Nuvem Fiscal (campos EMP_* do cadastro da empresa)",
            Arc::new(registration::RegisterCompany(ctx.clone())),
        )
        .action(
            "DELETE",
            "/empresas/nuvemfiscal/{CPF_CNPJ}",
            "excluirnuvemfiscal",
            ActionPerm::Delete,
            "Empresas: excluir a empresa da Nuvem Fiscal",
            Arc::new(registration::RemoveCompany(ctx.clone())),
        )
        .upload_action(
            "PUT",
            "/empresas/nuvemfiscal/logo/{CPF_CNPJ}",
            "logonuvemfiscal",
            &["png", "jpeg"],
            "Empresas: enviar o logotipo da empresa à Nuvem Fiscal (PNG ou JPEG, até 200 KB)",
            Arc::new(registration::Logo(ctx.clone())),
        )
        .action(
            "DELETE",
            "/empresas/nuvemfiscal/logo/{CPF_CNPJ}",
            "excluirlogonuvemfiscal",
            ActionPerm::Delete,
            "Empresas: excluir o logotipo da empresa na Nuvem Fiscal",
            Arc::new(registration::RemoveLogo(ctx)),
        )
}

/// The company a call works in: the engine's, else the path's `{emp}`.
fn company(
    call_emp: Option<i64>,
    params: &std::collections::HashMap<String, String>,
) -> Result<i64> {
    erp_platform::resource::params::company(
        call_emp.or_else(|| erp_platform::resource::params::id_param(params, "emp").ok()),
    )
}

/// The bytes of the file an upload call received, removed from the uploads
/// folder at once (a certificate must not stay there in plain form, where
/// `/uploads/{emp}/{file}` would serve it). The gateway keeps the file under
/// the path's `{emp}`, else the user's current company.
pub(crate) async fn take_upload(
    uploads: &Path,
    caller: &erp_platform::grpc::Caller,
    params: &std::collections::HashMap<String, String>,
    body: &Value,
) -> Result<Vec<u8>> {
    let (name, _) = uploaded_file(body)?;
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(Error::validation("Arquivo inválido."));
    }
    let dir_emp = erp_platform::resource::params::id_param(params, "emp").unwrap_or(caller.emp_id);
    let path = uploads
        .join(caller.client_id.to_string())
        .join(dir_emp.to_string())
        .join(name);
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| Error::internal(format!("uploaded file {}: {e}", path.display())))?;
    if let Err(e) = tokio::fs::remove_file(&path).await {
        tracing::warn!(error = %e, file = %path.display(), "uploaded file not removed");
    }
    Ok(bytes)
}

/// A text value of a body (numbers as text), trimmed; `None` when blank.
fn text(body: &Value, key: &str) -> Option<String> {
    match body.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}
