//! The drawing layer over krilla, shared by every PDF layout (report,
//! receipt, boleto): pages measured in millimetres from the
//! top-left corner, the bundled fonts, text measuring, cutting and wrapping,
//! filled rectangles, lines and PNG/JPEG images. Layouts build [`Page`]s of
//! [`Op`]s first (so they know the page count before drawing footers) and
//! [`render`] turns them into PDF bytes; krilla is used in this file only.
//!
//! Text is drawn glyph by glyph from the font's character map and advance
//! widths (no shaping, no kerning), which is exactly what [`text_width`]
//! measures, so right-aligned numbers line up to the hundredth of a point.
//! krilla embeds each font as a subsetted TrueType CID font with a ToUnicode
//! map.

use std::sync::OnceLock;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::Document;
use skrifa::instance::{LocationRef, Size as FontSize};
use skrifa::MetadataProvider;

use crate::PrintError;

/// Horizontal alignment of a column's header and cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;

/// Millimetres per point.
pub(crate) const MM_PER_PT: f32 = 25.4 / 72.0;

/// A4 portrait width and height in millimetres.
pub(crate) const A4: (f32, f32) = (210.0, 297.0);

const REGULAR_TTF: &[u8] = include_bytes!("../fonts/LiberationSans-Regular.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../fonts/LiberationSans-Bold.ttf");

/// Which of the bundled faces to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

/// One bundled face: krilla's handle for embedding plus skrifa's view for
/// the character map and advance widths.
struct Face {
    font: Font,
    charmap: skrifa::charmap::Charmap<'static>,
    metrics: skrifa::metrics::GlyphMetrics<'static>,
    units_per_em: f32,
}

impl Face {
    fn load(data: &'static [u8]) -> Result<Face, String> {
        let font_ref = skrifa::FontRef::new(data).map_err(|e| e.to_string())?;
        let units_per_em = f32::from(
            font_ref
                .metrics(FontSize::unscaled(), LocationRef::default())
                .units_per_em,
        );
        let font = Font::new(data.into(), 0).ok_or("krilla cannot read the bundled font")?;
        Ok(Face {
            font,
            charmap: font_ref.charmap(),
            metrics: font_ref.glyph_metrics(FontSize::unscaled(), LocationRef::default()),
            units_per_em,
        })
    }

    /// Glyph id and advance (in em) of a character; a missing glyph is .notdef.
    fn glyph(&self, c: char) -> (skrifa::GlyphId, f32) {
        let gid = self.charmap.map(c).unwrap_or_default();
        let advance = self.metrics.advance_width(gid).unwrap_or(0.0) / self.units_per_em;
        (gid, advance)
    }
}

struct Faces {
    regular: Face,
    bold: Face,
}

fn faces() -> Result<&'static Faces, PrintError> {
    static FACES: OnceLock<Result<Faces, String>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            Ok(Faces { regular: Face::load(REGULAR_TTF)?, bold: Face::load(BOLD_TTF)? })
        })
        .as_ref()
        .map_err(|e| PrintError::Pdf(format!("bundled font: {e}")))
}

fn face(weight: Weight) -> Result<&'static Face, PrintError> {
    let f = faces()?;
    Ok(match weight {
        Weight::Regular => &f.regular,
        Weight::Bold => &f.bold,
    })
}

/// Width of `text` in millimetres at `size_pt`.
pub(crate) fn text_width(text: &str, weight: Weight, size_pt: f32) -> Result<f32, PrintError> {
    let f = face(weight)?;
    let em: f32 = text.chars().map(|c| f.glyph(c).1).sum();
    Ok(em * size_pt * MM_PER_PT)
}

/// `text` as is when it fits in `max_mm`, otherwise cut and ended with "…".
pub(crate) fn fit(
    text: &str,
    weight: Weight,
    size_pt: f32,
    max_mm: f32,
) -> Result<String, PrintError> {
    if text_width(text, weight, size_pt)? <= max_mm {
        return Ok(text.to_string());
    }
    let ellipsis = text_width("…", weight, size_pt)?;
    let mut out = String::new();
    let mut width = 0.0;
    for c in text.chars() {
        let w = text_width(c.encode_utf8(&mut [0; 4]), weight, size_pt)?;
        if width + w + ellipsis > max_mm {
            break;
        }
        width += w;
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out.push('…');
    Ok(out)
}

/// Breaks `text` into lines no wider than `max_mm`, at spaces; a word longer
/// than a line is cut between characters.
pub(crate) fn wrap(
    text: &str,
    weight: Weight,
    size_pt: f32,
    max_mm: f32,
) -> Result<Vec<String>, PrintError> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, weight, size_pt)? <= max_mm {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The word alone may still be too wide: cut it.
        for c in word.chars() {
            line.push(c);
            if text_width(&line, weight, size_pt)? > max_mm && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::take(&mut line));
                line.push(c);
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

/// A decoded PNG or JPEG image with its size in pixels.
#[derive(Clone)]
pub(crate) struct Picture {
    image: Image,
    width_px: f32,
    height_px: f32,
}

impl Picture {
    /// Decodes PNG or JPEG bytes (recognised by their signature).
    pub(crate) fn decode(bytes: &[u8]) -> Result<Picture, PrintError> {
        let data = bytes.to_vec().into();
        let image = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Image::from_png(data, true)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Image::from_jpeg(data, true)
        } else {
            Err("not a PNG or JPEG image".to_string())
        }
        .map_err(PrintError::Image)?;
        let (w, h) = image.size();
        if w == 0 || h == 0 {
            return Err(PrintError::Image("image has no pixels".to_string()));
        }
        Ok(Picture { image, width_px: w as f32, height_px: h as f32 })
    }

    /// The largest (width, height) in mm with the image's aspect ratio that
    /// fits in `max_w` × `max_h`.
    pub(crate) fn fit(&self, max_w: f32, max_h: f32) -> (f32, f32) {
        let scale = (max_w / self.width_px).min(max_h / self.height_px);
        (self.width_px * scale, self.height_px * scale)
    }
}

/// One drawing operation; coordinates in mm from the page's top-left corner.
pub(crate) enum Op {
    /// Text on the baseline `y`; `x` is the left edge, the centre or the
    /// right edge according to `align`.
    Text {
        x: f32,
        y: f32,
        size_pt: f32,
        weight: Weight,
        align: Align,
        text: String,
    },
    /// A filled rectangle, `gray` from 0 (black) to 1 (white).
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        gray: f32,
    },
    /// A stroked (outlined) rectangle.
    Frame {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        width_pt: f32,
    },
    /// A straight black line.
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width_pt: f32,
    },
    /// An image scaled to `w` × `h` mm with its top-left corner at (`x`, `y`).
    Image {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        picture: Picture,
    },
}

/// A page: its size in mm and what is drawn on it.
pub(crate) struct Page {
    pub width: f32,
    pub height: f32,
    pub ops: Vec<Op>,
}

impl Page {
    pub(crate) fn new((width, height): (f32, f32)) -> Page {
        Page { width, height, ops: Vec::new() }
    }

    pub(crate) fn text(
        &mut self,
        x: f32,
        y: f32,
        size_pt: f32,
        weight: Weight,
        align: Align,
        text: impl Into<String>,
    ) {
        self.ops
            .push(Op::Text { x, y, size_pt, weight, align, text: text.into() });
    }

    pub(crate) fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width_pt: f32) {
        self.ops.push(Op::Line { x1, y1, x2, y2, width_pt });
    }
}

fn gray_fill(gray: f32) -> Fill {
    let level = (gray.clamp(0.0, 1.0) * 255.0).round() as u8;
    Fill {
        paint: rgb::Color::new(level, level, level).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

fn rect_path(x: f32, y: f32, w: f32, h: f32) -> Result<krilla::geom::Path, PrintError> {
    let rect = Rect::from_xywh(x * PT_PER_MM, y * PT_PER_MM, w * PT_PER_MM, h * PT_PER_MM)
        .ok_or_else(|| PrintError::Pdf(format!("bad rectangle {w}×{h} mm at ({x}, {y})")))?;
    let mut pb = PathBuilder::new();
    pb.push_rect(rect);
    pb.finish()
        .ok_or_else(|| PrintError::Pdf("empty rectangle path".to_string()))
}

fn draw_text(
    surface: &mut Surface<'_>,
    (x, y): (f32, f32),
    size_pt: f32,
    weight: Weight,
    align: Align,
    text: &str,
) -> Result<(), PrintError> {
    let f = face(weight)?;
    let mut width_em = 0.0;
    let glyphs: Vec<KrillaGlyph> = text
        .char_indices()
        .map(|(i, c)| {
            let (gid, advance) = f.glyph(c);
            width_em += advance;
            KrillaGlyph::new(
                GlyphId::new(gid.to_u32()),
                advance,
                0.0,
                0.0,
                0.0,
                i..i + c.len_utf8(),
                None,
            )
        })
        .collect();
    let width_pt = width_em * size_pt;
    let x_pt = x * PT_PER_MM
        - match align {
            Align::Left => 0.0,
            Align::Center => width_pt / 2.0,
            Align::Right => width_pt,
        };
    surface.set_stroke(None);
    surface.set_fill(Some(Fill::default()));
    surface.draw_glyphs(
        Point::from_xy(x_pt, y * PT_PER_MM),
        &glyphs,
        f.font.clone(),
        text,
        size_pt,
        false,
    );
    Ok(())
}

fn draw_op(surface: &mut Surface<'_>, op: Op) -> Result<(), PrintError> {
    match op {
        Op::Text { x, y, size_pt, weight, align, text } => {
            draw_text(surface, (x, y), size_pt, weight, align, &text)?
        }
        Op::Fill { x, y, w, h, gray } => {
            surface.set_stroke(None);
            surface.set_fill(Some(gray_fill(gray)));
            surface.draw_path(&rect_path(x, y, w, h)?);
        }
        Op::Frame { x, y, w, h, width_pt } => {
            surface.set_fill(None);
            surface.set_stroke(Some(Stroke { width: width_pt, ..Default::default() }));
            surface.draw_path(&rect_path(x, y, w, h)?);
        }
        Op::Line { x1, y1, x2, y2, width_pt } => {
            let mut pb = PathBuilder::new();
            pb.move_to(x1 * PT_PER_MM, y1 * PT_PER_MM);
            pb.line_to(x2 * PT_PER_MM, y2 * PT_PER_MM);
            let path = pb
                .finish()
                .ok_or_else(|| PrintError::Pdf("empty line path".to_string()))?;
            surface.set_fill(None);
            surface.set_stroke(Some(Stroke { width: width_pt, ..Default::default() }));
            surface.draw_path(&path);
        }
        Op::Image { x, y, w, h, picture } => {
            let size = Size::from_wh(w * PT_PER_MM, h * PT_PER_MM)
                .ok_or_else(|| PrintError::Image(format!("bad image size {w}×{h} mm")))?;
            surface.push_transform(&Transform::from_translate(x * PT_PER_MM, y * PT_PER_MM));
            surface.draw_image(picture.image, size);
            surface.pop();
        }
    }
    Ok(())
}

/// Draws `pages` into a PDF whose document title is `title`.
pub(crate) fn render(pages: Vec<Page>, title: &str) -> Result<Vec<u8>, PrintError> {
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .language("pt-BR".to_string())
            .creator("erp-print".to_string()),
    );
    for page in pages {
        let settings = PageSettings::from_wh(page.width * PT_PER_MM, page.height * PT_PER_MM)
            .ok_or_else(|| {
                PrintError::Pdf(format!("bad page size {}×{} mm", page.width, page.height))
            })?;
        let mut pdf_page = doc.start_page_with(settings);
        let mut surface = pdf_page.surface();
        for op in page.ops {
            draw_op(&mut surface, op)?;
        }
        surface.finish();
        pdf_page.finish();
    }
    doc.finish().map_err(|e| PrintError::Pdf(format!("{e:?}")))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// A small RGB PNG: a red square with a blue border, `size` pixels wide.
    pub(crate) fn sample_png(size: u32) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, size, size);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc.write_header().unwrap();
            let mut data = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    let border = x < 2 || y < 2 || x >= size - 2 || y >= size - 2;
                    data.extend_from_slice(if border { &[0, 0, 200] } else { &[220, 30, 30] });
                }
            }
            writer.write_image_data(&data).unwrap();
        }
        out
    }

    /// Runs a poppler tool, failing the test with a clear message if it is missing.
    pub(crate) fn poppler(tool: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
        let mut child = Command::new(tool)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("`{tool}` is needed by this test and could not be run ({e}); install poppler-utils (apt-get install -y poppler-utils)")
            });
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{tool} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Parses a binary PGM (P5) image as written by `pdftoppm -gray`.
    pub(crate) fn parse_pgm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
        let mut fields = Vec::new();
        let mut pos = 0;
        while fields.len() < 4 {
            while bytes[pos].is_ascii_whitespace() {
                pos += 1;
            }
            let start = pos;
            while !bytes[pos].is_ascii_whitespace() {
                pos += 1;
            }
            fields.push(String::from_utf8(bytes[start..pos].to_vec()).unwrap());
        }
        assert_eq!(fields[0], "P5");
        let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let pixels = bytes[pos + 1..].to_vec();
        assert_eq!(pixels.len(), w * h);
        (w, h, pixels)
    }

    #[test]
    fn bundled_fonts_have_every_pt_br_glyph() {
        let needed = "ÁÀÂÃÉÊÍÓÔÕÚÜÇáàâãéêíóôõúüçºª–—…R$€§°·•";
        for weight in [Weight::Regular, Weight::Bold] {
            let f = face(weight).unwrap();
            for c in needed.chars() {
                assert!(f.charmap.map(c).is_some(), "{weight:?} lacks {c}");
            }
        }
    }

    #[test]
    fn fit_and_wrap_respect_widths() {
        let long = "Descrição muito longa de um produto de açúcar cristal";
        let cut = fit(long, Weight::Regular, 8.0, 30.0).unwrap();
        assert!(cut.ends_with('…'));
        assert!(text_width(&cut, Weight::Regular, 8.0).unwrap() <= 30.0);
        assert_eq!(fit("curto", Weight::Regular, 8.0, 30.0).unwrap(), "curto");
        let lines = wrap(long, Weight::Regular, 10.0, 40.0).unwrap();
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), long);
        for l in &lines {
            assert!(text_width(l, Weight::Regular, 10.0).unwrap() <= 40.0, "{l}");
        }
    }

    #[test]
    fn rejects_bytes_that_are_not_an_image() {
        assert!(matches!(
            Picture::decode(b"GIF89a"),
            Err(PrintError::Image(_))
        ));
    }

    /// What the boleto needs: bars drawn as exact filled rectangles (an
    /// Interleaved-2-of-5-like narrow/wide pattern) and an embedded PNG. The
    /// page is rasterised at 254 dpi (10 px per mm) and every bar and gap is
    /// checked pixel by pixel.
    #[test]
    fn draws_precise_bars_and_a_png() {
        // (is_bar, width in mm): narrow 0.5 mm, wide 1.5 mm.
        let pattern = [
            (true, 0.5),
            (false, 0.5),
            (true, 0.5),
            (false, 0.5),
            (true, 1.5),
            (false, 0.5),
            (true, 0.5),
            (false, 1.5),
            (true, 1.5),
            (false, 0.5),
            (true, 1.5),
            (false, 1.5),
            (true, 0.5),
        ];
        let mut page = Page::new((60.0, 40.0));
        let (x0, y0, h) = (5.0, 5.0, 13.0);
        let mut x = x0;
        for (bar, w) in pattern {
            if bar {
                page.ops.push(Op::Fill { x, y: y0, w, h, gray: 0.0 });
            }
            x += w;
        }
        let picture = Picture::decode(&sample_png(40)).unwrap();
        page.ops
            .push(Op::Image { x: 40.0, y: 20.0, w: 10.0, h: 10.0, picture });
        let pdf = render(vec![page], "barras").unwrap();
        let pgm = poppler("pdftoppm", &["-gray", "-r", "254", "-"], &pdf);
        let (w, hgt, px) = parse_pgm(&pgm);
        // 60 × 40 mm at 10 px/mm; pdftoppm rounds the page size up.
        assert!(
            (600..=601).contains(&w) && (400..=401).contains(&hgt),
            "{w}×{hgt}"
        );
        let at = |x_mm: f32, y_mm: f32| px[(y_mm * 10.0) as usize * w + (x_mm * 10.0) as usize];
        // Sample the middle of every bar and gap, on the middle row of the bars.
        let mut x = x0;
        for (bar, bw) in pattern {
            let v = at(x + bw / 2.0, y0 + h / 2.0);
            if bar {
                assert!(v < 40, "bar at {x} mm is not black ({v})");
            } else {
                assert!(v > 215, "gap at {x} mm is not white ({v})");
            }
            // Edges land within 0.1 mm: 0.1 mm inside is ink, 0.1 mm outside is not.
            if bar {
                assert!(at(x + 0.1, y0 + h / 2.0) < 128 && at(x + bw - 0.15, y0 + h / 2.0) < 128);
            }
            x += bw;
        }
        assert!(
            at(x0 - 0.2, y0 + h / 2.0) > 215,
            "ink left of the first bar"
        );
        assert!(at(x + 0.2, y0 + h / 2.0) > 215, "ink right of the last bar");
        // The PNG: red centre (mid gray in luminance), blue border (dark).
        let centre = at(45.0, 25.0);
        assert!((40..=140).contains(&centre), "image centre gray {centre}");
        assert!(at(40.1, 25.0) < 60, "image border");
        assert!(at(39.5, 25.0) > 215, "ink left of the image");
    }
}
