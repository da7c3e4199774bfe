//! Render times of the tabular report: a 50-row and a 2,000-row A4 report (with
//! group subtotals, totals and a logo), each rendered several times; prints the
//! fastest and the median time and the PDF size; with a folder argument, writes
//! the two PDFs there.
//!
//! `cargo run --release -p erp-print --example render_times [folder]`

use std::time::{Duration, Instant};

use chrono::NaiveDate;
use erp_print::table::render_pdf;
use erp_print::{Cell, Column, Report};
use rust_decimal::Decimal;

/// A 24-bit PNG of `w` × `h` pixels in one colour (the report's logo).
fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let pixels = [20u8, 70, 160].repeat((w * h) as usize);
    let written = enc
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels));
    if let Err(e) = written {
        eprintln!("logo: {e}");
    }
    out
}

fn report(n: usize) -> Report {
    let sellers = ["Ana Conceição", "João Gonçalves", "Márcia Lúcia"];
    let rows = (0..n)
        .map(|i| {
            vec![
                Cell::from(format!("{:05}", i + 1)),
                Cell::from(format!(
                    "Açúcar cristal orgânico nº {} – embalagem econômica",
                    i + 1
                )),
                Cell::from(sellers[i * sellers.len() / n]),
                NaiveDate::from_ymd_opt(2026, 11, (i % 28) as u32 + 1)
                    .map(Cell::Date)
                    .unwrap_or(Cell::Empty),
                Cell::Number(Decimal::new((i as i64 % 7 + 1) * 12_345, 4)),
                Cell::Number(Decimal::new(123_456 + i as i64 * 1_001, 2)),
            ]
        })
        .collect();
    Report {
        title: "Vendas por vendedor".to_string(),
        company: "Comércio de Alimentos São João Ltda".to_string(),
        user: "maria".to_string(),
        generated_at: NaiveDate::from_ymd_opt(2026, 11, 24)
            .and_then(|d| d.and_hms_opt(14, 5, 0))
            .unwrap_or_default(),
        logo: Some(png(240, 100)),
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
        group_by: Some(2),
    }
}

fn main() -> Result<(), erp_print::PrintError> {
    for (rows, runs) in [(50, 20), (2_000, 7)] {
        let r = report(rows);
        let mut times: Vec<Duration> = Vec::with_capacity(runs);
        let mut bytes = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            bytes = render_pdf(&r)?;
            times.push(started.elapsed());
        }
        times.sort();
        println!(
            "{rows:>5} rows: fastest {:>8.2} ms, median {:>8.2} ms over {runs} runs; {} bytes",
            times[0].as_secs_f64() * 1e3,
            times[runs / 2].as_secs_f64() * 1e3,
            bytes.len(),
        );
        if let Some(dir) = std::env::args().nth(1) {
            let path = std::path::Path::new(&dir).join(format!("report-{rows}.pdf"));
            if let Err(e) = std::fs::write(&path, &bytes) {
                eprintln!("{}: {e}", path.display());
            }
        }
    }
    Ok(())
}
