//! A [`Report`] as an XLSX workbook, written with rust_xlsxwriter: one sheet
//! named `Sheet1`, a bold header row (frozen), one row per report row with
//! typed cells (text as text, money as numbers formatted `#,##0.00`,
//! quantities `#,##0.0000`, dates as real dates `dd/mm/yyyy`) and a bold
//! totals row. Rows are kept flat, without group subtotals, so the sheet can
//! be filtered and pivoted; grouping is a printing concern.
//!
//! Floating point: XLSX stores every number as an IEEE double, so money and
//! quantities are converted from `Decimal` to `f64` here and only here. The
//! sums in the totals row are computed in `Decimal` first and converted
//! last; a double keeps 15 significant digits, enough for any amount up to
//! trillions with 2 places.

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use rust_xlsxwriter::{ColNum, ExcelDateTime, Format, RowNum, Workbook, Worksheet};

use crate::table::{label_span, Cell, ColumnKind, Report};
use crate::PrintError;

/// Excel column width units per millimetre of report width (one unit is
/// about one '0' of the default 11 pt font, roughly 2 mm).
const WIDTH_PER_MM: f32 = 0.5;

/// The number formats, by column kind.
struct Formats {
    header: Format,
    text: Format,
    money: Format,
    quantity: Format,
    date: Format,
}

impl Formats {
    fn new(bold: bool) -> Formats {
        let base = if bold {
            Format::new().set_bold()
        } else {
            Format::new()
        };
        Formats {
            header: Format::new().set_bold(),
            text: base.clone(),
            money: base.clone().set_num_format("#,##0.00"),
            quantity: base.clone().set_num_format("#,##0.0000"),
            date: base.set_num_format("dd/mm/yyyy"),
        }
    }

    fn for_kind(&self, kind: ColumnKind) -> &Format {
        match kind {
            ColumnKind::Text => &self.text,
            ColumnKind::Money => &self.money,
            ColumnKind::Quantity => &self.quantity,
            ColumnKind::Date => &self.date,
        }
    }
}

/// The XLSX boundary: a `Decimal` as the double the file format stores.
fn to_f64(value: Decimal) -> Result<f64, PrintError> {
    value
        .to_f64()
        .ok_or_else(|| PrintError::Report(format!("{value} cannot be stored as a number")))
}

fn row_num(i: usize) -> Result<RowNum, PrintError> {
    RowNum::try_from(i)
        .map_err(|_| PrintError::Report(format!("row {i} is beyond what XLSX holds")))
}

fn col_num(i: usize) -> Result<ColNum, PrintError> {
    ColNum::try_from(i)
        .map_err(|_| PrintError::Report(format!("column {i} is beyond what XLSX holds")))
}

fn write_cell(
    sheet: &mut Worksheet,
    row: RowNum,
    col: ColNum,
    cell: &Cell,
    format: &Format,
) -> Result<(), PrintError> {
    match cell {
        Cell::Text(s) => {
            sheet.write_string_with_format(row, col, s, format)?;
        }
        Cell::Number(n) => {
            sheet.write_number_with_format(row, col, to_f64(*n)?, format)?;
        }
        Cell::Date(d) => {
            let bad = || PrintError::Report(format!("date {d} cannot be stored in XLSX"));
            let year = u16::try_from(chrono::Datelike::year(d)).map_err(|_| bad())?;
            let month = u8::try_from(chrono::Datelike::month(d)).map_err(|_| bad())?;
            let day = u8::try_from(chrono::Datelike::day(d)).map_err(|_| bad())?;
            let date = ExcelDateTime::from_ymd(year, month, day)?;
            sheet.write_date_with_format(row, col, &date, format)?;
        }
        Cell::Empty => {}
    }
    Ok(())
}

/// Renders `report` as XLSX bytes (see the module documentation).
///
/// # Errors
/// [`PrintError::Report`] when a cell does not fit its column (the same
/// checks as the PDF) and [`PrintError::Xlsx`] if the workbook cannot be written.
pub fn render_xlsx(report: &Report) -> Result<Vec<u8>, PrintError> {
    report.validate()?;
    let plain = Formats::new(false);
    let bold = Formats::new(true);
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name("Sheet1")?;

    for (c, column) in report.columns.iter().enumerate() {
        let col = col_num(c)?;
        sheet.write_string_with_format(0, col, &column.header, &plain.header)?;
        sheet.set_column_width(col, f64::from(column.width_mm * WIDTH_PER_MM))?;
    }
    sheet.set_freeze_panes(1, 0)?;

    for (r, cells) in report.rows.iter().enumerate() {
        let row = row_num(r + 1)?;
        for (c, (cell, column)) in cells.iter().zip(&report.columns).enumerate() {
            write_cell(sheet, row, col_num(c)?, cell, plain.for_kind(column.kind))?;
        }
    }

    let total_row = row_num(report.rows.len() + 1)?;
    if let Some((c, _)) = label_span(&report.columns) {
        sheet.write_string_with_format(total_row, col_num(c)?, "Total geral", &bold.text)?;
    }
    for (c, sum) in report.sums(&report.rows).into_iter().enumerate() {
        if let Some(sum) = sum {
            let format = bold.for_kind(report.columns[c].kind);
            write_cell(sheet, total_row, col_num(c)?, &Cell::Number(sum), format)?;
        }
    }
    Ok(workbook.save_to_buffer()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::tests::sample;
    use calamine::{Data, Reader, Xlsx};
    use std::io::Cursor;

    #[test]
    fn independent_reader_sees_typed_cells() {
        let report = sample(5, true);
        let bytes = render_xlsx(&report).unwrap();
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).unwrap();
        assert_eq!(book.sheet_names(), vec!["Sheet1".to_string()]);
        let range = book.worksheet_range("Sheet1").unwrap();
        // Header, 5 rows, totals.
        assert_eq!(range.height(), 7);
        assert_eq!(range.get((0, 0)), Some(&Data::String("Código".to_string())));
        assert_eq!(
            range.get((0, 5)),
            Some(&Data::String("Total R$".to_string()))
        );
        assert!(matches!(range.get((1, 1)), Some(Data::String(s)) if s.starts_with("Açúcar")));
        // Money and quantity are numbers, not text.
        assert_eq!(range.get((1, 5)), Some(&Data::Float(1234.56)));
        assert_eq!(range.get((1, 4)), Some(&Data::Float(1.2345)));
        // The date is a date (serial number with a date format).
        match range.get((1, 3)) {
            Some(Data::DateTime(dt)) => {
                assert!(dt.is_datetime());
                // 2026-11-01 is serial 46327 in the 1900 date system.
                assert_eq!(dt.as_f64(), 46327.0);
            }
            other => panic!("date cell is {other:?}"),
        }
        // Totals row: label and sums as numbers.
        assert_eq!(
            range.get((6, 0)),
            Some(&Data::String("Total geral".to_string()))
        );
        // 1234.56 + 1244.57 + 1254.58 + 1264.59 + 1274.60
        assert_eq!(range.get((6, 5)), Some(&Data::Float(6272.9)));
        assert!(matches!(range.get((6, 4)), Some(Data::Float(_))));
        assert!(matches!(range.get((6, 2)), None | Some(Data::Empty)));
    }

    #[test]
    fn number_formats_are_set() {
        let bytes = render_xlsx(&sample(2, false)).unwrap();
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        let mut styles = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles)
            .unwrap();
        assert!(styles.contains(r##"formatCode="#,##0.00""##), "{styles}");
        assert!(styles.contains(r##"formatCode="#,##0.0000""##), "{styles}");
        assert!(styles.contains(r#"formatCode="dd/mm/yyyy""#), "{styles}");
    }

    #[test]
    fn refuses_bad_cells_like_the_pdf() {
        let mut report = sample(2, false);
        report.rows[0][3] = Cell::from("ontem");
        assert!(matches!(render_xlsx(&report), Err(PrintError::Report(_))));
    }
}
