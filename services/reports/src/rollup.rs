//! Where the sales reports read: the rollups of the sales lines, joined to the
//! copies for names, with one set of filters.
//!
//! A query over a whole year of a busy company must not read millions of rows.
//! When neither the dimension nor a filter asks for customers, the rows come
//! from the item rollups: the months the period covers whole from `vendasmes`,
//! the days of the months it covers only in part from `vendasitemdia` (so a
//! year reads 12 rows per item, a fortnight at most 31). Per customer (the
//! customers' and representatives' curves, the commission, a customer or
//! representative filter) they come from `vendasdia`, per day, item and
//! customer. Either way the query sees `d` with the same columns: `client_id`,
//! `emp_id`, `dta` (a month's row carries its first day), `tipo`, `item_id`,
//! `cli_id` (null in the item rollups), `qtde`, `valor`.

use chrono::{Datelike, Days, Months, NaiveDate};
use sqlx::postgres::PgArguments;
use sqlx::query::Query;

use crate::engine::Params;

/// A dimension of the rollup: its key and label expressions, the kind of items
/// it counts (`P`, `S` or both) and whether it needs the customer of each sale.
#[derive(Clone, Copy)]
pub struct Dimension {
    pub key: &'static str,
    pub label: &'static str,
    pub kinds: &'static str,
    pub per_customer: bool,
}

pub const BY_PRODUCT: Dimension = Dimension {
    key: "d.item_id",
    label: "coalesce(p.descricao, 'Produto ' || d.item_id)",
    kinds: "'P'",
    per_customer: false,
};
pub const BY_SERVICE: Dimension = Dimension {
    key: "d.item_id",
    label: "coalesce(v.descricao, 'Serviço ' || d.item_id)",
    kinds: "'S'",
    per_customer: false,
};
pub const BY_CUSTOMER: Dimension = Dimension {
    key: "d.cli_id",
    label: "coalesce(c.descricao, 'Cliente ' || d.cli_id)",
    kinds: "'P', 'S'",
    per_customer: true,
};
pub const BY_GROUP: Dimension = Dimension {
    key: "coalesce(p.grup_id, 0)",
    label: "coalesce(g.descricao, 'Sem grupo')",
    kinds: "'P'",
    per_customer: false,
};
pub const BY_SUBGROUP: Dimension = Dimension {
    key: "coalesce(p.gsub_id, 0)",
    label: "coalesce(s.descricao, 'Sem subgrupo')",
    kinds: "'P'",
    per_customer: false,
};
pub const BY_SELLER: Dimension = Dimension {
    key: "coalesce(c.cola_id, 0)",
    label: "coalesce(r.nome, CASE WHEN c.cola_id IS NULL THEN 'Sem representante' ELSE 'Representante ' || c.cola_id END)",
    kinds: "'P', 'S'",
    per_customer: true,
};

/// The item rollups as `d`: whole months ($12..$13, first days) and the other
/// days of the period ($3..$10 and $11..$4), these summed per item (each part
/// lies within one month, [`Split`]: `dta` is its first day). So `d` holds at
/// most one row per item and month, and a query that keys on the item needs no
/// `GROUP BY` of its own (`crate::sales::Curve`). Each part is its own range of
/// its table's key (one branch per range: an OR of ranges would read the whole
/// period's days and filter them).
const ITEMS: &str = "(
    SELECT client_id, emp_id, mes AS dta, tipo, item_id, NULL::bigint AS cli_id, qtde, valor
    FROM reports.vendasmes WHERE client_id = $1 AND emp_id = $2 AND mes BETWEEN $12 AND $13
    UNION ALL
    SELECT client_id, emp_id, min(dta), tipo, item_id, NULL::bigint, sum(qtde), sum(valor)
    FROM reports.vendasitemdia WHERE client_id = $1 AND emp_id = $2 AND dta BETWEEN $3 AND $10
    GROUP BY client_id, emp_id, tipo, item_id
    UNION ALL
    SELECT client_id, emp_id, min(dta), tipo, item_id, NULL::bigint, sum(qtde), sum(valor)
    FROM reports.vendasitemdia WHERE client_id = $1 AND emp_id = $2 AND dta BETWEEN $11 AND $4
    GROUP BY client_id, emp_id, tipo, item_id)";

/// Whether [`from_where`] reads the item rollups (at most one row per item and
/// month) rather than the rollup per customer.
pub fn per_item(per_customer: bool, p: &Params) -> bool {
    !(per_customer || p.id("CLI_ID").is_some() || p.id("COLA_ID").is_some())
}

/// The joins from `d` to the copies: products `p`, groups `g`, subgroups `s`,
/// customers `c`, sellers `r`, services `v`.
const JOINS: &str = "
    LEFT JOIN reports.produtos p ON d.tipo = 'P' AND p.client_id = d.client_id AND p.emp_id = d.emp_id AND p.prod_id = d.item_id
    LEFT JOIN reports.grupos g ON g.client_id = p.client_id AND g.emp_id = 0 AND g.grup_id = p.grup_id
    LEFT JOIN reports.subgrupos s ON s.client_id = p.client_id AND s.emp_id = p.emp_id AND s.gsub_id = p.gsub_id
    LEFT JOIN reports.servicos v ON d.tipo = 'S' AND v.client_id = d.client_id AND v.emp_id = d.emp_id AND v.serv_id = d.item_id
    LEFT JOIN reports.clientes c ON c.client_id = d.client_id AND c.emp_id = d.emp_id AND c.cli_id = d.cli_id
    LEFT JOIN reports.colaboradores r ON r.client_id = c.client_id AND r.emp_id = c.emp_id AND r.cola_id = c.cola_id";

/// The conditions every rollup query takes: $1 client, $2 company, $3..$4 the
/// period, $5 group, $6 subgroup, $7 product, $8 customer, $9 seller.
const WHERE: &str = "WHERE d.client_id = $1 AND d.emp_id = $2 AND d.dta BETWEEN $3 AND $4
    AND ($5::bigint IS NULL OR p.grup_id = $5) AND ($6::bigint IS NULL OR p.gsub_id = $6)
    AND ($7::bigint IS NULL OR (d.tipo = 'P' AND d.item_id = $7)) AND ($8::bigint IS NULL OR d.cli_id = $8)
    AND ($9::bigint IS NULL OR c.cola_id = $9)";

/// `FROM <rollup> d <joins> WHERE <filters>` for a query that does (or does
/// not) need the customer of each sale; bind it with [`bind`].
pub fn from_where(per_customer: bool, p: &Params) -> String {
    let source = if per_item(per_customer, p) {
        ITEMS
    } else {
        "reports.vendasdia"
    };
    format!("FROM {source} d {JOINS} {WHERE}")
}

/// Binds the parameters of [`from_where`] ($1..$13).
pub fn bind<'q>(
    q: Query<'q, sqlx::Postgres, PgArguments>,
    client: i64,
    emp: i64,
    p: &Params,
) -> Query<'q, sqlx::Postgres, PgArguments> {
    let s = Split::of(p.from, p.to);
    q.bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("GRUP_ID"))
        .bind(p.id("GSUB_ID"))
        .bind(p.id("PROD_ID"))
        .bind(p.id("CLI_ID"))
        .bind(p.id("COLA_ID"))
        .bind(s.head_to)
        .bind(s.tail_from)
        .bind(s.months_from)
        .bind(s.months_to)
}

/// A period cut into the months it covers whole (`months_from..=months_to`,
/// first days; an empty range when there are none) and the days before and
/// after them (`from..=head_to`, `tail_from..=to`), each within one month.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub head_to: NaiveDate,
    pub tail_from: NaiveDate,
    pub months_from: NaiveDate,
    pub months_to: NaiveDate,
}

fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

impl Split {
    pub fn of(from: NaiveDate, to: NaiveDate) -> Split {
        let first_whole = if from.day() == 1 {
            from
        } else {
            first_of_month(from)
                .checked_add_months(Months::new(1))
                .unwrap_or(NaiveDate::MAX)
        };
        let after_to = to.checked_add_days(Days::new(1)).unwrap_or(NaiveDate::MAX);
        // The first day of the last month the period covers whole.
        let last_whole = if after_to.day() == 1 {
            first_of_month(to)
        } else {
            first_of_month(to)
                .checked_sub_months(Months::new(1))
                .unwrap_or(to)
        };
        if first_whole <= last_whole && from <= to {
            Split {
                head_to: first_whole.pred_opt().unwrap_or(first_whole),
                tail_from: last_whole
                    .checked_add_months(Months::new(1))
                    .unwrap_or(NaiveDate::MAX),
                months_from: first_whole,
                months_to: last_whole,
            }
        } else if from > to || first_of_month(from) == first_of_month(to) {
            Split { head_to: to, tail_from: after_to, months_from: after_to, months_to: to }
        } else {
            // Parts of two months and no whole one: each part within its month.
            let tail_from = first_of_month(to);
            Split {
                head_to: tail_from.pred_opt().unwrap_or(tail_from),
                tail_from,
                months_from: after_to,
                months_to: to,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    fn days_and_months(from: &str, to: &str) -> (Vec<NaiveDate>, Vec<NaiveDate>) {
        let (from, to) = (d(from), d(to));
        let s = Split::of(from, to);
        let days = from
            .iter_days()
            .take_while(|x| *x <= to)
            .filter(|x| *x <= s.head_to || *x >= s.tail_from)
            .collect();
        let months = s
            .months_from
            .iter_days()
            .take_while(|x| *x <= s.months_to)
            .filter(|x| x.day() == 1)
            .collect();
        (days, months)
    }

    /// Every day of the period is counted once: by its own row or by its
    /// month's, and a month's row only when the whole month is inside.
    fn covers_once(from: &str, to: &str) {
        let (days, months) = days_and_months(from, to);
        let (f, t) = (d(from), d(to));
        let mut counted = days.clone();
        for m in &months {
            assert!(*m >= f, "{from}..{to}: month {m} starts before the period");
            let end = m
                .checked_add_months(Months::new(1))
                .expect("month")
                .pred_opt()
                .expect("day");
            assert!(end <= t, "{from}..{to}: month {m} ends after the period");
            counted.extend(m.iter_days().take_while(|x| *x <= end));
            assert!(
                days.iter().all(|x| first_of_month(*x) != *m),
                "{from}..{to}: month {m} also read by day"
            );
        }
        counted.sort();
        let all: Vec<NaiveDate> = f.iter_days().take_while(|x| *x <= t).collect();
        assert_eq!(counted, all, "{from}..{to}");
        // The head's days and the tail's each lie within one month (the item
        // rollups sum each part per item, one row per item and month).
        let s = Split::of(f, t);
        for (a, b) in [(f, s.head_to.min(t)), (s.tail_from.max(f), t)] {
            if a <= b {
                assert_eq!(
                    first_of_month(a),
                    first_of_month(b),
                    "{from}..{to}: part {a}..{b}"
                );
            }
        }
    }

    #[test]
    fn a_year_reads_twelve_months_and_no_day() {
        let (days, months) = days_and_months("2025-01-01", "2025-12-31");
        assert!(days.is_empty());
        assert_eq!(months.len(), 12);
    }

    #[test]
    fn partial_months_read_their_days() {
        let (days, months) = days_and_months("2025-01-15", "2025-03-10");
        assert_eq!(months, vec![d("2025-02-01")]);
        assert_eq!(days.len(), 17 + 10);
        let (days, months) = days_and_months("2025-02-03", "2025-02-20");
        assert!(months.is_empty());
        assert_eq!(days.len(), 18);
    }

    #[test]
    fn every_day_is_counted_once() {
        for (from, to) in [
            ("2025-01-01", "2025-12-31"),
            ("2024-02-01", "2024-02-29"),
            ("2024-02-01", "2024-02-28"),
            ("2024-01-31", "2024-03-01"),
            ("2025-01-15", "2025-02-10"),
            ("2025-12-20", "2026-01-05"),
            ("2025-06-15", "2026-06-14"),
            ("2025-06-01", "2025-06-01"),
            ("2025-12-31", "2026-01-01"),
            ("2025-03-01", "2025-03-31"),
        ] {
            covers_once(from, to);
        }
    }

    #[test]
    fn an_inverted_period_reads_nothing() {
        let (days, months) = days_and_months("2025-03-01", "2025-02-01");
        assert!(days.is_empty() && months.is_empty());
    }
}
