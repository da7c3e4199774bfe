//! Late charges of a settlement (pure): interest per day and a fine, from the
//! company's financial parameters, on the part of the title being settled.
//!
//! - Days late = settlement date - due date. Paid on or before the due date, or
//!   late by no more than the grace days (`PARF_DIAS_CARENCIA`), nothing is charged.
//! - Beyond the grace days, the grace is lost: interest is simple interest on
//!   every day late since the due date (principal x `PARF_PERC_JUROS_DIA`% x days)
//!   and the fine is charged once (principal x `PARF_PERC_MULTA`%).
//! - Each value is rounded to the cent half away from zero (as the tax authority
//!   rounds); a partial settlement pays the charges of the part it settles.

use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Money: 2 places, half away from zero.
pub use erp_platform::resource::document::arithmetic::money;

/// The company's rules for late payments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LateRules {
    /// Interest per day late, in percent (0,0333 = about 1% a month).
    pub daily_interest_pct: Decimal,
    /// Fine, in percent, charged once.
    pub fine_pct: Decimal,
    /// Days after the due date still paid without charges.
    pub grace_days: i64,
}

/// What a settlement on a date adds to the part of a title it settles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LateCharges {
    /// Days after the due date (0 when paid on time).
    pub days_late: i64,
    pub interest: Decimal,
    pub fine: Decimal,
}

/// The late charges of settling `principal` of a title due on `due`, on `on`.
pub fn late_charges(
    principal: Decimal,
    due: NaiveDate,
    on: NaiveDate,
    rules: &LateRules,
) -> LateCharges {
    let days_late = (on - due).num_days().max(0);
    if days_late == 0 || days_late <= rules.grace_days || principal <= Decimal::ZERO {
        return LateCharges { days_late, ..Default::default() };
    }
    let interest = money(
        principal * rules.daily_interest_pct * Decimal::from(days_late) / Decimal::ONE_HUNDRED,
    );
    let fine = money(principal * rules.fine_pct / Decimal::ONE_HUNDRED);
    LateCharges { days_late, interest, fine }
}
