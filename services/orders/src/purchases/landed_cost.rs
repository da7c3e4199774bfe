//! Landed cost (custo de entrada) of each item of a purchase: how much each unit put in
//! stock really cost.
//!
//! For every item: `total = value − discount + freight + insurance + other + IPI + ST`,
//! and `unit_cost = total / (quantity × factor)`, where `factor` converts the purchase
//! unit into the stock unit (a box of 12 has factor 12: 2 boxes are 24 UN).
//!
//! Rules, in the order [`apportion`] applies them:
//! - **Per-item values win.** When the NF-e gives a component for an item
//!   (`det/prod/vFrete`, `vSeg`, `vDesc`, `vOutro`, `IPI/vIPI`, `ICMS/vICMSST` +
//!   `vFCPST`) that value is used as it is: it is the legal one. [`ItemCost::from_nfe_item`]
//!   does this mapping.
//! - **Header amounts are invoice totals, not extras.** Each [`HeaderExtras`] field is
//!   the whole amount of that component for the purchase (the NF-e's `ICMSTot`, see
//!   [`HeaderExtras::from_nfe_totals`], or a value typed by the user, e.g. NF-e freight
//!   plus a separate freight bill). Each component is handled on its own. `None` means
//!   "no header amount": only the per-item values count. When given, it must not be less
//!   than the sum of the per-item values ([`CostError::HeaderBelowItems`]); the
//!   difference is apportioned over **all** items by value, whether or not they carried
//!   a per-item value (an extra freight bill concerns all the goods). For an authorised
//!   NF-e the difference is zero, since SEFAZ requires the totals to equal the item sums.
//! - **Apportionment** is by item value (`vProd`): each share is
//!   `amount × value / Σ values`, rounded to 2 places half-up
//!   (`MidpointAwayFromZero`: 0,025 → 0,03, where banker's rounding would give 0,02).
//!   The remainder cent(s) go to the **last**
//!   item that takes part (the last with a non-zero base), so the shares add up to the
//!   amount exactly. R$ 10,00 over 33,33 / 33,33 / 33,34 gives 3,33 / 3,33 / 3,34.
//! - Only when the amount is a few cents spread over many items can that remainder be
//!   negative enough to make the last share negative (R$ 0,02 over four equal items:
//!   0,01 + 0,01 + 0,01 leaves −0,01); then cents are taken back one at a time from the
//!   items just before it (0,01 / 0,01 / 0,00 / 0,00), so no share is ever negative.
//! - **Zero-value items** (e.g. a free sample with `vProd` 0) get no share; they keep
//!   their own per-item values. If **every** item is worth zero, amounts are apportioned
//!   by stock quantity (`quantity × factor`) instead, which is always positive.
//! - **Validation**: every money input must be ≥ 0 and in cents (at most 2 decimal
//!   places, so the totals stay exact); quantity and factor must be > 0. An item whose
//!   total ends up negative (discount larger than the rest) is refused
//!   ([`CostError::NegativeTotal`]) rather than producing a negative stock cost.
//! - `total` has 2 places (it is exact: every component is in cents); `unit_cost` is
//!   rounded to 4 places half-up, so `unit_cost × quantity` may differ from `total` by
//!   rounding: the total is the figure to book.
//! - Not included, because the rule does not list them: import duty (`vII`),
//!   desoneration (`vICMSDeson`) and the recoverable credits of ICMS/PIS/COFINS/IPI
//!   (whether a credit reduces the cost depends on the buyer's regime, decided outside).

use super::nfe_xml::{IcmsTotals, Item};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use std::fmt;
use thiserror::Error;

/// One purchase item as the apportionment sees it. The optional components are the
/// values the NF-e gives for this item (`None` when it gives none).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemCost {
    /// Products value (`vProd`).
    pub value: Decimal,
    pub discount: Option<Decimal>,
    pub freight: Option<Decimal>,
    pub insurance: Option<Decimal>,
    pub other: Option<Decimal>,
    pub ipi: Option<Decimal>,
    /// ICMS-ST plus FCP-ST charged on the note for this item.
    pub st: Option<Decimal>,
    /// Quantity in the purchase (commercial) unit.
    pub quantity: Decimal,
    /// How many stock units one purchase unit holds.
    pub factor: Decimal,
}

impl ItemCost {
    /// Takes the per-item values from an NF-e item: `vProd`, `vDesc`, `vFrete`, `vSeg`,
    /// `vOutro`, `vIPI` and `vICMSST + vFCPST` (ST withheld earlier, `vICMSSTRet`, is not
    /// charged on this note and is left out). Quantity is `qCom`; `factor` converts
    /// `uCom` into the stock unit and comes from the product's registration.
    pub fn from_nfe_item(item: &Item, factor: Decimal) -> ItemCost {
        let st = item
            .taxes
            .icms
            .as_ref()
            .and_then(|icms| match (icms.v_icms_st, icms.v_fcp_st) {
                (None, None) => None,
                (st, fcp) => Some(st.unwrap_or_default() + fcp.unwrap_or_default()),
            });
        ItemCost {
            value: item.prod.v_prod,
            discount: item.prod.v_desc,
            freight: item.prod.v_frete,
            insurance: item.prod.v_seg,
            other: item.prod.v_outro,
            ipi: item.taxes.ipi.as_ref().and_then(|ipi| ipi.v_ipi),
            st,
            quantity: item.prod.q_com,
            factor,
        }
    }
}

/// Invoice-level amounts of each component (see the module doc: totals, not extras).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeaderExtras {
    pub freight: Option<Decimal>,
    pub insurance: Option<Decimal>,
    pub discount: Option<Decimal>,
    pub other: Option<Decimal>,
    pub ipi: Option<Decimal>,
    /// ICMS-ST plus FCP-ST.
    pub st: Option<Decimal>,
}

impl HeaderExtras {
    /// The NF-e's own totals: `vFrete`, `vSeg`, `vDesc`, `vOutro`, `vIPI` and
    /// `vST + vFCPST`. Add any separate cost (a freight bill) to these before calling
    /// [`apportion`].
    pub fn from_nfe_totals(t: &IcmsTotals) -> HeaderExtras {
        HeaderExtras {
            freight: Some(t.v_frete),
            insurance: Some(t.v_seg),
            discount: Some(t.v_desc),
            other: Some(t.v_outro),
            ipi: Some(t.v_ipi),
            st: Some(t.v_st + t.v_fcp_st),
        }
    }
}

/// The landed cost of one item: each component as applied (per-item value plus its
/// share of the header difference), the total and the unit cost in the stock unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Landed {
    pub value: Decimal,
    pub discount: Decimal,
    pub freight: Decimal,
    pub insurance: Decimal,
    pub other: Decimal,
    pub ipi: Decimal,
    pub st: Decimal,
    /// `value − discount + freight + insurance + other + ipi + st`, 2 places.
    pub total: Decimal,
    /// `quantity × factor`, in stock units.
    pub stock_quantity: Decimal,
    /// `total / stock_quantity`, 4 places half-up.
    pub unit_cost: Decimal,
}

/// A money field, named in Portuguese for the error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Value,
    Discount,
    Freight,
    Insurance,
    Other,
    Ipi,
    St,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Value => "valor dos produtos",
            Field::Discount => "desconto",
            Field::Freight => "frete",
            Field::Insurance => "seguro",
            Field::Other => "outras despesas",
            Field::Ipi => "IPI",
            Field::St => "ICMS-ST",
        })
    }
}

/// Where an invalid value was found: an item (1-based position) or the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Item(usize),
    Header,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Item(n) => write!(f, "Item {n}"),
            Place::Header => f.write_str("Cabeçalho"),
        }
    }
}

/// Why the landed cost could not be computed; messages in Portuguese for the user.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CostError {
    #[error("Não há itens para calcular o custo de entrada.")]
    NoItems,
    #[error("Item {0}: a quantidade deve ser maior que zero.")]
    InvalidQuantity(usize),
    #[error("Item {0}: o fator de conversão para a unidade de estoque deve ser maior que zero.")]
    InvalidFactor(usize),
    #[error("{place}: {field} não pode ser negativo.")]
    Negative { place: Place, field: Field },
    #[error("{place}: {field} deve ter no máximo 2 casas decimais (recebido {}).", brl(.value))]
    NotCents {
        place: Place,
        field: Field,
        value: Decimal,
    },
    #[error(
        "Valor de {field} no cabeçalho (R$ {}) é menor que a soma informada nos itens (R$ {}).",
        brl(.header),
        brl(.items)
    )]
    HeaderBelowItems {
        field: Field,
        header: Decimal,
        items: Decimal,
    },
    #[error(
        "Item {item}: o custo de entrada ficou negativo (R$ {}); o desconto é maior que o valor do item.",
        brl(.total)
    )]
    NegativeTotal { item: usize, total: Decimal },
    #[error("Valores grandes demais para calcular o custo de entrada.")]
    Overflow,
}

type Result<T> = std::result::Result<T, CostError>;

/// Money as a Brazilian reads it in a message: decimal comma.
fn brl(value: &Decimal) -> String {
    value.to_string().replace('.', ",")
}

fn round_half_up(value: Decimal, places: u32) -> Decimal {
    value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero)
}

fn add(a: Decimal, b: Decimal) -> Result<Decimal> {
    a.checked_add(b).ok_or(CostError::Overflow)
}

fn sum(values: impl IntoIterator<Item = Decimal>) -> Result<Decimal> {
    values.into_iter().try_fold(Decimal::ZERO, add)
}

fn check_money(place: Place, field: Field, value: Decimal) -> Result<()> {
    if value < Decimal::ZERO {
        return Err(CostError::Negative { place, field });
    }
    if value.round_dp(2) != value {
        return Err(CostError::NotCents { place, field, value });
    }
    Ok(())
}

/// The components that are apportioned, with how to read each from an item and from
/// the header.
type Getter<T> = fn(&T) -> Option<Decimal>;
const COMPONENTS: [(Field, Getter<ItemCost>, Getter<HeaderExtras>); 6] = [
    (Field::Discount, |i| i.discount, |h| h.discount),
    (Field::Freight, |i| i.freight, |h| h.freight),
    (Field::Insurance, |i| i.insurance, |h| h.insurance),
    (Field::Other, |i| i.other, |h| h.other),
    (Field::Ipi, |i| i.ipi, |h| h.ipi),
    (Field::St, |i| i.st, |h| h.st),
];

/// Computes the landed cost of every item (same order as `items`); see the module doc
/// for the rules.
pub fn apportion(items: &[ItemCost], header: &HeaderExtras) -> Result<Vec<Landed>> {
    if items.is_empty() {
        return Err(CostError::NoItems);
    }
    let mut stock_quantities = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let place = Place::Item(i + 1);
        check_money(place, Field::Value, item.value)?;
        for (field, of_item, _) in COMPONENTS {
            if let Some(v) = of_item(item) {
                check_money(place, field, v)?;
            }
        }
        if item.quantity <= Decimal::ZERO {
            return Err(CostError::InvalidQuantity(i + 1));
        }
        if item.factor <= Decimal::ZERO {
            return Err(CostError::InvalidFactor(i + 1));
        }
        stock_quantities.push(
            item.quantity
                .checked_mul(item.factor)
                .ok_or(CostError::Overflow)?,
        );
    }
    for (field, _, of_header) in COMPONENTS {
        if let Some(v) = of_header(header) {
            check_money(Place::Header, field, v)?;
        }
    }

    let values: Vec<Decimal> = items.iter().map(|i| i.value).collect();
    let weights = if sum(values.iter().copied())?.is_zero() {
        &stock_quantities
    } else {
        &values
    };

    // applied[c][i]: component c of item i, per-item value plus apportioned share.
    let mut applied: Vec<Vec<Decimal>> = Vec::with_capacity(COMPONENTS.len());
    for (field, of_item, of_header) in COMPONENTS {
        let own: Vec<Decimal> = items
            .iter()
            .map(|i| of_item(i).unwrap_or_default())
            .collect();
        let own_sum = sum(own.iter().copied())?;
        let difference = match of_header(header) {
            None => Decimal::ZERO,
            Some(h) if h < own_sum => {
                return Err(CostError::HeaderBelowItems { field, header: h, items: own_sum })
            }
            Some(h) => h - own_sum,
        };
        let shares = split(difference, weights)?;
        applied.push(
            own.iter()
                .zip(shares)
                .map(|(o, s)| add(*o, s))
                .collect::<Result<Vec<_>>>()?,
        );
    }

    let mut landed = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        // Indices follow the order of COMPONENTS.
        let [discount, freight, insurance, other, ipi, st] =
            [0, 1, 2, 3, 4, 5].map(|c| cents(applied[c][i]));
        let additions = sum([freight, insurance, other, ipi, st])?;
        let total = cents(
            add(item.value, additions)?
                .checked_sub(discount)
                .ok_or(CostError::Overflow)?,
        );
        if total < Decimal::ZERO {
            return Err(CostError::NegativeTotal { item: i + 1, total });
        }
        let stock_quantity = stock_quantities[i];
        let mut unit_cost = round_half_up(
            total
                .checked_div(stock_quantity)
                .ok_or(CostError::Overflow)?,
            4,
        );
        unit_cost.rescale(4);
        landed.push(Landed {
            value: cents(item.value),
            discount,
            freight,
            insurance,
            other,
            ipi,
            st,
            total,
            stock_quantity,
            unit_cost,
        });
    }
    Ok(landed)
}

/// Shows an amount already in cents with exactly 2 places (450 → 450.00).
fn cents(mut value: Decimal) -> Decimal {
    value.rescale(2);
    value
}

/// Splits `amount` (≥ 0, in cents) in proportion to `weights` (≥ 0, not all zero), with
/// the rounding and remainder rules of the module doc.
fn split(amount: Decimal, weights: &[Decimal]) -> Result<Vec<Decimal>> {
    let mut shares = vec![Decimal::ZERO; weights.len()];
    if amount.is_zero() {
        return Ok(shares);
    }
    let total_weight = sum(weights.iter().copied())?;
    let Some(last) = weights.iter().rposition(|w| !w.is_zero()) else {
        // Unreachable through `apportion` (quantities are positive); kept as an error
        // rather than a panic.
        return Err(CostError::NoItems);
    };
    let mut given = Decimal::ZERO;
    for (share, weight) in shares.iter_mut().zip(weights).take(last) {
        let exact = amount
            .checked_mul(*weight)
            .and_then(|p| p.checked_div(total_weight))
            .ok_or(CostError::Overflow)?;
        *share = round_half_up(exact, 2);
        given = add(given, *share)?;
    }
    shares[last] = amount - given;
    // Rounding up many tiny shares can overshoot the amount; take the excess back from
    // the items just before the last one, a cent at a time.
    let cent = Decimal::new(1, 2);
    for k in (0..last).rev() {
        while shares[last] < Decimal::ZERO && shares[k] > Decimal::ZERO {
            shares[k] -= cent;
            shares[last] += cent;
        }
    }
    Ok(shares)
}

#[cfg(test)]
mod tests {
    use super::super::nfe_xml;
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).expect("decimal literal")
    }

    fn item(value: &str, quantity: &str, factor: &str) -> ItemCost {
        ItemCost {
            value: d(value),
            discount: None,
            freight: None,
            insurance: None,
            other: None,
            ipi: None,
            st: None,
            quantity: d(quantity),
            factor: d(factor),
        }
    }

    /// (discount, freight, insurance, other, ipi, st, total, unit_cost) of each result.
    fn columns(landed: &[Landed]) -> Vec<[String; 8]> {
        landed
            .iter()
            .map(|l| {
                [
                    l.discount,
                    l.freight,
                    l.insurance,
                    l.other,
                    l.ipi,
                    l.st,
                    l.total,
                    l.unit_cost,
                ]
                .map(|v| v.to_string())
            })
            .collect()
    }

    fn row(cells: [&str; 8]) -> [String; 8] {
        cells.map(str::to_owned)
    }

    fn own_fixture() -> nfe_xml::NfeDocument {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/nfe_compra_ipi_frete.xml"
        );
        let bytes = std::fs::read(path).expect("own NF-e fixture");
        nfe_xml::parse(&bytes).expect("own NF-e fixture parses")
    }

    // Hand computation (amounts over Σ values = 100,00; share = amount × value / 100,00
    // rounded half-up to cents; the last item takes amount − Σ other shares):
    //
    //   item            A (33,33; 1 UN)   B (33,33; 3 UN)   C (33,34; 2 CX × 12 = 24 UN)
    //   frete 10,00     3,333  → 3,33     3,33              10,00 − 6,66 = 3,34
    //   seguro 1,00     0,3333 → 0,33     0,33              1,00 − 0,66 = 0,34
    //   desconto 5,00   1,6665 → 1,67     1,67              5,00 − 3,34 = 1,66
    //   outras 0,50     0,16665 → 0,17    0,17              0,50 − 0,34 = 0,16
    //   IPI 3,00        0,9999 → 1,00     1,00              3,00 − 2,00 = 1,00
    //   ST 2,00         0,6666 → 0,67     0,67              2,00 − 1,34 = 0,66
    //   total           37,16             37,16             37,18
    //   unit            37,16 / 1         37,16 / 3         37,18 / 24
    //                   = 37,1600         = 12,38666… → 12,3867   = 1,549166… → 1,5492
    //
    //   Σ totals 111,50 = 100,00 − 5,00 + 10,00 + 1,00 + 0,50 + 3,00 + 2,00.
    #[test]
    fn hand_computed_three_items_with_remainder_cent() {
        let items = [
            item("33.33", "1", "1"),
            item("33.33", "3", "1"),
            item("33.34", "2", "12"),
        ];
        let header = HeaderExtras {
            freight: Some(d("10.00")),
            insurance: Some(d("1.00")),
            discount: Some(d("5.00")),
            other: Some(d("0.50")),
            ipi: Some(d("3.00")),
            st: Some(d("2.00")),
        };
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(
            columns(&landed),
            vec![
                row(["1.67", "3.33", "0.33", "0.17", "1.00", "0.67", "37.16", "37.1600"]),
                row(["1.67", "3.33", "0.33", "0.17", "1.00", "0.67", "37.16", "12.3867"]),
                row(["1.66", "3.34", "0.34", "0.16", "1.00", "0.66", "37.18", "1.5492"]),
            ]
        );
        assert_eq!(landed[2].stock_quantity, d("24"));
        let total: Decimal = landed.iter().map(|l| l.total).sum();
        assert_eq!(total, d("111.50"));
    }

    #[test]
    fn exact_midpoints_round_half_up() {
        // 0,05 over two equal items: 0,025 → 0,03 (half-even would give 0,02), and the
        // last takes 0,02. Unit cost 0,41 / 8 = 0,05125 → 0,0513 (half-even: 0,0512).
        let items = [item("10.00", "1", "1"), item("10.00", "1", "1")];
        let header = HeaderExtras { freight: Some(d("0.05")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(landed[0].freight.to_string(), "0.03");
        assert_eq!(landed[1].freight.to_string(), "0.02");
        let landed =
            apportion(&[item("0.41", "8", "1")], &HeaderExtras::default()).expect("apportion");
        assert_eq!(landed[0].unit_cost.to_string(), "0.0513");
    }

    #[test]
    fn box_of_twelve_is_costed_per_stock_unit() {
        // 2 boxes of 12 for R$ 60,00 plus R$ 6,00 of freight: 24 UN at R$ 2,75.
        let items = [item("60.00", "2", "12")];
        let header = HeaderExtras { freight: Some(d("6.00")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(landed[0].stock_quantity, d("24"));
        assert_eq!(landed[0].total.to_string(), "66.00");
        assert_eq!(landed[0].unit_cost.to_string(), "2.7500");
    }

    #[test]
    fn per_item_values_take_precedence_and_only_the_difference_is_apportioned() {
        // Freight given per item for A (2,00) and B (1,00), not for C; the header says
        // 10,00 in all, so 7,00 is apportioned over all three by value:
        // 7 × 0,3333 = 2,3331 → 2,33; 2,33; 7,00 − 4,66 = 2,34.
        let mut items = [
            item("33.33", "1", "1"),
            item("33.33", "1", "1"),
            item("33.34", "1", "1"),
        ];
        items[0].freight = Some(d("2.00"));
        items[1].freight = Some(d("1.00"));
        // IPI per item only, no header value: used as is, nothing apportioned.
        items[1].ipi = Some(d("4.44"));
        let header = HeaderExtras { freight: Some(d("10.00")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        let freight: Vec<String> = landed.iter().map(|l| l.freight.to_string()).collect();
        assert_eq!(freight, ["4.33", "3.33", "2.34"]);
        let ipi: Vec<String> = landed.iter().map(|l| l.ipi.to_string()).collect();
        assert_eq!(ipi, ["0.00", "4.44", "0.00"]);
        let totals: Vec<String> = landed.iter().map(|l| l.total.to_string()).collect();
        assert_eq!(totals, ["37.66", "41.10", "35.68"]);
    }

    #[test]
    fn header_equal_to_item_values_apportions_nothing() {
        let mut items = [item("50.00", "1", "1"), item("50.00", "1", "1")];
        items[0].freight = Some(d("9.99"));
        items[1].freight = Some(d("0.01"));
        let header = HeaderExtras { freight: Some(d("10.00")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(landed[0].freight, d("9.99"));
        assert_eq!(landed[1].freight, d("0.01"));
    }

    #[test]
    fn header_below_the_item_sum_is_refused() {
        let mut items = [item("50.00", "1", "1"), item("50.00", "1", "1")];
        items[0].discount = Some(d("3.00"));
        items[1].discount = Some(d("2.50"));
        let header = HeaderExtras { discount: Some(d("5.00")), ..HeaderExtras::default() };
        let err = apportion(&items, &header).expect_err("header below items");
        assert_eq!(
            err,
            CostError::HeaderBelowItems {
                field: Field::Discount,
                header: d("5.00"),
                items: d("5.50"),
            }
        );
        assert_eq!(
            err.to_string(),
            "Valor de desconto no cabeçalho (R$ 5,00) é menor que a soma informada nos itens (R$ 5,50)."
        );
    }

    #[test]
    fn landed_costs_of_the_own_nfe_fixture_match_the_hand_computation() {
        // From tests/fixtures/nfe_compra_ipi_frete.xml (every item value is per item, so
        // nothing is apportioned; item 1 is a box of 12):
        //   1: 450,00 − 22,50 + 30,00 + 4,50 + 46,20 + (44,91 + 14,23) = 567,34
        //      / (10 CX × 12) = 4,727833… → 4,7278
        //   2: 131,00 − 6,55 + 8,73 + 6,66 + 11,27 = 151,11 / 200 = 0,75555 → 0,7556
        //   3: 99,99 + 1,27 + 5,00 = 106,26 / 3 = 35,4200
        //   Σ 824,71 = vNF.
        let doc = own_fixture();
        let factors = [d("12"), d("1"), d("1")];
        let items: Vec<ItemCost> = doc
            .items
            .iter()
            .zip(factors)
            .map(|(i, f)| ItemCost::from_nfe_item(i, f))
            .collect();
        assert_eq!(items[0].st, Some(d("59.14")));
        assert_eq!(items[2].ipi, None);
        assert_eq!(items[2].st, None);
        let header = HeaderExtras::from_nfe_totals(&doc.icms_tot);
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(
            columns(&landed),
            vec![
                row(["22.50", "30.00", "4.50", "0.00", "46.20", "59.14", "567.34", "4.7278"]),
                row(["6.55", "8.73", "0.00", "0.00", "6.66", "11.27", "151.11", "0.7556"]),
                row(["0.00", "1.27", "0.00", "5.00", "0.00", "0.00", "106.26", "35.4200"]),
            ]
        );
        let t = &doc.icms_tot;
        let invoice =
            t.v_prod - t.v_desc + t.v_frete + t.v_seg + t.v_outro + t.v_ipi + t.v_st + t.v_fcp_st;
        let landed_sum: Decimal = landed.iter().map(|l| l.total).sum();
        assert_eq!(landed_sum, invoice);
        assert_eq!(landed_sum, t.v_nf);
    }

    #[test]
    fn a_separate_freight_bill_is_apportioned_on_top_of_the_nfe_freight() {
        // NF-e freight 40,00 + freight bill 50,00 = header 90,00; the 50,00 goes over
        // vProd 450,00 / 131,00 / 99,99 (Σ 680,99):
        //   50 × 450 / 680,99 = 33,0401… → 33,04; 50 × 131 / 680,99 = 9,6183… → 9,62;
        //   last 50,00 − 42,66 = 7,34.
        // Totals 600,38 / 160,73 / 113,60; units 600,38 / 120 = 5,00316… → 5,0032,
        // 160,73 / 200 = 0,80365 → 0,8037 (half-up), 113,60 / 3 = 37,8666… → 37,8667.
        let doc = own_fixture();
        let items: Vec<ItemCost> = doc
            .items
            .iter()
            .zip([d("12"), d("1"), d("1")])
            .map(|(i, f)| ItemCost::from_nfe_item(i, f))
            .collect();
        let mut header = HeaderExtras::from_nfe_totals(&doc.icms_tot);
        header.freight = Some(doc.icms_tot.v_frete + d("50.00"));
        let landed = apportion(&items, &header).expect("apportion");
        let freight: Vec<String> = landed.iter().map(|l| l.freight.to_string()).collect();
        assert_eq!(freight, ["63.04", "18.35", "8.61"]);
        let totals: Vec<String> = landed.iter().map(|l| l.total.to_string()).collect();
        assert_eq!(totals, ["600.38", "160.73", "113.60"]);
        let units: Vec<String> = landed.iter().map(|l| l.unit_cost.to_string()).collect();
        assert_eq!(units, ["5.0032", "0.8037", "37.8667"]);
        let landed_sum: Decimal = landed.iter().map(|l| l.total).sum();
        assert_eq!(landed_sum, doc.icms_tot.v_nf + d("50.00"));
    }

    #[test]
    fn zero_value_items_get_no_share_and_the_remainder_goes_to_the_last_valued_item() {
        // 10,01 over 100 / 50 / 0: 10,01 × 100 / 150 = 6,6733… → 6,67; the last item
        // with a value takes 10,01 − 6,67 = 3,34; the free item gets nothing.
        let mut items = [
            item("100.00", "1", "1"),
            item("50.00", "1", "1"),
            item("0", "5", "1"),
        ];
        items[2].freight = Some(d("0.50"));
        let header = HeaderExtras { freight: Some(d("10.51")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        let freight: Vec<String> = landed.iter().map(|l| l.freight.to_string()).collect();
        assert_eq!(freight, ["6.67", "3.34", "0.50"]);
        assert_eq!(landed[2].total.to_string(), "0.50");
        assert_eq!(landed[2].unit_cost.to_string(), "0.1000");
    }

    #[test]
    fn all_zero_values_apportion_by_stock_quantity() {
        // Two free items: 1 box of 12 and 6 UN; 9,00 of freight by 12 : 6 → 6,00 / 3,00.
        let items = [item("0", "1", "12"), item("0.00", "6", "1")];
        let header = HeaderExtras { freight: Some(d("9.00")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        assert_eq!(landed[0].freight.to_string(), "6.00");
        assert_eq!(landed[1].freight.to_string(), "3.00");
        assert_eq!(landed[0].unit_cost.to_string(), "0.5000");
        assert_eq!(landed[1].unit_cost.to_string(), "0.5000");
    }

    #[test]
    fn a_few_cents_over_many_items_never_give_a_negative_share() {
        // 0,02 over four equal items: 0,005 → 0,01 three times overshoots by a cent,
        // which is taken back from the item before the last.
        let items = [
            item("10.00", "1", "1"),
            item("10.00", "1", "1"),
            item("10.00", "1", "1"),
            item("10.00", "1", "1"),
        ];
        let header = HeaderExtras { insurance: Some(d("0.02")), ..HeaderExtras::default() };
        let landed = apportion(&items, &header).expect("apportion");
        let insurance: Vec<String> = landed.iter().map(|l| l.insurance.to_string()).collect();
        assert_eq!(insurance, ["0.01", "0.01", "0.00", "0.00"]);
    }

    #[test]
    fn random_purchases_always_add_up_to_the_invoice() {
        // A fixed linear congruential generator: reproducible, no extra dependency.
        let mut seed: u64 = 0x5EED_CAFE;
        let mut next = |bound: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % bound
        };
        for case in 0..500 {
            let n = 1 + next(8) as usize;
            let mut items = Vec::new();
            for _ in 0..n {
                // One item in five is worth zero (a free sample).
                let cents = if next(5) == 0 { 0 } else { next(1_000_000) };
                let mut it = item("0", "1", "1");
                it.value = Decimal::new(cents as i64, 2);
                it.quantity = Decimal::new(1 + next(5000) as i64, 3);
                it.factor = Decimal::from(1 + next(24));
                if next(2) == 0 {
                    it.freight = Some(Decimal::new(next(5000) as i64, 2));
                }
                if next(3) == 0 {
                    it.ipi = Some(Decimal::new(next(5000) as i64, 2));
                }
                items.push(it);
            }
            let item_freight: Decimal = items.iter().filter_map(|i| i.freight).sum();
            let item_ipi: Decimal = items.iter().filter_map(|i| i.ipi).sum();
            let header = HeaderExtras {
                freight: Some(item_freight + Decimal::new(next(100_000) as i64, 2)),
                insurance: Some(Decimal::new(next(300) as i64, 2)),
                other: Some(Decimal::new(next(7) as i64, 2)),
                ipi: Some(item_ipi + Decimal::new(next(50) as i64, 2)),
                st: Some(Decimal::new(next(20_000) as i64, 2)),
                discount: None,
            };
            let landed = apportion(&items, &header).expect("apportion");
            let col = |f: fn(&Landed) -> Decimal| landed.iter().map(f).sum::<Decimal>();
            assert_eq!(Some(col(|l| l.freight)), header.freight, "case {case}");
            assert_eq!(Some(col(|l| l.insurance)), header.insurance, "case {case}");
            assert_eq!(Some(col(|l| l.other)), header.other, "case {case}");
            assert_eq!(Some(col(|l| l.ipi)), header.ipi, "case {case}");
            assert_eq!(Some(col(|l| l.st)), header.st, "case {case}");
            let products: Decimal = items.iter().map(|i| i.value).sum();
            let invoice = products
                + [
                    header.freight,
                    header.insurance,
                    header.other,
                    header.ipi,
                    header.st,
                ]
                .into_iter()
                .flatten()
                .sum::<Decimal>();
            assert_eq!(col(|l| l.total), invoice, "case {case}");
            for (l, it) in landed.iter().zip(&items) {
                assert!(l.freight >= it.freight.unwrap_or_default(), "case {case}");
                assert!(l.insurance >= Decimal::ZERO && l.other >= Decimal::ZERO);
                assert!(l.st >= Decimal::ZERO, "case {case}");
                if it.value.is_zero() && !products.is_zero() {
                    assert_eq!(
                        l.st,
                        Decimal::ZERO,
                        "zero-value item got a share, case {case}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_discount_larger_than_the_item_is_refused() {
        let mut items = [item("10.00", "1", "1")];
        items[0].discount = Some(d("12.00"));
        items[0].freight = Some(d("1.00"));
        let err = apportion(&items, &HeaderExtras::default()).expect_err("negative total");
        assert_eq!(err, CostError::NegativeTotal { item: 1, total: d("-1.00") });
        assert_eq!(
            err.to_string(),
            "Item 1: o custo de entrada ficou negativo (R$ -1,00); o desconto é maior que o valor do item."
        );
    }

    #[test]
    fn invalid_inputs_are_refused_with_a_clear_message() {
        let header = HeaderExtras::default();
        assert_eq!(apportion(&[], &header), Err(CostError::NoItems));

        let zero_quantity = [item("1.00", "1", "1"), item("1.00", "0", "1")];
        let err = apportion(&zero_quantity, &header).expect_err("zero quantity");
        assert_eq!(err, CostError::InvalidQuantity(2));
        assert_eq!(
            err.to_string(),
            "Item 2: a quantidade deve ser maior que zero."
        );

        let zero_factor = [item("1.00", "1", "0")];
        assert_eq!(
            apportion(&zero_factor, &header),
            Err(CostError::InvalidFactor(1))
        );

        let negative_value = [item("-1.00", "1", "1")];
        let err = apportion(&negative_value, &header).expect_err("negative value");
        assert_eq!(
            err.to_string(),
            "Item 1: valor dos produtos não pode ser negativo."
        );

        let mut negative_st = [item("1.00", "1", "1")];
        negative_st[0].st = Some(d("-0.01"));
        assert_eq!(
            apportion(&negative_st, &header),
            Err(CostError::Negative { place: Place::Item(1), field: Field::St })
        );

        let negative_header = HeaderExtras { other: Some(d("-5")), ..HeaderExtras::default() };
        let err = apportion(&[item("1.00", "1", "1")], &negative_header).expect_err("header");
        assert_eq!(
            err.to_string(),
            "Cabeçalho: outras despesas não pode ser negativo."
        );

        let fractional_cent =
            HeaderExtras { freight: Some(d("10.005")), ..HeaderExtras::default() };
        let err = apportion(&[item("1.00", "1", "1")], &fractional_cent).expect_err("cents");
        assert_eq!(
            err.to_string(),
            "Cabeçalho: frete deve ter no máximo 2 casas decimais (recebido 10,005)."
        );
        // Trailing zeros beyond the cent are still cents.
        assert!(apportion(&[item("1.000", "1", "1")], &header).is_ok());
    }
}
