//! `erp-print`: server-side documents of the ERP — PDF layouts drawn with
//! [krilla](https://docs.rs/krilla) and spreadsheets written with
//! [rust_xlsxwriter](https://docs.rs/rust_xlsxwriter). It holds no I/O: every
//! renderer takes a model and returns the file's bytes, so services can send
//! them over HTTP/gRPC or store them.
//!
//! # Layouts
//! - [`table::render_pdf`] — tabular A4 report (portrait or landscape, 10 mm
//!   margins): header with optional logo, title, company, user and
//!   'dd/MM/yyyy HH:mm' on every page; the column header repeated on every
//!   page; money and quantities right-aligned in pt-BR format ('1.234,56');
//!   group subtotals; totals at the end; footer 'Pág: n de N'.
//! - [`xlsx::render_xlsx`] — the same [`table::Report`] as an XLSX workbook
//!   with one sheet, `Sheet1`, with typed cells (numbers, dates) and a totals row.
//! - [`receipt::render`] — a receipt ('recibo') with the value in figures and
//!   in words ([`words::money_in_words`]), place and date, signature line.
//! - [`slip::render`] — bank slips ('boletos', [`BankSlip`]), one A4 page
//!   each: the Recibo do Pagador (with the PIX QR code and the copy-and-paste
//!   payload when the slip has one), the dashed cut line and the Ficha de
//!   Compensação with the linha digitável, the standard boxed grid and the
//!   Interleaved 2 of 5 barcode at FEBRABAN dimensions ([`slip::itf_bars`]);
//!   bars and QR modules ([`slip::qr_rects`]) are exact vector rectangles.
//!
//! # Text
//! All text uses the bundled Liberation Sans (regular and bold, SIL Open Font
//! License 1.1, `fonts/`), which covers every pt-BR glyph (ç ã õ é ê í ú ü º
//! ª R$ – …). It is embedded as a subsetted TrueType CID font with a Unicode
//! map, so the text can be searched and copied from the PDF.
//!
//! # Money
//! Money and quantities are [`rust_decimal::Decimal`] throughout; the only
//! conversion to floating point is where the XLSX format itself stores
//! doubles (see [`xlsx`]). Page geometry (millimetres, points) is `f32`.
//!
//! # Value in words
//! See [`words`] for the rules, for example 1.234,56 → "um mil, duzentos e
//! trinta e quatro reais e cinquenta e seis centavos" and 2.000.001,10 →
//! "dois milhões, um real e dez centavos".

mod pdf;
pub mod receipt;
pub mod sale;
pub mod slip;
pub mod table;
pub mod words;
pub mod xlsx;

pub use pdf::Align;
pub use receipt::Receipt;
pub use slip::BankSlip;
pub use table::{Cell, Column, ColumnKind, Report};

use rust_decimal::Decimal;

/// Everything that can go wrong while building a document.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// A value below zero was given where only non-negative values make sense.
    #[error("negative value {0} cannot be written in words")]
    NegativeValue(Decimal),
    /// A value too large to be written in words (10^18 or more).
    #[error("value {0} is too large to be written in words")]
    ValueTooLarge(Decimal),
    /// The logo is not a PNG or JPEG image that can be decoded.
    #[error("image: {0}")]
    Image(String),
    /// The report definition is inconsistent (columns, rows, grouping, totals).
    #[error("report: {0}")]
    Report(String),
    /// A bank slip cannot be drawn: a barcode that is not an even number of
    /// digits (44 for a boleto), a negative amount, a PIX payload too long
    /// for a QR code, or no slips at all.
    #[error("bank slip: {0}")]
    Slip(String),
    /// The PDF library refused the document.
    #[error("PDF: {0}")]
    Pdf(String),
    /// The XLSX writer refused the workbook.
    #[error("XLSX: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
}

#[cfg(test)]
mod tests {
    use crate::pdf::tests::poppler;
    use std::path::PathBuf;

    /// Renders the receipt, a two-page grouped report, a landscape one and a
    /// bank slip to PNG pages (`pdftoppm -png -r 60`), and the report to
    /// `report.xlsx`, so a person (or another program) can look at them. They
    /// go to `$ERP_PRINT_ARTIFACTS` when set, otherwise to
    /// `erp-print-artifacts` in the system temporary directory.
    #[test]
    fn writes_previews() {
        let dir = std::env::var_os("ERP_PRINT_ARTIFACTS")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("erp-print-artifacts"));
        std::fs::create_dir_all(&dir).unwrap();
        let report = crate::table::tests::sample(60, true);
        let mut landscape = crate::table::tests::sample(12, true);
        landscape.landscape = true;
        landscape.columns[1].width_mm = 150.0;
        let receipt = crate::receipt::tests::sample();
        let slip = crate::slip::tests::sample();
        let docs = [
            ("report", crate::table::render_pdf(&report).unwrap(), 2),
            (
                "report-landscape",
                crate::table::render_pdf(&landscape).unwrap(),
                1,
            ),
            ("receipt", crate::receipt::render(&receipt).unwrap(), 1),
            ("slip", crate::slip::render(&[slip]).unwrap(), 1),
        ];
        let xlsx = crate::xlsx::render_xlsx(&report).unwrap();
        assert!(xlsx.starts_with(b"PK"), "XLSX is a zip file");
        std::fs::write(dir.join("report.xlsx"), xlsx).unwrap();
        for (name, pdf, pages) in docs {
            for n in 1..=9 {
                // Pages left by an earlier run would spoil the page count.
                let _ = std::fs::remove_file(dir.join(format!("{name}-{n}.png")));
            }
            std::fs::write(dir.join(format!("{name}.pdf")), &pdf).unwrap();
            let prefix = dir.join(name);
            poppler(
                "pdftoppm",
                &["-png", "-r", "60", "-", prefix.to_str().unwrap()],
                &pdf,
            );
            for n in 1..=pages {
                let png = std::fs::read(dir.join(format!("{name}-{n}.png"))).unwrap();
                assert!(png.starts_with(b"\x89PNG"), "{name} page {n} is not a PNG");
            }
            assert!(
                !dir.join(format!("{name}-{}.png", pages + 1)).exists(),
                "{name} has more than {pages} pages"
            );
        }
    }
}
