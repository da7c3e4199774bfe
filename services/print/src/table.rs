//! The tabular report model shared by the PDF and XLSX renderers, and its A4
//! PDF layout: page header (logo, company, title, user, date and time) and the
//! column header on every page, cut-to-fit cells, pt-BR numbers, group
//! subtotals, a totals row and the 'Pág: n de N' footer. The whole report is
//! laid out into pages first, so the page count is known when footers are
//! drawn.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::pdf::{self, Align, Op, Page, Picture, Weight};
use crate::PrintError;

/// Page margin on every side, in mm.
const MARGIN: f32 = 10.0;
/// Height of the page header block (logo, company, title, user), in mm.
const HEADER_H: f32 = 19.0;
/// Gap between the page header and the column header, in mm.
const HEADER_GAP: f32 = 2.0;
/// Height of the column header row, in mm.
const COLUMN_HEADER_H: f32 = 6.0;
/// Space reserved for the footer at the bottom, in mm.
const FOOTER_H: f32 = 7.0;
/// Horizontal padding inside a cell, in mm.
const PAD: f32 = 1.0;
/// Logo box, in mm.
const LOGO_BOX: (f32, f32) = (35.0, HEADER_H - 2.0);
const BODY_PT: f32 = 8.0;
const ROW_H: f32 = 4.6;
const GROUP_H: f32 = 5.6;
const SUBTOTAL_H: f32 = 5.2;
const TOTAL_H: f32 = 6.0;

/// What a column holds; it decides the cell type, the format and the XLSX
/// number format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Free text ([`Cell::Text`]).
    Text,
    /// Money with 2 decimal places ([`Cell::Number`]), '1.234,56'.
    Money,
    /// A quantity with 4 decimal places ([`Cell::Number`]), '1.234,5000'.
    Quantity,
    /// A date ([`Cell::Date`]), 'dd/MM/yyyy'.
    Date,
}

/// One column of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Header text, repeated on every page.
    pub header: String,
    /// Width in mm; the columns together must fit between the margins
    /// (190 mm portrait, 277 mm landscape).
    pub width_mm: f32,
    pub align: Align,
    pub kind: ColumnKind,
    /// Sum this column in group subtotals and in the totals row (money and
    /// quantity columns only).
    pub total: bool,
}

impl Column {
    fn new(header: &str, width_mm: f32, kind: ColumnKind, align: Align) -> Column {
        Column { header: header.to_string(), width_mm, align, kind, total: false }
    }

    /// A left-aligned text column.
    pub fn text(header: &str, width_mm: f32) -> Column {
        Column::new(header, width_mm, ColumnKind::Text, Align::Left)
    }

    /// A right-aligned money column (2 places).
    pub fn money(header: &str, width_mm: f32) -> Column {
        Column::new(header, width_mm, ColumnKind::Money, Align::Right)
    }

    /// A right-aligned quantity column (4 places).
    pub fn quantity(header: &str, width_mm: f32) -> Column {
        Column::new(header, width_mm, ColumnKind::Quantity, Align::Right)
    }

    /// A centred date column.
    pub fn date(header: &str, width_mm: f32) -> Column {
        Column::new(header, width_mm, ColumnKind::Date, Align::Center)
    }

    /// The same column with another alignment.
    pub fn align(self, align: Align) -> Column {
        Column { align, ..self }
    }

    /// The same column, summed in subtotals and totals.
    pub fn with_total(self) -> Column {
        Column { total: true, ..self }
    }
}

/// One cell value; its variant must fit the column's [`ColumnKind`]
/// ([`Cell::Empty`] fits any column and counts as nothing in sums).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(Decimal),
    Date(NaiveDate),
    Empty,
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}

impl From<Decimal> for Cell {
    fn from(d: Decimal) -> Cell {
        Cell::Number(d)
    }
}

impl From<NaiveDate> for Cell {
    fn from(d: NaiveDate) -> Cell {
        Cell::Date(d)
    }
}

/// A tabular report, rendered by [`render_pdf`] and [`crate::xlsx::render_xlsx`].
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub title: String,
    pub company: String,
    /// Who asked for the report.
    pub user: String,
    /// Shown as 'dd/MM/yyyy HH:mm'.
    pub generated_at: NaiveDateTime,
    /// PNG or JPEG bytes, drawn at the top left of every page (at most 35 × 17 mm).
    pub logo: Option<Vec<u8>>,
    pub landscape: bool,
    pub columns: Vec<Column>,
    /// One `Vec<Cell>` per row, one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// Index of the column whose value groups the rows. Groups are runs of
    /// consecutive rows with the same value, so sort the rows by it first.
    pub group_by: Option<usize>,
}

/// Formats `value` the pt-BR way with exactly `places` decimals, rounded half
/// away from zero: `format_decimal(Decimal::new(-12345, 1), 2)` is "-1.234,50".
pub fn format_decimal(value: Decimal, places: u32) -> String {
    let mut rounded = value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(places);
    if rounded.is_zero() {
        rounded.set_sign_positive(true);
    }
    let plain = rounded.abs().to_string();
    let (int, frac) = plain.split_once('.').unwrap_or((plain.as_str(), ""));
    let mut out = String::with_capacity(plain.len() + plain.len() / 3 + 1);
    if rounded.is_sign_negative() {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push('.');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push(',');
        out.push_str(frac);
    }
    out
}

/// "1 registro" / "n registros".
fn count_label(n: usize) -> String {
    match n {
        1 => "1 registro".to_string(),
        n => format!("{n} registros"),
    }
}

impl Report {
    /// Page size in mm, (width, height).
    fn page_size(&self) -> (f32, f32) {
        if self.landscape {
            (pdf::A4.1, pdf::A4.0)
        } else {
            pdf::A4
        }
    }

    /// Checks the columns, the grouping, the totals and every cell against
    /// its column.
    pub(crate) fn validate(&self) -> Result<(), PrintError> {
        let bad = |m: String| Err(PrintError::Report(m));
        if self.columns.is_empty() {
            return bad("a report needs at least one column".to_string());
        }
        for (i, c) in self.columns.iter().enumerate() {
            if !(c.width_mm.is_finite() && c.width_mm > 2.0 * PAD) {
                return bad(format!(
                    "column {i} ({}) has width {} mm",
                    c.header, c.width_mm
                ));
            }
            if c.total && !matches!(c.kind, ColumnKind::Money | ColumnKind::Quantity) {
                return bad(format!(
                    "column {i} ({}) is not numeric and cannot be summed",
                    c.header
                ));
            }
        }
        let width: f32 = self.columns.iter().map(|c| c.width_mm).sum();
        let available = self.page_size().0 - 2.0 * MARGIN;
        if width > available + 0.01 {
            return bad(format!(
                "the columns are {width} mm wide but the page has {available} mm between margins"
            ));
        }
        if let Some(g) = self.group_by {
            if g >= self.columns.len() {
                return bad(format!("group_by column {g} does not exist"));
            }
        }
        for (r, row) in self.rows.iter().enumerate() {
            if row.len() != self.columns.len() {
                return bad(format!(
                    "row {r} has {} cells for {} columns",
                    row.len(),
                    self.columns.len()
                ));
            }
            for (c, (cell, col)) in row.iter().zip(&self.columns).enumerate() {
                let fits = matches!(
                    (col.kind, cell),
                    (_, Cell::Empty)
                        | (ColumnKind::Text, Cell::Text(_))
                        | (ColumnKind::Money | ColumnKind::Quantity, Cell::Number(_))
                        | (ColumnKind::Date, Cell::Date(_))
                );
                if !fits {
                    return bad(format!(
                        "row {r}, column {c} ({}): {cell:?} does not fit a {:?} column",
                        col.header, col.kind
                    ));
                }
            }
        }
        Ok(())
    }

    /// Sums of the `total` columns over `rows` (`None` for other columns).
    pub(crate) fn sums<'a>(
        &self,
        rows: impl IntoIterator<Item = &'a Vec<Cell>>,
    ) -> Vec<Option<Decimal>> {
        let mut sums: Vec<Option<Decimal>> = self
            .columns
            .iter()
            .map(|c| c.total.then_some(Decimal::ZERO))
            .collect();
        for row in rows {
            for (sum, cell) in sums.iter_mut().zip(row) {
                if let (Some(s), Cell::Number(n)) = (sum.as_mut(), cell) {
                    *s += *n;
                }
            }
        }
        sums
    }

    /// A cell as shown in the PDF.
    pub(crate) fn format_cell(&self, column: usize, cell: &Cell) -> String {
        let kind = self.columns.get(column).map(|c| c.kind);
        match (kind, cell) {
            (_, Cell::Text(s)) => s.clone(),
            (Some(ColumnKind::Quantity), Cell::Number(n)) => format_decimal(*n, 4),
            (_, Cell::Number(n)) => format_decimal(*n, 2),
            (_, Cell::Date(d)) => d.format("%d/%m/%Y").to_string(),
            (_, Cell::Empty) => String::new(),
        }
    }

    /// The groups of consecutive rows sharing the `group_by` value, as
    /// (shown value, rows); the whole report is one unnamed group without it.
    pub(crate) fn groups(&self) -> Vec<(Option<String>, &[Vec<Cell>])> {
        let Some(g) = self.group_by else {
            return vec![(None, self.rows.as_slice())];
        };
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=self.rows.len() {
            let boundary = i == self.rows.len() || self.rows[i].get(g) != self.rows[start].get(g);
            if boundary {
                let key = self.rows[start].get(g).map(|c| self.format_cell(g, c));
                out.push((key, &self.rows[start..i]));
                start = i;
            }
        }
        out
    }
}

/// One horizontal band of the table body.
enum Band<'a> {
    Row {
        cells: &'a [Cell],
        shaded: bool,
    },
    GroupHeader(String),
    Subtotal {
        label: String,
        sums: Vec<Option<Decimal>>,
    },
    Total {
        label: String,
        sums: Vec<Option<Decimal>>,
    },
}

impl Band<'_> {
    fn height(&self) -> f32 {
        match self {
            Band::Row { .. } => ROW_H,
            Band::GroupHeader(_) => GROUP_H,
            Band::Subtotal { .. } => SUBTOTAL_H,
            Band::Total { .. } => TOTAL_H,
        }
    }
}

fn bands(report: &Report) -> Vec<Band<'_>> {
    let mut out = Vec::with_capacity(report.rows.len() + 2);
    let group_header = report
        .group_by
        .and_then(|g| report.columns.get(g))
        .map(|c| c.header.as_str())
        .unwrap_or_default();
    let mut shaded = false;
    for (key, rows) in report.groups() {
        if let Some(key) = &key {
            out.push(Band::GroupHeader(format!("{group_header}: {key}")));
            shaded = false;
        }
        for row in rows {
            out.push(Band::Row { cells: row, shaded });
            shaded = !shaded;
        }
        if let Some(key) = key {
            out.push(Band::Subtotal {
                label: format!("Subtotal {key} ({})", count_label(rows.len())),
                sums: report.sums(rows),
            });
        }
    }
    out.push(Band::Total {
        label: format!("Total geral ({})", count_label(report.rows.len())),
        sums: report.sums(&report.rows),
    });
    out
}

/// Splits the bands into pages. A group header never ends a page, and a
/// group that goes on over a page break gets its header again on the new
/// page, marked "(continuação)".
fn paginate<'a>(bands: Vec<Band<'a>>, body_h: f32) -> Vec<Vec<Band<'a>>> {
    let mut pages: Vec<Vec<Band<'a>>> = vec![Vec::new()];
    let mut used = 0.0;
    // Header of the group being laid out, if any.
    let mut open_group: Option<String> = None;
    for band in bands {
        let h = band.height();
        let current_is_empty = pages.last().is_none_or(Vec::is_empty);
        if used + h > body_h && !current_is_empty {
            let mut next = Vec::new();
            if let Some(last) = pages.last_mut() {
                if matches!(last.last(), Some(Band::GroupHeader(_))) {
                    next.extend(last.pop());
                } else if let Some(label) = &open_group {
                    next.push(Band::GroupHeader(format!("{label} (continuação)")));
                }
            }
            used = next.iter().map(Band::height).sum();
            pages.push(next);
        }
        match &band {
            Band::GroupHeader(label) => open_group = Some(label.clone()),
            Band::Subtotal { .. } => open_group = None,
            Band::Row { .. } | Band::Total { .. } => {}
        }
        used += h;
        if let Some(last) = pages.last_mut() {
            last.push(band);
        }
    }
    pages
}

/// Where the columns start (x in mm) and how wide the table is.
struct Grid {
    x: Vec<f32>,
    width: f32,
}

impl Grid {
    fn new(columns: &[Column]) -> Grid {
        let mut x = Vec::with_capacity(columns.len());
        let mut at = MARGIN;
        for c in columns {
            x.push(at);
            at += c.width_mm;
        }
        Grid { x, width: at - MARGIN }
    }

    /// Anchor x for text aligned `align` in column `i`.
    fn anchor(&self, columns: &[Column], i: usize, align: Align) -> f32 {
        let (x, w) = (self.x[i], columns[i].width_mm);
        match align {
            Align::Left => x + PAD,
            Align::Center => x + w / 2.0,
            Align::Right => x + w - PAD,
        }
    }
}

/// The columns as the page shows them: the grouping column's value heads each
/// group, so its rows leave it out and its width goes to the widest text column.
fn laid_out(report: &Report) -> Vec<Column> {
    let mut cols = report.columns.clone();
    let Some(g) = report.group_by.filter(|g| *g < cols.len()) else {
        return cols;
    };
    let freed = cols[g].width_mm;
    cols[g].width_mm = 0.0;
    let widest = cols
        .iter()
        .enumerate()
        .filter(|(i, c)| *i != g && !c.total && c.kind == ColumnKind::Text)
        .max_by(|a, b| a.1.width_mm.total_cmp(&b.1.width_mm))
        .map(|(i, _)| i);
    if let Some(i) = widest {
        cols[i].width_mm += freed;
    }
    cols
}

/// Columns where a subtotal/total label goes: the columns before the first
/// summed one, or the widest column that is not summed.
pub(crate) fn label_span(columns: &[Column]) -> Option<(usize, f32)> {
    let first_total = columns
        .iter()
        .position(|c| c.total)
        .unwrap_or(columns.len());
    if first_total > 0 {
        return Some((0, columns[..first_total].iter().map(|c| c.width_mm).sum()));
    }
    columns
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.total)
        .max_by(|a, b| a.1.width_mm.total_cmp(&b.1.width_mm))
        .map(|(i, c)| (i, c.width_mm))
}

struct Painter<'a> {
    report: &'a Report,
    /// The columns as laid out (see [`laid_out`]).
    cols: Vec<Column>,
    grid: Grid,
    page_size: (f32, f32),
    logo: Option<Picture>,
}

impl Painter<'_> {
    fn page_header(&self, page: &mut Page) -> Result<(), PrintError> {
        let r = self.report;
        let (w, _) = self.page_size;
        let right = w - MARGIN;
        let mut text_x = MARGIN;
        if let Some(logo) = &self.logo {
            let (lw, lh) = logo.fit(LOGO_BOX.0, LOGO_BOX.1);
            page.ops.push(Op::Image {
                x: MARGIN,
                y: MARGIN + (LOGO_BOX.1 - lh) / 2.0,
                w: lw,
                h: lh,
                picture: logo.clone(),
            });
            text_x += lw + 4.0;
        }
        let stamp = format!("Emitido em: {}", r.generated_at.format("%d/%m/%Y %H:%M"));
        let stamp_w = pdf::text_width(&stamp, Weight::Regular, 8.0)?;
        let text_w = right - text_x - stamp_w - 4.0;
        page.text(
            text_x,
            MARGIN + 4.0,
            10.0,
            Weight::Bold,
            Align::Left,
            pdf::fit(&r.company, Weight::Bold, 10.0, text_w)?,
        );
        page.text(
            right,
            MARGIN + 4.0,
            8.0,
            Weight::Regular,
            Align::Right,
            stamp,
        );
        page.text(
            text_x,
            MARGIN + 10.5,
            13.0,
            Weight::Bold,
            Align::Left,
            pdf::fit(&r.title, Weight::Bold, 13.0, right - text_x)?,
        );
        let user = format!("Usuário: {}", r.user);
        page.text(
            text_x,
            MARGIN + 16.0,
            8.0,
            Weight::Regular,
            Align::Left,
            pdf::fit(&user, Weight::Regular, 8.0, right - text_x)?,
        );
        page.line(MARGIN, MARGIN + HEADER_H, right, MARGIN + HEADER_H, 0.8);
        Ok(())
    }

    fn column_header(&self, page: &mut Page, y: f32) -> Result<(), PrintError> {
        let cols = &self.cols;
        page.ops.push(Op::Fill {
            x: MARGIN,
            y,
            w: self.grid.width,
            h: COLUMN_HEADER_H,
            gray: 0.82,
        });
        for (i, c) in cols.iter().enumerate().filter(|(_, c)| c.width_mm > 0.0) {
            let text = pdf::fit(&c.header, Weight::Bold, BODY_PT, c.width_mm - 2.0 * PAD)?;
            page.text(
                self.grid.anchor(cols, i, c.align),
                y + 4.1,
                BODY_PT,
                Weight::Bold,
                c.align,
                text,
            );
        }
        Ok(())
    }

    /// Label in the label span plus the sums in their columns.
    fn sums_band(
        &self,
        page: &mut Page,
        y: f32,
        baseline: f32,
        label: &str,
        sums: &[Option<Decimal>],
    ) -> Result<(), PrintError> {
        let cols = &self.cols;
        if let Some((i, span)) = label_span(cols) {
            let text = pdf::fit(label, Weight::Bold, BODY_PT, span - 2.0 * PAD)?;
            page.text(
                self.grid.x[i] + PAD,
                y + baseline,
                BODY_PT,
                Weight::Bold,
                Align::Left,
                text,
            );
        }
        for (i, sum) in sums.iter().enumerate() {
            if let Some(sum) = sum {
                let c = &cols[i];
                let places = if c.kind == ColumnKind::Quantity { 4 } else { 2 };
                let text = pdf::fit(
                    &format_decimal(*sum, places),
                    Weight::Bold,
                    BODY_PT,
                    c.width_mm - 2.0 * PAD,
                )?;
                page.text(
                    self.grid.anchor(cols, i, c.align),
                    y + baseline,
                    BODY_PT,
                    Weight::Bold,
                    c.align,
                    text,
                );
            }
        }
        Ok(())
    }

    fn band(&self, page: &mut Page, y: f32, band: &Band<'_>) -> Result<(), PrintError> {
        let cols = &self.cols;
        let (x0, x1) = (MARGIN, MARGIN + self.grid.width);
        match band {
            Band::Row { cells, shaded } => {
                if *shaded {
                    page.ops
                        .push(Op::Fill { x: x0, y, w: self.grid.width, h: ROW_H, gray: 0.94 });
                }
                for (i, cell) in cells.iter().enumerate() {
                    let c = &cols[i];
                    let text = self.report.format_cell(i, cell);
                    if text.is_empty() || c.width_mm <= 0.0 {
                        continue;
                    }
                    let text = pdf::fit(&text, Weight::Regular, BODY_PT, c.width_mm - 2.0 * PAD)?;
                    page.text(
                        self.grid.anchor(cols, i, c.align),
                        y + 3.3,
                        BODY_PT,
                        Weight::Regular,
                        c.align,
                        text,
                    );
                }
            }
            Band::GroupHeader(label) => {
                let text = pdf::fit(label, Weight::Bold, 8.5, self.grid.width - 2.0 * PAD)?;
                page.text(x0 + PAD, y + 4.0, 8.5, Weight::Bold, Align::Left, text);
                page.line(x0, y + GROUP_H - 0.2, x1, y + GROUP_H - 0.2, 0.3);
            }
            Band::Subtotal { label, sums } => {
                page.line(x0, y + 0.2, x1, y + 0.2, 0.5);
                self.sums_band(page, y, 3.7, label, sums)?;
            }
            Band::Total { label, sums } => {
                page.ops.push(Op::Fill {
                    x: x0,
                    y: y + 0.4,
                    w: self.grid.width,
                    h: TOTAL_H - 0.4,
                    gray: 0.88,
                });
                page.line(x0, y + 0.4, x1, y + 0.4, 0.8);
                self.sums_band(page, y, 4.4, label, sums)?;
            }
        }
        Ok(())
    }

    fn footer(&self, page: &mut Page, n: usize, total: usize) -> Result<(), PrintError> {
        let (w, h) = self.page_size;
        let y = h - MARGIN - 4.0;
        page.line(MARGIN, y, w - MARGIN, y, 0.5);
        let left = format!("{} — {}", self.report.company, self.report.title);
        let left = pdf::fit(&left, Weight::Regular, 7.0, w - 2.0 * MARGIN - 30.0)?;
        page.text(MARGIN, h - MARGIN, 7.0, Weight::Regular, Align::Left, left);
        page.text(
            w - MARGIN,
            h - MARGIN,
            8.0,
            Weight::Regular,
            Align::Right,
            format!("Pág: {n} de {total}"),
        );
        Ok(())
    }
}

/// Renders `report` as an A4 PDF (see the module documentation for the layout).
///
/// # Errors
/// [`PrintError::Report`] when the columns do not fit the page or a cell does
/// not fit its column, [`PrintError::Image`] for a logo that is not a PNG or
/// JPEG image, [`PrintError::Pdf`] if the PDF cannot be written.
pub fn render_pdf(report: &Report) -> Result<Vec<u8>, PrintError> {
    report.validate()?;
    let page_size = report.page_size();
    let cols = laid_out(report);
    let painter = Painter {
        report,
        grid: Grid::new(&cols),
        cols,
        page_size,
        logo: report.logo.as_deref().map(Picture::decode).transpose()?,
    };
    let body_top = MARGIN + HEADER_H + HEADER_GAP + COLUMN_HEADER_H;
    let body_h = page_size.1 - MARGIN - FOOTER_H - body_top;
    let pages = paginate(bands(report), body_h);
    let total = pages.len();
    let mut out = Vec::with_capacity(total);
    for (n, bands) in pages.iter().enumerate() {
        let mut page = Page::new(page_size);
        painter.page_header(&mut page)?;
        painter.column_header(&mut page, MARGIN + HEADER_H + HEADER_GAP)?;
        let mut y = body_top;
        for band in bands {
            painter.band(&mut page, y, band)?;
            y += band.height();
        }
        painter.footer(&mut page, n + 1, total)?;
        out.push(page);
    }
    pdf::render(out, &report.title)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pdf::tests::{poppler, sample_png};
    use chrono::NaiveDate;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    /// A sales report with `n` rows, grouped by seller when `grouped`.
    pub(crate) fn sample(n: usize, grouped: bool) -> Report {
        let sellers = ["Ana Conceição", "João Gonçalves", "Márcia Lúcia"];
        let rows = (0..n)
            .map(|i| {
                let seller = sellers[i * sellers.len() / n.max(1)];
                vec![
                    Cell::from(format!("{:05}", i + 1)),
                    Cell::from(format!(
                        "Açúcar cristal orgânico nº {} – embalagem econômica com descrição bem longa",
                        i + 1
                    )),
                    Cell::from(seller),
                    Cell::Date(NaiveDate::from_ymd_opt(2026, 11, (i % 28) as u32 + 1).unwrap()),
                    Cell::Number(Decimal::new((i as i64 % 7 + 1) * 12_345, 4)),
                    Cell::Number(Decimal::new(123_456 + i as i64 * 1_001, 2)),
                ]
            })
            .collect();
        Report {
            title: "Vendas por vendedor".to_string(),
            company: "Comércio de Alimentos São João Ltda".to_string(),
            user: "maria.gonçalves".to_string(),
            generated_at: NaiveDate::from_ymd_opt(2026, 11, 24)
                .unwrap()
                .and_hms_opt(14, 5, 0)
                .unwrap(),
            logo: Some(sample_png(60)),
            landscape: false,
            columns: vec![
                Column::text("Código", 16.0),
                Column::text("Descrição", 70.0),
                Column::text("Vendedor", 32.0),
                Column::date("Data", 20.0),
                Column::quantity("Qtde", 22.0).with_total(),
                Column::money("Total R$", 30.0).with_total(),
            ],
            rows,
            group_by: grouped.then_some(2),
        }
    }

    #[test]
    fn formats_numbers_pt_br() {
        assert_eq!(format_decimal(dec("1234.56"), 2), "1.234,56");
        assert_eq!(format_decimal(dec("1234567.5"), 2), "1.234.567,50");
        assert_eq!(format_decimal(dec("0.125"), 2), "0,13");
        assert_eq!(format_decimal(dec("-0.125"), 2), "-0,13");
        assert_eq!(format_decimal(dec("-0.001"), 2), "0,00");
        assert_eq!(format_decimal(dec("999.99995"), 4), "1.000,0000");
        assert_eq!(format_decimal(dec("12"), 0), "12");
        assert_eq!(format_decimal(dec("100"), 2), "100,00");
        assert_eq!(format_decimal(Decimal::new(-12345, 1), 2), "-1.234,50");
    }

    #[test]
    fn groups_are_runs_of_equal_values() {
        let r = sample(9, true);
        let groups = r.groups();
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].0.as_deref(), Some("Ana Conceição"));
        assert_eq!(groups.iter().map(|g| g.1.len()).sum::<usize>(), 9);
        let sums = r.sums(groups[0].1);
        assert_eq!(sums[0], None);
        // Rows 0..3: 1.2345 + 2.4690 + 3.7035 and 1234.56 + 1244.57 + 1254.58.
        assert_eq!(sums[4], Some(dec("7.4070")));
        assert_eq!(sums[5], Some(dec("3733.71")));
    }

    #[test]
    fn rejects_inconsistent_reports() {
        let mut r = sample(3, false);
        r.rows[1][5] = Cell::from("texto");
        assert!(
            matches!(render_pdf(&r), Err(PrintError::Report(m)) if m.contains("row 1, column 5"))
        );
        let mut r = sample(3, false);
        r.columns[1].width_mm = 200.0;
        assert!(matches!(render_pdf(&r), Err(PrintError::Report(m)) if m.contains("mm wide")));
        let mut r = sample(3, false);
        r.rows[0].pop();
        assert!(matches!(render_pdf(&r), Err(PrintError::Report(_))));
        let mut r = sample(3, false);
        r.columns[0] = Column::text("Código", 16.0).with_total();
        assert!(
            matches!(render_pdf(&r), Err(PrintError::Report(m)) if m.contains("cannot be summed"))
        );
        let mut r = sample(3, false);
        r.logo = Some(b"not an image".to_vec());
        assert!(matches!(render_pdf(&r), Err(PrintError::Image(_))));
    }

    fn text_of(pdf: &[u8]) -> String {
        String::from_utf8(poppler("pdftotext", &["-layout", "-", "-"], pdf)).unwrap()
    }

    #[test]
    fn three_page_report_has_footers_totals_and_repeated_headers() {
        // 110 rows: about 51 rows fit a portrait page.
        let r = sample(110, false);
        let pdf = render_pdf(&r).unwrap();
        let text = text_of(&pdf);
        let pages: Vec<&str> = text
            .split('\u{c}')
            .filter(|p| !p.trim().is_empty())
            .collect();
        assert_eq!(pages.len(), 3, "{text}");
        assert!(text.contains("Pág: 1 de 3"));
        assert!(text.contains("Pág: 2 de 3"));
        assert!(text.contains("Pág: 3 de 3"));
        for p in &pages {
            assert!(p.contains("Vendas por vendedor"));
            assert!(p.contains("Emitido em: 24/11/2026 14:05"));
            assert!(p.contains("Usuário: maria.gonçalves"));
            assert!(
                p.contains("Código") && p.contains("Total R$"),
                "column header on every page"
            );
        }
        // Sum of 123456 + 1001·i cents for i in 0..110 = 13580160 + 1001·5995 cents.
        let expected = format_decimal(Decimal::new(13_580_160 + 1_001 * 5_995, 2), 2);
        assert_eq!(expected, "195.811,55");
        let last = pages[2];
        assert!(last.contains("Total geral (110 registros)"), "{last}");
        assert!(last.contains(&expected), "{last}");
        assert!(
            text.contains("1.234,56"),
            "first row's money in pt-BR format"
        );
        assert!(text.contains("01/11/2026"), "dates as dd/MM/yyyy");
        assert!(
            text.contains("…"),
            "long descriptions are cut with an ellipsis"
        );
    }

    #[test]
    fn grouped_landscape_report_has_subtotals() {
        let mut r = sample(12, true);
        r.landscape = true;
        r.columns[1].width_mm = 150.0;
        let pdf = render_pdf(&r).unwrap();
        let text = text_of(&pdf);
        assert!(text.contains("Vendedor: João Gonçalves"));
        assert!(text.contains("Subtotal Ana Conceição (4 registros)"));
        assert!(text.contains("Pág: 1 de 1"));
        let sizes = String::from_utf8(poppler("pdfinfo", &["-"], &pdf)).unwrap();
        assert!(
            sizes.contains("841.89 x 595.28") || sizes.contains("841.89 x 595.276"),
            "{sizes}"
        );
    }

    #[test]
    fn empty_report_still_has_header_and_total() {
        let mut r = sample(0, false);
        r.logo = None;
        let text = text_of(&render_pdf(&r).unwrap());
        assert!(text.contains("Total geral (0 registros)"));
        assert!(text.contains("Pág: 1 de 1"));
    }

    #[test]
    fn group_header_does_not_end_a_page_and_is_repeated() {
        // Three groups of 66–67 rows; about 52 rows fit a page.
        let r = sample(200, true);
        let body_h = r.page_size().1
            - MARGIN
            - FOOTER_H
            - (MARGIN + HEADER_H + HEADER_GAP + COLUMN_HEADER_H);
        let pages = paginate(bands(&r), body_h);
        assert!(pages.len() >= 4, "{}", pages.len());
        for p in &pages {
            assert!(!matches!(p.last(), Some(Band::GroupHeader(_))));
            assert!(p.iter().map(Band::height).sum::<f32>() <= body_h + 0.001);
        }
        // Every page after the first opens with a group header (a new group
        // or the continuation of the one cut by the page break), unless only
        // the totals row is left.
        for p in &pages[1..] {
            assert!(matches!(
                p.first(),
                Some(Band::GroupHeader(_) | Band::Total { .. })
            ));
        }
        let continued = pages[1..]
            .iter()
            .filter(
                |p| matches!(p.first(), Some(Band::GroupHeader(l)) if l.ends_with("(continuação)")),
            )
            .count();
        assert!(continued >= 2, "{continued}");
        let rows: usize = pages
            .iter()
            .flatten()
            .filter(|b| matches!(b, Band::Row { .. }))
            .count();
        assert_eq!(rows, 200);
    }
}
