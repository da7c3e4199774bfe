//! The company's A1 certificate: `PUT /empresasservicos/certificado/uploads/{emp}`
//! (multipart `file`, `SENHA`, `CPF_CNPJ`, `EMPS_EMP_ID`, `EMPS_USR_ID`) reads
//! it with its password, checks it belongs to the company, keeps the file and
//! the password sealed and, with Nuvem Fiscal credentials, hands it to the
//! provider; `DELETE /empresasservicos/certificado/uploads/{emp}/{CPF_CNPJ}/{ARQUIVO}`
//! removes it here and there.
//!
//! Without credentials the certificate is kept and the answer carries
//! `MISSING_CREDENTIALS` in `aviso` (not a failure): registering the company at
//! the provider later sends it along. An expired certificate is kept, flagged
//! (`EMPS_CERT_VENCIDO`) and not sent. A provider that refuses it leaves it
//! kept and flagged as not sent (`EMPS_CERT_NUVEMFISCAL` false), with the
//! provider's reason in `aviso`.

use std::sync::Arc;

use async_trait::async_trait;
use base64::Engine;
use chrono::Utc;
use erp_platform::db::Tx;
use erp_platform::resource::{uploaded_file, ActionHandler, Call};
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::provider::{claim, document, owned, provider_message, with_notice};
use super::settings::{load, shown};
use super::{company, place, take_upload, text, Ctx};
use crate::certificate::{brasilia_date, read_pfx, same_owner};
use crate::nuvemfiscal::MISSING_CREDENTIALS;

pub const NO_PASSWORD: &str = "Informe a senha do certificado digital.";
pub const NO_DOCUMENT: &str = "Informe o CPF/CNPJ da empresa (CPF_CNPJ).";
const PFX: &str = "EMPS_CERT_PFX";
const PASSWORD: &str = "EMPS_CERT_SENHA";

/// `PUT /empresasservicos/certificado/uploads/{emp}`.
pub(super) struct Upload(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Upload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let ctx = &self.0;
        // Read and removed from the uploads folder before anything can fail.
        let pfx = take_upload(&ctx.uploads, caller, params, &body).await?;
        let emp = company(emp, params)?;
        let original = uploaded_file(&body)?
            .1
            .unwrap_or("certificado.pfx")
            .to_string();
        let password = match body.get("SENHA") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err(Error::validation(NO_PASSWORD)),
        };
        let doc = match text(&body, "CPF_CNPJ") {
            Some(d) => document(&d)?,
            None => load(tx, res, caller, emp)
                .await?
                .and_then(|r| {
                    r.get("EMPS_CPF_CNPJ")
                        .and_then(Value::as_str)
                        .map(String::from)
                })
                .ok_or_else(|| Error::validation(NO_DOCUMENT))?,
        };
        let info = {
            let (pfx, password) = (pfx.clone(), password.clone());
            tokio::task::spawn_blocking(move || read_pfx(&pfx, &password))
                .await
                .map_err(Error::internal)??
        };
        if let Some(cert_doc) = &info.document {
            if !same_owner(cert_doc, &doc) {
                return Err(Error::validation(format!(
                    "O certificado digital é do CPF/CNPJ {}, que não é o da empresa ({}).",
                    masked(cert_doc),
                    masked(&doc)
                )));
            }
        }
        claim(tx, res, caller, emp, &doc).await?;
        let expired = info.expired_at(Utc::now());
        let client = caller.client_id;
        let sealed_pfx = ctx.sealer.seal(&pfx, &place(client, emp, PFX))?;
        let sealed_password = ctx
            .sealer
            .seal(password.as_bytes(), &place(client, emp, PASSWORD))?;
        sqlx::query(
            "UPDATE fiscal.empresas_servicos SET emps_certificado = $3, emps_cert_titular = $4,
                 emps_cert_cpf_cnpj = $5, emps_cert_emissor = $6, emps_cert_serie = $7,
                 emps_cert_validade_ini = $8, emps_cert_validade = $9, emps_cert_vencido = $10,
                 emps_cert_pfx = $11, emps_cert_senha = $12, emps_cert_nuvemfiscal = false,
                 emps_cert_dta_envio = NULL, emps_usr_id = coalesce($13, emps_usr_id)
             WHERE client_id = $1 AND emps_emp_id = $2",
        )
        .bind(client)
        .bind(emp)
        .bind(&original)
        .bind(&info.holder)
        .bind(&info.document)
        .bind(&info.issuer)
        .bind(&info.serial)
        .bind(info.valid_from())
        .bind(info.valid_until())
        .bind(expired)
        .bind(&sealed_pfx)
        .bind(&sealed_password)
        .bind((caller.user_id > 0).then_some(caller.user_id))
        .execute(&mut **tx)
        .await?;
        let mut notices = Vec::new();
        if expired {
            notices.push(format!(
                "Certificado digital vencido em {}: foi guardado, mas não serve para emitir documentos nem foi enviado à Nuvem Fiscal. Providencie a renovação.",
                info.valid_until().format("%d/%m/%Y")
            ));
        } else {
            match &ctx.client {
                None => notices.push(MISSING_CREDENTIALS.to_string()),
                Some(c) => {
                    if let Err(m) = push(tx, c, client, emp, &doc, &pfx, &password).await? {
                        notices.push(m);
                    }
                }
            }
        }
        let row = load(tx, res, caller, emp)
            .await?
            .ok_or_else(Error::not_found)?;
        let mut row = shown(row);
        if let Value::Object(m) = &mut row {
            m.insert(
                "msg".into(),
                Value::from("Certificado digital salvo com sucesso."),
            );
        }
        Ok(with_notice(row, notices))
    }
}

fn masked(doc: &str) -> String {
    CpfCnpj::parse(doc).map_or_else(|_| doc.to_string(), |d| d.to_string())
}

/// Sends the certificate to the provider and records it; the outer error is
/// the database's, the inner one the provider's refusal in words.
pub(super) async fn push(
    tx: &mut Tx,
    c: &crate::nuvemfiscal::NuvemFiscal,
    client: i64,
    emp: i64,
    doc: &str,
    pfx: &[u8],
    password: &str,
) -> Result<std::result::Result<(), String>> {
    let b64 = base64::engine::general_purpose::STANDARD.encode(pfx);
    if let Err(e) = c.cadastrar_certificado(doc, &b64, password).await {
        return Ok(Err(format!(
            "O certificado foi guardado, mas a Nuvem Fiscal não o aceitou: {}",
            provider_message(&e)
        )));
    }
    sqlx::query(
        "UPDATE fiscal.empresas_servicos SET emps_cert_nuvemfiscal = true, emps_cert_dta_envio = now()
         WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .execute(&mut **tx)
    .await?;
    Ok(Ok(()))
}

/// The kept certificate (file and password, opened) when it is valid and has
/// not reached the provider yet.
pub(super) async fn unsent(
    tx: &mut Tx,
    ctx: &Ctx,
    client: i64,
    emp: i64,
) -> Result<Option<(Vec<u8>, String)>> {
    let row: Option<(Vec<u8>, Vec<u8>)> = sqlx::query_as(
        "SELECT emps_cert_pfx, emps_cert_senha FROM fiscal.empresas_servicos
         WHERE client_id = $1 AND emps_emp_id = $2 AND emps_cert_pfx IS NOT NULL
           AND NOT emps_cert_nuvemfiscal AND emps_cert_validade >= $3",
    )
    .bind(client)
    .bind(emp)
    .bind(brasilia_date(Utc::now()))
    .fetch_optional(&mut **tx)
    .await?;
    let Some((pfx, password)) = row else {
        return Ok(None);
    };
    let pfx = ctx.sealer.open(&pfx, &place(client, emp, PFX))?;
    let password = ctx.sealer.open(&password, &place(client, emp, PASSWORD))?;
    let password = String::from_utf8(password).map_err(Error::internal)?;
    Ok(Some((pfx, password)))
}

/// `DELETE /empresasservicos/certificado/uploads/{emp}/{CPF_CNPJ}/{ARQUIVO}`:
/// the file name of the legacy path is not needed (the file is kept sealed in
/// the settings row, not in the uploads folder).
pub(super) struct Remove(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Remove {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp, call.params)?;
        let doc = document(erp_platform::resource::params::param(
            call.params,
            "CPF_CNPJ",
        )?)?;
        owned(tx, call.caller, emp, &doc).await?;
        sqlx::query(
            "UPDATE fiscal.empresas_servicos SET emps_certificado = NULL, emps_cert_titular = NULL,
                 emps_cert_cpf_cnpj = NULL, emps_cert_emissor = NULL, emps_cert_serie = NULL,
                 emps_cert_validade_ini = NULL, emps_cert_validade = NULL, emps_cert_vencido = NULL,
                 emps_cert_pfx = NULL, emps_cert_senha = NULL, emps_cert_nuvemfiscal = false,
                 emps_cert_dta_envio = NULL
             WHERE client_id = $1 AND emps_emp_id = $2",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .execute(&mut **tx)
        .await?;
        let mut notices = Vec::new();
        match &self.0.client {
            None => notices.push(MISSING_CREDENTIALS.to_string()),
            Some(c) => {
                if let Err(e) = c.excluir_certificado(&doc).await {
                    notices.push(format!(
                        "O certificado foi excluído aqui, mas não na Nuvem Fiscal: {}",
                        provider_message(&e)
                    ));
                }
            }
        }
        Ok(with_notice(
            json!({"code": 200, "msg": "Certificado digital excluído."}),
            notices,
        ))
    }
}
