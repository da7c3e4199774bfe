//! Companies (`Empresa`), their per-document settings and certificate.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

use super::Ambiente;

/// Empresa (emitente) cadastrada na conta da Nuvem Fiscal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Empresa {
    /// CPF ou CNPJ da empresa.
    pub cpf_cnpj: String,
    /// Data/hora em que o objeto foi criado na Nuvem Fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    /// Data e hora que o objeto foi alterado pela última vez na Nuvem Fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<DateTime<FixedOffset>>,
    /// Inscrição estadual da empresa.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inscricao_estadual: Option<String>,
    /// Inscrição municipal da empresa.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inscricao_municipal: Option<String>,
    /// Razão social da empresa.
    pub nome_razao_social: String,
    /// Nome fantasia da empresa.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nome_fantasia: Option<String>,
    /// Telefone da empresa.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    /// Email da empresa.
    pub email: String,
    pub endereco: EmpresaEndereco,
}

/// Endereço da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaEndereco {
    /// Logradouro.
    pub logradouro: String,
    /// Número.
    pub numero: String,
    /// Complemento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complemento: Option<String>,
    /// Bairro.
    pub bairro: String,
    /// Código IBGE do município.
    pub codigo_municipio: String,
    /// Cidade.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cidade: Option<String>,
    /// Sigla do estado.
    pub uf: String,
    /// Código do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_pais: Option<String>,
    /// Nome do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pais: Option<String>,
    /// CEP.
    pub cep: String,
}

/// Página de uma listagem de empresas.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaListagem {
    #[serde(rename = "@count", skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<Empresa>,
}

/// Configuração de NF-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfe {
    /// Código de Regime Tributário. Este campo será preenchido com.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Configuração de NFC-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfce {
    /// Código de Regime Tributário. Este campo será preenchido com.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
    pub sefaz: EmpresaConfigNfceSefaz,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// CSC da NFC-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfceSefaz {
    /// Número de identificação do CSC.
    pub id_csc: i32,
    /// Código do CSC.
    pub csc: String,
}

/// Configuração de CT-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigCte {
    /// Código de Regime Tributário. Este campo será preenchido com.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Configuração de MDF-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigMdfe {
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Configuração de NFS-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regTrib: Option<EmpresaConfigNfseRegTrib>,
    pub rps: EmpresaConfigRps,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefeitura: Option<EmpresaConfigPrefeitura>,
    /// Indica se a empresa tem incentivo fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incentivo_fiscal: Option<bool>,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Regimes de tributação do prestador de serviços.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfseRegTrib {
    /// Situação perante o Simples Nacional: 1 não optante, 2 MEI, 3 ME/EPP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opSimpNac: Option<i32>,
    /// Regime de apuração do optante ME/EPP (1 a 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regApTribSN: Option<i32>,
    /// Regime Especial de Tributação (0 nenhum a 6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regEspTrib: Option<i32>,
}

/// Numeração de lote, série e RPS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigRps {
    /// Próximo número de lote.
    pub lote: i64,
    /// Série do RPS (número ou letras, conforme a prefeitura).
    pub serie: String,
    /// Próximo número de RPS.
    pub numero: i64,
}

/// Acesso ao webservice da prefeitura.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigPrefeitura {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub login: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub senha: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

impl std::fmt::Debug for EmpresaConfigPrefeitura {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |v: &Option<String>| v.as_ref().map(|_| "***");
        f.debug_struct("EmpresaConfigPrefeitura")
            .field("login", &self.login)
            .field("senha", &hidden(&self.senha))
            .field("token", &hidden(&self.token))
            .finish()
    }
}

/// Configuração de CT-e OS da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigCteOs {
    /// Código de Regime Tributário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Configuração de DC-e da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigDce {
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Configuração da distribuição de NF-e (notas recebidas) da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigDistribuicaoNfe {
    /// Distribuição automática pelo último NSU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribuicao_automatica: Option<bool>,
    /// Intervalo entre distribuições automáticas, de 1 a 24 horas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribuicao_intervalo_horas: Option<i32>,
    /// Manifestação de ciência automática das notas recebidas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ciencia_automatica: Option<bool>,
    /// Ambiente da SEFAZ consultado.
    pub ambiente: Ambiente,
}

/// Configuração de NFCom da empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaConfigNfcom {
    /// Código de Regime Tributário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
    /// Indica se a empresa irá emitir em produção ou homologação.
    pub ambiente: Ambiente,
}

/// Certificado digital vinculado à empresa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaCertificado {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuer_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_valid_before: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_valid_after: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thumbprint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpf_cnpj: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nome_razao_social: Option<String>,
}

/// Pedido de cadastro de certificado (binário .pfx/.p12 em base64 e senha).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpresaPedidoCadastroCertificado {
    /// Binário do certificado digital (.pfx ou .p12) codificado em base64.
    pub certificado: String,
    /// Senha do certificado.
    pub password: String,
}
