//! CT-e: the service (`vPrest`), its ICMS (`imp`), cargo, documents and
//! modal (`infCTeNorm`).
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case, non_camel_case_types)]

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::nuvemfiscal::number as num;

/// Valores da Prestação de Serviço.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazVPrest {
    /// Valor Total da Prestação do Serviço.
    #[serde(with = "num")]
    pub vTPrest: Decimal,
    /// Valor a Receber.
    #[serde(with = "num")]
    pub vRec: Decimal,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub Comp: Vec<CteSefazComp>,
}

/// Componentes do Valor da Prestação.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazComp {
    /// Nome do componente. Exxemplos: FRETE PESO, FRETE VALOR, SEC/CAT, ADEME, AGENDAMENTO, etc.
    pub xNome: String,
    /// Valor do componente.
    #[serde(with = "num")]
    pub vComp: Decimal,
}

/// Informações relativas aos Impostos.
///
/// Groups of the schema not modelled here: `ICMSUFFim`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCte_Imp {
    pub ICMS: CteSefazImp,
    /// Valor Total dos Tributos.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vTotTrib: Option<Decimal>,
    /// Informações adicionais de interesse do Fisco.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdFisco: Option<String>,
}

/// Grupo do ICMS da prestação: informe exatamente um dos subgrupos.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazImp {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS00: Option<CteSefazICMS00>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS20: Option<CteSefazICMS20>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS45: Option<CteSefazICMS45>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS60: Option<CteSefazICMS60>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS90: Option<CteSefazICMS90>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSOutraUF: Option<CteSefazICMSOutraUF>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN: Option<CteSefazICMSSN>,
}

/// Prestação sujeito à tributação normal do ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMS00 {
    /// classificação Tributária do Serviço.
    pub CST: String,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMS: Decimal,
    /// Valor do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
}

/// Prestação sujeito à tributação com redução de BC do ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMS20 {
    /// Classificação Tributária do serviço.
    pub CST: String,
    /// Percentual de redução da BC.
    #[serde(with = "num")]
    pub pRedBC: Decimal,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMS: Decimal,
    /// Valor do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Código de Benefício Fiscal na UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
}

/// ICMS Isento, não Tributado ou diferido.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMS45 {
    /// Classificação Tributária do Serviço.
    pub CST: String,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Código de Benefício Fiscal na UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
}

/// Tributação pelo ICMS60 - ICMS cobrado por substituição tributária.Responsabilidade do…
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMS60 {
    /// Classificação Tributária do Serviço.
    pub CST: String,
    /// Valor da BC do ICMS ST retido. Valor do frete sobre o qual será calculado o ICMS a ser…
    #[serde(with = "num")]
    pub vBCSTRet: Decimal,
    /// Valor do ICMS ST retido. Resultado da multiplicação do “vBCSTRet” x “pICMSSTRet” - que será…
    #[serde(with = "num")]
    pub vICMSSTRet: Decimal,
    /// Alíquota do ICMS. Percentual de Alíquota incidente na prestação de serviço de transporte.
    #[serde(with = "num")]
    pub pICMSSTRet: Decimal,
    /// Valor do Crédito outorgado/Presumido.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vCred: Option<Decimal>,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Código de Benefício Fiscal na UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
}

/// ICMS Outros.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMS90 {
    /// Classificação Tributária do Serviço.
    pub CST: String,
    /// Percentual de redução da BC.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBC: Option<Decimal>,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMS: Decimal,
    /// Valor do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Valor do Crédito Outorgado/Presumido.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vCred: Option<Decimal>,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Código de Benefício Fiscal na UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
}

/// ICMS devido à UF de origem da prestação, quando diferente da UF do emitente.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMSOutraUF {
    /// Classificação Tributária do Serviço.
    pub CST: String,
    /// Percentual de redução da BC.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCOutraUF: Option<Decimal>,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBCOutraUF: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMSOutraUF: Decimal,
    /// Valor do ICMS devido outra UF.
    #[serde(with = "num")]
    pub vICMSOutraUF: Decimal,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Código de Benefício Fiscal na UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cBenef: Option<String>,
}

/// Simples Nacional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazICMSSN {
    /// Classificação Tributária do Serviço.
    pub CST: String,
    /// Indica se o contribuinte é Simples Nacional 1=Sim.
    pub indSN: i32,
}

/// Grupo de informações do CT-e Normal e Substituto.
///
/// Groups of the schema not modelled here: `docAnt`, `cobr`, `infGlobalizado`, `infServVinc`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCTeNorm {
    pub infCarga: CteSefazInfCarga,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infDoc: Option<CteSefazInfDoc>,
    pub infModal: CteSefazInfModal,
    /// Informações dos veículos transportados.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub veicNovos: Vec<CteSefazVeicNovos>,
    /// Informações do CT-e de substituição.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infCteSub: Option<CteSefazInfCteSub>,
}

/// Informações do CT-e de substituição.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCteSub {
    /// Chave de acesso do CT-e a ser substituído (original).
    pub chCte: String,
    /// Indicador de CT-e Alteração de Tomador (1: the taker changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indAlteraToma: Option<i32>,
}

/// Informações da Carga do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCarga {
    /// Valor total da carga. Dever ser informado para todos os modais, com exceção para o Dutoviário.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vCarga: Option<Decimal>,
    /// Produto predominante. Informar a descrição do produto predominante.
    pub proPred: String,
    /// Outras características da carga.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xOutCat: Option<String>,
    pub infQ: Vec<CteSefazInfQ>,
    /// Valor da Carga para efeito de averbação.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vCargaAverb: Option<Decimal>,
}

/// Informações de quantidades da Carga do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfQ {
    /// Código da Unidade de Medida. Preencher com.
    pub cUnid: String,
    /// Tipo da Medida. Exemplos: PESO BRUTO, PESO DECLARADO, PESO CUBADO, PESO AFORADO, PESO AFERIDO,…
    pub tpMed: String,
    /// Quantidade.
    #[serde(with = "num")]
    pub qCarga: Decimal,
}

/// Informações dos documentos transportados pelo CT-e Opcional para Redespacho Intermediario e…
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfDoc {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infNF: Vec<CteSefazInfNF>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infNFe: Vec<CteSefazInfNFe>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infOutros: Vec<CteSefazInfOutros>,
}

/// Informações das NF. Este grupo deve ser informado quando o documento originário for NF.
///
/// Groups of the schema not modelled here: `infUnidCarga`, `infUnidTransp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfNF {
    /// Número do Romaneio da NF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nRoma: Option<String>,
    /// Número do Pedido da NF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nPed: Option<String>,
    /// Modelo da Nota Fiscal. Preencher com.
    pub r#mod: String,
    /// Série.
    pub serie: String,
    /// Número.
    pub nDoc: String,
    /// Data de Emissão. Formato AAAA-MM-DD.
    pub dEmi: NaiveDate,
    /// Valor da Base de Cálculo do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Valor Total do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Valor da Base de Cálculo do ICMS ST.
    #[serde(with = "num")]
    pub vBCST: Decimal,
    /// Valor Total do ICMS ST.
    #[serde(with = "num")]
    pub vST: Decimal,
    /// Valor Total dos Produtos.
    #[serde(with = "num")]
    pub vProd: Decimal,
    /// Valor Total da NF.
    #[serde(with = "num")]
    pub vNF: Decimal,
    /// CFOP Predominante. CFOP da NF ou, na existência de mais de um, predominância pelo critério de…
    pub nCFOP: String,
    /// Peso total em Kg.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub nPeso: Option<Decimal>,
    /// PIN SUFRAMA. PIN atribuído pela SUFRAMA para a operação.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PIN: Option<String>,
    /// Data prevista de entrega. Formato AAAA-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dPrev: Option<NaiveDate>,
}

/// Informações das NF-e.
///
/// Groups of the schema not modelled here: `infUnidCarga`, `infUnidTransp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfNFe {
    /// Chave de acesso da NF-e.
    pub chave: String,
    /// PIN SUFRAMA. PIN atribuído pela SUFRAMA para a operação.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PIN: Option<String>,
    /// Data prevista de entrega. Formato AAAA-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dPrev: Option<NaiveDate>,
}

/// Informações dos demais documentos.
///
/// Groups of the schema not modelled here: `infUnidCarga`, `infUnidTransp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfOutros {
    /// Tipo de documento originário. Preencher com.
    pub tpDoc: String,
    /// Descrição do documento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descOutros: Option<String>,
    /// Número.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nDoc: Option<String>,
    /// Data de Emissão. Formato AAAA-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dEmi: Option<NaiveDate>,
    /// Valor do documento.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vDocFisc: Option<Decimal>,
    /// Data prevista de entrega. Formato AAAA-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dPrev: Option<NaiveDate>,
}

/// Informações do modal.
///
/// Groups of the schema not modelled here: `aereo`, `ferrov`, `aquav`, `duto`, `multimodal`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfModal {
    /// Versão do leiaute específico para o Modal.
    pub versaoModal: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rodo: Option<CteSefazRodo>,
}

/// Informações do modal Rodoviário.
///
/// Groups of the schema not modelled here: `occ`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazRodo {
    /// Registro Nacional de Transportadores Rodoviários de Carga.
    pub RNTRC: String,
}

/// Informações do Responsável Técnico pela emissão do DF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazRespTec {
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

/// Informações suplementares do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCTeSupl {
    /// Texto com o QR-Code impresso no DACTE.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qrCodCTe: Option<String>,
}

/// Informações dos veículos transportados (`infCTeNorm.veicNovos`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazVeicNovos {
    /// Chassi do veículo.
    pub chassi: String,
    /// Cor do veículo. Código de cada montadora.
    pub cCor: String,
    /// Descrição da cor.
    pub xCor: String,
    /// Código Marca Modelo. Utilizar tabela RENAVAM.
    pub cMod: String,
    /// Valor Unitário do Veículo.
    #[serde(with = "num")]
    pub vUnit: rust_decimal::Decimal,
    /// Frete Unitário.
    #[serde(with = "num")]
    pub vFrete: rust_decimal::Decimal,
}
