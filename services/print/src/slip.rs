//! The bank slip ('boleto de cobrança') PDF, one A4 portrait page per slip,
//! 10 mm margins, in the standard FEBRABAN arrangement:
//!
//! - at the top, the beneficiary's letterhead (optional logo, name, CNPJ/CPF,
//!   address) and the **Recibo do Pagador**: bank header ('Banco do Brasil
//!   | 001-9 | Recibo do Pagador') and a boxed grid with the beneficiary,
//!   the due date, the agency / beneficiary code, the payer, the nosso
//!   número, the document number and dates and the amount; under it, when
//!   the slip carries a PIX payload, the PIX QR code (34 mm, error
//!   correction level M, 4-module quiet zone) with 'Pague com Pix' and the
//!   copy-and-paste payload in small type;
//! - a dashed cut line ('Corte na linha pontilhada');
//! - at the bottom, the **Ficha de Compensação**: header with the bank's
//!   name, '|001-9|' and the linha digitável in large bold type, the boxed
//!   grid with the standard captions, and the barcode, Interleaved 2 of 5 of
//!   the 44 digits ([`itf_bars`]) at the FEBRABAN dimensions (narrow 0.254 mm,
//!   wide 0.762 mm, 13 mm high), 5 mm from the grid's left edge (15 mm of
//!   blank paper before the first bar).
//!
//! Dates are 'dd/MM/yyyy' and amounts '1.234,56'. The bars and the QR
//! modules are exact filled rectangles, so they stay crisp at any zoom and
//! on any printer.

use chrono::NaiveDate;
use qrcode::{Color, EcLevel, QrCode};
use rust_decimal::Decimal;

use crate::pdf::{self, Align, Op, Page, Picture, Weight};
use crate::receipt::document_label;
use crate::table::format_decimal;
use crate::PrintError;

/// Width of a narrow element (bar or space) of the barcode, in mm.
pub const ITF_NARROW_MM: f32 = 0.254;
/// Width of a wide element of the barcode: 3 × narrow, in mm.
pub const ITF_WIDE_MM: f32 = 3.0 * ITF_NARROW_MM;
/// Height of the barcode's bars, in mm.
pub const ITF_HEIGHT_MM: f32 = 13.0;
/// Light modules around the QR code, on every side.
pub const QR_QUIET_MODULES: usize = 4;

/// A bank slip ('boleto') ready to print: every code and identifier comes
/// already computed and formatted by the bank's rules (the linha digitável,
/// the nosso número, the agency / beneficiary code); this module only draws.
#[derive(Debug, Clone, PartialEq)]
pub struct BankSlip {
    /// The bank's code, "001".
    pub bank_code: String,
    /// The check digit of the bank's code, "9"; printed as '001-9'.
    pub bank_code_dv: String,
    /// "Banco do Brasil".
    pub bank_name: String,
    /// The linha digitável, formatted ('00190.00009 01234.567004 …').
    pub linha_digitavel: String,
    /// The 44 digits of the barcode, drawn as Interleaved 2 of 5.
    pub barcode: String,
    /// 'Pagável em qualquer banco até o vencimento'.
    pub place_of_payment: String,
    pub beneficiary_name: String,
    /// The beneficiary's CNPJ or CPF, formatted; labelled 'CNPJ' or 'CPF' by
    /// its number of digits.
    pub beneficiary_document: String,
    pub beneficiary_address: String,
    /// 'Agência / Código do Beneficiário', "1234-5 / 123456-7".
    pub agency_code: String,
    pub nosso_numero: String,
    pub document_number: String,
    /// 'Espécie Doc.', "DM".
    pub species_doc: String,
    /// 'Aceite', "N".
    pub accept: String,
    /// 'Carteira'.
    pub wallet: String,
    pub issue_date: NaiveDate,
    pub processing_date: NaiveDate,
    pub due_date: NaiveDate,
    /// The document's amount; must not be negative.
    pub amount: Decimal,
    pub payer_name: String,
    /// The payer's CPF or CNPJ, formatted.
    pub payer_document: String,
    /// Street, number, district.
    pub payer_address: String,
    /// "CEP 00000-000 Cidade - UF".
    pub payer_city: String,
    /// Up to 6 lines (interest, fine, protest, free text); longer ones are
    /// wrapped, and what does not fit in the box is cut with '…'.
    pub instructions: Vec<String>,
    /// The PIX copy-and-paste payload (BR Code); when present, its QR code is
    /// drawn in the Recibo do Pagador with the payload printed under
    /// 'Pague com Pix'.
    pub pix_copia_cola: Option<String>,
    /// PNG or JPEG bytes of the beneficiary's logo (at most 35 × 15 mm).
    pub logo: Option<Vec<u8>>,
}

/// Left edge of the content (the page margin), in mm.
const LEFT: f32 = 10.0;
/// Right edge of the content, in mm.
const RIGHT: f32 = 200.0;
/// Left edge of the grids' right-hand column (due date, amounts), in mm.
const SPLIT: f32 = 155.0;
/// Bottom of the content (the page margin), in mm.
const BOTTOM: f32 = 287.0;
const CAPTION_PT: f32 = 6.0;
const VALUE_PT: f32 = 9.0;
const SMALL_PT: f32 = 7.5;
const ROW_H: f32 = 8.5;
const HEADER_H: f32 = 10.0;
/// Horizontal padding inside a box, in mm.
const PAD: f32 = 1.0;
const THIN_PT: f32 = 0.5;
const THICK_PT: f32 = 1.4;
const LOGO_BOX: (f32, f32) = (35.0, 15.0);

/// The Recibo do Pagador's bank header, below the letterhead.
const RECIBO_HEADER_Y: f32 = 27.0;
/// Top of the PIX box.
const PIX_Y: f32 = RECIBO_HEADER_Y + HEADER_H + 4.0 * ROW_H + 7.0;
/// Side of the PIX QR code, quiet zone included, in mm.
const QR_SIZE: f32 = 34.0;
/// Top-left corner of the PIX QR code (its quiet zone).
const QR_AT: (f32, f32) = (LEFT + 2.0, PIX_Y + 2.0);

/// Heights of the Ficha de Compensação's parts, top to bottom.
const FICHA_BENEFICIARY_H: f32 = 11.5;
const FICHA_INSTRUCTIONS_H: f32 = 27.0;
const FICHA_PAYER_H: f32 = 19.0;
const BARCODE_GAP: f32 = 2.5;
/// Top of the Ficha de Compensação: it ends with the barcode on the bottom margin.
const FICHA_Y: f32 = BOTTOM
    - (HEADER_H
        + ROW_H
        + FICHA_BENEFICIARY_H
        + 2.0 * ROW_H
        + FICHA_INSTRUCTIONS_H
        + FICHA_PAYER_H
        + BARCODE_GAP
        + ITF_HEIGHT_MM);
/// Top of the barcode, whose bars end on the bottom margin.
const BARCODE_Y: f32 = BOTTOM - ITF_HEIGHT_MM;
/// Left end of the barcode: 5 mm of quiet zone inside the grid's width.
const BARCODE_X: f32 = LEFT + 5.0;
/// Lines of instructions that fit in their box.
const MAX_INSTRUCTION_LINES: usize = 6;

/// Wide (true) and narrow (false) elements of each digit in Interleaved
/// 2 of 5.
const ITF_PATTERNS: [[bool; 5]; 10] = [
    [false, false, true, true, false], // 0 NNWWN
    [true, false, false, false, true], // 1 WNNNW
    [false, true, false, false, true], // 2 NWNNW
    [true, true, false, false, false], // 3 WWNNN
    [false, false, true, false, true], // 4 NNWNW
    [true, false, true, false, false], // 5 WNWNN
    [false, true, true, false, false], // 6 NWWNN
    [false, false, false, true, true], // 7 NNNWW
    [true, false, false, true, false], // 8 WNNWN
    [false, true, false, true, false], // 9 NWNWN
];

/// The bars of `digits` in Interleaved 2 of 5 at the FEBRABAN dimensions:
/// `(x, width)` in mm from the left edge of the start pattern (narrow bar,
/// narrow space, narrow bar, narrow space), each pair of digits drawn as
/// five bars (the first digit) interleaved with five spaces (the second),
/// then the stop pattern (wide bar, narrow space, narrow bar). A narrow
/// element is [`ITF_NARROW_MM`] and a wide one [`ITF_WIDE_MM`], so the 44
/// digits of a boleto are 405 narrow units, 102.87 mm wide. Positions are
/// computed in whole narrow units, so they do not drift.
///
/// # Errors
/// [`PrintError::Slip`] for an empty string, an odd number of digits or a
/// character that is not an ASCII digit.
pub fn itf_bars(digits: &str) -> Result<Vec<(f32, f32)>, PrintError> {
    let values = digits
        .chars()
        .map(|c| {
            c.to_digit(10)
                .map(|d| d as usize)
                .ok_or_else(|| PrintError::Slip(format!("barcode: {c:?} is not a digit")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if values.is_empty() || !values.len().is_multiple_of(2) {
        return Err(PrintError::Slip(format!(
            "barcode: Interleaved 2 of 5 needs an even, non-zero number of digits, not {}",
            values.len()
        )));
    }
    let units = |wide: bool| if wide { 3 } else { 1 };
    // (is a bar, width in narrow units)
    let mut elements: Vec<(bool, u32)> = vec![(true, 1), (false, 1), (true, 1), (false, 1)];
    for pair in values.chunks(2) {
        let (bars, spaces) = (ITF_PATTERNS[pair[0]], ITF_PATTERNS[pair[1]]);
        for (bar, space) in bars.into_iter().zip(spaces) {
            elements.push((true, units(bar)));
            elements.push((false, units(space)));
        }
    }
    elements.extend([(true, 3), (false, 1), (true, 1)]);
    let mut at = 0u32;
    let mut out = Vec::with_capacity(elements.len() / 2 + 1);
    for (bar, u) in elements {
        if bar {
            out.push((at as f32 * ITF_NARROW_MM, u as f32 * ITF_NARROW_MM));
        }
        at += u;
    }
    Ok(out)
}

/// The dark areas of the QR code of `payload` (byte mode, error correction
/// level M) drawn `size_mm` wide, quiet zone ([`QR_QUIET_MODULES`] on every
/// side) included: `(x, y, width, height)` in mm from the top-left corner of
/// the quiet zone. Each run of dark modules in a row is one rectangle, one
/// module high. These are exactly the rectangles the slip draws.
///
/// # Errors
/// [`PrintError::Slip`] when the payload does not fit in a QR code.
pub fn qr_rects(payload: &str, size_mm: f32) -> Result<Vec<(f32, f32, f32, f32)>, PrintError> {
    let code = QrCode::with_error_correction_level(payload.as_bytes(), EcLevel::M)
        .map_err(|e| PrintError::Slip(format!("PIX QR code: {e}")))?;
    let n = code.width();
    let colors = code.to_colors();
    let module = size_mm / (n + 2 * QR_QUIET_MODULES) as f32;
    let at = |i: usize| (i + QR_QUIET_MODULES) as f32 * module;
    let mut out = Vec::new();
    for (row, cells) in colors.chunks(n).enumerate() {
        let mut col = 0;
        while col < n {
            if cells[col] != Color::Dark {
                col += 1;
                continue;
            }
            let start = col;
            while col < n && cells[col] == Color::Dark {
                col += 1;
            }
            out.push((at(start), at(row), (col - start) as f32 * module, module));
        }
    }
    Ok(out)
}

/// "Name — CNPJ 12.345.678/0001-95", or the name alone without a document.
fn party(name: &str, document: &str) -> String {
    match document.trim() {
        "" => name.trim().to_string(),
        doc => format!("{} — {} {doc}", name.trim(), document_label(doc)),
    }
}

fn date(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// `text` at the largest size from `max_pt` down to `min_pt` (in steps of
/// 0.5 pt) at which it fits in `max_mm`; cut with '…' if even `min_pt` is
/// too large.
fn shrink_to_fit(
    text: &str,
    weight: Weight,
    max_pt: f32,
    min_pt: f32,
    max_mm: f32,
) -> Result<(String, f32), PrintError> {
    let mut size = max_pt;
    while size > min_pt && pdf::text_width(text, weight, size)? > max_mm {
        size -= 0.5;
    }
    Ok((pdf::fit(text, weight, size, max_mm)?, size))
}

/// `text` cut between any two characters into lines no wider than `max_mm`,
/// keeping every character (spaces too), so the lines put back together are
/// the text: for the PIX payload, which must be copied exactly.
fn hard_wrap(
    text: &str,
    weight: Weight,
    size_pt: f32,
    max_mm: f32,
) -> Result<Vec<String>, PrintError> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut width = 0.0;
    for c in text.chars() {
        let w = pdf::text_width(c.encode_utf8(&mut [0; 4]), weight, size_pt)?;
        if width + w > max_mm && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            width = 0.0;
        }
        line.push(c);
        width += w;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

/// The instructions wrapped into at most `max_lines` lines of `max_mm`; when
/// some are left out, the last line shown ends with '…'.
fn instruction_lines(
    instructions: &[String],
    max_lines: usize,
    max_mm: f32,
) -> Result<Vec<String>, PrintError> {
    let mut lines = Vec::new();
    for instruction in instructions {
        lines.extend(pdf::wrap(instruction, Weight::Regular, SMALL_PT, max_mm)?);
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            let mut cut = last.trim_end().to_string();
            while !cut.is_empty()
                && pdf::text_width(&format!("{cut} …"), Weight::Regular, SMALL_PT)? > max_mm
            {
                cut.pop();
            }
            *last = format!("{} …", cut.trim_end());
        }
    }
    Ok(lines)
}

/// How a box shows its value.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Regular, left-aligned.
    Plain,
    /// Regular, right-aligned (codes in the right-hand column).
    Right,
    /// Bold and right-aligned on a light gray ground (due date, amount).
    Strong,
}

/// A box of a grid: its frame, its caption in small type at the top left
/// and its value on the bottom line, cut to the box's width.
fn cell(
    page: &mut Page,
    (x, y, w, h): (f32, f32, f32, f32),
    caption: &str,
    value: &str,
    style: Style,
) -> Result<(), PrintError> {
    if style == Style::Strong {
        page.ops.push(Op::Fill { x, y, w, h, gray: 0.9 });
    }
    page.ops.push(Op::Frame { x, y, w, h, width_pt: THIN_PT });
    page.text(
        x + PAD,
        y + 2.6,
        CAPTION_PT,
        Weight::Regular,
        Align::Left,
        pdf::fit(caption, Weight::Regular, CAPTION_PT, w - 2.0 * PAD)?,
    );
    let weight = if style == Style::Strong {
        Weight::Bold
    } else {
        Weight::Regular
    };
    let value = pdf::fit(value.trim(), weight, VALUE_PT, w - 2.0 * PAD)?;
    let (vx, align) = match style {
        Style::Plain => (x + PAD, Align::Left),
        Style::Right | Style::Strong => (x + w - PAD, Align::Right),
    };
    page.text(vx, y + h - 1.9, VALUE_PT, weight, align, value);
    Ok(())
}

/// A row of boxes `h` high at `y`: `(right edge, caption, value, style)`,
/// each box starting where the one before ends (the first at [`LEFT`]).
fn row(
    page: &mut Page,
    y: f32,
    h: f32,
    boxes: &[(f32, &str, &str, Style)],
) -> Result<(), PrintError> {
    let mut x = LEFT;
    for &(right, caption, value, style) in boxes {
        cell(page, (x, y, right - x, h), caption, value, style)?;
        x = right;
    }
    Ok(())
}

/// The bank header: name, '|001-9|' between thick rules, and `right_text`
/// (bold, shrunk to fit) on the right; a thick rule under it.
fn bank_header(
    page: &mut Page,
    s: &BankSlip,
    y: f32,
    right_text: &str,
    right_pt: f32,
) -> Result<(), PrintError> {
    let base = y + HEADER_H - 2.4;
    let (name, name_pt) = shrink_to_fit(&s.bank_name, Weight::Bold, 12.0, 8.0, 46.0)?;
    page.text(LEFT, base, name_pt, Weight::Bold, Align::Left, name);
    let (code_l, code_r) = (LEFT + 48.0, LEFT + 72.0);
    page.line(code_l, y + 2.0, code_l, y + HEADER_H, THICK_PT + 0.4);
    page.line(code_r, y + 2.0, code_r, y + HEADER_H, THICK_PT + 0.4);
    let code = format!("{}-{}", s.bank_code.trim(), s.bank_code_dv.trim());
    let (code, code_pt) = shrink_to_fit(&code, Weight::Bold, 15.0, 9.0, code_r - code_l - 2.0)?;
    page.text(
        (code_l + code_r) / 2.0,
        base + 0.3,
        code_pt,
        Weight::Bold,
        Align::Center,
        code,
    );
    let (text, text_pt) = shrink_to_fit(
        right_text,
        Weight::Bold,
        right_pt,
        7.0,
        RIGHT - code_r - 2.0,
    )?;
    page.text(RIGHT, base, text_pt, Weight::Bold, Align::Right, text);
    page.line(LEFT, y + HEADER_H, RIGHT, y + HEADER_H, THICK_PT);
    Ok(())
}

/// The beneficiary's letterhead at the top of the page: logo, name,
/// document, address.
fn letterhead(page: &mut Page, s: &BankSlip) -> Result<(), PrintError> {
    let mut text_x = LEFT;
    if let Some(bytes) = &s.logo {
        let picture = Picture::decode(bytes)?;
        let (w, h) = picture.fit(LOGO_BOX.0, LOGO_BOX.1);
        page.ops
            .push(Op::Image { x: LEFT, y: LEFT + (LOGO_BOX.1 - h) / 2.0, w, h, picture });
        text_x += w + 4.0;
    }
    let width = RIGHT - text_x;
    page.text(
        text_x,
        LEFT + 4.5,
        11.0,
        Weight::Bold,
        Align::Left,
        pdf::fit(&s.beneficiary_name, Weight::Bold, 11.0, width)?,
    );
    let doc = s.beneficiary_document.trim();
    let lines = [
        if doc.is_empty() {
            String::new()
        } else {
            format!("{} {doc}", document_label(doc))
        },
        s.beneficiary_address.trim().to_string(),
    ];
    let mut y = LEFT + 9.0;
    for line in lines.iter().filter(|l| !l.is_empty()) {
        page.text(
            text_x,
            y,
            8.0,
            Weight::Regular,
            Align::Left,
            pdf::fit(line, Weight::Regular, 8.0, width)?,
        );
        y += 4.0;
    }
    Ok(())
}

/// The Recibo do Pagador: bank header and grid, mechanical authentication
/// caption and, with a PIX payload, the QR code box.
fn recibo(page: &mut Page, s: &BankSlip) -> Result<(), PrintError> {
    use Style::{Plain, Right, Strong};
    bank_header(page, s, RECIBO_HEADER_Y, "Recibo do Pagador", 12.0)?;
    let amount = format_decimal(s.amount, 2);
    let beneficiary = party(&s.beneficiary_name, &s.beneficiary_document);
    let payer = party(&s.payer_name, &s.payer_document);
    let mut y = RECIBO_HEADER_Y + HEADER_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (SPLIT, "Beneficiário", &beneficiary, Plain),
            (RIGHT, "Vencimento", &date(s.due_date), Strong),
        ],
    )?;
    y += ROW_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (
                SPLIT,
                "Endereço do Beneficiário",
                &s.beneficiary_address,
                Plain,
            ),
            (
                RIGHT,
                "Agência / Código do Beneficiário",
                &s.agency_code,
                Right,
            ),
        ],
    )?;
    y += ROW_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (SPLIT, "Pagador", &payer, Plain),
            (RIGHT, "Nosso Número", &s.nosso_numero, Right),
        ],
    )?;
    y += ROW_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (LEFT + 45.0, "Nº do Documento", &s.document_number, Plain),
            (LEFT + 75.0, "Data do Documento", &date(s.issue_date), Plain),
            (
                LEFT + 105.0,
                "Data Processamento",
                &date(s.processing_date),
                Plain,
            ),
            (LEFT + 125.0, "Carteira", &s.wallet, Plain),
            (SPLIT, "Espécie", "R$", Plain),
            (RIGHT, "(=) Valor do Documento", &amount, Strong),
        ],
    )?;
    y += ROW_H;
    page.text(
        RIGHT,
        y + 3.0,
        CAPTION_PT,
        Weight::Regular,
        Align::Right,
        "Autenticação Mecânica",
    );
    if let Some(payload) = s.pix_copia_cola.as_deref() {
        pix_box(page, payload.trim())?;
    }
    Ok(())
}

/// The PIX box: QR code on the left; on its right 'Pague com Pix', how to
/// pay, and the copy-and-paste payload in small type.
fn pix_box(page: &mut Page, payload: &str) -> Result<(), PrintError> {
    let (qx, qy) = QR_AT;
    for (x, y, w, h) in qr_rects(payload, QR_SIZE)? {
        page.ops
            .push(Op::Fill { x: qx + x, y: qy + y, w, h, gray: 0.0 });
    }
    let text_x = qx + QR_SIZE + 3.0;
    let width = RIGHT - PAD - 1.0 - text_x;
    page.text(
        text_x,
        PIX_Y + 8.0,
        13.0,
        Weight::Bold,
        Align::Left,
        "Pague com Pix",
    );
    let mut y = PIX_Y + 13.5;
    let how = "Aponte a câmera do celular para o QR Code no app do seu banco, ou copie o \
               código abaixo e cole-o na opção Pix Copia e Cola.";
    for line in pdf::wrap(how, Weight::Regular, 8.0, width)? {
        page.text(text_x, y, 8.0, Weight::Regular, Align::Left, line);
        y += 3.6;
    }
    y += 1.8;
    page.text(
        text_x,
        y,
        7.0,
        Weight::Bold,
        Align::Left,
        "Pix Copia e Cola",
    );
    y += 3.4;
    // The box may grow down to the cut line; a payload longer than that
    // (beyond any real BR Code) is cut.
    let last_y = FICHA_Y - 14.0;
    let mut lines = hard_wrap(payload, Weight::Regular, 6.5, width)?;
    let room = ((last_y - y) / 3.0).floor().max(1.0) as usize;
    if lines.len() > room {
        lines.truncate(room);
        if let Some(last) = lines.last_mut() {
            last.pop();
            last.push('…');
        }
    }
    for line in lines {
        page.text(text_x, y, 6.5, Weight::Regular, Align::Left, line);
        y += 3.0;
    }
    let bottom = (qy + QR_SIZE + 2.0).max(y - 0.5);
    page.ops.push(Op::Frame {
        x: LEFT,
        y: PIX_Y,
        w: RIGHT - LEFT,
        h: bottom - PIX_Y,
        width_pt: THIN_PT,
    });
    Ok(())
}

/// The dashed cut line above the Ficha de Compensação.
fn cut_line(page: &mut Page) {
    let y = FICHA_Y - 5.0;
    page.text(
        RIGHT,
        y - 1.5,
        6.5,
        Weight::Regular,
        Align::Right,
        "Corte na linha pontilhada",
    );
    let mut x = LEFT;
    while x < RIGHT {
        page.line(x, y, (x + 1.6).min(RIGHT), y, 0.6);
        x += 2.8;
    }
}

/// The Ficha de Compensação: header with the linha digitável, the grid and
/// the barcode.
fn ficha(page: &mut Page, s: &BankSlip, bars: &[(f32, f32)]) -> Result<(), PrintError> {
    use Style::{Plain, Right, Strong};
    let amount = format_decimal(s.amount, 2);
    bank_header(page, s, FICHA_Y, s.linha_digitavel.trim(), 12.5)?;
    let mut y = FICHA_Y + HEADER_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (SPLIT, "Local de Pagamento", &s.place_of_payment, Plain),
            (RIGHT, "Vencimento", &date(s.due_date), Strong),
        ],
    )?;
    y += ROW_H;

    // Beneficiário: name and document, then the address.
    let h = FICHA_BENEFICIARY_H;
    row(
        page,
        y,
        h,
        &[
            (SPLIT, "Beneficiário", "", Plain),
            (
                RIGHT,
                "Agência / Código do Beneficiário",
                &s.agency_code,
                Right,
            ),
        ],
    )?;
    let width = SPLIT - LEFT - 2.0 * PAD;
    let beneficiary = party(&s.beneficiary_name, &s.beneficiary_document);
    page.text(
        LEFT + PAD,
        y + 6.2,
        8.5,
        Weight::Regular,
        Align::Left,
        pdf::fit(&beneficiary, Weight::Regular, 8.5, width)?,
    );
    page.text(
        LEFT + PAD,
        y + 9.8,
        SMALL_PT,
        Weight::Regular,
        Align::Left,
        pdf::fit(&s.beneficiary_address, Weight::Regular, SMALL_PT, width)?,
    );
    y += h;

    row(
        page,
        y,
        ROW_H,
        &[
            (LEFT + 30.0, "Data do Documento", &date(s.issue_date), Plain),
            (LEFT + 67.0, "Nº do Documento", &s.document_number, Plain),
            (LEFT + 87.0, "Espécie Doc.", &s.species_doc, Plain),
            (LEFT + 102.0, "Aceite", &s.accept, Plain),
            (SPLIT, "Data Processamento", &date(s.processing_date), Plain),
            (RIGHT, "Nosso Número", &s.nosso_numero, Right),
        ],
    )?;
    y += ROW_H;
    row(
        page,
        y,
        ROW_H,
        &[
            (LEFT + 30.0, "Uso do Banco", "", Plain),
            (LEFT + 52.0, "Carteira", &s.wallet, Plain),
            (LEFT + 67.0, "Espécie", "R$", Plain),
            (LEFT + 102.0, "Quantidade", "", Plain),
            (SPLIT, "Valor", "", Plain),
            (RIGHT, "(=) Valor do Documento", &amount, Strong),
        ],
    )?;
    y += ROW_H;

    // Instructions on the left, the three amount boxes on the right.
    let h = FICHA_INSTRUCTIONS_H;
    page.ops
        .push(Op::Frame { x: LEFT, y, w: SPLIT - LEFT, h, width_pt: THIN_PT });
    page.text(
        LEFT + PAD,
        y + 2.6,
        CAPTION_PT,
        Weight::Regular,
        Align::Left,
        "Instruções (texto de responsabilidade do beneficiário)",
    );
    let lines = instruction_lines(&s.instructions, MAX_INSTRUCTION_LINES, width)?;
    for (i, line) in lines.into_iter().enumerate() {
        page.text(
            LEFT + PAD,
            y + 6.6 + 3.6 * i as f32,
            SMALL_PT,
            Weight::Regular,
            Align::Left,
            line,
        );
    }
    let sub = h / 3.0;
    for (i, caption) in [
        "(-) Desconto / Abatimento",
        "(+) Mora / Multa",
        "(=) Valor Cobrado",
    ]
    .into_iter()
    .enumerate()
    {
        cell(
            page,
            (SPLIT, y + sub * i as f32, RIGHT - SPLIT, sub),
            caption,
            "",
            Right,
        )?;
    }
    y += h;

    // Pagador, with the Sacador/Avalista line at the bottom of its box.
    let h = FICHA_PAYER_H;
    page.ops
        .push(Op::Frame { x: LEFT, y, w: RIGHT - LEFT, h, width_pt: THIN_PT });
    page.text(
        LEFT + PAD,
        y + 2.6,
        CAPTION_PT,
        Weight::Regular,
        Align::Left,
        "Pagador",
    );
    let width = RIGHT - LEFT - 2.0 * PAD;
    let payer = party(&s.payer_name, &s.payer_document);
    page.text(
        LEFT + PAD,
        y + 6.2,
        8.5,
        Weight::Regular,
        Align::Left,
        pdf::fit(&payer, Weight::Regular, 8.5, width)?,
    );
    for (i, line) in [&s.payer_address, &s.payer_city].into_iter().enumerate() {
        page.text(
            LEFT + PAD,
            y + 9.8 + 3.4 * i as f32,
            SMALL_PT,
            Weight::Regular,
            Align::Left,
            pdf::fit(line.trim(), Weight::Regular, SMALL_PT, width)?,
        );
    }
    page.text(
        LEFT + PAD,
        y + h - 1.3,
        CAPTION_PT,
        Weight::Regular,
        Align::Left,
        "Sacador/Avalista",
    );
    y += h;

    page.text(
        RIGHT,
        y + 3.0,
        CAPTION_PT,
        Weight::Regular,
        Align::Right,
        "Autenticação Mecânica - Ficha de Compensação",
    );
    debug_assert!((y + BARCODE_GAP - BARCODE_Y).abs() < 0.01);
    for &(x, w) in bars {
        page.ops
            .push(Op::Fill { x: BARCODE_X + x, y: BARCODE_Y, w, h: ITF_HEIGHT_MM, gray: 0.0 });
    }
    Ok(())
}

fn slip_page(s: &BankSlip) -> Result<Page, PrintError> {
    let digits = s.barcode.trim();
    let bars = itf_bars(digits)?;
    if digits.len() != 44 {
        return Err(PrintError::Slip(format!(
            "barcode: a boleto's barcode has 44 digits, not {}",
            digits.len()
        )));
    }
    if s.amount.is_sign_negative() && !s.amount.is_zero() {
        return Err(PrintError::Slip(format!("negative amount {}", s.amount)));
    }
    let mut page = Page::new(pdf::A4);
    letterhead(&mut page, s)?;
    recibo(&mut page, s)?;
    cut_line(&mut page);
    ficha(&mut page, s, &bars)?;
    Ok(page)
}

/// Renders the slips as a PDF with one A4 portrait page per slip.
///
/// # Errors
/// [`PrintError::Slip`] for no slips, a barcode that is not 44 digits, a
/// negative amount or a PIX payload too long for a QR code;
/// [`PrintError::Image`] for a logo that is not a PNG or JPEG image;
/// [`PrintError::Pdf`] if the PDF cannot be written.
pub fn render(slips: &[BankSlip]) -> Result<Vec<u8>, PrintError> {
    if slips.is_empty() {
        return Err(PrintError::Slip("no bank slips to render".to_string()));
    }
    let pages = slips.iter().map(slip_page).collect::<Result<Vec<_>, _>>()?;
    let title = match slips {
        [one] => format!("Boleto {}", one.document_number.trim()),
        _ => format!("Boletos ({})", slips.len()),
    };
    pdf::render(pages, &title)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pdf::tests::{parse_pgm, poppler, sample_png};
    use std::str::FromStr;

    /// A real Banco do Brasil barcode (R$ 1,00, due 31/12/2007).
    const BB_BARCODE: &str = "00193373700000001000500940144816060680935031";
    const BB_LINHA: &str = "00190.50095 40144.816069 06809.350314 3 37370000000100";
    /// The Banco Central's example of a static PIX BR Code.
    const PIX: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    /// A Banco do Brasil slip (convênio of 7 digits, carteira 17) of
    /// R$ 1.234,56 due 10/12/2026, with PIX and a logo; its barcode, check
    /// digits and linha digitável are computed by the FEBRABAN rules.
    pub(crate) fn sample() -> BankSlip {
        BankSlip {
            bank_code: "001".to_string(),
            bank_code_dv: "9".to_string(),
            bank_name: "Banco do Brasil".to_string(),
            linha_digitavel: "00190.00009 01234.567004 00012.345179 8 16560000123456".to_string(),
            barcode: "00198165600001234560000001234567000001234517".to_string(),
            place_of_payment: "Pagável em qualquer banco até o vencimento".to_string(),
            beneficiary_name: "Comércio de Alimentos São João Ltda".to_string(),
            beneficiary_document: "12.345.678/0001-95".to_string(),
            beneficiary_address: "Rua Sinimbu, 1.234 – Centro – Caxias do Sul/RS – CEP 95020-002"
                .to_string(),
            agency_code: "1234-5 / 123456-7".to_string(),
            nosso_numero: "12345670000012345".to_string(),
            document_number: "NF 2026/000123-1".to_string(),
            species_doc: "DM".to_string(),
            accept: "N".to_string(),
            wallet: "17".to_string(),
            issue_date: day(2026, 11, 24),
            processing_date: day(2026, 11, 24),
            due_date: day(2026, 12, 10),
            amount: Decimal::from_str("1234.56").unwrap(),
            payer_name: "José Antônio Gonçalves".to_string(),
            payer_document: "123.456.789-09".to_string(),
            payer_address: "Avenida Júlio de Castilhos, 2.500, apto 301 – São Pelegrino"
                .to_string(),
            payer_city: "CEP 95010-005 Caxias do Sul - RS".to_string(),
            instructions: vec![
                "Após o vencimento, juros de mora de R$ 0,41 ao dia (1% ao mês).".to_string(),
                "Após o vencimento, multa de 2% (R$ 24,69).".to_string(),
                "Sujeito a protesto 10 dias corridos após o vencimento.".to_string(),
                "Não receber após 60 dias do vencimento.".to_string(),
                "Referente à NF-e 123, série 1, de 24/11/2026 – dúvidas: (54) 3222-1234."
                    .to_string(),
            ],
            pix_copia_cola: Some(PIX.to_string()),
            logo: Some(sample_png(80)),
        }
    }

    /// A second slip: the real Banco do Brasil barcode, without PIX or logo.
    fn plain() -> BankSlip {
        BankSlip {
            linha_digitavel: BB_LINHA.to_string(),
            barcode: BB_BARCODE.to_string(),
            due_date: day(2007, 12, 31),
            amount: Decimal::ONE,
            document_number: "4711".to_string(),
            pix_copia_cola: None,
            logo: None,
            instructions: vec!["Não receber após o vencimento.".to_string()],
            ..sample()
        }
    }

    /// Reads Interleaved 2 of 5 from alternating runs (bar, space, bar, …)
    /// of any unit: an element is wide when it is more than twice the
    /// narrowest one; a digit's five elements carry the weights 1, 2, 4, 7
    /// and 0, two of them wide, and 4 + 7 = 11 stands for 0.
    fn decode_itf(runs: &[(bool, f32)]) -> Result<String, String> {
        for (i, &(bar, _)) in runs.iter().enumerate() {
            if bar != (i % 2 == 0) {
                return Err(format!("run {i} is not alternating"));
            }
        }
        let narrow = runs.iter().map(|r| r.1).fold(f32::INFINITY, f32::min);
        let wide: Vec<bool> = runs.iter().map(|r| r.1 > 2.0 * narrow).collect();
        if wide.len() < 7 || wide[..4] != [false; 4] {
            return Err("no start pattern".to_string());
        }
        let stop = &wide[wide.len() - 3..];
        if stop != [true, false, false] {
            return Err(format!("no stop pattern: {stop:?}"));
        }
        let body = &wide[4..wide.len() - 3];
        if !body.len().is_multiple_of(10) {
            return Err(format!("{} elements between start and stop", body.len()));
        }
        let digit = |flags: Vec<bool>| -> Result<char, String> {
            let weights = [1, 2, 4, 7, 0];
            if flags.iter().filter(|&&w| w).count() != 2 {
                return Err(format!("not two wide elements: {flags:?}"));
            }
            let sum: u32 = flags
                .iter()
                .zip(weights)
                .filter(|(w, _)| **w)
                .map(|(_, v)| v)
                .sum();
            let value = if sum == 11 { 0 } else { sum };
            char::from_digit(value, 10).ok_or(format!("weight sum {sum}"))
        };
        let mut out = String::new();
        for group in body.chunks(10) {
            out.push(digit(group.iter().step_by(2).copied().collect())?);
            out.push(digit(group.iter().skip(1).step_by(2).copied().collect())?);
        }
        Ok(out)
    }

    /// The bars (x, width) as alternating runs, spaces being the gaps.
    fn runs_of(bars: &[(f32, f32)]) -> Vec<(bool, f32)> {
        let mut runs = Vec::new();
        let mut end = bars[0].0;
        for &(x, w) in bars {
            if x > end + 1e-4 {
                runs.push((false, x - end));
            }
            runs.push((true, w));
            end = x + w;
        }
        runs
    }

    #[test]
    fn itf_bars_decode_back_to_the_barcode() {
        for code in [BB_BARCODE, sample().barcode.as_str(), "0123456789"] {
            let bars = itf_bars(code).unwrap();
            // 2 start bars, 5 per pair of digits, 2 stop bars.
            assert_eq!(bars.len(), 2 + code.len() / 2 * 5 + 2, "{code}");
            assert_eq!(bars[0], (0.0, ITF_NARROW_MM));
            for &(_, w) in &bars {
                assert!(
                    (w - ITF_NARROW_MM).abs() < 1e-5 || (w - ITF_WIDE_MM).abs() < 1e-5,
                    "bar of {w} mm"
                );
            }
            assert!(
                bars.windows(2).all(|p| p[1].0 > p[0].0 + p[0].1),
                "bars overlap"
            );
            assert_eq!(decode_itf(&runs_of(&bars)).as_deref(), Ok(code));
        }
        let bars = itf_bars(BB_BARCODE).unwrap();
        let (x, w) = bars[bars.len() - 1];
        let total = x + w;
        // 405 narrow units: 4 (start) + 22 pairs × 18 + 5 (stop).
        assert!((total - 405.0 * 0.254).abs() < 0.001, "{total} mm");
        assert!((total - 103.0).abs() < 0.5, "{total} mm");
        // The stop pattern: wide bar, narrow space, narrow bar.
        let (wide_x, wide_w) = bars[bars.len() - 2];
        assert!((wide_w - 0.762).abs() < 1e-5);
        assert!((x - (wide_x + wide_w + 0.254)).abs() < 1e-4);
    }

    #[test]
    fn itf_bars_reject_odd_lengths_and_non_digits() {
        for bad in ["", "123", &BB_BARCODE[1..], "12a4", "12 4", "١٢"] {
            assert!(
                matches!(itf_bars(bad), Err(PrintError::Slip(_))),
                "{bad:?} was accepted"
            );
        }
    }

    /// Paints `rects` (mm) at `px_per_mm` on a white square `size_mm` wide.
    fn rasterise(rects: &[(f32, f32, f32, f32)], size_mm: f32, px_per_mm: f32) -> Vec<Vec<u8>> {
        let n = (size_mm * px_per_mm).round() as usize;
        let mut img = vec![vec![255u8; n]; n];
        for &(x, y, w, h) in rects {
            let span = |a: f32, len: f32| {
                ((a * px_per_mm).round() as usize)..(((a + len) * px_per_mm).round() as usize)
            };
            for row in span(y, h) {
                for col in span(x, w) {
                    img[row][col] = 0;
                }
            }
        }
        img
    }

    fn read_qr(img: &[Vec<u8>]) -> Vec<String> {
        let mut prepared =
            rqrr::PreparedImage::prepare_from_greyscale(img[0].len(), img.len(), |x, y| img[y][x]);
        prepared
            .detect_grids()
            .into_iter()
            .map(|g| {
                g.decode()
                    .map(|(_, text)| text)
                    .unwrap_or_else(|e| format!("{e:?}"))
            })
            .collect()
    }

    #[test]
    fn qr_rects_read_back_as_the_pix_payload() {
        let rects = qr_rects(PIX, QR_SIZE).unwrap();
        let module = rects[0].3;
        // Every dark area is whole modules inside the 4-module quiet zone.
        let quiet = QR_QUIET_MODULES as f32 * module;
        for &(x, y, w, h) in &rects {
            assert!((h - module).abs() < 1e-5);
            let modules = w / module;
            assert!((modules - modules.round()).abs() < 1e-3, "{w} mm");
            assert!(
                x >= quiet - 1e-4 && y >= quiet - 1e-4,
                "({x}, {y}) in the quiet zone"
            );
            assert!(x + w <= QR_SIZE - quiet + 1e-3 && y + h <= QR_SIZE - quiet + 1e-3);
        }
        // 30–35 mm with a module of at least 0.5 mm: easy for phone cameras.
        assert!(module >= 0.5, "module of {module} mm");
        assert_eq!(
            read_qr(&rasterise(&rects, QR_SIZE, 8.0)),
            vec![PIX.to_string()]
        );
        // A longer (dynamic) payload still fits and reads back.
        let dynamic = format!("{}qrpix.bb.com.br/pix/v2/{}", &PIX[..40], "ab12".repeat(20));
        let rects = qr_rects(&dynamic, QR_SIZE).unwrap();
        assert_eq!(read_qr(&rasterise(&rects, QR_SIZE, 10.0)), vec![dynamic]);
        assert!(matches!(
            qr_rects(&"9".repeat(8000), QR_SIZE),
            Err(PrintError::Slip(_))
        ));
    }

    fn text_of(pdf: &[u8]) -> String {
        let text = String::from_utf8(poppler("pdftotext", &["-", "-"], pdf)).unwrap();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn page_count(pdf: &[u8]) -> Option<String> {
        let info = String::from_utf8(poppler("pdfinfo", &["-"], pdf)).unwrap();
        info.lines()
            .find_map(|l| l.strip_prefix("Pages:"))
            .map(|p| p.trim().to_string())
    }

    #[test]
    fn two_slips_make_two_pages_with_the_boleto_texts() {
        let pdf = render(&[sample(), plain()]).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        assert_eq!(page_count(&pdf).as_deref(), Some("2"));
        let flat = text_of(&pdf);
        for needle in [
            sample().linha_digitavel.as_str(),
            BB_LINHA,
            "Ficha de Compensação",
            "Recibo do Pagador",
            "Corte na linha pontilhada",
            "Banco do Brasil",
            "001-9",
            "Local de Pagamento",
            "Pagável em qualquer banco até o vencimento",
            "Vencimento",
            "10/12/2026",
            "31/12/2007",
            "24/11/2026",
            "Agência / Código do Beneficiário",
            "1234-5 / 123456-7",
            "Data do Documento",
            "Nº do Documento",
            "NF 2026/000123-1",
            "Espécie Doc.",
            "Aceite",
            "Data Processamento",
            "Nosso Número",
            "12345670000012345",
            "Uso do Banco",
            "Carteira",
            "Espécie",
            "Quantidade",
            "Valor",
            "(=) Valor do Documento",
            "1.234,56",
            "1,00",
            "Instruções (texto de responsabilidade do beneficiário)",
            "multa de 2% (R$ 24,69)",
            "(-) Desconto / Abatimento",
            "(+) Mora / Multa",
            "(=) Valor Cobrado",
            "Pagador",
            "José Antônio Gonçalves — CPF 123.456.789-09",
            "CEP 95010-005 Caxias do Sul - RS",
            "Sacador/Avalista",
            "Comércio de Alimentos São João Ltda — CNPJ 12.345.678/0001-95",
            "Autenticação Mecânica - Ficha de Compensação",
            "Pague com Pix",
            "Pix Copia e Cola",
        ] {
            assert!(flat.contains(needle), "{needle:?} missing from {flat}");
        }
        // The PIX payload is printed whole (wrapped between characters), once:
        // the second slip has none.
        let squeezed: String = flat.split_whitespace().collect();
        let payload: String = PIX.split_whitespace().collect();
        assert_eq!(squeezed.matches(&payload).count(), 1, "{flat}");
        assert_eq!(flat.matches("Pague com Pix").count(), 1);
        assert_eq!(flat.matches("Ficha de Compensação").count(), 2);
    }

    /// The page as a printer or a scanner sees it: pdftoppm rasterises the
    /// first page and the barcode and the QR code are read back from the
    /// pixels, at their places and sizes.
    #[test]
    fn rendered_barcode_and_qr_code_read_back() {
        let slip = sample();
        let pdf = render(std::slice::from_ref(&slip)).unwrap();
        let crop = |dpi: f32, (x, y, w, h): (f32, f32, f32, f32)| {
            let px = |mm: f32| ((mm * dpi / 25.4).round() as usize).to_string();
            let (x, y, w, h) = (px(x), px(y), px(w), px(h));
            let args = [
                "-gray",
                "-f",
                "1",
                "-l",
                "1",
                "-r",
                &dpi.to_string(),
                "-x",
                &x,
                "-y",
                &y,
                "-W",
                &w,
                "-H",
                &h,
                "-",
            ];
            parse_pgm(&poppler("pdftoppm", &args, &pdf))
        };
        // A scan line through the middle of the bars, from the page's left edge.
        let (w, _, row) = crop(600.0, (0.0, BARCODE_Y + ITF_HEIGHT_MM / 2.0, 140.0, 0.1));
        let dark: Vec<bool> = row[..w].iter().map(|&v| v < 128).collect();
        let first = dark.iter().position(|&d| d).unwrap();
        let last = dark.iter().rposition(|&d| d).unwrap();
        let mm = |px: usize| px as f32 * 25.4 / 600.0;
        assert!(
            (mm(first) - BARCODE_X).abs() < 0.1,
            "first bar at {} mm",
            mm(first)
        );
        assert!(mm(first) >= 5.0, "quiet zone of {} mm", mm(first));
        let width = mm(last + 1 - first);
        assert!((width - 102.87).abs() < 0.1, "barcode {width} mm wide");
        let mut runs: Vec<(bool, f32)> = Vec::new();
        for &d in &dark[first..=last] {
            match runs.last_mut() {
                Some((bar, n)) if *bar == d => *n += 1.0,
                _ => runs.push((d, 1.0)),
            }
        }
        assert_eq!(decode_itf(&runs).as_deref(), Ok(slip.barcode.as_str()));
        // Narrow elements are 6 px at 600 dpi (0.254 mm), wide ones 18 px.
        for &(_, n) in &runs {
            assert!(
                (n - 6.0).abs() <= 1.0 || (n - 18.0).abs() <= 1.0,
                "run of {n} px"
            );
        }
        // Nothing else on the barcode's line up to the right quiet zone.
        assert!(mm(last) < 125.0);

        // The QR code, with 1 mm of its surroundings.
        let (qx, qy) = QR_AT;
        let (w, h, px) = crop(300.0, (qx - 1.0, qy - 1.0, QR_SIZE + 2.0, QR_SIZE + 2.0));
        let img: Vec<Vec<u8>> = px.chunks(w).take(h).map(<[u8]>::to_vec).collect();
        assert_eq!(read_qr(&img), vec![PIX.to_string()]);
    }

    #[test]
    fn refuses_what_cannot_be_a_boleto() {
        assert!(matches!(render(&[]), Err(PrintError::Slip(_))));
        let mut s = sample();
        s.barcode = BB_BARCODE[..42].to_string();
        assert!(matches!(render(&[s]), Err(PrintError::Slip(m)) if m.contains("44")));
        let mut s = sample();
        s.barcode.replace_range(10..11, "x");
        assert!(matches!(render(&[s]), Err(PrintError::Slip(_))));
        let mut s = sample();
        s.amount = Decimal::from_str("-0.01").unwrap();
        assert!(matches!(render(&[s]), Err(PrintError::Slip(m)) if m.contains("negative")));
        let mut s = sample();
        s.logo = Some(b"GIF89a".to_vec());
        assert!(matches!(render(&[s]), Err(PrintError::Image(_))));
        // Zero is a valid amount (a slip whose value is set at payment).
        let mut s = sample();
        s.amount = Decimal::ZERO;
        assert!(render(&[s]).is_ok());
    }

    #[test]
    fn long_texts_are_cut_to_their_boxes() {
        let width = SPLIT - LEFT - 2.0 * PAD;
        let many: Vec<String> = (1..=9)
            .map(|i| format!("Instrução número {i} com um texto bem comprido que ocupa quase a linha inteira do campo de instruções do boleto"))
            .collect();
        let lines = instruction_lines(&many, MAX_INSTRUCTION_LINES, width).unwrap();
        assert_eq!(lines.len(), MAX_INSTRUCTION_LINES);
        assert!(lines[5].ends_with(" …"), "{}", lines[5]);
        for l in &lines {
            assert!(
                pdf::text_width(l, Weight::Regular, SMALL_PT).unwrap() <= width,
                "{l}"
            );
        }
        let few = instruction_lines(&sample().instructions, 6, width).unwrap();
        assert_eq!(few.len(), 5);
        assert!(!few.iter().any(|l| l.contains('…')));
        // The PIX payload keeps every character, spaces included.
        let lines = hard_wrap(PIX, Weight::Regular, 6.5, 40.0).unwrap();
        assert!(lines.len() > 2);
        assert_eq!(lines.concat(), PIX);
        for l in &lines {
            assert!(
                pdf::text_width(l, Weight::Regular, 6.5).unwrap() <= 40.0,
                "{l}"
            );
        }
        // A name too long for its box is cut, and the slip still renders.
        let mut s = sample();
        s.beneficiary_name = "Comércio ".repeat(30);
        s.payer_name = "Gonçalves ".repeat(30);
        s.instructions = many;
        let flat = text_of(&render(&[s]).unwrap());
        assert!(flat.contains("Comércio Comércio"), "{flat}");
        assert!(flat.contains('…'), "{flat}");
    }
}
