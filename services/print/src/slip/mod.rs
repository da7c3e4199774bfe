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
//!
//! Layout: `codes` (the barcode's bars and the QR code's modules, pure
//! geometry), this module (the model and the page).

mod codes;
#[cfg(test)]
pub(crate) mod tests;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::pdf::{self, Align, Op, Page, Picture, Weight};
use crate::receipt::document_label;
use crate::table::format_decimal;
use crate::PrintError;
pub use codes::{itf_bars, qr_rects, ITF_HEIGHT_MM, ITF_NARROW_MM, ITF_WIDE_MM, QR_QUIET_MODULES};

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
