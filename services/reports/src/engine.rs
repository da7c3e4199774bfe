//! The report engine: a report is declared once ([`Report`]: title, web route,
//! call path, filters, columns, grouping, orientation) with the query that gives
//! its rows ([`Source`]); the engine parses the common filters (`EMP_ID`,
//! `DATA_INI`/`DATA_FIM` yyyy-MM-dd, `FORMATO` json | pdf | xlsx) and the
//! report's own, runs the query and answers `{dados, totais, filtros}` (an empty
//! period answers 204), the PDF (`erp_print::table`) or the XLSX
//! (`erp_print::xlsx`). The same declaration is the metadata the web client
//! renders the report screens from (`definitions`).

use std::collections::BTreeMap;
use std::str::FromStr;

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_print::{Cell, Column, ColumnKind, Report as PrintReport};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Money,
    Quantity,
    Date,
    Percent,
    Int,
}

impl Kind {
    fn code(self) -> &'static str {
        match self {
            Kind::Text => "texto",
            Kind::Money => "dinheiro",
            Kind::Quantity => "quantidade",
            Kind::Date => "data",
            Kind::Percent => "percentual",
            Kind::Int => "inteiro",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Col {
    pub field: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    pub width_mm: f32,
    /// Summed in the totals (and group subtotals).
    pub total: bool,
}

pub const fn col(field: &'static str, label: &'static str, kind: Kind, width_mm: f32) -> Col {
    Col { field, label, kind, width_mm, total: false }
}

pub const fn sum(field: &'static str, label: &'static str, kind: Kind, width_mm: f32) -> Col {
    Col { field, label, kind, width_mm, total: true }
}

/// A filter of a report besides the period.
#[derive(Clone, Debug)]
pub enum FilterKind {
    /// An id picked from a register.
    Reference(&'static str),
    Options(&'static [(&'static str, &'static str)]),
    Text,
    /// A whole number (at least 1).
    Int,
}

#[derive(Clone, Debug)]
pub struct Filter {
    pub field: &'static str,
    pub label: &'static str,
    pub kind: FilterKind,
}

/// The filters of one call.
#[derive(Clone, Debug)]
pub struct Params {
    pub from: NaiveDate,
    pub to: NaiveDate,
    ids: BTreeMap<&'static str, i64>,
    texts: BTreeMap<&'static str, String>,
}

impl Params {
    pub fn id(&self, field: &str) -> Option<i64> {
        self.ids.get(field).copied()
    }

    pub fn text(&self, field: &str) -> Option<&str> {
        self.texts.get(field).map(String::as_str)
    }
}

/// The rows of a report: one JSON object per row, keyed by the columns' fields.
#[async_trait]
pub trait Source: Send + Sync {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>>;

    /// The rows and, when the source summed them as it built them, the sums of
    /// the report's total columns (else the engine sums the rows,
    /// [`Report::totals`]).
    async fn rows_and_totals(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<(Vec<Map<String, Value>>, Option<Map<String, Value>>)> {
        Ok((self.rows(tx, client, emp, p).await?, None))
    }
}

pub struct Report {
    pub name: &'static str,
    pub title: &'static str,
    /// The web route (screens-and-rules.md §2.4).
    pub route: &'static str,
    /// The call (data-and-calls.md §7 "Reports").
    pub path: &'static str,
    pub landscape: bool,
    pub filters: Vec<Filter>,
    pub columns: Vec<Col>,
    pub group_by: Option<&'static str>,
    /// Rows carry M1..M12 and M13 (total) month columns.
    pub monthly: bool,
    pub source: Box<dyn Source>,
}

/// The longest period one report covers.
pub const MAX_DAYS: i64 = 3660;

fn text_of(body: &Map<String, Value>, k: &str) -> Option<String> {
    match body.get(k) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

fn date_of(body: &Map<String, Value>, k: &str, label: &str) -> Result<NaiveDate> {
    let s = text_of(body, k).ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))?;
    NaiveDate::parse_from_str(&s, "%Y-%m-%d")
        .map_err(|_| Error::validation(format!("{label} inválida: use o formato yyyy-MM-dd.")))
}

/// The period of a call's body (`DATA_INI`, `DATA_FIM`), without other filters.
pub fn period(body: &Map<String, Value>) -> Result<Params> {
    let from = date_of(body, "DATA_INI", "Data inicial")?;
    let to = date_of(body, "DATA_FIM", "Data final")?;
    if to < from {
        return Err(Error::validation(
            "A data final deve ser igual ou posterior à inicial.",
        ));
    }
    if (to - from).num_days() > MAX_DAYS {
        return Err(Error::validation(
            "O período do relatório é de no máximo dez anos.",
        ));
    }
    Ok(Params { from, to, ids: BTreeMap::new(), texts: BTreeMap::new() })
}

impl Report {
    /// The filters of a call's body (see the module's doc).
    pub fn params(&self, body: &Map<String, Value>) -> Result<Params> {
        let mut p = period(body)?;
        for f in &self.filters {
            let Some(v) = text_of(body, f.field) else {
                continue;
            };
            match &f.kind {
                FilterKind::Reference(_) | FilterKind::Int => {
                    let id = v
                        .parse::<i64>()
                        .ok()
                        .filter(|n| matches!(f.kind, FilterKind::Reference(_)) || *n >= 1)
                        .ok_or_else(|| Error::validation(format!("{} inválido.", f.label)))?;
                    p.ids.insert(f.field, id);
                }
                FilterKind::Options(opts) => {
                    if !opts.iter().any(|(o, _)| *o == v) {
                        return Err(Error::validation(format!("{} inválido.", f.label)));
                    }
                    p.texts.insert(f.field, v);
                }
                FilterKind::Text => {
                    p.texts.insert(f.field, v.chars().take(100).collect());
                }
            }
        }
        Ok(p)
    }

    /// The report's metadata for the web client.
    pub fn definition(&self) -> Value {
        let filters: Vec<Value> = [
            json!({"CAMPO": "DATA_INI", "ROTULO": "Data inicial", "TIPO": "data", "OBRIGATORIO": true}),
            json!({"CAMPO": "DATA_FIM", "ROTULO": "Data final", "TIPO": "data", "OBRIGATORIO": true}),
        ]
        .into_iter()
        .chain(self.filters.iter().map(|f| match &f.kind {
            FilterKind::Reference(r) => {
                json!({"CAMPO": f.field, "ROTULO": f.label, "TIPO": "referencia", "REGISTRO": r, "OBRIGATORIO": false})
            }
            FilterKind::Options(o) => json!({
                "CAMPO": f.field, "ROTULO": f.label, "TIPO": "opcoes", "OBRIGATORIO": false,
                "OPCOES": o.iter().map(|(v, l)| json!([v, l])).collect::<Vec<_>>(),
            }),
            FilterKind::Text => json!({"CAMPO": f.field, "ROTULO": f.label, "TIPO": "texto", "OBRIGATORIO": false}),
            FilterKind::Int => json!({"CAMPO": f.field, "ROTULO": f.label, "TIPO": "inteiro", "OBRIGATORIO": false}),
        }))
        .collect();
        json!({
            "NOME": self.name,
            "TITULO": self.title,
            "ROTA": self.route,
            "CAMINHO": self.path,
            "ORIENTACAO": if self.landscape { "paisagem" } else { "retrato" },
            "FILTROS": filters,
            "COLUNAS": self.columns.iter().map(|c| json!({"CAMPO": c.field, "ROTULO": c.label, "TIPO": c.kind.code()})).collect::<Vec<_>>(),
            "AGRUPA": self.group_by,
            "MENSAL": self.monthly,
        })
    }

    /// The sums of the total columns over `rows`.
    pub fn totals(&self, rows: &[Map<String, Value>]) -> Map<String, Value> {
        let mut out = Map::new();
        for c in self.columns.iter().filter(|c| c.total) {
            let s: Decimal = rows.iter().map(|r| decimal(r.get(c.field))).sum();
            out.insert(c.field.into(), num(s));
        }
        out
    }

    /// The table of `rows` for `erp_print`: the PDF leaves out the columns of
    /// width 0 (the monthly curve's months: no room on the page), the
    /// spreadsheet has them all.
    pub fn printable(&self, rows: &[Map<String, Value>], head: Header, pdf: bool) -> PrintReport {
        let shown: Vec<&Col> = self
            .columns
            .iter()
            .filter(|c| !pdf || c.width_mm > 0.0)
            .collect();
        let width_of = |c: &Col| if c.width_mm > 0.0 { c.width_mm } else { 16.0 };
        // The spreadsheet's widths only set its columns' widths: scaled to the
        // page the renderer checks them against.
        let page = if self.landscape { 277.0 } else { 190.0 };
        let wide: f32 = shown.iter().map(|c| width_of(c)).sum();
        let scale = if wide > page { page / wide } else { 1.0 };
        let columns = shown
            .iter()
            .map(|c| {
                let width = width_of(c) * scale;
                let base = match c.kind {
                    Kind::Money | Kind::Percent => Column::money(c.label, width),
                    Kind::Quantity => Column::quantity(c.label, width),
                    Kind::Date => Column::date(c.label, width),
                    Kind::Int => Column::text(c.label, width).align(erp_print::Align::Right),
                    Kind::Text => Column::text(c.label, width),
                };
                if c.total && base.kind != ColumnKind::Text {
                    base.with_total()
                } else {
                    base
                }
            })
            .collect();
        let cells = rows
            .iter()
            .map(|r| shown.iter().map(|c| cell(c.kind, r.get(c.field))).collect())
            .collect();
        PrintReport {
            title: self.title.to_string(),
            company: head.company,
            user: head.user,
            generated_at: head.at,
            logo: head.logo,
            landscape: self.landscape,
            columns,
            rows: cells,
            group_by: self
                .group_by
                .and_then(|g| shown.iter().position(|c| c.field == g)),
        }
    }
}

/// The header of a printed report.
pub struct Header {
    pub company: String,
    pub user: String,
    pub at: chrono::NaiveDateTime,
    pub logo: Option<Vec<u8>>,
}

fn cell(kind: Kind, v: Option<&Value>) -> Cell {
    match (kind, v) {
        (_, None | Some(Value::Null)) => Cell::Empty,
        (Kind::Money | Kind::Quantity | Kind::Percent, Some(v)) => Cell::Number(decimal(Some(v))),
        (Kind::Date, Some(Value::String(s))) => {
            NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d")
                .map(Cell::Date)
                .unwrap_or_else(|_| Cell::Text(s.clone()))
        }
        (_, Some(Value::String(s))) => Cell::Text(s.clone()),
        (_, Some(v)) => Cell::Text(v.to_string()),
    }
}

/// A decimal of a row value (numbers or numeric text); anything else is zero.
pub fn decimal(v: Option<&Value>) -> Decimal {
    match v {
        Some(Value::Number(n)) => Decimal::from_str(n.as_str())
            .or_else(|_| Decimal::from_scientific(n.as_str()))
            .unwrap_or_default(),
        Some(Value::String(s)) => Decimal::from_str(s.trim()).unwrap_or_default(),
        _ => Decimal::ZERO,
    }
}

/// An exact JSON number.
pub fn num(d: Decimal) -> Value {
    serde_json::Number::from_str(&d.normalize().to_string())
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

/// The ABC curve of values sorted descending: per value its share and the
/// share accumulated up to it (percent, 2 places) and its class (A up to 80% of
/// the total, B up to 95%, C the rest, by the share accumulated before it).
pub fn abc(values: &[Decimal]) -> Vec<(Decimal, Decimal, &'static str)> {
    let total: Decimal = values.iter().copied().sum();
    let hundred = Decimal::ONE_HUNDRED;
    let mut before = Decimal::ZERO;
    values
        .iter()
        .map(|v| {
            let share = if total.is_zero() {
                Decimal::ZERO
            } else {
                v * hundred / total
            };
            let class = if before < Decimal::from(80) {
                "A"
            } else if before < Decimal::from(95) {
                "B"
            } else {
                "C"
            };
            before += share;
            (share.round_dp(2), before.round_dp(2).min(hundred), class)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: &str) -> Decimal {
        Decimal::from_str(v).unwrap()
    }

    #[test]
    fn abc_classes_by_the_share_accumulated_before_each_row() {
        // 700 + 150 + 100 + 50 = 1000, accumulated 70, 85, 95, 100: the row that
        // starts inside the first 80% is A (150 starts at 70), then B while it
        // starts below 95 (100 starts at 85), then C (50 starts at 95). The top
        // row is always A, even when it alone passes 80%.
        let rows = abc(&[d("700"), d("150"), d("100"), d("50")]);
        let classes: Vec<&str> = rows.iter().map(|r| r.2).collect();
        assert_eq!(classes, vec!["A", "A", "B", "C"]);
        let one = abc(&[d("900"), d("100")]);
        assert_eq!(one[0].2, "A");
        assert_eq!(one[1].2, "B", "it starts at 90%");
        assert_eq!(rows[0].0, d("70"));
        assert_eq!(rows[1].1, d("85"));
        assert_eq!(rows[3].1, d("100"));
        // Thirds: 33.33 each, accumulated to 100 at most.
        let thirds = abc(&[d("1"), d("1"), d("1")]);
        assert_eq!(thirds[0].0, d("33.33"));
        assert_eq!(thirds[2].1, d("100"));
        assert!(abc(&[d("0")])[0].0.is_zero());
    }
}
