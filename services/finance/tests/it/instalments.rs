//! The arithmetic tables, computed by hand: instalment splits of awkward totals,
//! due dates of payment and due-date conditions, and late interest and fine on
//! settlement dates before, on and after the grace days.

use chrono::NaiveDate;
use erp_finance::charges::{late_charges, LateCharges, LateRules};
use erp_finance::instalments::{due_on_day, schedule, split, Instalment, Terms};

use crate::d;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
}

fn values(v: &[&str]) -> Vec<rust_decimal::Decimal> {
    v.iter().map(|s| d(s)).collect()
}

fn parts(list: &[Instalment]) -> Vec<(i32, String, rust_decimal::Decimal)> {
    list.iter()
        .map(|p| (p.seq, p.due.format("%Y-%m-%d").to_string(), p.amount))
        .collect()
}

fn expect(v: &[(i32, &str, &str)]) -> Vec<(i32, String, rust_decimal::Decimal)> {
    v.iter()
        .map(|(s, due, a)| (*s, due.to_string(), d(a)))
        .collect()
}

#[test]
fn splits_add_up_to_the_total_with_the_remainder_on_the_first() {
    let table: [(&str, usize, &[&str]); 8] = [
        ("100.00", 3, &["33.34", "33.33", "33.33"]),
        ("0.05", 2, &["0.03", "0.02"]),
        ("100.00", 1, &["100.00"]),
        ("10.00", 4, &["2.50", "2.50", "2.50", "2.50"]),
        ("1000.01", 3, &["333.35", "333.33", "333.33"]),
        ("0.10", 3, &["0.04", "0.03", "0.03"]),
        // Fewer cents than instalments: one instalment per cent.
        ("0.02", 3, &["0.01", "0.01"]),
        ("0", 3, &[]),
    ];
    for (total, n, want) in table {
        let got = split(d(total), n).expect("split");
        assert_eq!(got, values(want), "{total} in {n}");
        let sum: rust_decimal::Decimal = got.iter().sum();
        if !got.is_empty() {
            assert_eq!(sum, d(total), "{total} in {n} adds up");
        }
    }
    for (total, n, msg) in [
        ("-1.00", 2, "O valor a parcelar não pode ser negativo."),
        (
            "1.005",
            2,
            "O valor a parcelar deve ter no máximo duas casas decimais.",
        ),
        ("1.00", 0, "O número de parcelas deve estar entre 1 e 120."),
    ] {
        let e = split(d(total), n).expect_err(total);
        assert_eq!(e.public_message(), msg);
    }
}

#[test]
fn a_payment_condition_gives_count_and_days() {
    // 30/60/90 from 10/01/2026: January has 31 days, February 2026 28.
    let c =
        Terms::Condition { instalments: 3, first_days: 30, interval_days: 30, entry_pct: d("0") };
    let got = schedule(d("100.00"), day("2026-01-10"), &c).expect("30/60/90");
    assert_eq!(
        parts(&got),
        expect(&[
            (1, "2026-02-09", "33.34"),
            (2, "2026-03-11", "33.33"),
            (3, "2026-04-10", "33.33"),
        ])
    );
    // An entry of 10%: due on the issue date, the rest in two.
    let c =
        Terms::Condition { instalments: 3, first_days: 30, interval_days: 30, entry_pct: d("10") };
    let got = schedule(d("250.01"), day("2026-01-10"), &c).expect("entry");
    assert_eq!(
        parts(&got),
        expect(&[
            (1, "2026-01-10", "25.00"),
            (2, "2026-02-09", "112.51"),
            (3, "2026-03-11", "112.50"),
        ])
    );
    // 100% entry: one instalment on the issue date.
    let c =
        Terms::Condition { instalments: 1, first_days: 30, interval_days: 30, entry_pct: d("100") };
    let got = schedule(d("80.00"), day("2026-01-10"), &c).expect("cash");
    assert_eq!(parts(&got), expect(&[(1, "2026-01-10", "80.00")]));
    // No condition: the whole total on the issue date.
    let got = schedule(d("0.05"), day("2026-05-31"), &Terms::Single { days: 0 }).expect("single");
    assert_eq!(parts(&got), expect(&[(1, "2026-05-31", "0.05")]));
}

#[test]
fn a_due_date_condition_gives_days_of_the_month() {
    // Day 10 of the next two months.
    let c = Terms::DueDays(vec![(10, 2), (10, 1)]);
    let got = schedule(d("100.00"), day("2026-01-20"), &c).expect("day 10");
    assert_eq!(
        parts(&got),
        expect(&[(1, "2026-02-10", "50.00"), (2, "2026-03-10", "50.00")])
    );
    // 'End of next month': day 31 of February is its last day (2028 is a leap
    // year).
    let c = Terms::DueDays(vec![(31, 1)]);
    let got = schedule(d("100.00"), day("2026-01-15"), &c).expect("end of next month");
    assert_eq!(parts(&got), expect(&[(1, "2026-02-28", "100.00")]));
    assert_eq!(
        due_on_day(day("2028-01-31"), 31, 1).expect("leap"),
        day("2028-02-29")
    );
    assert_eq!(
        due_on_day(day("2026-11-30"), 31, 2).expect("year"),
        day("2027-01-31")
    );
    // Day 5 of the issue month, issued on the 20th: next month.
    assert_eq!(
        due_on_day(day("2026-01-20"), 5, 0).expect("past"),
        day("2026-02-05")
    );
    assert_eq!(
        due_on_day(day("2026-01-05"), 5, 0).expect("today"),
        day("2026-01-05")
    );
    // Three entries, R$ 100,00: the first takes the cent.
    let c = Terms::DueDays(vec![(15, 1), (15, 2), (15, 3)]);
    let got = schedule(d("100.00"), day("2026-01-20"), &c).expect("three");
    assert_eq!(
        parts(&got),
        expect(&[
            (1, "2026-02-15", "33.34"),
            (2, "2026-03-15", "33.33"),
            (3, "2026-04-15", "33.33"),
        ])
    );
    let e = schedule(d("1.00"), day("2026-01-20"), &Terms::DueDays(vec![])).expect_err("empty");
    assert_eq!(
        e.public_message(),
        "A condição de vencimento não tem dias de vencimento."
    );
}

#[test]
fn late_interest_and_fine_around_the_grace_days() {
    // 0,0333% a day, fine 2%, 3 days of grace; due 10/03/2026.
    let rules = LateRules { daily_interest_pct: d("0.0333"), fine_pct: d("2"), grace_days: 3 };
    let due = day("2026-03-10");
    let table: [(&str, &str, i64, &str, &str); 7] = [
        // principal, settled on, days late, interest, fine
        ("1000.00", "2026-03-05", 0, "0", "0"),
        ("1000.00", "2026-03-10", 0, "0", "0"),
        // Within the grace days: nothing charged.
        ("1000.00", "2026-03-13", 3, "0", "0"),
        // One day beyond: every day since the due date. 1000 x 0,000333 x 4 = 1,332.
        ("1000.00", "2026-03-14", 4, "1.33", "20.00"),
        // 1000 x 0,000333 x 30 = 9,99.
        ("1000.00", "2026-04-09", 30, "9.99", "20.00"),
        // 333,33 x 0,000333 x 7 = 0,77699... -> 0,78; 333,33 x 2% = 6,6666 -> 6,67.
        ("333.33", "2026-03-17", 7, "0.78", "6.67"),
        // 200 x 0,000333 x 10 = 0,666 -> 0,67.
        ("200.00", "2026-03-20", 10, "0.67", "4.00"),
    ];
    for (principal, on, days, interest, fine) in table {
        let got = late_charges(d(principal), due, day(on), &rules);
        assert_eq!(
            got,
            LateCharges { days_late: days, interest: d(interest), fine: d(fine) },
            "{principal} on {on}"
        );
    }
    // Half a cent rounds away from zero (100 x 2,125% = 2,125 -> 2,13), not to even.
    let rules = LateRules { daily_interest_pct: d("0"), fine_pct: d("2.125"), grace_days: 0 };
    let got = late_charges(d("100.00"), due, day("2026-03-11"), &rules);
    assert_eq!(
        (got.days_late, got.interest, got.fine),
        (1, d("0"), d("2.13"))
    );
}

#[test]
fn money_in_messages_is_written_the_brazilian_way() {
    use erp_finance::titles::brl;
    assert_eq!(brl(d("0.5")), "R$ 0,50");
    assert_eq!(brl(d("250.75")), "R$ 250,75");
    assert_eq!(brl(d("1234.56")), "R$ 1.234,56");
    assert_eq!(brl(d("1234567.895")), "R$ 1.234.567,90");
    assert_eq!(brl(d("-1000")), "-R$ 1.000,00");
}
