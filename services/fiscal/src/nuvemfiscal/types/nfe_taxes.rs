//! NF-e: the taxes of an item (`det[].imposto`): ICMS (regime normal and
//! Simples Nacional groups), IPI, PIS and COFINS.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::nuvemfiscal::number as num;

/// Tributos incidentes nos produtos ou serviços da NF-e.
///
/// Groups of the schema not modelled here: `II`, `ISSQN`, `PISST`, `COFINSST`, `ICMSUFDest`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazImposto {
    /// Valor estimado total de impostos federais, estaduais e municipais.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vTotTrib: Option<Decimal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS: Option<NfeSefazICMS>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IPI: Option<NfeSefazIpi>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PIS: Option<NfeSefazPIS>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub COFINS: Option<NfeSefazCOFINS>,
}

/// Grupo do ICMS do item: informe exatamente um dos subgrupos.
///
/// Groups of the schema not modelled here: `ICMS02`, `ICMS15`, `ICMS30`, `ICMS51`, `ICMS53`, `ICMS61`, `ICMS70`, `ICMSPart`, `ICMSST`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS00: Option<NfeSefazICMS00>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS10: Option<NfeSefazICMS10>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS20: Option<NfeSefazICMS20>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS40: Option<NfeSefazICMS40>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS60: Option<NfeSefazICMS60>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMS90: Option<NfeSefazICMS90>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN101: Option<NfeSefazICMSSN101>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN102: Option<NfeSefazICMSSN102>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN201: Option<NfeSefazICMSSN201>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN202: Option<NfeSefazICMSSN202>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN500: Option<NfeSefazICMSSN500>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ICMSSN900: Option<NfeSefazICMSSN900>,
}

/// Tributação pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS00 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributção pelo ICMS.
    pub CST: String,
    /// Modalidade de determinação da BC do ICMS.
    pub modBC: i32,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMS: Decimal,
    /// Valor do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Percentual de ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCP: Option<Decimal>,
    /// Valor do ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCP: Option<Decimal>,
}

/// Tributação pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS10 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CST: String,
    /// Modalidade de determinação da BC do ICMS.
    pub modBC: i32,
    /// Valor da BC do ICMS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do ICMS.
    #[serde(with = "num")]
    pub pICMS: Decimal,
    /// Valor do ICMS.
    #[serde(with = "num")]
    pub vICMS: Decimal,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCP: Option<Decimal>,
    /// Percentual de ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCP: Option<Decimal>,
    /// Valor do ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCP: Option<Decimal>,
    /// Modalidade de determinação da BC do ICMS ST.
    pub modBCST: i32,
    /// Percentual da Margem de Valor Adicionado ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pMVAST: Option<Decimal>,
    /// Percentual de redução da BC ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCST: Option<Decimal>,
    /// Valor da BC do ICMS ST.
    #[serde(with = "num")]
    pub vBCST: Decimal,
    /// Alíquota do ICMS ST.
    #[serde(with = "num")]
    pub pICMSST: Decimal,
    /// Valor do ICMS ST.
    #[serde(with = "num")]
    pub vICMSST: Decimal,
    /// Valor da Base de cálculo do FCP retido por substituicao tributaria.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPST: Option<Decimal>,
    /// Percentual de FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPST: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPST: Option<Decimal>,
    /// Valor do ICMS-ST desonerado.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSTDeson: Option<Decimal>,
    /// Motivo da desoneração do ICMS-ST: 3-Uso na agropecuária.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motDesICMSST: Option<i32>,
}

/// Tributção pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS20 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributção pelo ICMS.
    pub CST: String,
    /// Modalidade de determinação da BC do ICMS.
    pub modBC: i32,
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
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCP: Option<Decimal>,
    /// Percentual de ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCP: Option<Decimal>,
    /// Valor do ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCP: Option<Decimal>,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Motivo da desoneração do ICMS:3-Uso na agropecuária.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motDesICMS: Option<i32>,
    /// Indica se o valor do ICMS desonerado (vICMSDeson) deduz do valor do item (vProd).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indDeduzDeson: Option<i32>,
}

/// Tributação pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS40 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributação pelo ICMS.
    pub CST: String,
    /// O valor do ICMS será informado apenas nas operações com veículos beneficiados com a…
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Este campo será preenchido quando o campo anterior estiver preenchido.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motDesICMS: Option<i32>,
    /// Indica se o valor do ICMS desonerado (vICMSDeson) deduz do valor do item (vProd).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indDeduzDeson: Option<i32>,
}

/// Tributação pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS60 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributação pelo ICMS.
    pub CST: String,
    /// Valor da BC do ICMS ST retido anteriormente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCSTRet: Option<Decimal>,
    /// Aliquota suportada pelo consumidor final.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pST: Option<Decimal>,
    /// Valor do ICMS Próprio do Substituto cobrado em operação anterior.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSubstituto: Option<Decimal>,
    /// Valor do ICMS ST retido anteriormente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSTRet: Option<Decimal>,
    /// Valor da Base de cálculo do FCP retido anteriormente por ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPSTRet: Option<Decimal>,
    /// Percentual de FCP retido anteriormente por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPSTRet: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPSTRet: Option<Decimal>,
    /// Percentual de redução da base de cálculo efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCEfet: Option<Decimal>,
    /// Valor da base de cálculo efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCEfet: Option<Decimal>,
    /// Alíquota do ICMS efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMSEfet: Option<Decimal>,
    /// Valor do ICMS efetivo.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSEfet: Option<Decimal>,
}

/// Tributação pelo ICMS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMS90 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributção pelo ICMS.
    pub CST: String,
    /// Modalidade de determinação da BC do ICMS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modBC: Option<i32>,
    /// Valor da BC do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBC: Option<Decimal>,
    /// Percentual de redução da BC.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBC: Option<Decimal>,
    /// Alíquota do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMS: Option<Decimal>,
    /// Valor do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMS: Option<Decimal>,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCP: Option<Decimal>,
    /// Percentual de ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCP: Option<Decimal>,
    /// Valor do ICMS relativo ao Fundo de Combate à Pobreza (FCP).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCP: Option<Decimal>,
    /// Modalidade de determinação da BC do ICMS ST.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modBCST: Option<i32>,
    /// Percentual da Margem de Valor Adicionado ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pMVAST: Option<Decimal>,
    /// Percentual de redução da BC ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCST: Option<Decimal>,
    /// Valor da BC do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCST: Option<Decimal>,
    /// Alíquota do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMSST: Option<Decimal>,
    /// Valor do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSST: Option<Decimal>,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPST: Option<Decimal>,
    /// Percentual de FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPST: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPST: Option<Decimal>,
    /// Valor do ICMS de desoneração.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSDeson: Option<Decimal>,
    /// Motivo da desoneração do ICMS:3-Uso na agropecuária.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motDesICMS: Option<i32>,
    /// Indica se o valor do ICMS desonerado (vICMSDeson) deduz do valor do item (vProd).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indDeduzDeson: Option<i32>,
    /// Valor do ICMS-ST desonerado.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSTDeson: Option<Decimal>,
    /// Motivo da desoneração do ICMS-ST: 3-Uso na agropecuária.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motDesICMSST: Option<i32>,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL e CSOSN=101 (v.2.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN101 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CSOSN: String,
    /// Alíquota aplicável de cálculo do crédito (Simples Nacional).
    #[serde(with = "num")]
    pub pCredSN: Decimal,
    /// Valor crédito do ICMS que pode ser aproveitado nos termos do art.
    #[serde(with = "num")]
    pub vCredICMSSN: Decimal,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL e CSOSN=102, 103, 300 ou 400 (v.2.0)).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN102 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CSOSN: String,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL e CSOSN=201 (v.2.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN201 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CSOSN: String,
    /// Modalidade de determinação da BC do ICMS ST.
    pub modBCST: i32,
    /// Percentual da Margem de Valor Adicionado ICMS ST (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pMVAST: Option<Decimal>,
    /// Percentual de redução da BC ICMS ST (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCST: Option<Decimal>,
    /// Valor da BC do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub vBCST: Decimal,
    /// Alíquota do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub pICMSST: Decimal,
    /// Valor do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub vICMSST: Decimal,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPST: Option<Decimal>,
    /// Percentual de FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPST: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPST: Option<Decimal>,
    /// Alíquota aplicável de cálculo do crédito (Simples Nacional).
    #[serde(with = "num")]
    pub pCredSN: Decimal,
    /// Valor crédito do ICMS que pode ser aproveitado nos termos do art.
    #[serde(with = "num")]
    pub vCredICMSSN: Decimal,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL e CSOSN=202 ou 203 (v.2.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN202 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CSOSN: String,
    /// Modalidade de determinação da BC do ICMS ST.
    pub modBCST: i32,
    /// Percentual da Margem de Valor Adicionado ICMS ST (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pMVAST: Option<Decimal>,
    /// Percentual de redução da BC ICMS ST (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCST: Option<Decimal>,
    /// Valor da BC do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub vBCST: Decimal,
    /// Alíquota do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub pICMSST: Decimal,
    /// Valor do ICMS ST (v2.0).
    #[serde(with = "num")]
    pub vICMSST: Decimal,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPST: Option<Decimal>,
    /// Percentual de FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPST: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPST: Option<Decimal>,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL,CRT=1 - Simples Nacional e CSOSN=500 (v.2.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN500 {
    /// Origem da mercadoria.
    pub orig: i32,
    pub CSOSN: String,
    /// Valor da BC do ICMS ST retido anteriormente (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCSTRet: Option<Decimal>,
    /// Aliquota suportada pelo consumidor final.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pST: Option<Decimal>,
    /// Valor do ICMS próprio do substituto.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSubstituto: Option<Decimal>,
    /// Valor do ICMS ST retido anteriormente (v2.0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSSTRet: Option<Decimal>,
    /// Valor da Base de cálculo do FCP retido anteriormente.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPSTRet: Option<Decimal>,
    /// Percentual de FCP retido anteriormente por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPSTRet: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPSTRet: Option<Decimal>,
    /// Percentual de redução da base de cálculo efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCEfet: Option<Decimal>,
    /// Valor da base de cálculo efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCEfet: Option<Decimal>,
    /// Alíquota do ICMS efetiva.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMSEfet: Option<Decimal>,
    /// Valor do ICMS efetivo.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSEfet: Option<Decimal>,
}

/// Tributação do ICMS pelo SIMPLES NACIONAL, CRT=1 - Simples Nacional, CRT=4 - MEI e CSOSN=900…
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazICMSSN900 {
    /// Origem da mercadoria.
    pub orig: i32,
    /// Tributação pelo ICMS 900 - Outros(v2.0).
    pub CSOSN: String,
    /// Modalidade de determinação da BC do ICMS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modBC: Option<i32>,
    /// Valor da BC do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBC: Option<Decimal>,
    /// Percentual de redução da BC.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBC: Option<Decimal>,
    /// Alíquota do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMS: Option<Decimal>,
    /// Valor do ICMS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMS: Option<Decimal>,
    /// Modalidade de determinação da BC do ICMS ST.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modBCST: Option<i32>,
    /// Percentual da Margem de Valor Adicionado ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pMVAST: Option<Decimal>,
    /// Percentual de redução da BC ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pRedBCST: Option<Decimal>,
    /// Valor da BC do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCST: Option<Decimal>,
    /// Alíquota do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pICMSST: Option<Decimal>,
    /// Valor do ICMS ST.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vICMSST: Option<Decimal>,
    /// Valor da Base de cálculo do FCP.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBCFCPST: Option<Decimal>,
    /// Percentual de FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pFCPST: Option<Decimal>,
    /// Valor do FCP retido por substituição tributária.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vFCPST: Option<Decimal>,
    /// Alíquota aplicável de cálculo do crédito (Simples Nacional).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pCredSN: Option<Decimal>,
    /// Valor crédito do ICMS que pode ser aproveitado nos termos do art.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vCredICMSSN: Option<Decimal>,
}

/// `NfeSefazIpi`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazIpi {
    /// CNPJ do produtor da mercadoria, quando diferente do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJProd: Option<String>,
    /// Código do selo de controle do IPI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cSelo: Option<String>,
    /// Quantidade de selo de controle do IPI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qSelo: Option<i64>,
    /// Código de Enquadramento Legal do IPI (tabela a ser criada pela RFB).
    pub cEnq: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IPITrib: Option<NfeSefazIPITrib>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IPINT: Option<NfeSefazIPINT>,
}

/// `NfeSefazIPITrib`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazIPITrib {
    /// Código da Situação Tributária do IPI.
    pub CST: String,
    /// Valor da BC do IPI.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBC: Option<Decimal>,
    /// Alíquota do IPI.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pIPI: Option<Decimal>,
    /// Quantidade total na unidade padrão para tributação.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qUnid: Option<Decimal>,
    /// Valor por Unidade Tributável. Informar o valor do imposto Pauta por unidade de medida.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vUnid: Option<Decimal>,
    /// Valor do IPI.
    #[serde(with = "num")]
    pub vIPI: Decimal,
}

/// `NfeSefazIPINT`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazIPINT {
    /// Código da Situação Tributária do IPI.
    pub CST: String,
}

/// Grupo do PIS do item: informe exatamente um dos subgrupos.
///
/// Groups of the schema not modelled here: `PISQtde`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazPIS {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PISAliq: Option<NfeSefazPISAliq>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PISNT: Option<NfeSefazPISNT>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PISOutr: Option<NfeSefazPISOutr>,
}

/// Código de Situação Tributária do PIS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazPISAliq {
    /// Código de Situação Tributária do PIS.
    pub CST: String,
    /// Valor da BC do PIS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do PIS (em percentual).
    #[serde(with = "num")]
    pub pPIS: Decimal,
    /// Valor do PIS.
    #[serde(with = "num")]
    pub vPIS: Decimal,
}

/// Código de Situação Tributária do PIS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazPISNT {
    /// Código de Situação Tributária do PIS.
    pub CST: String,
}

/// Código de Situação Tributária do PIS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazPISOutr {
    /// Código de Situação Tributária do PIS.
    pub CST: String,
    /// Valor da BC do PIS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBC: Option<Decimal>,
    /// Alíquota do PIS (em percentual).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pPIS: Option<Decimal>,
    /// Quantidade Vendida (NT2011/004).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qBCProd: Option<Decimal>,
    /// Alíquota do PIS (em reais) (NT2011/004).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vAliqProd: Option<Decimal>,
    /// Valor do PIS.
    #[serde(with = "num")]
    pub vPIS: Decimal,
}

/// Grupo da COFINS do item: informe exatamente um dos subgrupos.
///
/// Groups of the schema not modelled here: `COFINSQtde`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCOFINS {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub COFINSAliq: Option<NfeSefazCOFINSAliq>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub COFINSNT: Option<NfeSefazCOFINSNT>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub COFINSOutr: Option<NfeSefazCOFINSOutr>,
}

/// Código de Situação Tributária do COFINS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCOFINSAliq {
    /// Código de Situação Tributária do COFINS.
    pub CST: String,
    /// Valor da BC do COFINS.
    #[serde(with = "num")]
    pub vBC: Decimal,
    /// Alíquota do COFINS (em percentual).
    #[serde(with = "num")]
    pub pCOFINS: Decimal,
    /// Valor do COFINS.
    #[serde(with = "num")]
    pub vCOFINS: Decimal,
}

/// Código de Situação Tributária do COFINS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCOFINSNT {
    /// Código de Situação Tributária do COFINS.
    pub CST: String,
}

/// Código de Situação Tributária do COFINS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NfeSefazCOFINSOutr {
    /// Código de Situação Tributária do COFINS.
    pub CST: String,
    /// Valor da BC do COFINS.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vBC: Option<Decimal>,
    /// Alíquota do COFINS (em percentual).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub pCOFINS: Option<Decimal>,
    /// Quantidade Vendida (NT2011/004).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub qBCProd: Option<Decimal>,
    /// Alíquota do COFINS (em reais) (NT2011/004).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vAliqProd: Option<Decimal>,
    /// Valor do COFINS.
    #[serde(with = "num")]
    pub vCOFINS: Decimal,
}
