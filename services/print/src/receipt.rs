//! The receipt ('recibo') PDF: payee header with optional logo, 'RECIBO',
//! its number, the value in figures ('R$ 1.234,56') and in words, what it
//! refers to, place and date written out, and a signature line with the
//! payee's name. It fills the top of an A4 page inside a frame, so the rest
//! of the sheet can be cut off or used for a copy.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::pdf::Align;
use crate::pdf::{self, Op, Page, Picture, Weight};
use crate::table::format_decimal;
use crate::words::{date_in_words, money_in_words};
use crate::PrintError;

const MARGIN: f32 = 10.0;
/// Inner padding of the frame, in mm.
const INSET: f32 = 6.0;
const BODY_PT: f32 = 11.0;
const BODY_LEADING: f32 = 6.2;

/// A receipt for a payment received.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    /// The receipt's number, shown as `Nº <number>`.
    pub number: String,
    /// The amount received; must not be negative.
    pub value: Decimal,
    /// Who paid.
    pub payer_name: String,
    /// The payer's CPF or CNPJ, already formatted ('123.456.789-09'); the
    /// label 'CPF' or 'CNPJ' is chosen by its number of digits. Empty: the
    /// sentence names the payer alone.
    pub payer_document: String,
    /// Who received (the company issuing the receipt, or a supplier).
    pub payee_name: String,
    /// The payee's CNPJ (or CPF), already formatted ('12.345.678/0001-95'),
    /// labelled by its number of digits like the payer's; empty: not printed.
    pub payee_cnpj: String,
    /// The payee's address in one line; empty: not printed.
    pub payee_address: String,
    /// PNG or JPEG bytes drawn at the top left (at most 35 × 18 mm).
    pub logo: Option<Vec<u8>>,
    /// What the payment is for; follows 'referente a' ("mensalidade de novembro").
    pub reference: String,
    /// City where the receipt is signed ("Caxias do Sul"); empty: the date alone.
    pub place: String,
    pub date: NaiveDate,
}

/// 'CPF', 'CNPJ' or 'CPF/CNPJ' for a document, by its number of digits.
pub(crate) fn document_label(document: &str) -> &'static str {
    match document.chars().filter(char::is_ascii_digit).count() {
        11 => "CPF",
        14 => "CNPJ",
        _ => "CPF/CNPJ",
    }
}

/// The sentence of the receipt.
fn statement(r: &Receipt) -> Result<String, PrintError> {
    let words = money_in_words(r.value)?;
    let reference = r.reference.trim().trim_end_matches('.');
    let payer = match r.payer_document.trim() {
        "" => r.payer_name.trim().to_string(),
        doc => format!("{}, {} {doc}", r.payer_name.trim(), document_label(doc)),
    };
    Ok(format!(
        "Recebi(emos) de {payer}, a importância de {words} referente a {reference}."
    ))
}

/// 'CNPJ 12.345.678/0001-95' (or 'CPF …'), none for an empty document.
fn labelled(document: &str) -> Option<String> {
    let d = document.trim();
    (!d.is_empty()).then(|| format!("{} {d}", document_label(d)))
}

/// 'Caxias do Sul, 24 de novembro de 2026.', or the date alone without a place.
fn dated(r: &Receipt) -> String {
    match r.place.trim() {
        "" => format!("{}.", date_in_words(r.date)),
        place => format!("{place}, {}.", date_in_words(r.date)),
    }
}

/// Renders the receipt as a one-page A4 PDF.
///
/// # Errors
/// [`PrintError::NegativeValue`] for a negative value, [`PrintError::Image`]
/// for a logo that is not a PNG or JPEG image, [`PrintError::Pdf`] if the
/// PDF cannot be written.
pub fn render(receipt: &Receipt) -> Result<Vec<u8>, PrintError> {
    let r = receipt;
    let sentence = statement(r)?;
    let mut page = Page::new(pdf::A4);
    let (page_w, _) = pdf::A4;
    let left = MARGIN + INSET;
    let right = page_w - MARGIN - INSET;
    let width = right - left;

    // Payee header.
    let mut text_x = left;
    let top = MARGIN + INSET;
    // The rule under the header: below the logo box, and below the last line.
    let mut header_bottom = top + 5.0;
    if let Some(bytes) = &r.logo {
        let picture = Picture::decode(bytes)?;
        let (w, h) = picture.fit(35.0, 18.0);
        page.ops
            .push(Op::Image { x: left, y: top + (18.0 - h) / 2.0, w, h, picture });
        text_x += w + 5.0;
        header_bottom = top + 15.5;
    }
    let header_w = right - text_x;
    page.text(
        text_x,
        top + 5.0,
        12.0,
        Weight::Bold,
        Align::Left,
        pdf::fit(&r.payee_name, Weight::Bold, 12.0, header_w)?,
    );
    let cnpj = labelled(&r.payee_cnpj);
    let mut details: Vec<&str> = cnpj.iter().map(String::as_str).collect();
    if !r.payee_address.trim().is_empty() {
        details.push(r.payee_address.trim());
    }
    for (i, line) in details.into_iter().enumerate() {
        let y = top + 10.5 + 5.0 * i as f32;
        page.text(
            text_x,
            y,
            9.0,
            Weight::Regular,
            Align::Left,
            pdf::fit(line, Weight::Regular, 9.0, header_w)?,
        );
        header_bottom = header_bottom.max(y);
    }
    let rule_y = header_bottom + 5.5;
    page.line(left, rule_y, right, rule_y, 0.6);

    // Title line: number, RECIBO, value.
    let title_y = rule_y + 13.0;
    let number = format!("Nº {}", r.number);
    page.text(
        left,
        title_y,
        12.0,
        Weight::Bold,
        Align::Left,
        pdf::fit(&number, Weight::Bold, 12.0, 55.0)?,
    );
    page.text(
        left + width / 2.0,
        title_y,
        22.0,
        Weight::Bold,
        Align::Center,
        "RECIBO",
    );
    let value = format!("R$ {}", format_decimal(r.value, 2));
    let value_w = pdf::text_width(&value, Weight::Bold, 14.0)?;
    let box_w = value_w + 8.0;
    page.ops
        .push(Op::Fill { x: right - box_w, y: title_y - 7.5, w: box_w, h: 10.5, gray: 0.92 });
    page.ops.push(Op::Frame {
        x: right - box_w,
        y: title_y - 7.5,
        w: box_w,
        h: 10.5,
        width_pt: 0.8,
    });
    page.text(
        right - 4.0,
        title_y,
        14.0,
        Weight::Bold,
        Align::Right,
        value,
    );

    // The statement, wrapped.
    let mut y = title_y + 16.0;
    for line in pdf::wrap(&sentence, Weight::Regular, BODY_PT, width)? {
        page.text(left, y, BODY_PT, Weight::Regular, Align::Left, line);
        y += BODY_LEADING;
    }

    // Place and date.
    y += 6.0;
    let dated = dated(r);
    page.text(
        right,
        y,
        BODY_PT,
        Weight::Regular,
        Align::Right,
        pdf::fit(&dated, Weight::Regular, BODY_PT, width)?,
    );

    // Signature.
    y += 22.0;
    let centre = left + width / 2.0;
    page.line(centre - 45.0, y, centre + 45.0, y, 0.6);
    page.text(
        centre,
        y + 5.0,
        10.0,
        Weight::Bold,
        Align::Center,
        pdf::fit(&r.payee_name, Weight::Bold, 10.0, width)?,
    );
    let mut bottom = y + 5.0 + INSET;
    if let Some(cnpj) = cnpj {
        page.text(centre, y + 10.0, 9.0, Weight::Regular, Align::Center, cnpj);
        bottom += 5.0;
    }

    page.ops.push(Op::Frame {
        x: MARGIN,
        y: MARGIN,
        w: page_w - 2.0 * MARGIN,
        h: bottom - MARGIN,
        width_pt: 1.0,
    });
    pdf::render(vec![page], &format!("Recibo {}", r.number))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pdf::tests::{poppler, sample_png};
    use std::str::FromStr;

    pub(crate) fn sample() -> Receipt {
        Receipt {
            number: "2026/000123".to_string(),
            value: Decimal::from_str("1234.56").unwrap(),
            payer_name: "José Antônio Gonçalves".to_string(),
            payer_document: "123.456.789-09".to_string(),
            payee_name: "Comércio de Alimentos São João Ltda".to_string(),
            payee_cnpj: "12.345.678/0001-95".to_string(),
            payee_address: "Rua Sinimbu, 1.234 – Centro – Caxias do Sul/RS – CEP 95020-002"
                .to_string(),
            logo: Some(sample_png(80)),
            reference: "mensalidade de novembro/2026 do plano de manutenção".to_string(),
            place: "Caxias do Sul".to_string(),
            date: NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
        }
    }

    #[test]
    fn statement_reads_as_a_receipt() {
        assert_eq!(
            statement(&sample()).unwrap(),
            "Recebi(emos) de José Antônio Gonçalves, CPF 123.456.789-09, a importância de \
             um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos referente a \
             mensalidade de novembro/2026 do plano de manutenção."
        );
        assert_eq!(document_label("12.345.678/0001-95"), "CNPJ");
        assert_eq!(document_label("x"), "CPF/CNPJ");
    }

    #[test]
    fn pdf_holds_value_in_figures_and_words_place_date_and_signature() {
        let pdf = render(&sample()).unwrap();
        let text = String::from_utf8(poppler("pdftotext", &["-", "-"], &pdf)).unwrap();
        // pdftotext keeps the wrapped lines; join them to search the sentence.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("RECIBO"), "{flat}");
        assert!(flat.contains("Nº 2026/000123"), "{flat}");
        assert!(flat.contains("R$ 1.234,56"), "{flat}");
        assert!(
            flat.contains("um mil, duzentos e trinta e quatro reais e cinquenta e seis centavos"),
            "{flat}"
        );
        assert!(
            flat.contains("Recebi(emos) de José Antônio Gonçalves"),
            "{flat}"
        );
        assert!(
            flat.contains("Caxias do Sul, 24 de novembro de 2026."),
            "{flat}"
        );
        assert!(flat.contains("CNPJ 12.345.678/0001-95"), "{flat}");
        let info = String::from_utf8(poppler("pdfinfo", &["-"], &pdf)).unwrap();
        let pages = info
            .lines()
            .find_map(|l| l.strip_prefix("Pages:"))
            .map(str::trim);
        assert_eq!(pages, Some("1"), "{info}");
    }

    #[test]
    fn leaves_out_what_it_was_not_given() {
        let mut r = sample();
        r.payer_document = String::new();
        r.payee_cnpj = String::new();
        r.payee_address = String::new();
        r.place = String::new();
        r.logo = None;
        assert!(statement(&r)
            .unwrap()
            .starts_with("Recebi(emos) de José Antônio Gonçalves, a importância de um mil,"));
        assert_eq!(dated(&r), "24 de novembro de 2026.");
        let pdf = render(&r).unwrap();
        let text = String::from_utf8(poppler("pdftotext", &["-", "-"], &pdf)).unwrap();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(!flat.contains("CNPJ"), "{flat}");
        assert!(!flat.contains("CPF"), "{flat}");
        assert!(flat.contains("24 de novembro de 2026."), "{flat}");
        // A supplier signing with a CPF is labelled as such.
        assert_eq!(
            labelled("123.456.789-09").as_deref(),
            Some("CPF 123.456.789-09")
        );
        assert_eq!(labelled(" "), None);
    }

    #[test]
    fn refuses_negative_values() {
        let mut r = sample();
        r.value = Decimal::from_str("-1").unwrap();
        assert!(matches!(render(&r), Err(PrintError::NegativeValue(_))));
    }
}
