//! Instalments of a document total (pure): how many, when due, how much each.
//!
//! - **Split** ([`split`]): the total in cents is divided by the number of
//!   instalments; every instalment gets the quotient and the **first** one also
//!   takes the remainder cents, so the values always add up to the total exactly
//!   (R$ 100,00 in 3 is 33,34 + 33,33 + 33,33; R$ 0,05 in 2 is 0,03 + 0,02). A
//!   total of fewer cents than instalments makes one instalment per cent (R$ 0,02
//!   in 3 is 0,01 + 0,01); a zero total makes none.
//! - **Payment condition** (`condicaopagamento`, [`Terms::Condition`]): `CNDP_PARCELAS`
//!   instalments, the first `CNDP_DIAS_PRIMEIRA` days after the issue date, the next
//!   ones every `CNDP_INTERVALO` days (30/60/90 = 3, 30, 30). An entry
//!   (`CNDP_PERC_ENTRADA`) of a condition with more than one instalment is the first
//!   instalment, due on the issue date, worth the percentage of the total (rounded
//!   half away from zero); the rest is split over the other instalments. An entry of
//!   100% is one instalment due on the issue date; an entry on a one-instalment
//!   condition is ignored. The condition's discount and surcharge are the order's
//!   business (they are already in the total finance receives).
//! - **Due-date condition** (`condicaovencimento` + `condicaovencimentodias`,
//!   [`Terms::DueDays`]): one instalment per day/month entry, in month then day
//!   order, due on day `ID_DIAS` of the month `ID_MES` months after the issue month;
//!   a day the month does not have is its last day (day 31 of next month is 'end of
//!   next month'), and a date that falls before the issue date (the issue month's day
//!   already past) moves one month on.
//! - **Single** ([`Terms::Single`]): the whole total `days` after the issue date (what
//!   an invoiced order without a known condition gets, with `days` = 0).

use chrono::{Datelike, Duration, Months, NaiveDate};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use crate::charges::money;

/// How a total is paid.
#[derive(Clone, Debug, PartialEq)]
pub enum Terms {
    /// The whole total, due `days` after the issue date.
    Single { days: i64 },
    /// A payment condition.
    Condition {
        instalments: u32,
        first_days: i64,
        interval_days: i64,
        entry_pct: Decimal,
    },
    /// A due-date condition's entries: (day of the month, months after the issue
    /// month).
    DueDays(Vec<(u32, u32)>),
}

/// One instalment: its number (from 1), due date and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instalment {
    pub seq: i32,
    pub due: NaiveDate,
    pub amount: Decimal,
}

/// Most instalments a document may have (the payment condition's limit).
pub const MAX_INSTALMENTS: usize = 120;

fn cents(total: Decimal) -> Result<i64> {
    if total < Decimal::ZERO {
        return Err(Error::validation(
            "O valor a parcelar não pode ser negativo.",
        ));
    }
    if total.normalize().scale() > 2 {
        return Err(Error::validation(
            "O valor a parcelar deve ter no máximo duas casas decimais.",
        ));
    }
    let c = total * Decimal::ONE_HUNDRED;
    i64::try_from(c).map_err(|_| Error::validation("O valor a parcelar é grande demais."))
}

/// `total` in `n` values that add up to it exactly; the remainder cents go to the
/// first value. Fewer cents than `n` give one value per cent; zero gives none.
pub fn split(total: Decimal, n: usize) -> Result<Vec<Decimal>> {
    if n == 0 || n > MAX_INSTALMENTS {
        return Err(Error::validation(format!(
            "O número de parcelas deve estar entre 1 e {MAX_INSTALMENTS}."
        )));
    }
    let c = cents(total)?;
    let n = (n as i64).min(c);
    if n == 0 {
        return Ok(Vec::new());
    }
    let (base, rest) = (c / n, c % n);
    Ok((0..n)
        .map(|i| Decimal::new(if i == 0 { base + rest } else { base }, 2))
        .collect())
}

/// Day `day` of the month `months` after `issued`'s month (the month's last day
/// when it has fewer days), moved one month on when that is before `issued`.
pub fn due_on_day(issued: NaiveDate, day: u32, months: u32) -> Result<NaiveDate> {
    let at = |months: u32| -> Option<NaiveDate> {
        let first = issued
            .with_day(1)?
            .checked_add_months(Months::new(months))?;
        let last = first.checked_add_months(Months::new(1))?.pred_opt()?.day();
        first.with_day(day.clamp(1, last))
    };
    let bad = || Error::validation("Data de vencimento inválida.");
    let due = at(months).ok_or_else(bad)?;
    if due < issued {
        return at(months + 1).ok_or_else(bad);
    }
    Ok(due)
}

fn after(issued: NaiveDate, days: i64) -> Result<NaiveDate> {
    issued
        .checked_add_signed(Duration::days(days))
        .ok_or_else(|| Error::validation("Data de vencimento inválida."))
}

/// The instalments of `total` issued on `issued` under `terms`.
pub fn schedule(total: Decimal, issued: NaiveDate, terms: &Terms) -> Result<Vec<Instalment>> {
    let dues: Vec<NaiveDate>;
    let amounts: Vec<Decimal>;
    match terms {
        Terms::Single { days } => {
            dues = vec![after(issued, *days)?];
            amounts = split(total, 1)?;
        }
        Terms::Condition { instalments, first_days, interval_days, entry_pct } => {
            let n = *instalments as usize;
            if *first_days < 0 || *interval_days < 0 {
                return Err(Error::validation(
                    "Os dias da condição de pagamento não podem ser negativos.",
                ));
            }
            if *entry_pct < Decimal::ZERO || *entry_pct > Decimal::ONE_HUNDRED {
                return Err(Error::validation("A entrada deve estar entre 0% e 100%."));
            }
            if *entry_pct == Decimal::ONE_HUNDRED {
                dues = vec![issued];
                amounts = split(total, 1)?;
            } else if *entry_pct > Decimal::ZERO && n > 1 {
                let entry = money(total * entry_pct / Decimal::ONE_HUNDRED);
                let mut d = vec![issued];
                for k in 0..(n - 1) as i64 {
                    d.push(after(issued, first_days + k * interval_days)?);
                }
                let mut a = split(entry, 1)?;
                a.extend(split(total - entry, n - 1)?);
                if a.len() < d.len() && entry.is_zero() {
                    d.remove(0);
                }
                dues = d;
                amounts = a;
            } else {
                let mut d = Vec::with_capacity(n);
                for k in 0..n as i64 {
                    d.push(after(issued, first_days + k * interval_days)?);
                }
                dues = d;
                amounts = split(total, n)?;
            }
        }
        Terms::DueDays(entries) => {
            let mut entries = entries.clone();
            entries.sort_by_key(|(day, months)| (*months, *day));
            entries.dedup();
            if entries.is_empty() {
                return Err(Error::validation(
                    "A condição de vencimento não tem dias de vencimento.",
                ));
            }
            dues = entries
                .iter()
                .map(|(day, months)| due_on_day(issued, *day, *months))
                .collect::<Result<_>>()?;
            amounts = split(total, entries.len())?;
        }
    }
    let mut out: Vec<Instalment> = dues
        .into_iter()
        .zip(amounts)
        .filter(|(_, a)| !a.is_zero())
        .map(|(due, amount)| Instalment { seq: 0, due, amount })
        .collect();
    for (i, p) in out.iter_mut().enumerate() {
        p.seq = i as i32 + 1;
    }
    Ok(out)
}
