//! MDF-e: the road modal (`infModal.rodo`): the ANTT data (RNTRC, toll
//! vouchers, contractors, freight payments with their components, terms and
//! bank), the traction vehicle with its drivers, and the trailers.
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::nuvemfiscal::number as num;

/// Informações do modal.
///
/// Groups of the schema not modelled here: `aereo`, `aquav`, `ferrov`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfModal {
    /// Versão do leiaute específico para o Modal.
    pub versaoModal: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rodo: Option<MdfeSefazRodo>,
}

/// Informações do modal Rodoviário.
///
/// Groups of the schema not modelled here: `lacRodo`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazRodo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infANTT: Option<MdfeSefazInfANTT>,
    pub veicTracao: MdfeSefazVeicTracao,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub veicReboque: Vec<MdfeSefazVeicReboque>,
    /// Código de Agendamento no porto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codAgPorto: Option<String>,
}

/// Grupo de informações para Agência Reguladora.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfANTT {
    /// Registro Nacional de Transportadores Rodoviários de Carga.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub RNTRC: Option<String>,
    /// Dados do CIOT.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infCIOT: Vec<MdfeSefazInfCIOT>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valePed: Option<MdfeSefazValePed>,
    /// Grupo de informações dos contratantes do serviço de transporte.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infContratante: Vec<MdfeSefazInfContratante>,
    /// Informações do Pagamento do Frete.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infPag: Vec<MdfeSefazInfPag>,
}

/// Dados do CIOT (Código Identificador da Operação de Transporte) and who
/// generated it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfCIOT {
    pub CIOT: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
}

/// Informações de Vale Pedágio.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazValePed {
    pub disp: Vec<MdfeSefazDisp>,
    /// Categoria de Combinação Veicular.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub categCombVeic: Option<String>,
}

/// Informações dos dispositivos do Vale Pedágio.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazDisp {
    /// CNPJ da empresa fornecedora do Vale-Pedágio.
    pub CNPJForn: String,
    /// CNPJ do responsável pelo pagamento do Vale-Pedágio (quando não é o emitente).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJPg: Option<String>,
    /// CPF do responsável pelo pagamento do Vale-Pedágio (quando não é o emitente).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPFPg: Option<String>,
    /// Número do comprovante de compra.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nCompra: Option<String>,
    /// Valor do Vale-Pedágio.
    #[serde(with = "num")]
    pub vValePed: Decimal,
    /// Tipo do Vale Pedágio (01 TAG, 02 Cupom, 03 Cartão).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpValePed: Option<String>,
}

/// Informações dos contratantes do serviço de transporte.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfContratante {
    /// Razão social ou Nome do contratante.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idEstrangeiro: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infContrato: Option<MdfeSefazInfContrato>,
}

/// Grupo de informações do contrato entre transportador e contratante
/// (prestações continuadas).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfContrato {
    pub NroContrato: String,
    #[serde(with = "num")]
    pub vContratoGlobal: Decimal,
}

/// Informações do Pagamento do Frete.
///
/// Fields of the schema not modelled here: `indAltoDesemp`, `indAntecipaAdiant`, `tpAntecip`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfPag {
    /// Razão social ou Nome do responsável pelo pagamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idEstrangeiro: Option<String>,
    /// Componentes do Pagamento do Frete.
    pub Comp: Vec<MdfeSefazComp>,
    /// Valor Total do Contrato.
    #[serde(with = "num")]
    pub vContrato: Decimal,
    /// Indicador da Forma de Pagamento: 0 à vista, 1 a prazo.
    pub indPag: i32,
    /// Valor do Adiantamento.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vAdiant: Option<Decimal>,
    /// Informações do pagamento a prazo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infPrazo: Vec<MdfeSefazInfPrazo>,
    pub infBanc: MdfeSefazInfBanc,
}

/// Componentes do Pagamento do Frete.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazComp {
    /// Tipo do Componente (01 Vale Pedágio, 02 Impostos, 03 Despesas, 04 Frete, 99 Outros).
    pub tpComp: String,
    /// Valor do componente.
    #[serde(with = "num")]
    pub vComp: Decimal,
    /// Descrição do componente do tipo Outros.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xComp: Option<String>,
}

/// Informações do pagamento a prazo.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfPrazo {
    /// Número da Parcela.
    pub nParcela: i32,
    /// Data de vencimento da Parcela (AAAA-MM-DD).
    pub dVenc: NaiveDate,
    /// Valor da Parcela.
    #[serde(with = "num")]
    pub vParcela: Decimal,
}

/// Informações bancárias.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazInfBanc {
    /// Número do banco.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codBanco: Option<String>,
    /// Número da agência bancária.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codAgencia: Option<String>,
    /// CNPJ da Instituição de pagamento Eletrônico do Frete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJIPEF: Option<String>,
    /// Chave PIX.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub PIX: Option<String>,
}

/// Dados do Veículo com a Tração.
///
/// Groups of the schema not modelled here: `prop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazVeicTracao {
    /// Código interno do veículo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cInt: Option<String>,
    /// Placa do veículo.
    pub placa: String,
    /// RENAVAM do veículo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub RENAVAM: Option<String>,
    /// Tara em KG.
    pub tara: i32,
    /// Capacidade em KG.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capKG: Option<i32>,
    /// Capacidade em M3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capM3: Option<i32>,
    pub condutor: Vec<MdfeSefazCondutor>,
    /// Tipo de Rodado. Preencher com.
    pub tpRod: String,
    /// Tipo de Carroceria. Preencher com.
    pub tpCar: String,
    /// UF em que veículo está licenciado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
}

/// Informações do(s) Condutor(es) do veículo.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazCondutor {
    /// Nome do Condutor.
    pub xNome: String,
    /// CPF do Condutor.
    pub CPF: String,
}

/// Dados dos reboques.
///
/// Groups of the schema not modelled here: `prop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MdfeSefazVeicReboque {
    /// Código interno do veículo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cInt: Option<String>,
    /// Placa do veículo.
    pub placa: String,
    /// RENAVAM do veículo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub RENAVAM: Option<String>,
    /// Tara em KG.
    pub tara: i32,
    /// Capacidade em KG.
    pub capKG: i32,
    /// Capacidade em M3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capM3: Option<i32>,
    /// Tipo de Carroceria. Preencher com.
    pub tpCar: String,
    /// UF em que veículo está licenciado.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
}
