//! Fixed-width record engine: field tables declared as data, a writer that fills
//! a record from named values and a reader that extracts typed values by name.
//!
//! Positions are 1-based and inclusive, exactly as the bank manuals print them,
//! so a table can be checked line by line against the manual; a test walks every
//! table and proves the fields are contiguous and cover the whole record.
//!
//! Non-obvious choices:
//! - Files are decoded as Windows-1252, one byte per character, so positions
//!   stay byte positions even when a bank writes accented names.
//! - A line shorter than its record is padded with spaces: editors, git hooks
//!   and transfer tools strip trailing blanks, and the cut part is always filler.
//!   A longer line is an error, because nothing tells where the extra columns are.
//! - Numeric fields that are entirely blank read as zero (several banks fill
//!   unused numeric fields with spaces); any other non-digit is an error.
//! - Two-digit years (CNAB 400) map to 1970–2069.

use chrono::{Datelike, Duration, NaiveDate};
use rust_decimal::Decimal;

use super::super::pix::normalize_text;
use super::CnabError;

/// How a field is written and read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Digits, right-aligned, zero-filled; a longer value is an error.
    Num,
    /// Identifier text, left-aligned, space-filled, upper-case ASCII; a longer
    /// value is an error.
    Alpha,
    /// Free text (names, addresses), like `Alpha` but truncated to the width.
    Text,
    /// Date `DDMMAAAA`; zeros mean "no date".
    Date8,
    /// Date `DDMMAA`; zeros mean "no date".
    Date6,
    /// Amount with this many implied decimal places.
    Money(u32),
}

/// One field of a record: name, 1-based inclusive positions, kind and the value
/// written when the generator supplies none (fillers, constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
    pub default: &'static str,
}

impl Field {
    pub const fn width(&self) -> usize {
        self.end + 1 - self.start
    }
}

pub const fn num(name: &'static str, start: usize, end: usize) -> Field {
    Field { name, start, end, kind: Kind::Num, default: "" }
}
pub const fn alpha(name: &'static str, start: usize, end: usize) -> Field {
    Field { name, start, end, kind: Kind::Alpha, default: "" }
}
pub const fn text(name: &'static str, start: usize, end: usize) -> Field {
    Field { name, start, end, kind: Kind::Text, default: "" }
}
pub const fn date8(name: &'static str, start: usize, end: usize) -> Field {
    Field { name, start, end, kind: Kind::Date8, default: "" }
}
pub const fn date6(name: &'static str, start: usize, end: usize) -> Field {
    Field { name, start, end, kind: Kind::Date6, default: "" }
}
pub const fn money(name: &'static str, start: usize, end: usize, places: u32) -> Field {
    Field { name, start, end, kind: Kind::Money(places), default: "" }
}
/// A constant or filler: written as `value` (left-aligned, space-padded), never read.
pub const fn lit(name: &'static str, start: usize, end: usize, value: &'static str) -> Field {
    Field { name, start, end, kind: Kind::Alpha, default: value }
}
/// Blank filler ("brancos" / "uso exclusivo").
pub const fn blank(start: usize, end: usize) -> Field {
    lit("brancos", start, end, "")
}
/// Zero filler.
pub const fn zeros(start: usize, end: usize) -> Field {
    num("zeros", start, end)
}

/// A record layout: its fields, declared in parts so that banks can share the
/// common FEBRABAN pieces and replace only the regions they define differently.
#[derive(Debug, Clone, Copy)]
pub struct RecordLayout {
    pub name: &'static str,
    pub len: usize,
    pub parts: &'static [&'static [Field]],
}

impl RecordLayout {
    pub fn fields(&self) -> impl Iterator<Item = &'static Field> + '_ {
        self.parts.iter().flat_map(|p| p.iter())
    }

    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields().find(|f| f.name == name)
    }
}

/// A value offered to the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Num(u64),
    Date(Option<NaiveDate>),
    Money(Decimal),
}

/// Named values for one record. Names the layout does not declare are ignored,
/// so the generator can offer one superset to every bank's table.
pub type Values = Vec<(&'static str, Value)>;

fn field_error(line: usize, field: &Field, reason: String) -> CnabError {
    CnabError::Field { line, field: field.name, start: field.start, end: field.end, reason }
}

fn format_field(line: usize, field: &Field, value: &Value) -> Result<String, CnabError> {
    let width = field.width();
    let too_long =
        |v: &str| field_error(line, field, format!("valor '{v}' excede {width} posições"));
    match (field.kind, value) {
        (Kind::Num, Value::Num(n)) => {
            let s = n.to_string();
            if s.len() > width {
                return Err(too_long(&s));
            }
            Ok(format!("{s:0>width$}"))
        }
        (Kind::Num, Value::Text(t)) => {
            let t = t.trim();
            if let Some(ch) = t.chars().find(|c| !c.is_ascii_digit()) {
                return Err(field_error(
                    line,
                    field,
                    format!("caractere '{ch}' não é dígito em '{t}'"),
                ));
            }
            if t.len() > width {
                return Err(too_long(t));
            }
            Ok(format!("{t:0>width$}"))
        }
        (Kind::Alpha | Kind::Text, Value::Text(t)) => {
            let norm = normalize_text(field.name, t, true)
                .map_err(|e| field_error(line, field, e.to_string()))?;
            let len = norm.chars().count();
            if len > width {
                if field.kind == Kind::Alpha {
                    return Err(too_long(&norm));
                }
                return Ok(norm.chars().take(width).collect());
            }
            Ok(format!("{norm:<width$}"))
        }
        (Kind::Date8 | Kind::Date6, Value::Date(d)) => Ok(match d {
            None => "0".repeat(width),
            Some(d) if field.kind == Kind::Date8 => d.format("%d%m%Y").to_string(),
            Some(d) => d.format("%d%m%y").to_string(),
        }),
        (Kind::Money(places), Value::Money(amount)) => {
            if amount.is_sign_negative() || amount.round_dp(places) != *amount {
                return Err(field_error(
                    line,
                    field,
                    format!("valor {amount} deve ser positivo e ter até {places} casas decimais"),
                ));
            }
            let mut scaled = *amount;
            scaled.rescale(places);
            let digits = scaled.mantissa().to_string();
            if digits.len() > width {
                return Err(too_long(&digits));
            }
            Ok(format!("{digits:0>width$}"))
        }
        (kind, value) => Err(field_error(
            line,
            field,
            format!("valor {value:?} incompatível com o tipo {kind:?}"),
        )),
    }
}

fn default_text(field: &Field) -> String {
    let width = field.width();
    match field.kind {
        Kind::Alpha | Kind::Text => format!("{:<width$}", field.default),
        _ if !field.default.is_empty() => format!("{:0>width$}", field.default),
        _ => "0".repeat(width),
    }
}

/// Writes one record of `layout` for line `line` (used in error messages).
pub fn write_record(
    layout: &RecordLayout,
    line: usize,
    values: &Values,
) -> Result<String, CnabError> {
    let mut out = String::with_capacity(layout.len);
    for field in layout.fields() {
        let text = match values.iter().find(|(name, _)| *name == field.name) {
            Some((_, value)) => format_field(line, field, value)?,
            None => default_text(field),
        };
        out.push_str(&text);
    }
    if out.chars().count() != layout.len {
        return Err(CnabError::Structure {
            line,
            reason: format!(
                "leiaute {} gerou {} posições em vez de {}",
                layout.name,
                out.chars().count(),
                layout.len
            ),
        });
    }
    Ok(out)
}

/// One physical line of an input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    pub chars: Vec<char>,
}

impl Line {
    /// Character at a 1-based position (space past the end).
    pub fn at(&self, position: usize) -> char {
        self.chars.get(position - 1).copied().unwrap_or(' ')
    }

    /// Text of 1-based inclusive positions (spaces past the end).
    pub fn slice(&self, start: usize, end: usize) -> String {
        (start..=end).map(|p| self.at(p)).collect()
    }
}

/// Decodes a file as Windows-1252 and splits it into lines (CRLF or LF; a final
/// newline and a DOS end-of-file mark are ignored).
pub fn split_lines(content: &[u8]) -> Vec<Line> {
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(content);
    let text = text.trim_end_matches(['\u{1a}', '\r', '\n']);
    if text.is_empty() {
        return Vec::new();
    }
    text.split('\n')
        .enumerate()
        .map(|(i, l)| Line {
            number: i + 1,
            chars: l.strip_suffix('\r').unwrap_or(l).chars().collect(),
        })
        .collect()
}

/// Typed access to the fields of one line under a layout.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    pub layout: &'a RecordLayout,
    pub line: &'a Line,
}

impl<'a> Record<'a> {
    /// Binds a line to a layout, refusing lines longer than the record.
    pub fn new(layout: &'a RecordLayout, line: &'a Line) -> Result<Self, CnabError> {
        if line.chars.len() > layout.len {
            return Err(CnabError::LineLength {
                line: line.number,
                found: line.chars.len(),
                expected: layout.len,
                layout: layout.name,
            });
        }
        Ok(Record { layout, line })
    }

    fn field(&self, name: &str) -> Result<&'static Field, CnabError> {
        self.layout.field(name).ok_or_else(|| CnabError::Structure {
            line: self.line.number,
            reason: format!("leiaute {} não declara o campo {name}", self.layout.name),
        })
    }

    fn raw(&self, field: &Field) -> String {
        self.line.slice(field.start, field.end)
    }

    /// Untrimmed text of a field (for fixed-width sub-fields such as reason codes).
    pub fn raw_text(&self, name: &str) -> Result<String, CnabError> {
        let field = self.field(name)?;
        Ok(self.raw(field))
    }

    /// Trimmed text of a field.
    pub fn text(&self, name: &str) -> Result<String, CnabError> {
        let field = self.field(name)?;
        Ok(self.raw(field).trim().to_string())
    }

    fn digits(&self, field: &Field) -> Result<Option<String>, CnabError> {
        let raw = self.raw(field);
        if raw.trim().is_empty() {
            return Ok(None);
        }
        if let Some(ch) = raw.chars().find(|c| !c.is_ascii_digit()) {
            return Err(field_error(
                self.line.number,
                field,
                format!("caractere '{ch}' não numérico em '{raw}'"),
            ));
        }
        Ok(Some(raw))
    }

    /// Unsigned number of a numeric field (blank reads as 0).
    pub fn num(&self, name: &str) -> Result<u64, CnabError> {
        let field = self.field(name)?;
        match self.digits(field)? {
            None => Ok(0),
            Some(d) => d.parse().map_err(|_| {
                field_error(
                    self.line.number,
                    field,
                    format!("número '{d}' fora do limite"),
                )
            }),
        }
    }

    /// Amount of a money field (blank reads as zero).
    pub fn money(&self, name: &str) -> Result<Decimal, CnabError> {
        let field = self.field(name)?;
        self.money_of(field)
    }

    fn money_of(&self, field: &Field) -> Result<Decimal, CnabError> {
        let places = match field.kind {
            Kind::Money(p) => p,
            _ => 0,
        };
        let Some(digits) = self.digits(field)? else {
            return Ok(Decimal::ZERO);
        };
        let mantissa: i64 = digits.parse().map_err(|_| {
            field_error(
                self.line.number,
                field,
                format!("valor '{digits}' fora do limite"),
            )
        })?;
        Ok(Decimal::new(mantissa, places))
    }

    /// Date of a date field; zeros or blanks read as `None`.
    pub fn date(&self, name: &str) -> Result<Option<NaiveDate>, CnabError> {
        let field = self.field(name)?;
        self.date_of(field)
    }

    fn date_of(&self, field: &Field) -> Result<Option<NaiveDate>, CnabError> {
        let Some(digits) = self.digits(field)? else {
            return Ok(None);
        };
        if digits.bytes().all(|b| b == b'0') {
            return Ok(None);
        }
        let part = |range: std::ops::Range<usize>| -> u32 {
            digits[range]
                .bytes()
                .fold(0, |acc, b| acc * 10 + u32::from(b - b'0'))
        };
        let (day, month) = (part(0..2), part(2..4));
        let year = if field.kind == Kind::Date8 {
            part(4..8) as i32
        } else {
            let yy = part(4..6) as i32;
            if yy < 70 {
                2000 + yy
            } else {
                1900 + yy
            }
        };
        NaiveDate::from_ymd_opt(year, month, day)
            .map(Some)
            .ok_or_else(|| {
                field_error(self.line.number, field, format!("data inválida '{digits}'"))
            })
    }
}

/// The day after `date`: the first day interest and fines apply.
pub fn next_day(date: NaiveDate) -> NaiveDate {
    date + Duration::days(1)
}

/// Two-digit-year dates only cover 1970–2069; the generator refuses others
/// instead of writing a date that would read back in another century.
pub fn check_date6(date: NaiveDate) -> Result<(), String> {
    if (1970..2070).contains(&date.year()) {
        Ok(())
    } else {
        Err(format!(
            "data {date} fora do intervalo 1970–2069 do leiaute de 400 posições"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    const SAMPLE: RecordLayout = RecordLayout {
        name: "amostra",
        len: 40,
        parts: &[
            &[
                num("numero", 1, 5),
                alpha("codigo", 6, 9),
                text("nome", 10, 17),
            ],
            &[
                date8("data", 18, 25),
                date6("data_curta", 26, 31),
                money("valor", 32, 38, 2),
                lit("fixo", 39, 40, "X"),
            ],
        ],
    };

    fn line(text: &str) -> Line {
        Line { number: 7, chars: text.chars().collect() }
    }

    #[test]
    fn writes_each_kind_and_reads_it_back() {
        let d = NaiveDate::from_ymd_opt(2069, 12, 31).unwrap();
        let values: Values = vec![
            ("numero", Value::Num(42)),
            ("codigo", Value::Text("ab".into())),
            ("nome", Value::Text("João da Silva".into())),
            ("data", Value::Date(Some(d))),
            ("data_curta", Value::Date(Some(d))),
            ("valor", Value::Money(Decimal::from_str("12.5").unwrap())),
        ];
        let out = write_record(&SAMPLE, 7, &values).unwrap();
        assert_eq!(out, "00042AB  JOAO DA 311220693112690001250X ");
        let l = line(&out);
        let rec = Record::new(&SAMPLE, &l).unwrap();
        assert_eq!(rec.num("numero").unwrap(), 42);
        assert_eq!(rec.text("codigo").unwrap(), "AB");
        assert_eq!(rec.text("nome").unwrap(), "JOAO DA");
        assert_eq!(rec.date("data").unwrap(), Some(d));
        assert_eq!(rec.date("data_curta").unwrap(), Some(d));
        assert_eq!(
            rec.money("valor").unwrap(),
            Decimal::from_str("12.50").unwrap()
        );
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let too_long: Values = vec![("codigo", Value::Text("ABCDE".into()))];
        let err = write_record(&SAMPLE, 3, &too_long).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Linha 3, campo codigo (posições 6-9): valor 'ABCDE' excede 4 posições."
        );
        let cents: Values = vec![("valor", Value::Money(Decimal::from_str("1.005").unwrap()))];
        assert!(matches!(
            write_record(&SAMPLE, 3, &cents),
            Err(CnabError::Field { field: "valor", .. })
        ));
        let letters: Values = vec![("numero", Value::Text("12A".into()))];
        assert!(write_record(&SAMPLE, 3, &letters).is_err());
    }

    #[test]
    fn reads_trimmed_lines_and_rejects_long_ones() {
        // Trailing blanks cut by an editor: the missing columns read as blank/zero.
        let l = line("00042AB  JOAO DA 00000000");
        let rec = Record::new(&SAMPLE, &l).unwrap();
        assert_eq!(rec.date("data").unwrap(), None);
        assert_eq!(rec.money("valor").unwrap(), Decimal::ZERO);
        assert_eq!(rec.date("data_curta").unwrap(), None);
        let long = line(&"0".repeat(41));
        assert_eq!(
            Record::new(&SAMPLE, &long).unwrap_err(),
            CnabError::LineLength { line: 7, found: 41, expected: 40, layout: "amostra" }
        );
        let bad = line("0004X");
        assert_eq!(
            Record::new(&SAMPLE, &bad)
                .unwrap()
                .num("numero")
                .unwrap_err()
                .to_string(),
            "Linha 7, campo numero (posições 1-5): caractere 'X' não numérico em '0004X'."
        );
        // Two-digit years: 69 is 2069, 70 is 1970.
        let l = line(&format!("00000{}00000000010170", " ".repeat(12)));
        let rec = Record::new(&SAMPLE, &l).unwrap();
        assert_eq!(
            rec.date("data_curta").unwrap(),
            NaiveDate::from_ymd_opt(1970, 1, 1)
        );
        assert!(check_date6(NaiveDate::from_ymd_opt(2070, 1, 1).unwrap()).is_err());
    }

    #[test]
    fn splits_crlf_lf_and_dos_eof() {
        let lines = split_lines(b"AB\r\nC\xc9D\n\x1a");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].chars.len(), 2);
        assert_eq!(lines[1].chars, vec!['C', 'É', 'D']);
        assert_eq!(lines[1].number, 2);
        assert!(split_lines(b"").is_empty());
    }
}
