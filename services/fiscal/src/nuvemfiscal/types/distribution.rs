//! Distribuição de NF-e (the documents issued against a company, fetched from
//! the Ambiente Nacional by NSU) and the recipient's manifestation events.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58
//! (`DistribuicaoNfePedido`, `DistribuicaoNfe`, `DistribuicaoNfeDocumento`,
//! `DistribuicaoNfeDocumentoListagem`, `DistribuicaoNfePedidoManifestacao`,
//! `DistribuicaoNfeEvento`).

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Ambiente;
use crate::nuvemfiscal::number as num;

/// `tipo_consulta` of a distribution request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TipoConsultaDistribuicao {
    /// Everything after the last NSU received (`dist_nsu`).
    #[serde(rename = "dist-nsu")]
    DistNsu,
    /// The one document of an NSU (`cons_nsu`).
    #[serde(rename = "cons-nsu")]
    ConsNsu,
    /// The NF-e of an access key (`cons_chave`).
    #[serde(rename = "cons-chave")]
    ConsChave,
}

/// Pedido de distribuição de DF-e de interesse do CPF/CNPJ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfePedido {
    /// CPF ou CNPJ da empresa, sem máscara.
    pub cpf_cnpj: String,
    pub ambiente: Ambiente,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uf_autor: Option<String>,
    pub tipo_consulta: TipoConsultaDistribuicao,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dist_nsu: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cons_nsu: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cons_chave: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignorar_tempo_espera: Option<bool>,
}

/// `status` of a distribution request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DistribuicaoStatus {
    Processando,
    Concluido,
    Erro,
}

/// Um pedido de distribuição e o que ele trouxe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfe {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    pub status: DistribuicaoStatus,
    pub ambiente: Ambiente,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uf_autor: Option<String>,
    pub tipo_consulta: TipoConsultaDistribuicao,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dist_nsu: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cons_nsu: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cons_chave: Option<String>,
    /// cStat of the Ambiente Nacional (138 documents found, 137 none).
    pub codigo_status: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    pub data_hora_resposta: DateTime<FixedOffset>,
    /// The last NSU searched: the next `dist-nsu` starts after it.
    pub ultimo_nsu: i64,
    /// The highest NSU there is for the CPF/CNPJ.
    pub max_nsu: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documentos: Vec<DistribuicaoNfeDocumento>,
}

/// A document distributed: the NF-e summary (`resNFe`), the whole NF-e
/// (`procNFe`) or an event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfeDocumento {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nsu: Option<i64>,
    /// The XML schema of the content (`resNFe_v1.01.xsd`, `procNFe_v4.00.xsd`, ...).
    pub schema: String,
    /// `nota` or `evento`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_documento: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    /// True when only the summary was distributed (no manifestation yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumo: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
    /// 0 entrada, 1 saída.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_nfe: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub valor_nfe: Option<Decimal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitente_cpf_cnpj: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitente_nome_razao_social: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitente_inscricao_estadual: Option<String>,
}

/// `GET /distribuicao/nfe/documentos`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfeDocumentoListagem {
    #[serde(rename = "@count", skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    #[serde(default)]
    pub data: Vec<DistribuicaoNfeDocumento>,
}

/// The recipient's manifestation (`tipo_evento`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TipoManifestacao {
    /// Confirmação da Operação.
    #[serde(rename = "210200")]
    Confirmacao,
    /// Ciência da Operação.
    #[serde(rename = "210210")]
    Ciencia,
    /// Desconhecimento da Operação (needs a justification).
    #[serde(rename = "210220")]
    Desconhecimento,
    /// Operação não Realizada (needs a justification).
    #[serde(rename = "210240")]
    NaoRealizada,
}

impl TipoManifestacao {
    pub const ALL: [TipoManifestacao; 4] = [
        TipoManifestacao::Ciencia,
        TipoManifestacao::Confirmacao,
        TipoManifestacao::Desconhecimento,
        TipoManifestacao::NaoRealizada,
    ];

    /// The event code (`210200`...).
    pub fn code(self) -> &'static str {
        match self {
            TipoManifestacao::Confirmacao => "210200",
            TipoManifestacao::Ciencia => "210210",
            TipoManifestacao::Desconhecimento => "210220",
            TipoManifestacao::NaoRealizada => "210240",
        }
    }

    pub fn from_code(code: &str) -> Option<TipoManifestacao> {
        Self::ALL.into_iter().find(|t| t.code() == code.trim())
    }

    /// The name the SEFAZ gives it, as the screen shows it.
    pub fn text(self) -> &'static str {
        match self {
            TipoManifestacao::Confirmacao => "Confirmação da Operação",
            TipoManifestacao::Ciencia => "Ciência da Operação",
            TipoManifestacao::Desconhecimento => "Desconhecimento da Operação",
            TipoManifestacao::NaoRealizada => "Operação não Realizada",
        }
    }

    /// Desconhecimento and não realizada must say why.
    pub fn needs_justification(self) -> bool {
        matches!(
            self,
            TipoManifestacao::Desconhecimento | TipoManifestacao::NaoRealizada
        )
    }
}

/// Pedido de manifestação do destinatário.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfePedidoManifestacao {
    /// CPF ou CNPJ do autor do evento, sem máscara.
    pub cpf_cnpj: String,
    pub ambiente: Ambiente,
    pub chave_acesso: String,
    pub tipo_evento: TipoManifestacao,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
}

/// The manifestation event as registered (or refused) by the SEFAZ.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DistribuicaoNfeEvento {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    /// `pendente`, `registrado`, `rejeitado`, `erro`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpf_cnpj_autor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_registro: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
}
