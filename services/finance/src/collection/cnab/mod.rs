//! CNAB remittance (remessa) and return (retorno) files for boleto collection.
//!
//! Record layouts are declared as data (field name, 1-based inclusive start and
//! end as the manuals print them, kind, default) in [`tables240`] and
//! [`tables400`]; code never slices lines by hand-counted offsets. The generator
//! turns slips and the beneficiary's account into a remittance; the parsers read
//! remittances back into slips and returns into per-title outcomes.
//!
//! Non-obvious choices:
//! - The caller names the layout ([`CnabLayout`]) instead of having it guessed
//!   from the file: the bank code in a header is not enough (Unicred files carry
//!   Banco do Brasil's code 001). A return whose header names another bank, or
//!   that is not a return at all, is refused rather than matched against the
//!   account's slips.
//! - Remittance parsing is strict (first problem → error). Return parsing keeps
//!   going: a title whose lines cannot be read, a wrong trailer count or a
//!   sequence gap becomes an entry of [`ReturnFile::issues`], so the readable
//!   titles of a bank file can still be settled while the rest go to review.
//!   Lines that lost their trailing blanks are completed and counted
//!   ([`ReturnFile::padded_lines`]).
//! - The nosso número is handled as digits without its check digit and without
//!   leading zeros (they are not significant); Santander's check digit is
//!   computed on write and verified on read, Bradesco's (a field of its own) too,
//!   Sicoob's is computed on write. Returns give the number as the bank writes it
//!   (Banco do Brasil's with the convênio in front).
//!
//! Layout:
//! - `layout`: the field-table engine (writer, typed reader, line splitting).
//! - `tables240`: CNAB 240 tables (Santander, Caixa, Sicredi, Ailos; segments P,
//!   Q, R, T, U; Sicoob's segment T).
//! - `tables400`: CNAB 400 tables (remittances of Banco do Brasil, Itaú,
//!   Bradesco and Sicoob; returns of Banco do Brasil CBR643, Itaú, Bradesco and
//!   Unicred).
//! - `remittance`: remittance generator and parser.
//! - `returns`: return parser and occurrence/reason tables of each bank.
//!
//! Which layout does what (remittance / return): Santander, Caixa, Sicredi and
//! Ailos CNAB 240 both; Banco do Brasil and Sicoob CNAB 240 return only; Banco do
//! Brasil (CBR641 / CBR643), Itaú and Bradesco CNAB 400 both; Sicoob CNAB 400
//! remittance only; Unicred CNAB 400 return only.

pub mod layout;
pub mod remittance;
pub mod returns;
pub mod tables240;
pub mod tables400;
#[cfg(test)]
mod tests;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use remittance::{generate_remittance, parse_remittance, Remittance};
pub use returns::{parse_return, Occurrence, OccurrenceKind, Reason, ReturnFile, ReturnTitle};

/// Errors of CNAB generation and parsing; every message names where it happened.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
pub enum CnabError {
    #[error("Arquivo CNAB vazio.")]
    Empty,
    #[error("Linha {line}: registro com {found} posições; o leiaute {layout} exige {expected}.")]
    LineLength {
        line: usize,
        found: usize,
        expected: usize,
        layout: &'static str,
    },
    #[error("Linha {line}, campo {field} (posições {start}-{end}): {reason}.")]
    Field {
        line: usize,
        field: &'static str,
        start: usize,
        end: usize,
        reason: String,
    },
    #[error("Linha {line}: {reason}.")]
    Structure { line: usize, reason: String },
    #[error("Título {index} ({nosso_numero}), campo {field}: {reason}.")]
    Slip {
        index: usize,
        nosso_numero: String,
        field: &'static str,
        reason: String,
    },
    #[error("Beneficiário, campo {field}: {reason}.")]
    Beneficiary { field: &'static str, reason: String },
    #[error("O leiaute {layout} não é suportado para {what}.")]
    Unsupported {
        layout: &'static str,
        what: &'static str,
    },
}

/// The bank layouts this module knows, one per bank and record length. What each
/// can do: remittance (generate and read back) and/or return (read).
///
/// | Layout | Bank | Remittance | Return |
/// |---|---|---|---|
/// | `Santander240` | 033 | yes | yes |
/// | `Caixa240` | 104 | yes | yes |
/// | `Sicredi240` | 748 | yes | yes |
/// | `Ailos240` | 085 | yes | yes |
/// | `BancoDoBrasil240` | 001 | no | yes |
/// | `Sicoob240` | 756 | no | yes |
/// | `BancoDoBrasil400` | 001 | CBR641 | CBR643 |
/// | `Itau400` | 341 | yes | yes |
/// | `Bradesco400` | 237 | yes | yes |
/// | `Sicoob400` | 756 | yes | no |
/// | `Unicred400` | 136 | no | yes |
///
/// The others answer [`CnabError::Unsupported`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CnabLayout {
    /// Santander (033), CNAB 240.
    Santander240,
    /// Caixa Econômica Federal (104), CNAB 240 SIGCB.
    Caixa240,
    /// Sicredi (748), CNAB 240.
    Sicredi240,
    /// Ailos (085), CNAB 240.
    Ailos240,
    /// Banco do Brasil (001), CNAB 240 (return only): FEBRABAN segments T and U,
    /// the nosso número with the convênio in front.
    BancoDoBrasil240,
    /// Sicoob (756), CNAB 240 (return only): FEBRABAN segments T and U, the nosso
    /// número (with its check digit apart) in the first ten positions of its field.
    Sicoob240,
    /// Banco do Brasil (001), CNAB 400 with a 7-digit convênio: CBR641 remittance
    /// (detail type 7), CBR643 return.
    BancoDoBrasil400,
    /// Itaú (341), CNAB 400, remittance and return.
    Itau400,
    /// Bradesco (237), CNAB 400, remittance and return.
    Bradesco400,
    /// Sicoob (756), CNAB 400 (remittance only; Sicoob returns in CNAB 240).
    Sicoob400,
    /// Unicred (136), CNAB 400 in Banco do Brasil's CBR643 format (return only).
    Unicred400,
}

impl CnabLayout {
    /// Every layout, for tests and listings.
    pub const ALL: [CnabLayout; 11] = [
        CnabLayout::Santander240,
        CnabLayout::Caixa240,
        CnabLayout::Sicredi240,
        CnabLayout::Ailos240,
        CnabLayout::BancoDoBrasil240,
        CnabLayout::Sicoob240,
        CnabLayout::BancoDoBrasil400,
        CnabLayout::Itau400,
        CnabLayout::Bradesco400,
        CnabLayout::Sicoob400,
        CnabLayout::Unicred400,
    ];

    /// Bank compensation code.
    pub fn bank_code(self) -> &'static str {
        match self {
            CnabLayout::Santander240 => "033",
            CnabLayout::Caixa240 => "104",
            CnabLayout::Sicredi240 => "748",
            CnabLayout::Ailos240 => "085",
            CnabLayout::BancoDoBrasil240 | CnabLayout::BancoDoBrasil400 => "001",
            CnabLayout::Sicoob240 | CnabLayout::Sicoob400 => "756",
            CnabLayout::Itau400 => "341",
            CnabLayout::Bradesco400 => "237",
            CnabLayout::Unicred400 => "136",
        }
    }

    /// Record length: 240 or 400.
    pub fn record_len(self) -> usize {
        match self {
            CnabLayout::Santander240
            | CnabLayout::Caixa240
            | CnabLayout::Sicredi240
            | CnabLayout::Ailos240
            | CnabLayout::BancoDoBrasil240
            | CnabLayout::Sicoob240 => 240,
            CnabLayout::BancoDoBrasil400
            | CnabLayout::Itau400
            | CnabLayout::Bradesco400
            | CnabLayout::Sicoob400
            | CnabLayout::Unicred400 => 400,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CnabLayout::Santander240 => "Santander CNAB 240",
            CnabLayout::Caixa240 => "Caixa CNAB 240 (SIGCB)",
            CnabLayout::Sicredi240 => "Sicredi CNAB 240",
            CnabLayout::Ailos240 => "Ailos CNAB 240",
            CnabLayout::BancoDoBrasil240 => "Banco do Brasil CNAB 240",
            CnabLayout::Sicoob240 => "Sicoob CNAB 240",
            CnabLayout::BancoDoBrasil400 => "Banco do Brasil CNAB 400",
            CnabLayout::Itau400 => "Itaú CNAB 400",
            CnabLayout::Bradesco400 => "Bradesco CNAB 400",
            CnabLayout::Sicoob400 => "Sicoob CNAB 400",
            CnabLayout::Unicred400 => "Unicred CNAB 400",
        }
    }

    /// Whether the nosso número of this layout's returns is the slip's own number
    /// (no convênio in front, no check digit), so a return title matches exactly
    /// one slip; the other layouts' numbers are matched with and without their
    /// check digit or prefix.
    pub fn returns_plain_nosso_numero(self) -> bool {
        matches!(
            self,
            CnabLayout::Itau400 | CnabLayout::Bradesco400 | CnabLayout::Sicoob240
        )
    }
}

/// The payer (pagador) of a slip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payer {
    pub name: String,
    /// CPF (11 digits) or CNPJ (14 digits), digits only.
    pub document: String,
    pub address: String,
    pub district: String,
    /// CEP, 8 digits.
    pub cep: String,
    pub city: String,
    /// Two-letter state code.
    pub uf: String,
}

/// A fixed discount granted when paid up to a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discount {
    pub until: NaiveDate,
    pub amount: Decimal,
}

/// One collection slip (título) of a remittance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slip {
    /// Digits without check digit; leading zeros are not significant.
    pub nosso_numero: String,
    /// Company's document number (seu número), up to 10 characters in CNAB 400.
    pub document_number: String,
    pub issue_date: NaiveDate,
    pub due_date: NaiveDate,
    pub amount: Decimal,
    pub payer: Payer,
    /// Interest in reais per day late, charged from the day after the due date.
    pub interest_per_day: Option<Decimal>,
    /// The same interest as a percentage a month, for layouts whose field is a
    /// rate (Sicoob CNAB 400); when absent there, it is derived from
    /// `interest_per_day` and the amount (30-day month, 4 decimal places).
    #[serde(default)]
    pub interest_percent_month: Option<Decimal>,
    /// Fine (multa) percentage from the day after the due date (CNAB 240,
    /// Bradesco and Sicoob CNAB 400).
    pub fine_percent: Option<Decimal>,
    pub discount: Option<Discount>,
    /// Protest after this many calendar days; `None` = do not protest.
    pub protest_days: Option<u8>,
    /// Message to the payer (CNAB 240 segment R, Sicoob CNAB 400).
    pub message: Option<String>,
    /// What the bank is asked to do with the slip (código de movimento).
    #[serde(default)]
    pub command: Command,
}

/// The remittance command of a slip (código de movimento da remessa). The three
/// codes have the same meaning in FEBRABAN's CNAB 240 and in the CNAB 400 layouts
/// of Banco do Brasil, Itaú, Bradesco and Sicoob; a change of value is a write-off
/// and a new slip.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// 01: register the slip (entrada de título).
    #[default]
    Entry,
    /// 02: write the slip off (pedido de baixa).
    WriteOff,
    /// 06: change the due date (alteração de vencimento).
    ChangeDueDate,
}

impl Command {
    pub fn code(self) -> u64 {
        match self {
            Command::Entry => 1,
            Command::WriteOff => 2,
            Command::ChangeDueDate => 6,
        }
    }

    pub fn from_code(code: u64) -> Option<Command> {
        match code {
            1 => Some(Command::Entry),
            2 => Some(Command::WriteOff),
            6 => Some(Command::ChangeDueDate),
            _ => None,
        }
    }
}

/// The beneficiary's (cedente's) account and identification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beneficiary {
    pub company_name: String,
    /// CNPJ (14 digits) or CPF (11 digits).
    pub document: String,
    pub agency: String,
    pub agency_dv: String,
    pub account: String,
    pub account_dv: String,
    /// Carteira (wallet) code as the bank defines it for the layout.
    pub wallet: String,
    /// Banco do Brasil's carteira variation (e.g. 019); ignored by other banks.
    pub wallet_variation: Option<String>,
    /// Convênio / código do beneficiário / código de transmissão (Bradesco's
    /// código da empresa, Sicoob's código do cliente with its digit).
    pub agreement: String,
    /// Sequential number of the remittance file (NSA).
    pub file_sequence: u64,
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::path::PathBuf;

    /// The public CNAB files of `tests/fixtures/cnab` (copied from the shared
    /// fixtures; `tests/fixtures/README.md` says where each comes from).
    pub fn fixture(name: &str) -> Vec<u8> {
        let path =
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cnab/")).join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
    }
}
