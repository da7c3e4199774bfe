//! The document answer shared by NF-e, CT-e and MDF-e (`Dfe`), listings,
//! synchronisation, and the cancel and correction-letter events.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Ambiente, DfeStatus, EventoStatus, SincronizacaoStatus};
use crate::nuvemfiscal::number as num;

/// Documento fiscal eletrônico na Nuvem Fiscal: a resposta de emissão, consulta e listagem.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Dfe {
    /// ID único gerado pela Nuvem Fiscal para este documento.
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    /// Data/hora em que o documento foi criado na Nuvem Fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    pub status: DfeStatus,
    /// Seu identificador único para este documento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referencia: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_emissao: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modelo: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serie: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_emissao: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub valor_total: Option<Decimal>,
    /// Chave de acesso do DF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autorizacao: Option<DfeAutorizacao>,
}

/// Resultado da autorização do documento na SEFAZ (cStat em `codigo_status`, xMotivo em `motivo_status`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeAutorizacao {
    /// Digest Value do DF-e processado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest_value: Option<String>,
    /// ID único gerado pela Nuvem Fiscal para este evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Identificação do ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    /// Status do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<EventoStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autor: Option<DfeAutorEvento>,
    /// Chave de Acesso do documento vinculado ao evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    /// Data e hora do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    /// Sequencial do evento para o mesmo tipo de evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    /// Data e hora do recebimento do Evento pela SEFAZ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    /// Código do status de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    /// Descrição literal do status do registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    /// Número do Protocolo de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
    /// Código da Mensagem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_mensagem: Option<i32>,
    /// Mensagem da SEFAZ para o emissor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mensagem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
}

/// Autor de um evento.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeAutorEvento {
    /// CPF/CNPJ do Autor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpf_cnpj: Option<String>,
}

/// Página de uma listagem de documentos.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeListagem {
    #[serde(rename = "@count", skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<Dfe>,
}

/// Resultado de uma sincronização do documento com a SEFAZ.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeSincronizacao {
    /// Situação atual da sincronização.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SincronizacaoStatus>,
    /// Código da situação atual do DF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    /// Descrição literal da situação atual do DF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    /// Data e hora de processamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    /// Chave de Acesso do DF-e consultado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave: Option<String>,
}

/// Pedido de cancelamento de NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfePedidoCancelamento {
    /// Justificativa para o cancelamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
}

/// Pedido de carta de correção de NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfePedidoCartaCorrecao {
    /// Correção a ser considerada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correcao: Option<String>,
}

/// Evento de cancelamento.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeCancelamento {
    /// Justificativa do cancelamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
    /// ID único gerado pela Nuvem Fiscal para este evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Identificação do ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    /// Status do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<EventoStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autor: Option<DfeAutorEvento>,
    /// Chave de Acesso do documento vinculado ao evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    /// Data e hora do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    /// Sequencial do evento para o mesmo tipo de evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    /// Data e hora do recebimento do Evento pela SEFAZ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    /// Código do status de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    /// Descrição literal do status do registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    /// Número do Protocolo de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
    /// Código da Mensagem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_mensagem: Option<i32>,
    /// Mensagem da SEFAZ para o emissor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mensagem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
}

/// Evento de carta de correção de NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DfeCartaCorrecao {
    /// Correção a ser considerada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correcao: Option<String>,
    /// ID único gerado pela Nuvem Fiscal para este evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Identificação do ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    /// Status do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<EventoStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autor: Option<DfeAutorEvento>,
    /// Chave de Acesso do documento vinculado ao evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    /// Data e hora do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    /// Sequencial do evento para o mesmo tipo de evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    /// Data e hora do recebimento do Evento pela SEFAZ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    /// Código do status de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    /// Descrição literal do status do registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    /// Número do Protocolo de registro do Evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
    /// Código da Mensagem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_mensagem: Option<i32>,
    /// Mensagem da SEFAZ para o emissor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mensagem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
}
