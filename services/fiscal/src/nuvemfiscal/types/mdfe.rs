//! MDF-e: the emission request (`MdfePedidoEmissao` → `infMDFe`), its
//! documents, totals, and the cancel and closing (encerramento) events; the
//! road modal is in `mdfe_road`.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::{DateTime, FixedOffset, NaiveDate};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::dfe::DfeAutorEvento;
use super::mdfe_road::MdfeSefazInfModal;
use super::{Ambiente, EventoStatus};
use crate::nuvemfiscal::number as num;

/// Pedido de emissão de MDF-e (`POST /mdfe`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfePedidoEmissao {
    pub infMDFe: MdfeSefazInfMDFe,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infMDFeSupl: Option<MdfeSefazInfMDFeSupl>,
    /// Identificação do Ambiente.
    pub ambiente: Ambiente,
    /// Seu identificador único para este documento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referencia: Option<String>,
}

/// Informações do MDF-e.
///
/// Groups of the schema not modelled here: `autXML`, `infSolicNFF`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfMDFe {
    /// Versão do leiaute. Ex: "3.00".
    pub versao: String,
    /// Identificador da tag a ser assinada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub Id: Option<String>,
    pub ide: MdfeSefazIde,
    pub emit: MdfeSefazEmit,
    pub infModal: MdfeSefazInfModal,
    pub infDoc: MdfeSefazInfDoc,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seg: Vec<MdfeSefazSeg>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prodPred: Option<MdfeSefazProdPred>,
    pub tot: MdfeSefazTot,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lacres: Vec<MdfeSefazLacres>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdic: Option<MdfeSefazInfAdic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infRespTec: Option<MdfeSefazRespTec>,
}

/// Identificação do MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazIde {
    /// Código da UF do emitente do MDF-e.
    pub cUF: i32,
    /// Tipo do Ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpAmb: Option<i32>,
    /// Tipo do Emitente.
    pub tpEmit: i32,
    /// Tipo do Transportador.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpTransp: Option<i32>,
    /// Modelo do Manifesto Eletrônico. Utilizar o código 58 para identificação do MDF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#mod: Option<i32>,
    /// Série do Manifesto. Informar a série do documento fiscal (informar zero se inexistente).
    pub serie: i32,
    /// Número do Manifesto. Número que identifica o Manifesto. 1 a 999999999.
    pub nMDF: i32,
    /// Código numérico que compõe a Chave de Acesso.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cMDF: Option<String>,
    /// Digito verificador da chave de acesso do Manifesto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cDV: Option<i32>,
    /// Modalidade de transporte.
    pub modal: i32,
    /// Data e hora de emissão do Manifesto.
    pub dhEmi: DateTime<FixedOffset>,
    /// Forma de emissão do Manifesto.
    pub tpEmis: i32,
    /// Identificação do processo de emissão do Manifesto.
    pub procEmi: String,
    /// Versão do processo de emissão. Informar a versão do aplicativo emissor de MDF-e.
    pub verProc: String,
    /// Sigla da UF do Carregamento. Utilizar a Tabela do IBGE de código de unidades da federação.
    pub UFIni: String,
    /// Sigla da UF do Descarregamento. Utilizar a Tabela do IBGE de código de unidades da federação.
    pub UFFim: String,
    pub infMunCarrega: Vec<MdfeSefazInfMunCarrega>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infPercurso: Vec<MdfeSefazInfPercurso>,
    /// Data e hora previstos de inicio da viagem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dhIniViagem: Option<DateTime<FixedOffset>>,
    /// Indicador de participação do Canal Verde.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indCanalVerde: Option<i32>,
    /// Indicador de MDF-e com inclusão da Carga posterior a emissão por evento de inclusão de DF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indCarregaPosterior: Option<i32>,
}

/// Informações dos Municípios de Carregamento.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfMunCarrega {
    /// Código do Município de Carregamento.
    pub cMunCarrega: String,
    /// Nome do Município de Carregamento.
    pub xMunCarrega: String,
}

/// Informações do Percurso do MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfPercurso {
    /// Sigla das Unidades da Federação do percurso do veículo.
    pub UFPer: String,
}

/// Identificação do Emitente do Manifesto.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazEmit {
    /// CNPJ do emitente. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// CPF do emitente. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual do emitemte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão social ou Nome do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    /// Nome fantasia do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xFant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enderEmit: Option<MdfeSefazEndeEmi>,
}

/// Endereço do emitente.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazEndeEmi {
    /// Logradouro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xLgr: Option<String>,
    /// Número.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nro: Option<String>,
    /// Complemento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCpl: Option<String>,
    /// Bairro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xBairro: Option<String>,
    /// Código do município (utilizar a tabela do IBGE), informar 9999999 para operações com o…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cMun: Option<String>,
    /// Nome do município, , informar EXTERIOR para operações com o exterior.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xMun: Option<String>,
    /// CEP. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEP: Option<String>,
    /// Sigla da UF, , informar EX para operações com o exterior.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    /// Endereço de E-mail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Informações dos Documentos fiscais vinculados ao manifesto.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfDoc {
    pub infMunDescarga: Vec<MdfeSefazInfMunDescarga>,
}

/// Informações dos Municípios de descarregamento.
///
/// Groups of the schema not modelled here: `infMDFeTransp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfMunDescarga {
    /// Código do Município de Descarregamento.
    pub cMunDescarga: String,
    /// Nome do Município de Descarregamento.
    pub xMunDescarga: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infCTe: Vec<MdfeSefazInfCTe>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infNFe: Vec<MdfeSefazInfNFe>,
}

/// Nota Fiscal Eletronica.
///
/// Groups of the schema not modelled here: `infUnidTransp`, `peri`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfNFe {
    /// Nota Fiscal Eletrônica.
    pub chNFe: String,
    /// Segundo código de barras.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub SegCodBarra: Option<String>,
    /// Indicador de Reentrega.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indReentrega: Option<i32>,
}

/// Conhecimentos de Tranporte - usar este grupo quando for prestador de serviço de transporte.
///
/// Groups of the schema not modelled here: `infUnidTransp`, `peri`, `infEntregaParcial`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfCTe {
    /// Conhecimento Eletrônico - Chave de Acesso.
    pub chCTe: String,
    /// Segundo código de barras.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub SegCodBarra: Option<String>,
    /// Indicador de Reentrega.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indReentrega: Option<i32>,
}

/// Informações de Seguro da Carga.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazSeg {
    pub infResp: MdfeSefazInfResp,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infSeg: Option<MdfeSefazInfSeg>,
    /// Número da Apólice. Obrigatório pela lei 11.442/07 (RCTRC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nApol: Option<String>,
    /// Número da Averbação. Informar as averbações do seguro.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nAver: Vec<String>,
}

/// Informações do responsável pelo seguro da carga.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfResp {
    /// Responsável pelo seguro. Preencher com.
    pub respSeg: i32,
    /// Número do CNPJ do responsável pelo seguro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF do responsável pelo seguro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
}

/// Informações da seguradora.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfSeg {
    /// Nome da Seguradora.
    pub xSeg: String,
    /// Número do CNPJ da seguradora. Obrigatório apenas se responsável pelo seguro for (2)…
    pub CNPJ: String,
}

/// Produto predominante. Informar a descrição do produto predominante.
///
/// Groups of the schema not modelled here: `infLotacao`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazProdPred {
    /// Tipo de Carga. Conforme Resolução ANTT nº. 5.849/2019.
    pub tpCarga: String,
    /// Descrição do produto.
    pub xProd: String,
    /// GTIN (Global Trade Item Number) do produto, antigo código EAN ou código de barras.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cEAN: Option<String>,
    /// Código NCM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub NCM: Option<String>,
}

/// Totalizadores da carga transportada e seus documentos fiscais.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazTot {
    /// Quantidade total de CT-e relacionados no Manifesto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qCTe: Option<i32>,
    /// Quantidade total de NF-e relacionadas no Manifesto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qNFe: Option<i32>,
    /// Quantidade total de MDF-e relacionados no Manifesto Aquaviário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qMDFe: Option<i32>,
    /// Valor total da carga / mercadorias transportadas.
    #[serde(with = "num")]
    pub vCarga: Decimal,
    /// Código da unidade de medida do Peso Bruto da Carga / Mercadorias transportadas.
    pub cUnid: String,
    /// Peso Bruto Total da Carga / Mercadorias transportadas.
    #[serde(with = "num")]
    pub qCarga: Decimal,
}

/// Lacres do MDF-e. Preechimento opcional para os modais Rodoviário e Ferroviário.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazLacres {
    /// número do lacre.
    pub nLacre: String,
}

/// Informações Adicionais.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfAdic {
    /// Informações adicionais de interesse do Fisco.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdFisco: Option<String>,
    /// Informações complementares de interesse do Contribuinte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infCpl: Option<String>,
}

/// Informações do Responsável Técnico pela emissão do DF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazRespTec {
    /// CNPJ da pessoa jurídica responsável técnica pelo sistema utilizado na emissão do documento…
    pub CNPJ: String,
    /// Nome da pessoa a ser contatada. Informar o nome da pessoa a ser contatada na empresa…
    pub xContato: String,
    /// Email da pessoa jurídica a ser contatada.
    pub email: String,
    /// Telefone da pessoa jurídica a ser contatada.
    pub fone: String,
    /// Identificador do código de segurança do responsável técnico.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idCSRT: Option<i32>,
    /// Código de Segurança do Responsável Técnico utilizado para montar o hash do CSRT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CSRT: Option<String>,
    /// Hash do token do código de segurança do responsável técnico.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashCSRT: Option<String>,
}

/// Informações suplementares do MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfMDFeSupl {
    /// Texto com o QR-Code para consulta do MDF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qrCodMDFe: Option<String>,
}

/// Pedido de cancelamento de MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfePedidoCancelamento {
    /// Justificativa para o cancelamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
}

/// Pedido de encerramento de MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfePedidoEncerramento {
    /// Data que o manifesto foi encerrado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_encerramento: Option<NaiveDate>,
    /// UF de encerramento do manifesto.
    pub uf: String,
    /// Código IBGE do Município de encerramento do manifesto.
    pub codigo_municipio: String,
}

/// Evento de encerramento de MDF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeEncerramento {
    /// Data que o manifesto foi encerrado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_encerramento: Option<NaiveDate>,
    /// UF de encerramento do manifesto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uf: Option<String>,
    /// Código do Município de encerramento do manifesto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_municipio: Option<String>,
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
