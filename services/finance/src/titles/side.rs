//! Which titles: receivables or payables — their table, their code in
//! `baixas`, their key field and how a settlement moves the account.

use crate::bank::Direction;

/// Which titles: receivables (`contasreceber`, settled into an account) or payables
/// (`contaspagar`, paid from one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Receivable,
    Payable,
}

impl Side {
    pub fn table(self) -> &'static str {
        match self {
            Side::Receivable => "contasreceber",
            Side::Payable => "contaspagar",
        }
    }

    /// `baixas.baix_tipo`.
    pub fn code(self) -> &'static str {
        match self {
            Side::Receivable => "R",
            Side::Payable => "P",
        }
    }

    /// The title's key field (`CRCB_ID`, `CMPD_ID`).
    pub fn key(self) -> &'static str {
        match self {
            Side::Receivable => "CRCB_ID",
            Side::Payable => "CMPD_ID",
        }
    }

    /// How a settlement moves the account.
    pub fn direction(self) -> Direction {
        match self {
            Side::Receivable => Direction::Credit,
            Side::Payable => Direction::Debit,
        }
    }

    pub(super) fn verb(self) -> &'static str {
        match self {
            Side::Receivable => "Recebimento",
            Side::Payable => "Pagamento",
        }
    }
}
