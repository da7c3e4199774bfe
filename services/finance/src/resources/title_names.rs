//! The legacy names of the title registers' fields, one set per side
//! (receivables `CRCB_*`, payables `CMPD_*`): what the registers map onto the
//! `tit_*` columns and what their calls answer ([`TitleKey`]).

use schemars::JsonSchema;
use serde::Serialize;

use crate::titles::Side;

/// The legacy names of one side's fields.
pub struct Names {
    /// `CRCB`, `CMPD`.
    pub prefix: &'static str,
    pub person: &'static str,
    pub person_label: &'static str,
    pub person_register: &'static str,
    pub person_name: &'static str,
    pub value: &'static str,
    pub surcharge: &'static str,
    pub paid_on: &'static str,
    pub paid_on_label: &'static str,
    pub origin_id: &'static str,
    pub origin_label: &'static str,
    pub origin_serie: &'static str,
}

pub const RECEIVABLE: Names = Names {
    prefix: "CRCB",
    person: "CRCB_CLI_ID",
    person_label: "Cliente",
    person_register: "clientes",
    person_name: "CLI_DESCRICAO",
    value: "CRCB_VLR_CTA",
    surcharge: "CRCB_VLR_ACRESCIMO",
    paid_on: "CRCB_DTA_PAG",
    paid_on_label: "Data do Pagamento",
    origin_id: "CRCB_PEDF_ID",
    origin_label: "Pedido",
    origin_serie: "CRCB_PEDF_SERIE",
};

pub const PAYABLE: Names = Names {
    prefix: "CMPD",
    person: "CMPD_COMP_FORN_ID",
    person_label: "Fornecedor",
    person_register: "fornecedor",
    person_name: "FORN_DESCRICAO",
    value: "CMPD_VLR_TITULO",
    surcharge: "CMPD_VLR_ACRECIMO",
    paid_on: "CMPD_DTA_MOV",
    paid_on_label: "Data da Baixa",
    origin_id: "CMPD_COMP_ID",
    origin_label: "Compra",
    origin_serie: "CMPD_COMP_SERIE",
};

pub fn names(side: Side) -> &'static Names {
    match side {
        Side::Receivable => &RECEIVABLE,
        Side::Payable => &PAYABLE,
    }
}

impl Names {
    /// `CRCB_DTA_VCTO` from `DTA_VCTO`.
    pub fn f(&self, suffix: &str) -> String {
        format!("{}_{suffix}", self.prefix)
    }
}

/// A title's key as the calls answer it: `CRCB_ID` or `CMPD_ID`, by its side
/// (flattened into the answer's row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub enum TitleKey {
    #[serde(rename = "CRCB_ID")]
    Receivable(i64),
    #[serde(rename = "CMPD_ID")]
    Payable(i64),
}

impl TitleKey {
    pub fn of(side: Side, id: i64) -> TitleKey {
        match side {
            Side::Receivable => TitleKey::Receivable(id),
            Side::Payable => TitleKey::Payable(id),
        }
    }
}
