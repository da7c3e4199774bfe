//! Money as a Brazilian reads it in a message: `R$ 1.234,56`.

use erp_platform::resource::document::arithmetic::money;
use rust_decimal::Decimal;

/// `R$ 1.234,56` (two places, rounded like every amount of a document; a negative
/// amount reads `-R$ 200,00`).
pub fn brl(d: Decimal) -> String {
    let d = money(d);
    let text = format!("{:.2}", d.abs());
    let (int, cents) = text.split_once('.').unwrap_or((text.as_str(), "00"));
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    let sign = if d < Decimal::ZERO { "-" } else { "" };
    format!("{sign}R$ {grouped},{cents}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn amounts_read_as_in_brazil() {
        let b = |s: &str| brl(Decimal::from_str(s).expect("decimal"));
        assert_eq!(b("0"), "R$ 0,00");
        assert_eq!(b("0.005"), "R$ 0,01");
        assert_eq!(b("200"), "R$ 200,00");
        assert_eq!(b("1000"), "R$ 1.000,00");
        assert_eq!(b("1234.5"), "R$ 1.234,50");
        assert_eq!(b("1234567.891"), "R$ 1.234.567,89");
        assert_eq!(b("-200"), "-R$ 200,00");
        assert_eq!(b("-1000.1"), "-R$ 1.000,10");
    }
}
