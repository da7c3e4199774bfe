//! Document arithmetic, in decimals (never floats): what the engine computes for
//! every declared document (quotes, billing orders, conditional sales, service
//! orders).
//!
//! A line's gross value is `round2(quantity x unit price)`; its net value is gross
//! minus its discount plus its surcharge (freight is kept apart, as NF-e does). A
//! document's totals are sums of its lines:
//!
//! | total                     | billing order   | quote          | service order  |
//! |---------------------------|-----------------|----------------|----------------|
//! | products (gross)          | PEDF_TOT_PROD   | ORCA_VLR_PECAS | ORDS_VLR_PECAS |
//! | services (gross)          | PEDF_TOT_SERV   | ORCA_VLR_OS    | ORDS_VLR_SERV  |
//! | surcharges                | PEDF_VLR_ACRE   | ORCA_VLR_ACRE  | ORDS_VLR_ACRE  |
//! | freight                   | PEDF_VLR_FRETE  |                |                |
//! | discounts                 | PEDF_VLR_DESC   | ORCA_VLR_DESC  | ORDS_VLR_DESC  |
//! | total                     | PEDF_VLR_TOTAL  | ORCA_VLR_TOT   | ORDS_VLR_TOTAL |
//!
//! total = products + services + surcharges + freight - discounts. A document-level
//! surcharge (the service order's `acrescimo`) adds to the line surcharges.

use crate::{Error, Result};
use rust_decimal::{Decimal, RoundingStrategy};

/// Money: 2 places, half away from zero (as the tax authority rounds).
pub fn money(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

/// Money as pt-BR text: `R$ 1.234,56`, rounded as [`money`] (a negative amount
/// reads `-R$ 200,00`).
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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub qty: Decimal,
    pub unit: Decimal,
    pub discount: Decimal,
    pub surcharge: Decimal,
    pub freight: Decimal,
}

impl Line {
    pub fn new(qty: Decimal, unit: Decimal) -> Line {
        Line { qty, unit, ..Line::default() }
    }

    pub fn gross(&self) -> Decimal {
        money(self.qty * self.unit)
    }

    /// Gross - discount + surcharge (freight apart).
    pub fn net(&self) -> Decimal {
        money(self.gross() - self.discount + self.surcharge)
    }

    /// The messages a user sees for a line that cannot be.
    pub fn check(&self) -> Result<()> {
        if self.qty <= Decimal::ZERO {
            return Err(Error::validation("A quantidade deve ser maior que zero."));
        }
        if self.unit < Decimal::ZERO {
            return Err(Error::validation("O valor unitário não pode ser negativo."));
        }
        if self.discount < Decimal::ZERO
            || self.surcharge < Decimal::ZERO
            || self.freight < Decimal::ZERO
        {
            return Err(Error::validation(
                "Desconto, acréscimo e frete não podem ser negativos.",
            ));
        }
        if self.discount > self.gross() + self.surcharge {
            return Err(Error::validation(
                "O desconto não pode ser maior que o valor do item.",
            ));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub products: Decimal,
    pub services: Decimal,
    pub surcharge: Decimal,
    pub freight: Decimal,
    pub discount: Decimal,
    pub total: Decimal,
}

/// The totals of a document from its product and service lines plus a
/// document-level surcharge and discount.
pub fn document(
    products: &[Line],
    services: &[Line],
    extra_surcharge: Decimal,
    extra_discount: Decimal,
) -> Totals {
    let sum = |ls: &[Line], f: fn(&Line) -> Decimal| ls.iter().map(f).sum::<Decimal>();
    let p = sum(products, Line::gross);
    let s = sum(services, Line::gross);
    let acre =
        money(sum(products, |l| l.surcharge) + sum(services, |l| l.surcharge) + extra_surcharge);
    let frete = money(sum(products, |l| l.freight) + sum(services, |l| l.freight));
    let desc =
        money(sum(products, |l| l.discount) + sum(services, |l| l.discount) + extra_discount);
    Totals {
        products: money(p),
        services: money(s),
        surcharge: acre,
        freight: frete,
        discount: desc,
        total: money(p + s + acre + frete - desc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    fn line(q: &str, u: &str, desc: &str, acre: &str, frete: &str) -> Line {
        Line {
            qty: d(q),
            unit: d(u),
            discount: d(desc),
            surcharge: d(acre),
            freight: d(frete),
        }
    }

    #[test]
    fn gross_rounds_half_away_from_zero() {
        // 3 x 3.335 = 10.005 -> 10.01; 0.3333 x 3 = 0.9999 -> 1.00; 7 x 0.125 = 0.875 -> 0.88
        assert_eq!(line("3", "3.335", "0", "0", "0").gross(), d("10.01"));
        assert_eq!(line("0.3333", "3", "0", "0", "0").gross(), d("1.00"));
        assert_eq!(line("7", "0.125", "0", "0", "0").gross(), d("0.88"));
        assert_eq!(line("2", "10", "1.50", "0.25", "9").net(), d("18.75"));
    }

    /// Orders worked by hand (products, services, extras -> the six totals).
    #[test]
    fn documents_match_the_hand_computed_table() {
        struct Case {
            products: Vec<Line>,
            services: Vec<Line>,
            want: [&'static str; 6], // prod, serv, acre, frete, desc, total
        }
        let cases = [
            // 2 x 10.00 = 20.00; 1 x 5.50 = 5.50 -> 25.50
            Case {
                products: vec![
                    line("2", "10", "0", "0", "0"),
                    line("1", "5.50", "0", "0", "0"),
                ],
                services: vec![],
                want: ["25.50", "0", "0", "0", "0", "25.50"],
            },
            // 3 x 19.90 = 59.70 with 4.70 discount; service 1.5 h x 80 = 120, 10 surcharge;
            // freight 15 -> 59.70 + 120 + 10 + 15 - 4.70 = 200.00
            Case {
                products: vec![line("3", "19.90", "4.70", "0", "15")],
                services: vec![line("1.5", "80", "0", "10", "0")],
                want: ["59.70", "120.00", "10", "15", "4.70", "200.00"],
            },
            // 0.125 kg x 39.99 = 4.99875 -> 5.00; 12 x 1.333 = 15.996 -> 16.00;
            // discounts 0.50 + 1.00, surcharge 0.35, freight 2.15 + 0.85
            // -> 21.00 + 0.35 + 3.00 - 1.50 = 22.85
            Case {
                products: vec![
                    line("0.125", "39.99", "0.50", "0", "2.15"),
                    line("12", "1.333", "1.00", "0.35", "0.85"),
                ],
                services: vec![],
                want: ["21.00", "0", "0.35", "3.00", "1.50", "22.85"],
            },
            // services only: 2 x 45.455 = 90.91; 1 x 0.01 = 0.01 -> 90.92
            Case {
                products: vec![],
                services: vec![
                    line("2", "45.455", "0", "0", "0"),
                    line("1", "0.01", "0", "0", "0"),
                ],
                want: ["0", "90.92", "0", "0", "0", "90.92"],
            },
            // a line given away entirely: 1 x 30 with 30 discount; plus 4 x 2.50 = 10
            Case {
                products: vec![
                    line("1", "30", "30", "0", "0"),
                    line("4", "2.50", "0", "0", "0"),
                ],
                services: vec![],
                want: ["40.00", "0", "0", "0", "30", "10.00"],
            },
        ];
        for (i, c) in cases.iter().enumerate() {
            let t = document(&c.products, &c.services, Decimal::ZERO, Decimal::ZERO);
            let got = [
                t.products,
                t.services,
                t.surcharge,
                t.freight,
                t.discount,
                t.total,
            ];
            let want: Vec<Decimal> = c.want.iter().map(|w| d(w)).collect();
            assert_eq!(got.to_vec(), want, "case {i}");
        }
        // A document-level surcharge of 12.345 (-> 12.35 after summing) and discount 2.
        let t = document(&[line("1", "100", "0", "0", "0")], &[], d("12.345"), d("2"));
        assert_eq!(
            (t.surcharge, t.discount, t.total),
            (d("12.35"), d("2"), d("110.35"))
        );
    }

    #[test]
    fn impossible_lines_are_refused_in_portuguese() {
        let msg = |l: Line| l.check().err().map(|e| e.to_string());
        assert_eq!(
            msg(line("0", "1", "0", "0", "0")),
            Some("A quantidade deve ser maior que zero.".into())
        );
        assert_eq!(
            msg(line("1", "-1", "0", "0", "0")),
            Some("O valor unitário não pode ser negativo.".into())
        );
        assert_eq!(
            msg(line("1", "10", "10.01", "0", "0")),
            Some("O desconto não pode ser maior que o valor do item.".into())
        );
        assert!(line("1", "10", "10.01", "0.01", "0").check().is_ok());
        assert_eq!(
            msg(line("1", "10", "0", "-1", "0")),
            Some("Desconto, acréscimo e frete não podem ser negativos.".into())
        );
    }
}
