//! Company operations of [`NuvemFiscal`]: the emitter's register, its
//! per-document settings, certificate and logo. `cpf_cnpj` is always the
//! digits alone.

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::client::{Body, NuvemFiscal, Replay};
use super::error::{Error, Result};
use super::paths;
use super::types::{
    Empresa, EmpresaCertificado, EmpresaConfigCte, EmpresaConfigCteOs, EmpresaConfigDce,
    EmpresaConfigDistribuicaoNfe, EmpresaConfigMdfe, EmpresaConfigNfce, EmpresaConfigNfcom,
    EmpresaConfigNfe, EmpresaConfigNfse, EmpresaListagem, EmpresaPedidoCadastroCertificado,
};

/// The spec's limit for `PUT /empresas/{cpf_cnpj}/logotipo`.
pub const LOGOTIPO_MAX_BYTES: usize = 200 * 1024;

impl NuvemFiscal {
    /// `POST /empresas`. Sent once, like an emission: after an unknown
    /// outcome, `consultar_empresa` tells whether it was created.
    pub async fn cadastrar_empresa(&self, empresa: &Empresa) -> Result<Empresa> {
        self.call(
            Method::POST,
            paths::EMPRESAS,
            &[],
            Body::json(empresa)?,
            Replay::Once,
        )
        .await
    }

    /// `GET /empresas?cpf_cnpj=`.
    pub async fn listar_empresas(&self, cpf_cnpj: Option<&str>) -> Result<EmpresaListagem> {
        let query: Vec<(&str, &str)> = cpf_cnpj.map(|c| ("cpf_cnpj", c)).into_iter().collect();
        self.call(
            Method::GET,
            paths::EMPRESAS,
            &query,
            Body::Empty,
            Replay::Safe,
        )
        .await
    }

    /// `GET /empresas/{cpf_cnpj}`.
    pub async fn consultar_empresa(&self, cpf_cnpj: &str) -> Result<Empresa> {
        self.get(paths::EMPRESA, cpf_cnpj).await
    }

    /// `PUT /empresas/{cpf_cnpj}`.
    pub async fn alterar_empresa(&self, cpf_cnpj: &str, empresa: &Empresa) -> Result<Empresa> {
        self.put(paths::EMPRESA, cpf_cnpj, empresa).await
    }

    /// `DELETE /empresas/{cpf_cnpj}`. A company that is not there (404) is
    /// taken as deleted, so a retried delete does not fail.
    pub async fn excluir_empresa(&self, cpf_cnpj: &str) -> Result<()> {
        self.delete(paths::EMPRESA, cpf_cnpj).await
    }

    /// `GET /empresas/{cpf_cnpj}/nfe`.
    pub async fn consultar_config_nfe(&self, cpf_cnpj: &str) -> Result<EmpresaConfigNfe> {
        self.get(paths::EMPRESA_NFE, cpf_cnpj).await
    }

    /// `PUT /empresas/{cpf_cnpj}/nfe`.
    pub async fn alterar_config_nfe(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigNfe,
    ) -> Result<EmpresaConfigNfe> {
        self.put(paths::EMPRESA_NFE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/nfce` (with the CSC in `sefaz`).
    pub async fn alterar_config_nfce(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigNfce,
    ) -> Result<EmpresaConfigNfce> {
        self.put(paths::EMPRESA_NFCE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/cte`.
    pub async fn alterar_config_cte(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigCte,
    ) -> Result<EmpresaConfigCte> {
        self.put(paths::EMPRESA_CTE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/mdfe`.
    pub async fn alterar_config_mdfe(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigMdfe,
    ) -> Result<EmpresaConfigMdfe> {
        self.put(paths::EMPRESA_MDFE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/nfse` (RPS numbering, city hall access).
    pub async fn alterar_config_nfse(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigNfse,
    ) -> Result<EmpresaConfigNfse> {
        self.put(paths::EMPRESA_NFSE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/cteos` (the CT-e OS).
    pub async fn alterar_config_cteos(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigCteOs,
    ) -> Result<EmpresaConfigCteOs> {
        self.put(paths::EMPRESA_CTEOS, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/dce`.
    pub async fn alterar_config_dce(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigDce,
    ) -> Result<EmpresaConfigDce> {
        self.put(paths::EMPRESA_DCE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/distnfe` (distribution of the NF-e received).
    pub async fn alterar_config_distnfe(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigDistribuicaoNfe,
    ) -> Result<EmpresaConfigDistribuicaoNfe> {
        self.put(paths::EMPRESA_DISTNFE, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/nfcom`.
    pub async fn alterar_config_nfcom(
        &self,
        cpf_cnpj: &str,
        config: &EmpresaConfigNfcom,
    ) -> Result<EmpresaConfigNfcom> {
        self.put(paths::EMPRESA_NFCOM, cpf_cnpj, config).await
    }

    /// `PUT /empresas/{cpf_cnpj}/certificado`: the .pfx/.p12 file in base64
    /// and its password.
    pub async fn cadastrar_certificado(
        &self,
        cpf_cnpj: &str,
        pfx_base64: &str,
        password: &str,
    ) -> Result<EmpresaCertificado> {
        if pfx_base64.trim().is_empty() {
            return Err(Error::Invalid(
                "Selecione o arquivo do certificado digital (.pfx ou .p12).".into(),
            ));
        }
        if password.is_empty() {
            return Err(Error::Invalid(
                "Informe a senha do certificado digital.".into(),
            ));
        }
        let pedido = EmpresaPedidoCadastroCertificado {
            certificado: pfx_base64.trim().to_string(),
            password: password.to_string(),
        };
        self.put(paths::EMPRESA_CERTIFICADO, cpf_cnpj, &pedido)
            .await
    }

    /// `GET /empresas/{cpf_cnpj}/certificado`.
    pub async fn consultar_certificado(&self, cpf_cnpj: &str) -> Result<EmpresaCertificado> {
        self.get(paths::EMPRESA_CERTIFICADO, cpf_cnpj).await
    }

    /// `DELETE /empresas/{cpf_cnpj}/certificado` (404 taken as deleted).
    pub async fn excluir_certificado(&self, cpf_cnpj: &str) -> Result<()> {
        self.delete(paths::EMPRESA_CERTIFICADO, cpf_cnpj).await
    }

    /// `PUT /empresas/{cpf_cnpj}/logotipo`: a PNG or JPEG of at most 200 KB
    /// (the spec's limits, checked here by the file's first bytes), sent as
    /// the multipart part `Input` the spec names.
    pub async fn enviar_logotipo(&self, cpf_cnpj: &str, imagem: Vec<u8>) -> Result<()> {
        let (mime, ext) = image_kind(&imagem)
            .ok_or_else(|| Error::Invalid("O logotipo deve ser uma imagem PNG ou JPEG.".into()))?;
        if imagem.len() > LOGOTIPO_MAX_BYTES {
            return Err(Error::Invalid(
                "O logotipo deve ter no máximo 200 KB.".into(),
            ));
        }
        let body = Body::Part {
            field: "Input",
            file_name: format!("logotipo.{ext}"),
            mime,
            content: imagem,
        };
        let path = paths::fill(paths::EMPRESA_LOGOTIPO, cpf_cnpj);
        self.call_empty(Method::PUT, &path, body, Replay::Safe)
            .await
    }

    /// `DELETE /empresas/{cpf_cnpj}/logotipo` (404 taken as deleted).
    pub async fn excluir_logotipo(&self, cpf_cnpj: &str) -> Result<()> {
        self.delete(paths::EMPRESA_LOGOTIPO, cpf_cnpj).await
    }

    async fn get<R: DeserializeOwned>(&self, template: &str, cpf_cnpj: &str) -> Result<R> {
        let path = paths::fill(template, cpf_cnpj);
        self.call(Method::GET, &path, &[], Body::Empty, Replay::Safe)
            .await
    }

    async fn put<T: Serialize, R: DeserializeOwned>(
        &self,
        template: &str,
        cpf_cnpj: &str,
        body: &T,
    ) -> Result<R> {
        let path = paths::fill(template, cpf_cnpj);
        self.call(Method::PUT, &path, &[], Body::json(body)?, Replay::Safe)
            .await
    }

    async fn delete(&self, template: &str, cpf_cnpj: &str) -> Result<()> {
        let path = paths::fill(template, cpf_cnpj);
        match self
            .call_empty(Method::DELETE, &path, Body::Empty, Replay::Safe)
            .await
        {
            Err(Error::Api { status: 404, .. }) => Ok(()),
            other => other,
        }
    }
}

/// MIME type and extension of a PNG or JPEG, by its signature.
pub(crate) fn image_kind(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(("image/png", "png"))
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(("image/jpeg", "jpg"))
    } else {
        None
    }
}
