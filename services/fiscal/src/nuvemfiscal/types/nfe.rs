//! NF-e: the emission request and its identification, parties and items
//! (`NfePedidoEmissao` → `infNFe` → `ide`, `emit`, `dest`, `det[].prod`).
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::nfe_taxes::NfeSefazImposto;
use super::nfe_totals::{
    NfeSefazCobr, NfeSefazInfAdic, NfeSefazInfRespTec, NfeSefazPag, NfeSefazTotal, NfeSefazTransp,
};
use super::Ambiente;
use crate::nuvemfiscal::number as num;

/// Pedido de emissão de NF-e (`POST /nfe`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfePedidoEmissao {
    pub infNFe: NfeSefazInfNFe,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infNFeSupl: Option<NfeSefazInfNFeSupl>,
    /// Identificação do Ambiente.
    pub ambiente: Ambiente,
    /// Seu identificador único para este documento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referencia: Option<String>,
}

/// Informações da Nota Fiscal eletrônica.
///
/// Groups of the schema not modelled here: `avulsa`, `retirada`, `entrega`, `infIntermed`, `exporta`, `compra`, `cana`, `infSolicNFF`, `agropecuario`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfNFe {
    /// Versão do leiaute (v4.00).
    pub versao: String,
    /// PL_005d - 11/08/09 - validação do Id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub Id: Option<String>,
    pub ide: NfeSefazIde,
    pub emit: NfeSefazEmit,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dest: Option<NfeSefazDest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub autXML: Vec<NfeSefazAutXML>,
    pub det: Vec<NfeSefazDet>,
    pub total: NfeSefazTotal,
    pub transp: NfeSefazTransp,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cobr: Option<NfeSefazCobr>,
    pub pag: NfeSefazPag,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdic: Option<NfeSefazInfAdic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infRespTec: Option<NfeSefazInfRespTec>,
}

/// identificação da NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazIde {
    /// Código da UF do emitente do Documento Fiscal.
    pub cUF: i32,
    /// Código numérico que compõe a Chave de Acesso.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cNF: Option<String>,
    /// Descrição da Natureza da Operação.
    pub natOp: String,
    /// Código do modelo do Documento Fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#mod: Option<i32>,
    /// Série do Documento Fiscal.
    pub serie: i32,
    /// Número do Documento Fiscal.
    pub nNF: i32,
    /// Data e Hora de emissão do Documento Fiscal (AAAA-MM-DDThh:mm:ssTZD) ex.:…
    pub dhEmi: DateTime<FixedOffset>,
    /// Data e Hora da saída ou de entrada da mercadoria / produto (AAAA-MM-DDTHH:mm:ssTZD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dhSaiEnt: Option<DateTime<FixedOffset>>,
    /// Tipo do Documento Fiscal.
    pub tpNF: i32,
    /// Identificador de Local de destino da operação.
    pub idDest: i32,
    /// Código do Município de Ocorrência do Fato Gerador (utilizar a tabela do IBGE).
    pub cMunFG: String,
    /// Formato de impressão do DANFE.
    pub tpImp: i32,
    /// Forma de emissão da NF-e.
    pub tpEmis: i32,
    /// Digito Verificador da Chave de Acesso da NF-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cDV: Option<i32>,
    /// Identificação do Ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpAmb: Option<i32>,
    /// Finalidade da emissão da NF-e.
    pub finNFe: i32,
    /// Indica operação com consumidor final.
    pub indFinal: i32,
    /// Indicador de presença do comprador no estabelecimento comercial no momento da operação.
    pub indPres: i32,
    /// Indicador de intermediador/marketplace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indIntermed: Option<i32>,
    /// Processo de emissão utilizado com a seguinte codificação.
    pub procEmi: i32,
    /// versão do aplicativo utilizado no processo de emissão.
    pub verProc: String,
    /// Informar a data e hora de entrada em contingência contingência no formato…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dhCont: Option<DateTime<FixedOffset>>,
    /// Informar a Justificativa da entrada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xJust: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub NFref: Vec<NfeSefazNFref>,
}

/// Grupo de infromações da NF referenciada.
///
/// Groups of the schema not modelled here: `refNFP`, `refECF`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazNFref {
    /// Chave de acesso das NF-e referenciadas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refNFe: Option<String>,
    /// Referencia uma NF-e (modelo 55) emitida anteriormente pela sua Chave de Acesso com código…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refNFeSig: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refNF: Option<NfeSefazRefNF>,
    /// Utilizar esta TAG para referenciar um CT-e emitido anteriormente, vinculada a NF-e atual.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refCTe: Option<String>,
}

/// Dados da NF modelo 1/1A referenciada ou NF modelo 2 referenciada.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazRefNF {
    /// Código da UF do emitente do Documento Fiscal.
    pub cUF: i32,
    /// AAMM da emissão.
    pub AAMM: String,
    /// CNPJ do emitente do documento fiscal referenciado.
    pub CNPJ: String,
    /// Código do modelo do Documento Fiscal.
    pub r#mod: String,
    /// Série do Documento Fiscal, informar zero se inexistente.
    pub serie: i32,
    /// Número do Documento Fiscal.
    pub nNF: i32,
}

/// Identificação do emitente.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazEmit {
    /// Número do CNPJ do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Razão Social ou Nome do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    /// Nome fantasia.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xFant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enderEmit: Option<NfeSefazEnderEmi>,
    /// Inscrição Estadual do Emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Inscricao Estadual do Substituto Tributário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IEST: Option<String>,
    /// Inscrição Municipal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IM: Option<String>,
    /// CNAE Fiscal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNAE: Option<String>,
    /// Código de Regime Tributário. Este campo será obrigatoriamente preenchido com.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
}

/// Endereço do emitente.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazEnderEmi {
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
    /// Código do município.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cMun: Option<String>,
    /// Nome do município.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xMun: Option<String>,
    /// Sigla da UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
    /// CEP - NT 2011/004.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEP: Option<String>,
    /// Código do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cPais: Option<String>,
    /// Nome do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xPais: Option<String>,
    /// Preencher com Código DDD + número do telefone (v.2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
}

/// Identificação do Destinatário.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazDest {
    /// Número do CNPJ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Identificador do destinatário, em caso de comprador estrangeiro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idEstrangeiro: Option<String>,
    /// Razão Social ou nome do destinatário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enderDest: Option<NfeSefazEndereco>,
    /// Indicador da IE do destinatário.
    pub indIEDest: i32,
    /// Inscrição Estadual (obrigatório nas operações com contribuintes do ICMS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Inscrição na SUFRAMA (Obrigatório nas operações com as áreas com benefícios de incentivos…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ISUF: Option<String>,
    /// Inscrição Municipal do tomador do serviço.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IM: Option<String>,
    /// Informar o e-mail do destinatário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Dados do endereço.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazEndereco {
    /// Logradouro.
    pub xLgr: String,
    /// Número.
    pub nro: String,
    /// Complemento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCpl: Option<String>,
    /// Bairro.
    pub xBairro: String,
    /// Código do município (utilizar a tabela do IBGE), informar 9999999 para operações com o…
    pub cMun: String,
    /// Nome do município, informar EXTERIOR para operações com o exterior.
    pub xMun: String,
    /// Sigla da UF, informar EX para operações com o exterior.
    pub UF: String,
    /// CEP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEP: Option<String>,
    /// Código de Pais.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cPais: Option<String>,
    /// Nome do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xPais: Option<String>,
    /// Telefone, preencher com Código DDD + número do telefone , nas operações com exterior é…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
}

/// Pessoas autorizadas para o download do XML da NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazAutXML {
    /// CNPJ Autorizado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// CPF Autorizado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
}

/// Dados dos detalhes da NF-e.
///
/// Groups of the schema not modelled here: `impostoDevol`, `obsItem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazDet {
    /// Número do item do NF.
    pub nItem: i32,
    pub prod: NfeSefazProd,
    pub imposto: NfeSefazImposto,
    /// Informações adicionais do produto (norma referenciada, informações complementares, etc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdProd: Option<String>,
}

/// Dados dos produtos e serviços da NF-e.
///
/// Groups of the schema not modelled here: `gCred`, `DI`, `detExport`, `rastro`, `infProdNFF`, `infProdEmb`, `veicProd`, `med`, `arma`, `comb`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazProd {
    /// Código do produto ou serviço. Preencher com CFOP caso se trate de itens não relacionados com…
    pub cProd: String,
    /// GTIN (Global Trade Item Number) do produto, antigo código EAN ou código de barras.
    pub cEAN: String,
    /// Codigo de barras diferente do padrão GTIN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBarra: Option<String>,
    /// Descrição do produto ou serviço.
    pub xProd: String,
    /// Código NCM (8 posições), será permitida a informação do gênero (posição do capítulo do NCM)…
    pub NCM: String,
    /// Nomenclatura de Valor aduaneio e Estatístico.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub NVE: Vec<String>,
    /// Codigo especificador da Substuicao Tributaria - CEST, que identifica a mercadoria sujeita aos…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEST: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indEscala: Option<String>,
    /// CNPJ do Fabricante da Mercadoria, obrigatório para produto em escala NÃO relevante.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJFab: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
    /// Código EX TIPI (3 posições).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub EXTIPI: Option<String>,
    /// Cfop.
    pub CFOP: String,
    /// Unidade comercial.
    pub uCom: String,
    /// Quantidade Comercial do produto, alterado para aceitar de 0 a 4 casas decimais e 11 inteiros.
    #[serde(with = "num")]
    pub qCom: Decimal,
    /// Valor unitário de comercialização - alterado para aceitar 0 a 10 casas decimais e 11 inteiros.
    #[serde(with = "num")]
    pub vUnCom: Decimal,
    /// Valor bruto do produto ou serviço.
    #[serde(with = "num")]
    pub vProd: Decimal,
    /// GTIN (Global Trade Item Number) da unidade tributável, antigo código EAN ou código de barras.
    pub cEANTrib: String,
    /// Código de barras da unidade tributável diferente do padrão GTIN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBarraTrib: Option<String>,
    /// Unidade Tributável.
    pub uTrib: String,
    /// Quantidade Tributável - alterado para aceitar de 0 a 4 casas decimais e 11 inteiros.
    #[serde(with = "num")]
    pub qTrib: Decimal,
    /// Valor unitário de tributação - - alterado para aceitar 0 a 10 casas decimais e 11 inteiros.
    #[serde(with = "num")]
    pub vUnTrib: Decimal,
    /// Valor Total do Frete.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFrete: Option<Decimal>,
    /// Valor Total do Seguro.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vSeg: Option<Decimal>,
    /// Valor do Desconto.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vDesc: Option<Decimal>,
    /// Outras despesas acessórias.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vOutro: Option<Decimal>,
    /// Este campo deverá ser preenchido com.
    pub indTot: i32,
    /// pedido de compra - Informação de interesse do emissor para controle do B2B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xPed: Option<String>,
    /// Número do Item do Pedido de Compra - Identificação do número do item do pedido de Compra.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nItemPed: Option<i32>,
    /// Número de controle da FCI - Ficha de Conteúdo de Importação.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nFCI: Option<String>,
    /// Número do RECOPI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nRECOPI: Option<String>,
}

/// Informações suplementares Nota Fiscal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfNFeSupl {
    /// Texto com o QR-Code impresso no DANFE NFC-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qrCode: Option<String>,
    /// Informar a URL da "Consulta por chave de acesso da NFC-e".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urlChave: Option<String>,
}
