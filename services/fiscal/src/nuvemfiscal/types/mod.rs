//! Request and answer bodies of the Nuvem Fiscal API, written from the
//! schemas of its OpenAPI description (v2.58).
//!
//! Names are the spec's: schema names for the structs, property names for the
//! fields (`infNFe`, `vProd`, `CNPJ`: the MOC's tags), so a field can be looked
//! up in the spec or the MOC as written. A property the spec lists as
//! `required` is a plain field; any other is an `Option` (or a `Vec` that is
//! left out when empty) and is not sent when absent. Every `number` is a
//! `rust_decimal::Decimal` written as a JSON number by [`super::number`].
//! Groups the product does not emit yet are named in each struct's doc
//! ("not modelled here"); they can be added from the spec the same way.
//!
//! Layout:
//! - `nfe`, `nfe_taxes`, `nfe_totals`: the NF-e emission request.
//! - `cte`, `cte_service`: the CT-e emission request.
//! - `mdfe`, `mdfe_road`: the MDF-e emission request (its road modal apart)
//!   and its cancel and closing events.
//! - `dfe`: the document answer (`Dfe`) and the events shared by all three.
//! - `empresa`: companies, their settings and certificate.
//! - `distribution`: the NF-e issued against a company (distribuição) and
//!   the recipient's manifestation.
//! - here: the enums of the spec's string `enum`s and the error body.

pub mod cte;
pub mod cte_service;
pub mod dfe;
pub mod distribution;
pub mod empresa;
pub mod mdfe;
pub mod mdfe_road;
pub mod nfe;
pub mod nfe_taxes;
pub mod nfe_totals;

pub use cte::*;
pub use cte_service::*;
pub use dfe::*;
pub use distribution::*;
pub use empresa::*;
pub use mdfe::*;
pub use mdfe_road::*;
pub use nfe::*;
pub use nfe_taxes::*;
pub use nfe_totals::*;

use serde::{Deserialize, Serialize};

/// `ambiente`: where a document is emitted. Homologação (the SEFAZ test
/// environment) is the default, so nothing reaches production by accident.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ambiente {
    #[default]
    Homologacao,
    Producao,
}

impl Ambiente {
    /// The value of the `ambiente` query parameter and property.
    pub fn as_str(self) -> &'static str {
        match self {
            Ambiente::Homologacao => "homologacao",
            Ambiente::Producao => "producao",
        }
    }

    /// `tpAmb` of the SEFAZ layouts: 1 production, 2 homologação.
    pub fn tp_amb(self) -> i32 {
        match self {
            Ambiente::Producao => 1,
            Ambiente::Homologacao => 2,
        }
    }
}

/// `Dfe.status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DfeStatus {
    /// Received by the Nuvem Fiscal and queued: consult again later.
    #[default]
    Pendente,
    Autorizado,
    Rejeitado,
    Denegado,
    /// MDF-e closed (encerrado).
    Encerrado,
    Cancelado,
    Erro,
}

impl DfeStatus {
    /// Every status but `pendente` ends the emission: there is nothing more
    /// to wait for.
    pub fn is_final(self) -> bool {
        !matches!(self, DfeStatus::Pendente)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DfeStatus::Pendente => "pendente",
            DfeStatus::Autorizado => "autorizado",
            DfeStatus::Rejeitado => "rejeitado",
            DfeStatus::Denegado => "denegado",
            DfeStatus::Encerrado => "encerrado",
            DfeStatus::Cancelado => "cancelado",
            DfeStatus::Erro => "erro",
        }
    }
}

/// `status` of an event (authorisation, cancel, correction letter, closing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventoStatus {
    #[default]
    Pendente,
    Registrado,
    Rejeitado,
    Erro,
}

/// `DfeSincronizacao.status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SincronizacaoStatus {
    #[default]
    Pendente,
    Sincronizado,
    Erro,
}

/// The body of an error answer: `{"error": {"code", "message", "errors"}}`.
///
/// The OpenAPI description documents only the 200 answers; this is the shape
/// the provider's documentation gives for errors, and the one the fake server
/// answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: ErrorInfo,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ErrorDetail>,
}

/// One of the problems listed in `error.errors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorDetail {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}
