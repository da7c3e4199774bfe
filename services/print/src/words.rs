//! Money and dates written out in Brazilian Portuguese ("valor por extenso"),
//! for receipts and bank slips where the amount must also appear in words.
//!
//! Rules (they produce the check-writing style used on Brazilian receipts):
//! - the value is first rounded to 2 places, half away from zero;
//! - the integer part is split in groups of three digits (units, mil,
//!   milhões, bilhões, trilhões, quatrilhões); each non-zero group is spoken
//!   on its own and groups are separated by `", "`:
//!   1.234 → "um mil, duzentos e trinta e quatro"; 1.100.000 → "um milhão, cem mil";
//! - inside a group, hundreds, tens and units are joined with `" e "`;
//!   100 is "cem", 101 is "cento e um"; 1.000 is "um mil" (with "um");
//! - the currency noun is "real" when the units group is exactly one
//!   (1 → "um real", 2.000.001 → "dois milhões, um real"), otherwise "reais"
//!   (101 → "cento e um reais");
//! - "de reais" when the integer part ends in a whole million or larger scale
//!   (1.000.000 → "um milhão de reais");
//! - cents follow with `" e "` ("… reais e dez centavos"); one cent is
//!   "um centavo"; a value below one real is spoken in cents alone
//!   (0,01 → "um centavo"); zero is "zero reais";
//! - negative values and values of 10^18 or more are refused with an error.
//!
//! Dates are written as on a receipt: "24 de novembro de 2026", with the
//! first day of a month as "1º".

use chrono::{Datelike, NaiveDate};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

use crate::PrintError;

const UNITS: [&str; 20] = [
    "zero",
    "um",
    "dois",
    "três",
    "quatro",
    "cinco",
    "seis",
    "sete",
    "oito",
    "nove",
    "dez",
    "onze",
    "doze",
    "treze",
    "quatorze",
    "quinze",
    "dezesseis",
    "dezessete",
    "dezoito",
    "dezenove",
];

const TENS: [&str; 10] = [
    "",
    "",
    "vinte",
    "trinta",
    "quarenta",
    "cinquenta",
    "sessenta",
    "setenta",
    "oitenta",
    "noventa",
];

const HUNDREDS: [&str; 10] = [
    "",
    "cento",
    "duzentos",
    "trezentos",
    "quatrocentos",
    "quinhentos",
    "seiscentos",
    "setecentos",
    "oitocentos",
    "novecentos",
];

/// (singular, plural) names of each group of three digits above the units group.
const SCALES: [(&str, &str); 5] = [
    ("mil", "mil"),
    ("milhão", "milhões"),
    ("bilhão", "bilhões"),
    ("trilhão", "trilhões"),
    ("quatrilhão", "quatrilhões"),
];

const MONTHS: [&str; 12] = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
];

/// Largest integer part accepted: 999 quatrilhões and change.
const LIMIT: u64 = 1_000_000_000_000_000_000;

/// Writes a number from 1 to 999 in words.
fn group_in_words(n: u64) -> String {
    if n == 100 {
        return "cem".to_string();
    }
    let mut parts: Vec<&str> = Vec::with_capacity(3);
    let (hundreds, rest) = (n / 100, n % 100);
    if hundreds > 0 {
        parts.push(HUNDREDS[hundreds as usize]);
    }
    if rest >= 20 {
        parts.push(TENS[(rest / 10) as usize]);
        if rest % 10 > 0 {
            parts.push(UNITS[(rest % 10) as usize]);
        }
    } else if rest > 0 {
        parts.push(UNITS[rest as usize]);
    }
    parts.join(" e ")
}

/// Writes a positive integer below [`LIMIT`] in words, groups separated by ", ".
fn integer_in_words(mut n: u64) -> String {
    let mut groups = Vec::new();
    while n > 0 {
        groups.push(n % 1000);
        n /= 1000;
    }
    let mut spoken = Vec::new();
    for (scale, &group) in groups.iter().enumerate().rev() {
        if group == 0 {
            continue;
        }
        let words = group_in_words(group);
        spoken.push(match scale {
            0 => words,
            s => {
                let (one, many) = SCALES[s - 1];
                format!("{words} {}", if group == 1 { one } else { many })
            }
        });
    }
    spoken.join(", ")
}

/// Writes a money value in words, in Brazilian Portuguese (see the module
/// documentation for the rules).
///
/// ```text
/// 0,01          → "um centavo"
/// 1.234,56      → "um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos"
/// 1.000.000,00  → "um milhão de reais"
/// 2.000.001,10  → "dois milhões, um real e dez centavos"
/// ```
///
/// # Errors
/// [`PrintError::NegativeValue`] for a value below zero and
/// [`PrintError::ValueTooLarge`] for 10^18 or more.
pub fn money_in_words(value: Decimal) -> Result<String, PrintError> {
    if value.is_sign_negative() && !value.is_zero() {
        return Err(PrintError::NegativeValue(value));
    }
    let rounded = value.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    let cents_total = (rounded * Decimal::ONE_HUNDRED)
        .to_u128()
        .ok_or(PrintError::ValueTooLarge(value))?;
    let integer = u64::try_from(cents_total / 100)
        .ok()
        .filter(|i| *i < LIMIT)
        .ok_or(PrintError::ValueTooLarge(value))?;
    // Below 100 by construction.
    let cents = (cents_total % 100) as u64;

    let cents_words = match cents {
        0 => None,
        1 => Some("um centavo".to_string()),
        c => Some(format!("{} centavos", group_in_words(c))),
    };
    let integer_words = match integer {
        0 => None,
        i => {
            let noun = if i % 1000 == 1 { "real" } else { "reais" };
            let de = if i % 1_000_000 == 0 { "de " } else { "" };
            Some(format!("{} {de}{noun}", integer_in_words(i)))
        }
    };
    Ok(match (integer_words, cents_words) {
        (Some(i), Some(c)) => format!("{i} e {c}"),
        (Some(i), None) => i,
        (None, Some(c)) => c,
        (None, None) => "zero reais".to_string(),
    })
}

/// Writes a date as on a receipt: "24 de novembro de 2026" ("1º de …" on the
/// first day of a month).
pub fn date_in_words(date: NaiveDate) -> String {
    let day = match date.day() {
        1 => "1º".to_string(),
        d => d.to_string(),
    };
    // month0() is 0..=11 by chrono's contract.
    let month = MONTHS[date.month0() as usize];
    format!("{day} de {month} de {}", date.year())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn words(s: &str) -> String {
        money_in_words(Decimal::from_str(s).unwrap()).unwrap()
    }

    #[test]
    fn required_examples() {
        assert_eq!(words("0.01"), "um centavo");
        assert_eq!(words("1.00"), "um real");
        assert_eq!(
            words("1234.56"),
            "um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos"
        );
        assert_eq!(words("1000000.00"), "um milhão de reais");
        assert_eq!(words("2000001.10"), "dois milhões, um real e dez centavos");
    }

    #[test]
    fn other_values() {
        assert_eq!(words("0"), "zero reais");
        assert_eq!(words("0.00"), "zero reais");
        assert_eq!(words("100"), "cem reais");
        assert_eq!(words("101"), "cento e um reais");
        assert_eq!(words("1000"), "um mil reais");
        assert_eq!(words("21.50"), "vinte e um reais e cinquenta centavos");
        assert_eq!(words("1100000.00"), "um milhão, cem mil reais");
        assert_eq!(words("0.99"), "noventa e nove centavos");
        assert_eq!(words("2"), "dois reais");
        assert_eq!(words("1001"), "um mil, um real");
        assert_eq!(words("15"), "quinze reais");
        assert_eq!(words("110"), "cento e dez reais");
        assert_eq!(words("999"), "novecentos e noventa e nove reais");
        assert_eq!(words("2000000"), "dois milhões de reais");
        assert_eq!(words("1000000.10"), "um milhão de reais e dez centavos");
        assert_eq!(words("3000000000"), "três bilhões de reais");
        assert_eq!(words("1001001"), "um milhão, um mil, um real");
        assert_eq!(words("200300"), "duzentos mil, trezentos reais");
    }

    #[test]
    fn rounds_half_away_from_zero_first() {
        assert_eq!(words("0.005"), "um centavo");
        assert_eq!(words("0.004"), "zero reais");
        assert_eq!(words("1.995"), "dois reais");
        assert_eq!(words("0.015"), "dois centavos");
    }

    #[test]
    fn refuses_negative_and_huge() {
        assert!(matches!(
            money_in_words(Decimal::from_str("-0.01").unwrap()),
            Err(PrintError::NegativeValue(_))
        ));
        assert!(matches!(
            money_in_words(Decimal::from_str("1000000000000000000").unwrap()),
            Err(PrintError::ValueTooLarge(_))
        ));
        assert_eq!(
            words("999999999999999999.99"),
            "novecentos e noventa e nove quatrilhões, novecentos e noventa e nove trilhões, \
             novecentos e noventa e nove bilhões, novecentos e noventa e nove milhões, \
             novecentos e noventa e nove mil, novecentos e noventa e nove reais e \
             noventa e nove centavos"
        );
    }

    #[test]
    fn dates() {
        let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(date_in_words(d(2026, 11, 24)), "24 de novembro de 2026");
        assert_eq!(date_in_words(d(2026, 3, 1)), "1º de março de 2026");
    }
}
