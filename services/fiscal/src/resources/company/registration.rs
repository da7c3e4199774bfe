//! The company at the Nuvem Fiscal: `POST /empresas/nuvemfiscal` (registers it,
//! or updates it when the provider has it already, from the company register's
//! `EMP_*` fields in the body, and sends the certificate kept here that has not
//! reached the provider), `DELETE /empresas/nuvemfiscal/{CPF_CNPJ}`, and its
//! logo: `PUT` (multipart PNG or JPEG of at most 200 KB) and
//! `DELETE /empresas/nuvemfiscal/logo/{CPF_CNPJ}`.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::param;
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::certificate::{push, unsent};
use super::provider::{claim, client, document, owned, provider_error, with_notice};
use super::{company, take_upload, text, Ctx};
use crate::nuvemfiscal::types::{Empresa, EmpresaEndereco};
use crate::nuvemfiscal::{self as nf};

/// Fields the provider requires, with their labels on the company screen.
const REQUIRED: [(&str, &str); 7] = [
    ("EMP_DESCRICAO", "Razão Social"),
    ("EMP_EMAIL", "E-mail"),
    ("EMP_ENDERECO", "Endereço"),
    ("EMP_BAIRRO", "Bairro"),
    ("EMP_CID_IBGE", "Cidade (IBGE)"),
    ("EMP_UF", "UF"),
    ("EMP_CEP", "CEP"),
];

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// The provider's company from the company register's fields.
pub fn empresa(body: &Value, doc: &str) -> Result<Empresa> {
    let missing: Vec<&str> = REQUIRED
        .iter()
        .filter(|(k, _)| text(body, k).is_none())
        .map(|(_, label)| *label)
        .collect();
    if !missing.is_empty() {
        return Err(Error::validation(format!(
            "Para cadastrar a empresa na Nuvem Fiscal, informe: {}.",
            missing.join(", ")
        )));
    }
    let get = |k: &str| text(body, k).unwrap_or_default();
    let fone = text(body, "EMP_FONE")
        .and_then(|f| f.split([';', ',']).map(digits).find(|d| !d.is_empty()));
    Ok(Empresa {
        cpf_cnpj: doc.to_string(),
        created_at: None,
        updated_at: None,
        inscricao_estadual: text(body, "EMP_IE"),
        inscricao_municipal: text(body, "EMP_IM"),
        nome_razao_social: get("EMP_DESCRICAO"),
        nome_fantasia: text(body, "EMP_FANTASIA"),
        fone,
        email: get("EMP_EMAIL"),
        endereco: EmpresaEndereco {
            logradouro: get("EMP_ENDERECO"),
            numero: text(body, "EMP_NUMERO").unwrap_or_else(|| "S/N".into()),
            complemento: text(body, "EMP_COMPLEMENTO"),
            bairro: get("EMP_BAIRRO"),
            codigo_municipio: digits(&get("EMP_CID_IBGE")),
            cidade: text(body, "EMP_CIDADE"),
            uf: get("EMP_UF").to_ascii_uppercase(),
            codigo_pais: Some("1058".into()),
            pais: Some("Brasil".into()),
            cep: digits(&get("EMP_CEP")),
        },
    })
}

/// `POST /empresas/nuvemfiscal`.
pub(super) struct RegisterCompany(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for RegisterCompany {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let emp = company(emp, params)?;
        let raw = text(&body, "EMP_CGC")
            .or_else(|| text(&body, "CPF_CNPJ"))
            .ok_or_else(|| Error::validation("Informe o CNPJ/CPF da empresa (EMP_CGC)."))?;
        let doc = document(&raw)?;
        let empresa = empresa(&body, &doc)?;
        let c = client(&self.0)?;
        claim(tx, res, caller, emp, &doc).await?;
        let msg = match c.cadastrar_empresa(&empresa).await {
            Ok(_) => "Empresa cadastrada na Nuvem Fiscal.",
            Err(nf::Error::Api { status: 409, .. }) => {
                c.alterar_empresa(&doc, &empresa)
                    .await
                    .map_err(provider_error)?;
                "Cadastro da empresa atualizado na Nuvem Fiscal."
            }
            Err(e) => return Err(provider_error(e)),
        };
        let mut notices = Vec::new();
        let mut sent = false;
        if let Some((pfx, password)) = unsent(tx, &self.0, caller.client_id, emp).await? {
            match push(tx, c, caller.client_id, emp, &doc, &pfx, &password).await? {
                Ok(()) => sent = true,
                Err(m) => notices.push(m),
            }
        }
        Ok(with_notice(
            json!({"code": 200, "msg": msg, "cpf_cnpj": doc, "certificado_enviado": sent}),
            notices,
        ))
    }
}

/// `DELETE /empresas/nuvemfiscal/{CPF_CNPJ}`.
pub(super) struct RemoveCompany(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for RemoveCompany {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp, call.params)?;
        let doc = document(param(call.params, "CPF_CNPJ")?)?;
        owned(tx, call.caller, emp, &doc).await?;
        let c = client(&self.0)?;
        c.excluir_empresa(&doc).await.map_err(provider_error)?;
        // The provider forgets its certificate with it.
        sqlx::query(
            "UPDATE fiscal.empresas_servicos SET emps_cert_nuvemfiscal = false, emps_cert_dta_envio = NULL
             WHERE client_id = $1 AND emps_emp_id = $2",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .execute(&mut **tx)
        .await?;
        Ok(json!({"code": 200, "msg": "Empresa excluída da Nuvem Fiscal."}))
    }
}

/// `PUT /empresas/nuvemfiscal/logo/{CPF_CNPJ}` (multipart `file`).
pub(super) struct Logo(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Logo {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        // The provider keeps the logo: the uploaded copy goes at once.
        let image = take_upload(&self.0.uploads, caller, params, &body).await?;
        let emp = company(emp, params)?;
        let doc = document(param(params, "CPF_CNPJ")?)?;
        let c = client(&self.0)?;
        claim(tx, res, caller, emp, &doc).await?;
        c.enviar_logotipo(&doc, image)
            .await
            .map_err(provider_error)?;
        Ok(json!({"code": 200, "msg": "Logotipo enviado à Nuvem Fiscal."}))
    }
}

/// `DELETE /empresas/nuvemfiscal/logo/{CPF_CNPJ}`.
pub(super) struct RemoveLogo(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for RemoveLogo {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp, call.params)?;
        let doc = document(param(call.params, "CPF_CNPJ")?)?;
        owned(tx, call.caller, emp, &doc).await?;
        let c = client(&self.0)?;
        c.excluir_logotipo(&doc).await.map_err(provider_error)?;
        Ok(json!({"code": 200, "msg": "Logotipo excluído da Nuvem Fiscal."}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_company_comes_from_the_register_s_fields() {
        let body = json!({
            "EMP_DESCRICAO": "EMPRESA TESTE LTDA", "EMP_EMAIL": "fiscal@teste.com.br",
            "EMP_ENDERECO": "RUA A", "EMP_BAIRRO": "CENTRO", "EMP_CID_IBGE": 3106200,
            "EMP_UF": "mg", "EMP_CEP": "30.110-000", "EMP_FONE": "(31) 3333-4444;(31) 99999-0000"
        });
        let e = empresa(&body, "11444777000161").expect("complete");
        assert_eq!(
            (
                e.endereco.cep.as_str(),
                e.endereco.uf.as_str(),
                e.endereco.numero.as_str()
            ),
            ("30110000", "MG", "S/N")
        );
        assert_eq!(e.endereco.codigo_municipio, "3106200");
        assert_eq!(e.fone.as_deref(), Some("3133334444"));
        let msg = empresa(&json!({"EMP_DESCRICAO": "X"}), "11444777000161")
            .err()
            .map(|e| e.public_message());
        assert_eq!(
            msg.as_deref(),
            Some("Para cadastrar a empresa na Nuvem Fiscal, informe: E-mail, Endereço, Bairro, Cidade (IBGE), UF, CEP.")
        );
    }
}
