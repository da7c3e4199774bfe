//! The geometry of the slip's codes: the Interleaved 2 of 5 bars of the 44-digit
//! barcode at FEBRABAN's dimensions, and the dark modules of the Pix QR code.

use qrcode::{Color, EcLevel, QrCode};

use crate::PrintError;

/// Width of a narrow element (bar or space) of the barcode, in mm.
pub const ITF_NARROW_MM: f32 = 0.254;
/// Width of a wide element of the barcode: 3 × narrow, in mm.
pub const ITF_WIDE_MM: f32 = 3.0 * ITF_NARROW_MM;
/// Height of the barcode's bars, in mm.
pub const ITF_HEIGHT_MM: f32 = 13.0;
/// Light modules around the QR code, on every side.
pub const QR_QUIET_MODULES: usize = 4;

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
