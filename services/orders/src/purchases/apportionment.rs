//! The purchase's apportionment to stock locations and cost centres (CMPE_*): each
//! row's share of the invoice total by its percentage, in cents, the remainder cent
//! on the last row, so the values add up to the total exactly.

use erp_platform::resource::document::arithmetic::money;
use rust_decimal::Decimal;

/// The value of each share of `total` (`percents`, which add up to 100): percent of
/// the total rounded to the cent, the last what is left.
pub fn values(total: Decimal, percents: &[Decimal]) -> Vec<Decimal> {
    let Some((_, first)) = percents.split_last() else {
        return Vec::new();
    };
    let mut out: Vec<Decimal> = first
        .iter()
        .map(|p| money(total * p / Decimal::ONE_HUNDRED))
        .collect();
    let taken: Decimal = out.iter().sum();
    out.push(money(total) - taken);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).expect("decimal")
    }

    #[test]
    fn shares_add_up_to_the_total_to_the_cent() {
        // 1000.00 in thirds: 333.33 + 333.33 + 333.34.
        let third = d("33.3333");
        let last = d("33.3334");
        assert_eq!(
            values(d("1000.00"), &[third, third, last]),
            vec![d("333.33"), d("333.33"), d("333.34")]
        );
        // 100.01 at 50/50: 50.01 (50.005 rounded half up) + 50.00.
        assert_eq!(
            values(d("100.01"), &[d("50"), d("50")]),
            vec![d("50.01"), d("50.00")]
        );
        assert_eq!(values(d("59.90"), &[d("100")]), vec![d("59.90")]);
        assert!(values(d("10"), &[]).is_empty());
    }
}
