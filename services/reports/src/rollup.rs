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

/// The item rollups as `d`: whole months ($12..$13, first days) from
/// `vendasmes`, whole decêndios (days 1–10, 11–20, 21 to the end) from
/// `vendasdecendio` and the other days from `vendasitemdia`, these two summed
/// per item and part of the period (each part lies within one month,
/// [`Split`]: `dta` is its first day). So `d` holds at most one row per item
/// and month, and a query that keys on the item needs no `GROUP BY` of its own
/// (`crate::sales::Curve`). The ranges come as arrays (first day $10/$15, last
/// day $11/$16, the part's first day $14/$17): each range is its own range of
/// its table's key (an OR of ranges would read the whole period's days and
/// filter them).
const ITEMS: &str = "(
    SELECT client_id, emp_id, mes AS dta, tipo, item_id, NULL::bigint AS cli_id, qtde, valor
    FROM reports.vendasmes WHERE client_id = $1 AND emp_id = $2 AND mes BETWEEN $12 AND $13
    UNION ALL
    SELECT $1::bigint, $2::bigint, x.parte, x.tipo, x.item_id, NULL::bigint, sum(x.qtde), sum(x.valor)
    FROM (
        SELECT r.parte, i.tipo, i.item_id, i.qtde, i.valor
        FROM unnest($10::date[], $11::date[], $14::date[]) AS r(de, ate, parte)
        JOIN reports.vendasitemdia i ON i.client_id = $1 AND i.emp_id = $2 AND i.dta BETWEEN r.de AND r.ate
        UNION ALL
        SELECT r.parte, i.tipo, i.item_id, i.qtde, i.valor
        FROM unnest($15::date[], $16::date[], $17::date[]) AS r(de, ate, parte)
        JOIN reports.vendasdecendio i ON i.client_id = $1 AND i.emp_id = $2 AND i.inicio BETWEEN r.de AND r.ate
    ) x
    GROUP BY x.parte, x.tipo, x.item_id)";

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

/// Binds the parameters of [`from_where`] ($1..$17).
pub fn bind<'q>(
    q: Query<'q, sqlx::Postgres, PgArguments>,
    client: i64,
    emp: i64,
    p: &Params,
) -> Query<'q, sqlx::Postgres, PgArguments> {
    let s = Split::of(p.from, p.to);
    let column = |ranges: &[Range], f: fn(&Range) -> NaiveDate| -> Vec<NaiveDate> {
        ranges.iter().map(f).collect()
    };
    q.bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("GRUP_ID"))
        .bind(p.id("GSUB_ID"))
        .bind(p.id("PROD_ID"))
        .bind(p.id("CLI_ID"))
        .bind(p.id("COLA_ID"))
        .bind(column(&s.days, |r| r.from))
        .bind(column(&s.days, |r| r.to))
        .bind(s.months_from)
        .bind(s.months_to)
        .bind(column(&s.days, |r| r.part))
        .bind(column(&s.ten_days, |r| r.from))
        .bind(column(&s.ten_days, |r| r.to))
        .bind(column(&s.ten_days, |r| r.part))
}

/// Days `from..=to` of one month (of decêndios: their first days), read for the
/// part of the period that starts on `part`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub part: NaiveDate,
}

/// A period cut into the months it covers whole (`months_from..=months_to`,
/// first days; an empty range when there are none) and, in the months it
/// covers in part (at most two: the first and the last), the decêndios it
/// covers whole (`ten_days`) and the other days (`days`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub months_from: NaiveDate,
    pub months_to: NaiveDate,
    pub days: Vec<Range>,
    pub ten_days: Vec<Range>,
}

fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

fn last_of_month(d: NaiveDate) -> NaiveDate {
    first_of_month(d)
        .checked_add_months(Months::new(1))
        .and_then(|n| n.pred_opt())
        .unwrap_or(d)
}

/// The first day of the decêndio of `d` (the 1st, 11th or 21st).
pub fn ten_day_start(d: NaiveDate) -> NaiveDate {
    let start = match d.day() {
        1..=10 => 1,
        11..=20 => 11,
        _ => 21,
    };
    d.with_day(start).unwrap_or(d)
}

/// The last day of the decêndio that starts on `start`.
fn ten_day_end(start: NaiveDate) -> NaiveDate {
    if start.day() == 21 {
        last_of_month(start)
    } else {
        start.checked_add_days(Days::new(9)).unwrap_or(start)
    }
}

impl Split {
    pub fn of(from: NaiveDate, to: NaiveDate) -> Split {
        // No month: an empty range of dates PostgreSQL takes.
        let (low, high) = (from.min(to), from.max(to));
        let mut s = Split {
            months_from: high.succ_opt().unwrap_or(high),
            months_to: low.pred_opt().unwrap_or(low),
            days: Vec::new(),
            ten_days: Vec::new(),
        };
        if from > to {
            return s;
        }
        let first_whole = if from.day() == 1 {
            from
        } else {
            first_of_month(from)
                .checked_add_months(Months::new(1))
                .unwrap_or(NaiveDate::MAX)
        };
        // The first day of the last month the period covers whole.
        let last_whole = if to == last_of_month(to) {
            first_of_month(to)
        } else {
            first_of_month(to)
                .checked_sub_months(Months::new(1))
                .unwrap_or(NaiveDate::MIN)
        };
        if first_whole <= last_whole {
            s.months_from = first_whole;
            s.months_to = last_whole;
            if from < first_whole {
                s.part(from, first_whole.pred_opt().unwrap_or(from));
            }
            let after = last_whole
                .checked_add_months(Months::new(1))
                .unwrap_or(NaiveDate::MAX);
            if after <= to {
                s.part(after, to);
            }
        } else if first_of_month(from) == first_of_month(to) {
            s.part(from, to);
        } else {
            // Parts of two months and no whole one.
            s.part(from, last_of_month(from));
            s.part(first_of_month(to), to);
        }
        s
    }

    /// The days `from..=to` of one month: its whole decêndios and the days
    /// before and after them.
    fn part(&mut self, from: NaiveDate, to: NaiveDate) {
        let part = from;
        let mut first = ten_day_start(from);
        if first < from {
            first = ten_day_end(first).succ_opt().unwrap_or(NaiveDate::MAX);
        }
        let mut last = ten_day_start(to);
        if ten_day_end(last) > to {
            last = if last.day() == 1 {
                NaiveDate::MIN
            } else {
                last.checked_sub_days(Days::new(10))
                    .unwrap_or(NaiveDate::MIN)
            };
        }
        // (A part inside its last decêndio has its next one in the next month.)
        if first > last {
            self.days.push(Range { from, to, part });
            return;
        }
        if from < first {
            self.days
                .push(Range { from, to: first.pred_opt().unwrap_or(from), part });
        }
        self.ten_days.push(Range { from: first, to: last, part });
        let after = ten_day_end(last).succ_opt().unwrap_or(NaiveDate::MAX);
        if after <= to {
            self.days.push(Range { from: after, to, part });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    fn span(from: NaiveDate, to: NaiveDate) -> Vec<NaiveDate> {
        from.iter_days().take_while(|x| *x <= to).collect()
    }

    /// The days read by day, the decêndios (first days) and the months (first
    /// days) of a period.
    fn parts(from: &str, to: &str) -> (Vec<NaiveDate>, Vec<NaiveDate>, Vec<NaiveDate>) {
        let s = Split::of(d(from), d(to));
        let days = s.days.iter().flat_map(|r| span(r.from, r.to)).collect();
        let tens = s
            .ten_days
            .iter()
            .flat_map(|r| span(r.from, r.to))
            .filter(|x| matches!(x.day(), 1 | 11 | 21))
            .collect();
        let months = span(s.months_from, s.months_to)
            .into_iter()
            .filter(|x| x.day() == 1)
            .collect();
        (days, tens, months)
    }

    /// Every day of the period is counted once: by its own row, its decêndio's
    /// or its month's, and a decêndio's or month's row only when it lies wholly
    /// inside; each range lies within one month and is read for the part that
    /// starts on its month's first day of the period.
    fn covers_once(from: &str, to: &str) {
        let (f, t) = (d(from), d(to));
        let (days, tens, months) = parts(from, to);
        let mut counted = days.clone();
        for m in &months {
            let end = last_of_month(*m);
            assert!(*m >= f && end <= t, "{from}..{to}: month {m} not inside");
            counted.extend(span(*m, end));
        }
        for x in &tens {
            let end = ten_day_end(*x);
            assert!(*x >= f && end <= t, "{from}..{to}: decêndio {x} not inside");
            counted.extend(span(*x, end));
        }
        counted.sort();
        assert_eq!(counted, span(f, t), "{from}..{to}");
        let s = Split::of(f, t);
        for r in s.days.iter().chain(&s.ten_days) {
            assert_eq!(
                first_of_month(r.from),
                first_of_month(r.to),
                "{from}..{to}: {r:?}"
            );
            assert_eq!(
                first_of_month(r.part),
                first_of_month(r.from),
                "{from}..{to}: {r:?}"
            );
            assert_eq!(r.part, f.max(first_of_month(r.from)), "{from}..{to}: {r:?}");
        }
    }

    #[test]
    fn a_year_reads_twelve_months_and_no_day() {
        let (days, tens, months) = parts("2025-01-01", "2025-12-31");
        assert!(days.is_empty() && tens.is_empty());
        assert_eq!(months.len(), 12);
    }

    #[test]
    fn partial_months_read_their_decendios_and_days() {
        // 15/01–20/11: the 15th to the 20th of January by day, the 21st–31st as
        // a decêndio, February to October whole, 1–10 and 11–20 of November.
        let (days, tens, months) = parts("2025-01-15", "2025-11-20");
        assert_eq!(days, span(d("2025-01-15"), d("2025-01-20")));
        assert_eq!(
            tens,
            vec![d("2025-01-21"), d("2025-11-01"), d("2025-11-11")]
        );
        assert_eq!(months.len(), 9);
        let (days, tens, months) = parts("2025-01-15", "2025-03-10");
        assert_eq!(months, vec![d("2025-02-01")]);
        assert_eq!(days.len(), 6);
        assert_eq!(tens, vec![d("2025-01-21"), d("2025-03-01")]);
        let (days, tens, months) = parts("2025-02-03", "2025-02-20");
        assert!(months.is_empty());
        assert_eq!(days.len(), 8);
        assert_eq!(tens, vec![d("2025-02-11")]);
        let (days, tens, _) = parts("2025-02-03", "2025-02-09");
        assert!(tens.is_empty());
        assert_eq!(days.len(), 7);
    }

    #[test]
    fn every_day_is_counted_once() {
        for (from, to) in [
            ("2025-01-01", "2025-12-31"),
            ("2024-02-01", "2024-02-29"),
            ("2024-02-01", "2024-02-28"),
            ("2024-02-21", "2024-02-29"),
            ("2024-02-21", "2024-02-28"),
            ("2024-01-31", "2024-03-01"),
            ("2025-01-15", "2025-02-10"),
            ("2025-12-20", "2026-01-05"),
            ("2025-06-15", "2026-06-14"),
            ("2025-06-01", "2025-06-01"),
            ("2025-12-31", "2026-01-01"),
            ("2025-03-01", "2025-03-31"),
            ("2025-03-11", "2025-03-20"),
            ("2025-03-10", "2025-03-21"),
            ("2025-03-02", "2025-03-30"),
        ] {
            covers_once(from, to);
        }
        // Every period of up to 75 days starting in the first 70 days of 2024.
        for start in span(d("2024-01-01"), d("2024-03-10")) {
            for len in 0..75 {
                let end = start + Days::new(len);
                covers_once(&start.to_string(), &end.to_string());
            }
        }
    }

    #[test]
    fn an_inverted_period_reads_nothing() {
        let (days, tens, months) = parts("2025-03-01", "2025-02-01");
        assert!(days.is_empty() && tens.is_empty() && months.is_empty());
    }
}
