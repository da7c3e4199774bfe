//! NF-e: totals (`total.ICMSTot`), transport (`transp`), billing (`cobr`),
//! payment (`pag.detPag`), additional information (`infAdic`) and the
//! technical contact (`infRespTec`).
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case, non_camel_case_types)]

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::nuvemfiscal::number as num;

/// Dados dos totais da NF-e.
///
/// Groups of the schema not modelled here: `ISSQNtot`, `retTrib`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazTotal {
    pub ICMSTot: NfeSefazICMSTot,
}

/// Totais referentes ao ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSTot {
    /// BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Valor Total do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Valor Total do ICMS desonerado.
    #[serde(with = "num")]
    pub vICMSDeson: Decimal,
    /// Valor total do ICMS relativo ao Fundo de Combate à Pobreza (FCP) para a UF de destino.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPUFDest: Option<Decimal>,
    /// Valor total do ICMS de partilha para a UF do destinatário.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSUFDest: Option<Decimal>,
    /// Valor total do ICMS de partilha para a UF do remetente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSUFRemet: Option<Decimal>,
    /// Valor Total do FCP (Fundo de Combate à Pobreza).
    #[serde(with = "num")]
    pub vFCP: Decimal,
    /// BC do ICMS ST.
    #[serde(with = "num")]
    pub vBCST: Decimal,
    /// Valor Total do ICMS ST.
    #[serde(with = "num")]
    pub vST: Decimal,
    /// Valor Total do FCP (Fundo de Combate à Pobreza) retido por substituição tributária.
    #[serde(with = "num")]
    pub vFCPST: Decimal,
    /// Valor Total do FCP (Fundo de Combate à Pobreza) retido anteriormente por substituição…
    #[serde(with = "num")]
    pub vFCPSTRet: Decimal,
    /// Valor total da quantidade tributada do ICMS monofásico próprio.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qBCMono: Option<Decimal>,
    /// Valor total do ICMS monofásico próprio.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSMono: Option<Decimal>,
    /// Valor total da quantidade tributada do ICMS monofásico sujeito a retenção.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qBCMonoReten: Option<Decimal>,
    /// Valor total do ICMS monofásico sujeito a retenção.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSMonoReten: Option<Decimal>,
    /// Valor total da quantidade tributada do ICMS monofásico retido anteriormente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qBCMonoRet: Option<Decimal>,
    /// Valor do ICMS monofásico retido anteriormente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSMonoRet: Option<Decimal>,
    /// Valor Total dos produtos e serviços.
    #[serde(with = "num")]
    pub vProd: Decimal,
    /// Valor Total do Frete.
    #[serde(with = "num")]
    pub vFrete: Decimal,
    /// Valor Total do Seguro.
    #[serde(with = "num")]
    pub vSeg: Decimal,
    /// Valor Total do Desconto.
    #[serde(with = "num")]
    pub vDesc: Decimal,
    /// Valor Total do II.
    #[serde(with = "num")]
    pub vII: Decimal,
    /// Valor Total do IPI.
    #[serde(with = "num")]
    pub vIPI: Decimal,
    /// Valor Total do IPI devolvido. Deve ser informado quando preenchido o Grupo Tributos Devolvidos…
    #[serde(with = "num")]
    pub vIPIDevol: Decimal,
    /// Valor do PIS.
    #[serde(with = "num")]
    pub vPIS: Decimal,
    /// Valor do COFINS.
    #[serde(with = "num")]
    pub vCOFINS: Decimal,
    /// Outras Despesas acessórias.
    #[serde(with = "num")]
    pub vOutro: Decimal,
    /// Valor Total da NF-e.
    #[serde(with = "num")]
    pub vNF: Decimal,
    /// Valor estimado total de impostos federais, estaduais e municipais.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vTotTrib: Option<Decimal>,
}

/// Dados dos transportes da NF-e.
///
/// Groups of the schema not modelled here: `retTransp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazTransp {
    /// Modalidade do frete.
    pub modFrete: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transporta: Option<NfeSefazTransporta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub veicTransp: Option<NfeSefazVeiculo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reboque: Vec<NfeSefazVeiculo>,
    /// Identificação do vagão (v2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vagao: Option<String>,
    /// Identificação da balsa (v2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balsa: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vol: Vec<NfeSefazVol>,
}

/// Dados do transportador.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazTransporta {
    /// CNPJ do transportador.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// CPF do transportador.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Razão Social ou nome do transportador.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    /// Inscrição Estadual (v2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Endereço completo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xEnder: Option<String>,
    /// Nome do munícipio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xMun: Option<String>,
    /// Sigla da UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
}

/// Dados do veículo.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazVeiculo {
    /// Placa do veículo (NT2011/004).
    pub placa: String,
    /// Sigla da UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
    /// Registro Nacional de Transportador de Carga (ANTT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub RNTC: Option<String>,
}

/// Dados dos volumes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazVol {
    /// Quantidade de volumes transportados.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qVol: Option<i64>,
    /// Espécie dos volumes transportados.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub esp: Option<String>,
    /// Marca dos volumes transportados.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marca: Option<String>,
    /// Numeração dos volumes transportados.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nVol: Option<String>,
    /// Peso líquido (em kg).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pesoL: Option<Decimal>,
    /// Peso bruto (em kg).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pesoB: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lacres: Vec<NfeSefazLacres>,
}

/// `NfeSefazLacres`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazLacres {
    /// Número dos Lacres.
    pub nLacre: String,
}

/// Dados da cobrança da NF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCobr {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fat: Option<NfeSefazFat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dup: Vec<NfeSefazDup>,
}

/// Dados da fatura.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazFat {
    /// Número da fatura.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nFat: Option<String>,
    /// Valor original da fatura.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vOrig: Option<Decimal>,
    /// Valor do desconto da fatura.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vDesc: Option<Decimal>,
    /// Valor líquido da fatura.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vLiq: Option<Decimal>,
}

/// Dados das duplicatas NT 2011/004.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazDup {
    /// Número da duplicata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nDup: Option<String>,
    /// Data de vencimento da duplicata (AAAA-MM-DD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dVenc: Option<NaiveDate>,
    /// Valor da duplicata.
    #[serde(with = "num")]
    pub vDup: Decimal,
}

/// Dados de Pagamento. Obrigatório apenas para (NFC-e) NT 2012/004.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazPag {
    pub detPag: Vec<NfeSefazDetPag>,
    /// Valor do Troco.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vTroco: Option<Decimal>,
}

/// Grupo de detalhamento da forma de pagamento.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazDetPag {
    /// Indicador da Forma de Pagamento:0-Pagamento à Vista.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indPag: Option<i32>,
    /// Forma de Pagamento:.
    pub tPag: String,
    /// Descrição do Meio de Pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xPag: Option<String>,
    /// Valor do Pagamento. Esta tag poderá ser omitida quando a tag tPag=90 (Sem Pagamento), caso…
    #[serde(with = "num")]
    pub vPag: Decimal,
    /// Data do Pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dPag: Option<NaiveDate>,
    /// CNPJ transacional do pagamento - Preencher informando o CNPJ do estabelecimento onde o…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJPag: Option<String>,
    /// UF do CNPJ do estabelecimento onde o pagamento foi processado/transacionado/recebido.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UFPag: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<NfeSefazCard>,
}

/// Grupo de Cartões, PIX, Boletos e outros Pagamentos Eletrônicos.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCard {
    /// Tipo de Integração do processo de pagamento com o sistema de automação da empresa.
    pub tpIntegra: i32,
    /// CNPJ da instituição de pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Bandeira da operadora de cartão.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tBand: Option<String>,
    /// Número de autorização da operação com cartões, PIX, boletos e outros pagamentos eletrônicos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cAut: Option<String>,
    /// CNPJ do beneficiário do pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJReceb: Option<String>,
    /// Identificador do terminal de pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idTermPag: Option<String>,
}

/// Informações adicionais da NF-e.
///
/// Groups of the schema not modelled here: `procRef`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfAdic {
    /// Informações adicionais de interesse do Fisco (v2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infAdFisco: Option<String>,
    /// Informações complementares de interesse do Contribuinte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infCpl: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obsCont: Vec<NfeSefazInfAdic_ObsCont>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obsFisco: Vec<NfeSefazInfAdic_ObsFisco>,
}

/// Campo de uso livre do contribuinte informar o nome do campo no atributo xCampo e o conteúdo do…
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfAdic_ObsCont {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCampo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xTexto: Option<String>,
}

/// Campo de uso exclusivo do Fisco informar o nome do campo no atributo xCampo e o conteúdo do…
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfAdic_ObsFisco {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCampo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xTexto: Option<String>,
}

/// Informações do Responsável Técnico pela emissão do DF-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazInfRespTec {
    /// CNPJ.
    pub CNPJ: String,
    /// Informar o nome da pessoa a ser contatada na empresa desenvolvedora do sistema utilizado na…
    pub xContato: String,
    /// Informar o e-mail da pessoa a ser contatada na empresa desenvolvedora do sistema.
    pub email: String,
    /// Informar o telefone da pessoa a ser contatada na empresa desenvolvedora do sistema.
    pub fone: String,
    /// Identificador do CSRT utilizado para montar o hash do CSRT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idCSRT: Option<i32>,
    /// Código de Segurança do Responsável Técnico utilizado para montar o hash do CSRT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CSRT: Option<String>,
    /// O hashCSRT é o resultado da função hash (SHA-1 - Base64) do CSRT fornecido pelo fisco mais a…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashCSRT: Option<String>,
}
