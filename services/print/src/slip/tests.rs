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
        payer_address: "Avenida Júlio de Castilhos, 2.500, apto 301 – São Pelegrino".to_string(),
        payer_city: "CEP 95010-005 Caxias do Sul - RS".to_string(),
        instructions: vec![
            "Após o vencimento, juros de mora de R$ 0,41 ao dia (1% ao mês).".to_string(),
            "Após o vencimento, multa de 2% (R$ 24,69).".to_string(),
            "Sujeito a protesto 10 dias corridos após o vencimento.".to_string(),
            "Não receber após 60 dias do vencimento.".to_string(),
            "Referente à NF-e 123, série 1, de 24/11/2026 – dúvidas: (54) 3222-1234.".to_string(),
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
