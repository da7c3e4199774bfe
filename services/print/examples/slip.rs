//! A sample bank slip ('boleto') of Banco do Brasil with PIX and a logo,
//! written to the path given (default `/tmp/slip.pdf`), to look at it:
//!
//! `cargo run -p erp-print --example slip [out.pdf]` and then
//! `pdftoppm -png -r 100 /tmp/slip.pdf /tmp/slip`.

use chrono::NaiveDate;
use erp_print::BankSlip;
use rust_decimal::Decimal;

/// A 24-bit PNG of `w` × `h` pixels: a blue square with a lighter border.
fn logo(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut pixels = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            let border = x < 6 || y < 6 || x >= w - 6 || y >= h - 6;
            pixels.extend_from_slice(if border {
                &[120, 170, 230]
            } else {
                &[20, 70, 160]
            });
        }
    }
    let written = enc
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels));
    if let Err(e) = written {
        eprintln!("logo: {e}");
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let day = |m, d| NaiveDate::from_ymd_opt(2026, m, d).ok_or("bad date");
    let slip = BankSlip {
        bank_code: "001".into(),
        bank_code_dv: "9".into(),
        bank_name: "Banco do Brasil".into(),
        linha_digitavel: "00190.00009 01234.567004 00012.345179 8 16560000123456".into(),
        barcode: "00198165600001234560000001234567000001234517".into(),
        place_of_payment: "Pagável em qualquer banco até o vencimento".into(),
        beneficiary_name: "Comércio de Alimentos São João Ltda".into(),
        beneficiary_document: "12.345.678/0001-95".into(),
        beneficiary_address: "Rua Sinimbu, 1.234 – Centro – Caxias do Sul/RS – CEP 95020-002"
            .into(),
        agency_code: "1234-5 / 123456-7".into(),
        nosso_numero: "12345670000012345".into(),
        document_number: "NF 2026/000123-1".into(),
        species_doc: "DM".into(),
        accept: "N".into(),
        wallet: "17".into(),
        issue_date: day(11, 24)?,
        processing_date: day(11, 24)?,
        due_date: day(12, 10)?,
        amount: Decimal::new(123_456, 2),
        payer_name: "José Antônio Gonçalves".into(),
        payer_document: "123.456.789-09".into(),
        payer_address: "Avenida Júlio de Castilhos, 2.500, apto 301 – São Pelegrino".into(),
        payer_city: "CEP 95010-005 Caxias do Sul - RS".into(),
        instructions: vec![
            "Após o vencimento, juros de mora de R$ 0,41 ao dia (1% ao mês).".into(),
            "Após o vencimento, multa de 2% (R$ 24,69).".into(),
            "Sujeito a protesto 10 dias corridos após o vencimento.".into(),
            "Não receber após 60 dias do vencimento.".into(),
            "Referente à NF-e 123, série 1, de 24/11/2026 – dúvidas: (54) 3222-1234.".into(),
        ],
        pix_copia_cola: Some(
            "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
                .into(),
        ),
        logo: Some(logo(240, 100)),
    };
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/slip.pdf".into());
    std::fs::write(&path, erp_print::slip::render(&[slip])?)?;
    println!("{path}");
    Ok(())
}
