//! A sales document as the customer receives it (a quote, a billing order): the
//! company on top with the document's title ('Orçamento nº 12') and date, the
//! customer, the product lines and the service lines as tables (code,
//! description, unit, quantity, unit price, discount when a line has one,
//! total), the totals box ('R$ 1.234,56') and the notes. Long descriptions wrap
//! inside their column; a document longer than a page goes on to the next ones,
//! each with the title and the table's column header again, and 'Pág: n de N'.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::pdf::{self, Align, Op, Page, Weight};
use crate::receipt::document_label;
use crate::table::format_decimal;
use crate::PrintError;

const MARGIN: f32 = 10.0;
const BODY_PT: f32 = 8.5;
const LEADING: f32 = 3.8;
const PAD: f32 = 1.2;
const HEAD_H: f32 = 6.0;
/// Lowest baseline of the body; the footer goes below it.
const BOTTOM: f32 = 297.0 - MARGIN - 8.0;
const TOTALS_W: f32 = 80.0;

/// A quote or an order, ready to be drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct SaleDocument {
    /// 'Orçamento nº 12', 'Pedido nº 7/1'.
    pub title: String,
    pub company_name: String,
    /// The company's CNPJ (or CPF), formatted; empty: not printed.
    pub company_document: String,
    /// 'Caxias do Sul/RS'; empty: not printed.
    pub company_place: String,
    /// Shown as 'Emissão: dd/MM/yyyy'.
    pub date: NaiveDate,
    pub customer_name: String,
    /// The customer's CPF or CNPJ, formatted; empty: not printed.
    pub customer_document: String,
    /// 'Porto Alegre/RS'; empty: not printed.
    pub customer_place: String,
    pub products: Vec<SaleLine>,
    pub services: Vec<SaleLine>,
    /// The partial totals in the order shown ('Produtos', 'Serviços',
    /// 'Descontos'…); the grand total closes the box.
    pub subtotals: Vec<(String, Decimal)>,
    pub total: Decimal,
    /// Free text under the totals; empty: not printed.
    pub notes: String,
}

/// One product or service line.
#[derive(Debug, Clone, PartialEq)]
pub struct SaleLine {
    pub code: String,
    pub description: String,
    /// 'UN', 'L'; empty for services.
    pub unit: String,
    pub quantity: Decimal,
    pub unit_price: Decimal,
    pub discount: Decimal,
    pub total: Decimal,
}

/// `R$ 1.234,56`.
fn brl(d: Decimal) -> String {
    let text = format_decimal(d, 2);
    match text.strip_prefix('-') {
        Some(abs) => format!("-R$ {abs}"),
        None => format!("R$ {text}"),
    }
}

/// A quantity or a unit price with the places it needs (at least `min`, at most
/// four): 2 → '2', 1,5 → '1,5'; prices '35,90', '1,333'.
fn places(d: Decimal, min: u32) -> String {
    let scale = d.normalize().scale().clamp(min, 4);
    format_decimal(d, scale)
}

struct Col {
    header: &'static str,
    width: f32,
    align: Align,
}

/// The columns of a table of lines: the discount only when a line has one, its
/// width then given to the description.
fn columns(lines: &[SaleLine], units: bool) -> Vec<Col> {
    let discount = lines.iter().any(|l| !l.discount.is_zero());
    let mut description = 190.0 - 18.0 - 20.0 - 24.0 - 26.0;
    if units {
        description -= 10.0;
    }
    if discount {
        description -= 22.0;
    }
    let mut cols = vec![
        Col { header: "Código", width: 18.0, align: Align::Left },
        Col { header: "Descrição", width: description, align: Align::Left },
    ];
    if units {
        cols.push(Col { header: "Un.", width: 10.0, align: Align::Center });
    }
    cols.push(Col { header: "Qtde", width: 20.0, align: Align::Right });
    cols.push(Col { header: "Unitário R$", width: 24.0, align: Align::Right });
    if discount {
        cols.push(Col { header: "Desconto R$", width: 22.0, align: Align::Right });
    }
    cols.push(Col { header: "Total R$", width: 26.0, align: Align::Right });
    cols
}

/// The cells of a line for `columns(…, units)`.
fn cells(l: &SaleLine, units: bool, discount: bool) -> Vec<String> {
    let mut out = vec![l.code.clone(), l.description.clone()];
    if units {
        out.push(l.unit.clone());
    }
    out.push(places(l.quantity, 0));
    out.push(places(l.unit_price, 2));
    if discount {
        out.push(if l.discount.is_zero() {
            String::new()
        } else {
            format_decimal(l.discount, 2)
        });
    }
    out.push(format_decimal(l.total, 2));
    out
}

/// Lays the document out page by page.
struct Writer<'a> {
    doc: &'a SaleDocument,
    pages: Vec<Page>,
    y: f32,
}

impl Writer<'_> {
    fn page(&mut self) -> &mut Page {
        self.pages.last_mut().expect("a page")
    }

    /// The first page's header: company left, title and date right.
    fn first_header(&mut self) -> Result<(), PrintError> {
        let d = self.doc;
        let right = 210.0 - MARGIN;
        let title_w = pdf::text_width(&d.title, Weight::Bold, 15.0)?.min(90.0);
        let company_w = 190.0 - title_w - 6.0;
        let page = self.page();
        page.text(
            MARGIN,
            MARGIN + 5.0,
            12.0,
            Weight::Bold,
            Align::Left,
            pdf::fit(&d.company_name, Weight::Bold, 12.0, company_w)?,
        );
        let mut y = MARGIN + 5.0;
        let document = labelled(&d.company_document);
        for line in [document.as_deref().unwrap_or(""), d.company_place.trim()] {
            if !line.is_empty() {
                y += 4.6;
                page.text(
                    MARGIN,
                    y,
                    9.0,
                    Weight::Regular,
                    Align::Left,
                    pdf::fit(line, Weight::Regular, 9.0, company_w)?,
                );
            }
        }
        page.text(
            right,
            MARGIN + 5.5,
            15.0,
            Weight::Bold,
            Align::Right,
            pdf::fit(&d.title, Weight::Bold, 15.0, 90.0)?,
        );
        page.text(
            right,
            MARGIN + 11.0,
            9.0,
            Weight::Regular,
            Align::Right,
            format!("Emissão: {}", d.date.format("%d/%m/%Y")),
        );
        let rule = y.max(MARGIN + 11.0) + 3.5;
        page.line(MARGIN, rule, right, rule, 0.8);
        self.y = rule + 6.0;
        Ok(())
    }

    /// A following page's header: the title and the company, in one line.
    fn next_header(&mut self) -> Result<(), PrintError> {
        let d = self.doc;
        let right = 210.0 - MARGIN;
        self.pages.push(Page::new(pdf::A4));
        let page = self.page();
        page.text(
            MARGIN,
            MARGIN + 4.0,
            10.0,
            Weight::Bold,
            Align::Left,
            d.title.clone(),
        );
        page.text(
            right,
            MARGIN + 4.0,
            9.0,
            Weight::Regular,
            Align::Right,
            pdf::fit(&d.company_name, Weight::Regular, 9.0, 110.0)?,
        );
        page.line(MARGIN, MARGIN + 6.5, right, MARGIN + 6.5, 0.6);
        self.y = MARGIN + 12.0;
        Ok(())
    }

    /// Room for `h` mm more on this page, else a new page.
    fn room(&mut self, h: f32) -> Result<bool, PrintError> {
        if self.y + h > BOTTOM {
            self.next_header()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn customer(&mut self) -> Result<(), PrintError> {
        let d = self.doc;
        let mut details = Vec::new();
        if let Some(doc) = labelled(&d.customer_document) {
            details.push(doc);
        }
        if !d.customer_place.trim().is_empty() {
            details.push(d.customer_place.trim().to_string());
        }
        let h = if details.is_empty() { 11.0 } else { 15.5 };
        let top = self.y - 4.0;
        let page = self.page();
        page.ops
            .push(Op::Frame { x: MARGIN, y: top, w: 190.0, h, width_pt: 0.6 });
        page.text(
            MARGIN + 2.5,
            top + 4.0,
            7.5,
            Weight::Bold,
            Align::Left,
            "CLIENTE",
        );
        page.text(
            MARGIN + 2.5,
            top + 8.5,
            10.0,
            Weight::Bold,
            Align::Left,
            pdf::fit(&d.customer_name, Weight::Bold, 10.0, 185.0)?,
        );
        if !details.is_empty() {
            let line = details.join("   ·   ");
            page.text(
                MARGIN + 2.5,
                top + 13.0,
                9.0,
                Weight::Regular,
                Align::Left,
                pdf::fit(&line, Weight::Regular, 9.0, 185.0)?,
            );
        }
        self.y = top + h + 8.0;
        Ok(())
    }

    fn column_header(&mut self, title: &str, cols: &[Col]) -> Result<(), PrintError> {
        let y = self.y;
        let page = self.page();
        page.text(
            MARGIN,
            y,
            10.0,
            Weight::Bold,
            Align::Left,
            title.to_string(),
        );
        let top = y + 2.0;
        page.ops
            .push(Op::Fill { x: MARGIN, y: top, w: 190.0, h: HEAD_H, gray: 0.85 });
        let mut x = MARGIN;
        for c in cols {
            let text = pdf::fit(c.header, Weight::Bold, BODY_PT, c.width - 2.0 * PAD)?;
            page.text(
                anchor(x, c),
                top + 4.2,
                BODY_PT,
                Weight::Bold,
                c.align,
                text,
            );
            x += c.width;
        }
        self.y = top + HEAD_H;
        Ok(())
    }

    /// One table ('Produtos', 'Serviços'), its rows shaded in turn.
    fn table(&mut self, title: &str, lines: &[SaleLine], units: bool) -> Result<(), PrintError> {
        let cols = columns(lines, units);
        let discount = cols.iter().any(|c| c.header.starts_with("Desconto"));
        // The title, the column header and a first row stay together.
        self.room(2.0 + HEAD_H + LEADING + 2.0)?;
        self.column_header(title, &cols)?;
        for (n, line) in lines.iter().enumerate() {
            let texts = cells(line, units, discount);
            let wrapped = pdf::wrap(
                &texts[1],
                Weight::Regular,
                BODY_PT,
                cols[1].width - 2.0 * PAD,
            )?;
            let h = LEADING * wrapped.len().max(1) as f32 + 1.4;
            if self.room(h)? {
                self.column_header(&format!("{title} (continuação)"), &cols)?;
            }
            let top = self.y;
            let page = self.page();
            if n % 2 == 1 {
                page.ops
                    .push(Op::Fill { x: MARGIN, y: top, w: 190.0, h, gray: 0.95 });
            }
            let mut x = MARGIN;
            for (i, (c, text)) in cols.iter().zip(&texts).enumerate() {
                if i == 1 {
                    for (k, part) in wrapped.iter().enumerate() {
                        let y = top + 3.6 + LEADING * k as f32;
                        page.text(
                            x + PAD,
                            y,
                            BODY_PT,
                            Weight::Regular,
                            Align::Left,
                            part.clone(),
                        );
                    }
                } else if !text.is_empty() {
                    let text = pdf::fit(text, Weight::Regular, BODY_PT, c.width - 2.0 * PAD)?;
                    page.text(
                        anchor(x, c),
                        top + 3.6,
                        BODY_PT,
                        Weight::Regular,
                        c.align,
                        text,
                    );
                }
                x += c.width;
            }
            self.y = top + h;
        }
        let y = self.y;
        self.page().line(MARGIN, y, 210.0 - MARGIN, y, 0.6);
        self.y += 9.0;
        Ok(())
    }

    /// The totals box at the right, the grand total last and shaded.
    fn totals(&mut self) -> Result<(), PrintError> {
        let d = self.doc;
        let row = 5.6;
        let h = row * (d.subtotals.len() as f32 + 1.0) + 3.0;
        self.room(h)?;
        let (x, top) = (210.0 - MARGIN - TOTALS_W, self.y - 4.0);
        let right = 210.0 - MARGIN - 3.0;
        let page = self.page();
        page.ops
            .push(Op::Frame { x, y: top, w: TOTALS_W, h, width_pt: 0.6 });
        let mut y = top + 5.0;
        for (label, value) in &d.subtotals {
            page.text(x + 3.0, y, 9.0, Weight::Regular, Align::Left, label.clone());
            page.text(right, y, 9.0, Weight::Regular, Align::Right, brl(*value));
            y += row;
        }
        let fill_top = y - 4.2;
        page.ops
            .push(Op::Fill { x, y: fill_top, w: TOTALS_W, h: top + h - fill_top, gray: 0.88 });
        page.line(x, fill_top, x + TOTALS_W, fill_top, 0.6);
        page.text(x + 3.0, y + 0.6, 11.0, Weight::Bold, Align::Left, "Total");
        page.text(
            right,
            y + 0.6,
            11.0,
            Weight::Bold,
            Align::Right,
            brl(d.total),
        );
        self.y = top + h + 10.0;
        Ok(())
    }

    fn notes(&mut self) -> Result<(), PrintError> {
        let notes = self.doc.notes.trim();
        if notes.is_empty() {
            return Ok(());
        }
        let mut lines = Vec::new();
        for paragraph in notes.lines() {
            lines.extend(pdf::wrap(paragraph, Weight::Regular, 9.0, 190.0)?);
        }
        self.room(4.5 + LEADING + 1.0)?;
        let y = self.y;
        self.page()
            .text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "Observações");
        self.y += 5.0;
        for line in lines {
            self.room(LEADING + 0.4)?;
            let y = self.y;
            self.page()
                .text(MARGIN, y, 9.0, Weight::Regular, Align::Left, line);
            self.y += LEADING + 0.4;
        }
        Ok(())
    }
}

/// Where the text of column `c` starting at `x` is anchored.
fn anchor(x: f32, c: &Col) -> f32 {
    match c.align {
        Align::Left => x + PAD,
        Align::Center => x + c.width / 2.0,
        Align::Right => x + c.width - PAD,
    }
}

/// 'CNPJ 12.345.678/0001-95' (or 'CPF …'), none for an empty document.
fn labelled(document: &str) -> Option<String> {
    let d = document.trim();
    (!d.is_empty()).then(|| format!("{} {d}", document_label(d)))
}

/// Renders the document as an A4 PDF (see the module documentation).
///
/// # Errors
/// [`PrintError::Pdf`] if the PDF cannot be written.
pub fn render(doc: &SaleDocument) -> Result<Vec<u8>, PrintError> {
    let mut w = Writer { doc, pages: vec![Page::new(pdf::A4)], y: 0.0 };
    w.first_header()?;
    w.customer()?;
    if !doc.products.is_empty() {
        w.table("Produtos", &doc.products, true)?;
    }
    if !doc.services.is_empty() {
        w.table("Serviços", &doc.services, false)?;
    }
    w.totals()?;
    w.notes()?;
    let total = w.pages.len();
    for (n, page) in w.pages.iter_mut().enumerate() {
        let y = 297.0 - MARGIN;
        page.line(MARGIN, y - 4.0, 210.0 - MARGIN, y - 4.0, 0.4);
        page.text(
            MARGIN,
            y,
            7.0,
            Weight::Regular,
            Align::Left,
            pdf::fit(
                &format!("{} — {}", doc.company_name, doc.title),
                Weight::Regular,
                7.0,
                150.0,
            )?,
        );
        page.text(
            210.0 - MARGIN,
            y,
            8.0,
            Weight::Regular,
            Align::Right,
            format!("Pág: {} de {total}", n + 1),
        );
    }
    pdf::render(w.pages, &doc.title)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pdf::tests::poppler;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn line(code: &str, description: &str, q: &str, u: &str, disc: &str, unit: &str) -> SaleLine {
        let total = (dec(q) * dec(u) - dec(disc)).round_dp(2);
        SaleLine {
            code: code.into(),
            description: description.into(),
            unit: unit.into(),
            quantity: dec(q),
            unit_price: dec(u),
            discount: dec(disc),
            total,
        }
    }

    pub(crate) fn sample(products: usize) -> SaleDocument {
        let mut lines = vec![
            line("1", "Filtro de óleo", "2", "35.90", "0", "UN"),
            line(
                "3",
                "Pastilha de freio dianteira cerâmica para veículos leves – jogo com quatro peças e sensor de desgaste",
                "1",
                "1180",
                "30",
                "JG",
            ),
        ];
        for i in 0..products.saturating_sub(2) {
            lines.push(line(
                &format!("{}", 100 + i),
                "Óleo 5W30 sintético",
                "1.5",
                "42.50",
                "0",
                "L",
            ));
        }
        SaleDocument {
            title: "Orçamento nº 12".into(),
            company_name: "Auto Center São João Ltda".into(),
            company_document: "12.345.678/0001-95".into(),
            company_place: "Caxias do Sul/RS".into(),
            date: NaiveDate::from_ymd_opt(2026, 11, 22).unwrap(),
            customer_name: "Oficina do Zé Ltda".into(),
            customer_document: "123.456.789-09".into(),
            customer_place: "Porto Alegre/RS".into(),
            services: vec![line("1", "Troca de óleo", "1", "80", "0", "")],
            subtotals: vec![
                (
                    "Produtos".into(),
                    lines.iter().map(|l| l.total + l.discount).sum(),
                ),
                ("Serviços".into(), dec("80")),
                ("Descontos".into(), dec("30")),
            ],
            total: lines.iter().map(|l| l.total).sum::<Decimal>() + dec("80"),
            products: lines,
            notes: "Validade de 10 dias.\nPeças sob encomenda.".into(),
        }
    }

    fn text_of(pdf: &[u8]) -> String {
        String::from_utf8(poppler("pdftotext", &["-layout", "-", "-"], pdf)).unwrap()
    }

    #[test]
    fn holds_company_customer_lines_and_totals() {
        let pdf = render(&sample(2)).unwrap();
        let text = text_of(&pdf);
        for want in [
            "Auto Center São João Ltda",
            "CNPJ 12.345.678/0001-95",
            "Caxias do Sul/RS",
            "Orçamento nº 12",
            "Emissão: 22/11/2026",
            "Oficina do Zé Ltda",
            "CPF 123.456.789-09",
            "Filtro de óleo",
            "71,80",
            "1.180,00",
            "Troca de óleo",
            "R$ 1.251,80",
            "R$ 30,00",
            "Validade de 10 dias.",
            "Pág: 1 de 1",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        assert_eq!(places(dec("2.0000"), 0), "2");
        assert_eq!(places(dec("1.5"), 0), "1,5");
        assert_eq!(places(dec("35.9000"), 2), "35,90");
        assert_eq!(places(dec("1.333"), 2), "1,333");
        assert_eq!(brl(dec("-1234.5")), "-R$ 1.234,50");
    }

    #[test]
    fn a_long_document_goes_on_to_more_pages() {
        let pdf = render(&sample(90)).unwrap();
        let text = text_of(&pdf);
        assert!(
            text.contains("Pág: 2 de 2") || text.contains("Pág: 3 de 3"),
            "{text}"
        );
        assert!(text.contains("Produtos (continuação)"), "{text}");
    }

    #[test]
    fn leaves_out_what_it_was_not_given() {
        let mut d = sample(1);
        d.services.clear();
        d.products.truncate(1);
        d.company_document.clear();
        d.customer_document.clear();
        d.notes.clear();
        d.subtotals.retain(|(label, _)| label != "Serviços");
        let text = text_of(&render(&d).unwrap());
        assert!(!text.contains("Serviços"), "{text}");
        assert!(!text.contains("CNPJ") && !text.contains("CPF"), "{text}");
        assert!(
            !text.contains("Desconto R$"),
            "no line has a discount: {text}"
        );
    }
}
