//! Validators for what users type into the ERP's forms: CPF, CNPJ (numeric, and the
//! alphanumeric format of IN RFB nº 2.229/2024), NF-e access keys, phones, CEPs,
//! e-mails, hex colours and dates. Each parser turns raw text into a domain type at the
//! edge, so business code never holds an unchecked document number, and each failure is
//! a [`ValidationError`] whose `Display` is the pt-BR message of `screens-and-rules.md`
//! §5, word for word, because the web client shows it to the user unchanged.

use std::fmt;

use chrono::NaiveDate;
use thiserror::Error;

/// Why an input was rejected. `Display` is the user-facing message; the texts are a
/// contract with the legacy client (spelling, accents, trailing punctuation and spaces
/// included), so they are never reworded here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ValidationError {
    #[error("{label} é obrigatório!")]
    Required { label: String },
    #[error("Valor Máximo permitido para o campo: {max}{prefix}")]
    Max { max: String, prefix: String },
    #[error("O campo {label} deve ser maior ou igual a {min} ")]
    Min { label: String, min: String },
    #[error("O campo {label} deve ter no minimo {min} caracteres.")]
    MinLength { label: String, min: usize },
    #[error("E-mail inválido.")]
    Email,
    /// §5 gives the empty phone field a full stop that the short-number message lacks.
    #[error("Número incompleto.")]
    PhoneEmpty,
    #[error("Número incompleto")]
    PhoneIncomplete,
    #[error("Número incompleto.")]
    AccessKeyIncomplete,
    #[error("Número inválido.")]
    AccessKeyCheckDigit,
    #[error("Data inválida")]
    Date,
    #[error("Valor hexadecimal inválido.")]
    HexColor,
    // §5 has no text for the next four; they follow its 'X inválido.' pattern.
    #[error("CEP inválido.")]
    Cep,
    #[error("CPF inválido.")]
    Cpf,
    #[error("CNPJ inválido.")]
    Cnpj,
    #[error("CPF/CNPJ inválido.")]
    CpfCnpj,
}

/// '{label} é obrigatório!'
pub fn required(label: &str) -> ValidationError {
    ValidationError::Required { label: label.to_owned() }
}

/// 'Valor Máximo permitido para o campo: {max}{prefix}'. Despite its legacy name,
/// `prefix` is written after the number (a unit such as '%').
pub fn max(max: impl fmt::Display, prefix: &str) -> ValidationError {
    ValidationError::Max { max: max.to_string(), prefix: prefix.to_owned() }
}

/// 'O campo {label} deve ser maior ou igual a {min} ', trailing space included.
pub fn min(label: &str, min: impl fmt::Display) -> ValidationError {
    ValidationError::Min { label: label.to_owned(), min: min.to_string() }
}

/// 'O campo {label} deve ter no minimo {min} caracteres.'
pub fn min_length(label: &str, min: usize) -> ValidationError {
    ValidationError::MinLength { label: label.to_owned(), min }
}

/// Keeps the ASCII digits. Not for CNPJ: the alphanumeric format's letters would be lost.
pub fn only_digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Mask punctuation of CPF and CNPJ.
const DOCUMENT_MASK: &[char] = &['.', '-', '/'];
/// Mask punctuation of the phone field, `(##) #####-####`.
const PHONE_MASK: &[char] = &['(', ')', ' ', '-'];
/// Mask punctuation of CEP; the dot is from the older `##.###-###` form still in use.
const CEP_MASK: &[char] = &['.', '-'];

/// Drops mask characters wherever they stand, because numbers pasted from other systems
/// come half-masked and the check digits, not the punctuation, prove them right. Any
/// other character is kept so that it still fails the parse instead of being ignored.
fn unmask(input: &str, mask: &[char]) -> String {
    input.trim().chars().filter(|c| !mask.contains(c)).collect()
}

fn all_equal(chars: &[u8]) -> bool {
    chars.windows(2).all(|pair| pair[0] == pair[1])
}

/// A character's value in the check-digit sums: its ASCII code minus 48. That is the
/// digit's value for 0-9 and, per IN RFB nº 2.229/2024, 17-42 for A-Z. Callers have
/// already restricted the input to [0-9A-Z].
fn char_value(c: u8) -> u32 {
    u32::from(c) - u32::from(b'0')
}

/// Parses a fixed-width run of ASCII digits, as the date masks produce.
fn decimal(digits: &[u8]) -> Option<u16> {
    digits.iter().try_fold(0u16, |acc, &c| {
        if c.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u16::from(c - b'0'))
        } else {
            None
        }
    })
}

/// Modulo-11 digit of the Receita Federal, shared by CPF and CNPJ: a remainder below 2
/// gives 0.
fn mod11_digit(chars: &[u8], weights: &[u32]) -> u32 {
    let sum: u32 = chars
        .iter()
        .zip(weights)
        .map(|(&c, &w)| char_value(c) * w)
        .sum();
    match sum % 11 {
        0 | 1 => 0,
        remainder => 11 - remainder,
    }
}

/// CPF and CNPJ both end in two modulo-11 digits, the second also covering the first.
/// `weights` are the second digit's; the first uses the same list without its head.
/// Callers guarantee `doc.len() == weights.len() + 1`.
fn check_digits_match(doc: &[u8], weights: &[u32]) -> bool {
    let n = doc.len();
    char_value(doc[n - 2]) == mod11_digit(&doc[..n - 2], &weights[1..])
        && char_value(doc[n - 1]) == mod11_digit(&doc[..n - 1], weights)
}

const CPF_WEIGHTS: [u32; 10] = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/// A CPF with valid check digits, held as its 11 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cpf(String);

impl Cpf {
    /// The valid CPF whose first nine digits are `base` (mod 10^9), for generated
    /// data (benchmarks, fixtures).
    pub fn from_base(base: u64) -> Cpf {
        let mut doc: Vec<u8> = format!("{:09}", base % 1_000_000_000).into_bytes();
        let first = mod11_digit(&doc, &CPF_WEIGHTS[1..]);
        doc.push(b'0' + first as u8);
        let second = mod11_digit(&doc, &CPF_WEIGHTS);
        doc.push(b'0' + second as u8);
        Cpf(String::from_utf8_lossy(&doc).into_owned())
    }

    /// Accepts `000.000.000-00` or the bare 11 digits.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let digits = unmask(input, DOCUMENT_MASK);
        let b = digits.as_bytes();
        // Repeated digits (111.111.111-11) satisfy the check digits but are never
        // issued; they are what people type to get past a required field.
        if b.len() != 11
            || !b.iter().all(u8::is_ascii_digit)
            || all_equal(b)
            || !check_digits_match(b, &CPF_WEIGHTS)
        {
            return Err(ValidationError::Cpf);
        }
        Ok(Self(digits))
    }

    /// The 11 digits, unmasked, as stored and sent to the fiscal APIs.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Cpf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        write!(f, "{}.{}.{}-{}", &d[..3], &d[3..6], &d[6..9], &d[9..])
    }
}

/// A CNPJ with valid check digits, held as its 14 characters in upper case: digits for
/// the numeric format, [0-9A-Z] then two digits for the alphanumeric one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cnpj(String);

impl Cnpj {
    /// The valid numeric CNPJ whose first twelve digits are `base` (mod 10^12),
    /// for generated data (demo history, fixtures).
    pub fn from_base(base: u64) -> Cnpj {
        let mut doc: Vec<u8> = format!("{:012}", base % 1_000_000_000_000).into_bytes();
        let first = mod11_digit(&doc, &CNPJ_WEIGHTS[1..]);
        doc.push(b'0' + first as u8);
        let second = mod11_digit(&doc, &CNPJ_WEIGHTS);
        doc.push(b'0' + second as u8);
        Cnpj(String::from_utf8_lossy(&doc).into_owned())
    }

    /// Accepts `XX.XXX.XXX/XXXX-XX` or the bare 14 characters, in either case: the
    /// alphanumeric CNPJ (IN RFB nº 2.229/2024) is assigned from July 2026 and both
    /// formats will coexist, so one parser takes both.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let value = unmask(input, DOCUMENT_MASK).to_ascii_uppercase();
        let b = value.as_bytes();
        let well_formed = b.len() == 14
            && b[..12]
                .iter()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
            && b[12..].iter().all(u8::is_ascii_digit);
        // 00.000.000/0000-00 passes the check digits; see `Cpf::parse`.
        if !well_formed || all_equal(b) || !check_digits_match(b, &CNPJ_WEIGHTS) {
            return Err(ValidationError::Cnpj);
        }
        Ok(Self(value))
    }

    /// The 14 characters, unmasked and in upper case.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Cnpj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.0;
        write!(
            f,
            "{}.{}.{}/{}-{}",
            &c[..2],
            &c[2..5],
            &c[5..8],
            &c[8..12],
            &c[12..]
        )
    }
}

/// A person's or a company's tax number, for fields such as `CPF_CNPJ` that hold either.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CpfCnpj {
    Cpf(Cpf),
    Cnpj(Cnpj),
}

impl CpfCnpj {
    /// Chooses by length once the mask is gone: 11 characters is a CPF, 14 a CNPJ. A
    /// wrong number of the right length gets that document's own message, which tells
    /// the user more than the generic one.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let value = unmask(input, DOCUMENT_MASK);
        match value.chars().count() {
            11 => Cpf::parse(&value).map(Self::Cpf),
            14 => Cnpj::parse(&value).map(Self::Cnpj),
            _ => Err(ValidationError::CpfCnpj),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Self::Cpf(cpf) => cpf.as_str(),
            Self::Cnpj(cnpj) => cnpj.as_str(),
        }
    }
}

impl fmt::Display for CpfCnpj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpf(cpf) => fmt::Display::fmt(cpf, f),
            Self::Cnpj(cnpj) => fmt::Display::fmt(cnpj, f),
        }
    }
}

/// An NF-e access key (chave de acesso): 44 digits, the last a check digit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccessKey(String);

impl AccessKey {
    /// Whitespace is ignored because the DANFE prints the key in groups of four and
    /// that is what users copy.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let key: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        let b = key.as_bytes();
        if b.len() != 44 || !b.iter().all(u8::is_ascii_digit) {
            return Err(ValidationError::AccessKeyIncomplete);
        }
        if char_value(b[43]) != access_key_check_digit(&b[..43]) {
            return Err(ValidationError::AccessKeyCheckDigit);
        }
        Ok(Self(key))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AccessKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The MOC's rule differs from CPF/CNPJ's in its weights (2 to 9, cycling from the
/// right) though it ends the same way: 10 and 11 both become 0.
fn access_key_check_digit(digits: &[u8]) -> u32 {
    let sum: u32 = digits
        .iter()
        .rev()
        .zip((2..=9).cycle())
        .map(|(&c, w)| char_value(c) * w)
        .sum();
    match 11 - sum % 11 {
        10 | 11 => 0,
        digit => digit,
    }
}

/// A mobile phone number: area code and nine digits, 11 in all, as §9 fixes it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phone(String);

impl Phone {
    /// Accepts `(##) #####-####` or the bare 11 digits.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let digits = unmask(input, PHONE_MASK);
        if digits.is_empty() {
            return Err(ValidationError::PhoneEmpty);
        }
        if digits.len() != 11 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(ValidationError::PhoneIncomplete);
        }
        Ok(Self(digits))
    }

    /// The 11 digits, as the WhatsApp link wants them after the country prefix.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        write!(f, "({}) {}-{}", &d[..2], &d[2..7], &d[7..])
    }
}

/// A CEP (postal code): 8 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cep(String);

impl Cep {
    /// Accepts `#####-###`, `##.###-###` or the bare 8 digits.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let digits = unmask(input, CEP_MASK);
        if digits.len() != 8 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(ValidationError::Cep);
        }
        Ok(Self(digits))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Cep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        write!(f, "{}-{}", &d[..5], &d[5..])
    }
}

/// An e-mail address that passes the legacy client's shape check.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// For a required address: empty is invalid. Surrounding whitespace is dropped
    /// because it comes from copying, not from the address.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let address = input.trim();
        if !looks_like_email(address) {
            return Err(ValidationError::Email);
        }
        Ok(Self(address.to_owned()))
    }

    /// For the optional fields of §5, where a blank field is no error: `None`.
    pub fn parse_optional(input: &str) -> Result<Option<Self>, ValidationError> {
        if input.trim().is_empty() {
            return Ok(None);
        }
        Self::parse(input).map(Some)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `^[^\s@]+@[^\s@]+\.[^\s@]+$`, the legacy client's pattern, by hand: deliverability
/// is the mail server's business, this only catches typing slips.
fn looks_like_email(s: &str) -> bool {
    if s.chars().any(char::is_whitespace) {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain
            .char_indices()
            .any(|(i, c)| c == '.' && i > 0 && i + 1 < domain.len())
}

/// A colour as six hex digits, held as `#RRGGBB` in upper case so that one colour has
/// one spelling.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HexColor(String);

impl HexColor {
    /// Accepts six hex digits, with or without a leading '#'.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let trimmed = input.trim();
        let digits = trimmed.strip_prefix('#').unwrap_or(trimmed);
        if digits.len() != 6 || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(ValidationError::HexColor);
        }
        Ok(Self(format!("#{}", digits.to_ascii_uppercase())))
    }

    /// `#RRGGBB`, ready for CSS.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for HexColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses the screen format `dd/MM/yyyy`, the only shape the `##/##/####` mask yields.
/// Checked by hand rather than with chrono's `%d/%m/%Y`, which also takes one-digit
/// days and months and short years, so that '1/2/24' would become 1 February of year 24.
pub fn parse_br_date(input: &str) -> Result<NaiveDate, ValidationError> {
    match input.trim().as_bytes() {
        [d1, d2, b'/', m1, m2, b'/', y1, y2, y3, y4] => {
            real_date(&[*y1, *y2, *y3, *y4], &[*m1, *m2], &[*d1, *d2])
        }
        _ => Err(ValidationError::Date),
    }
}

/// Parses the API format `yyyy-MM-dd`, with the same strictness as [`parse_br_date`].
pub fn parse_api_date(input: &str) -> Result<NaiveDate, ValidationError> {
    match input.trim().as_bytes() {
        [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] => {
            real_date(&[*y1, *y2, *y3, *y4], &[*m1, *m2], &[*d1, *d2])
        }
        _ => Err(ValidationError::Date),
    }
}

/// `dd/MM/yyyy`, as the screens show dates.
pub fn format_br_date(date: NaiveDate) -> String {
    date.format("%d/%m/%Y").to_string()
}

fn real_date(year: &[u8], month: &[u8], day: &[u8]) -> Result<NaiveDate, ValidationError> {
    let (Some(year), Some(month), Some(day)) = (decimal(year), decimal(month), decimal(day)) else {
        return Err(ValidationError::Date);
    };
    // chrono's proleptic calendar has a year 0; the calendar people use goes from 1 BC
    // to AD 1, so a placeholder such as '01/01/0000' must not slip through as a date.
    if year == 0 {
        return Err(ValidationError::Date);
    }
    NaiveDate::from_ymd_opt(i32::from(year), u32::from(month), u32::from(day))
        .ok_or(ValidationError::Date)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected outcome of one input: `Ok(display form)` or `Err(exact message)`.
    type Case<'a> = (&'a str, Result<&'a str, &'a str>);

    fn check<T: fmt::Display>(parse: impl Fn(&str) -> Result<T, ValidationError>, cases: &[Case]) {
        for (input, expected) in cases {
            let got = parse(input)
                .map(|value| value.to_string())
                .map_err(|error| error.to_string());
            let expected = expected.map(str::to_owned).map_err(str::to_owned);
            assert_eq!(got, expected, "input {input:?}");
        }
    }

    #[test]
    fn generic_messages_match_the_spec() {
        let cases = [
            (required("Descrição"), "Descrição é obrigatório!"),
            (max(100, "%"), "Valor Máximo permitido para o campo: 100%"),
            (
                max("1.000,00", ""),
                "Valor Máximo permitido para o campo: 1.000,00",
            ),
            (
                min("Quantidade", 1),
                "O campo Quantidade deve ser maior ou igual a 1 ",
            ),
            (
                min_length("Observação", 10),
                "O campo Observação deve ter no minimo 10 caracteres.",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn only_digits_keeps_ascii_digits() {
        let cases = [
            ("(83) 99999-1234", "83999991234"),
            ("12.ABC.345/01DE-35", "123450135"),
            ("", ""),
            // Full-width digits look like digits but no fiscal system accepts them.
            ("１２３", ""),
        ];
        for (input, expected) in cases {
            assert_eq!(only_digits(input), expected, "input {input:?}");
        }
    }

    #[test]
    fn cpf() {
        check(
            Cpf::parse,
            &[
                // The worked example of the CPF check-digit algorithm, used in the
                // README of the npm `cpf` package (which documents its generator) and in
                // the docs of the Elixir `brdocs` package (BrDocs.CPF.Validator).
                ("111.444.777-35", Ok("111.444.777-35")),
                ("11144477735", Ok("111.444.777-35")),
                // Common test CPF, e.g. in the tests of the npm `cpf-validator` package.
                ("529.982.247-25", Ok("529.982.247-25")),
                // README of @lacussoft/cpf-val. By hand: 1·10+2·9+…+9·2 = 210,
                // 210 % 11 = 1 -> first digit 0; then 255 % 11 = 2 -> 11-2 = 9.
                ("123.456.789-09", Ok("123.456.789-09")),
                ("  529.982.247-25 ", Ok("529.982.247-25")),
                ("529982247/25", Ok("529.982.247-25")),
                // `brdocs` docs: wrong check digits.
                ("111.444.777-30", Err("CPF inválido.")),
                ("111.444.777-53", Err("CPF inválido.")),
                // Wrong first digit with a second digit that is right for it (sum over
                // 1114447774 is 206, 206 % 11 = 8 -> 3): the first must be checked too.
                ("111.444.777-43", Err("CPF inválido.")),
                // 111.111.111-11 satisfies both check digits (54 % 11 = 10 -> 1,
                // 65 % 11 = 10 -> 1): only the all-equal rule rejects it.
                ("111.111.111-11", Err("CPF inválido.")),
                ("000.000.000-00", Err("CPF inválido.")),
                ("1114447773", Err("CPF inválido.")),
                ("111444777350", Err("CPF inválido.")),
                ("", Err("CPF inválido.")),
                ("111.444.777-3a", Err("CPF inválido.")),
                ("111 444 777 35", Err("CPF inválido.")),
                ("１１１４４４７７７３５", Err("CPF inválido.")),
            ],
        );
        assert_eq!(
            Cpf::parse("111.444.777-35").map(|c| c.as_str().to_owned()),
            Ok("11144477735".to_owned())
        );
    }

    #[test]
    fn cnpj() {
        check(
            Cnpj::parse,
            &[
                // Banco do Brasil S.A., published on its investor-relations pages.
                ("00.000.000/0001-91", Ok("00.000.000/0001-91")),
                ("00000000000191", Ok("00.000.000/0001-91")),
                // Petróleo Brasileiro S.A. (Petrobras), printed in its financial
                // statements; the first check digit is 0 through the remainder-below-2
                // rule (121 % 11 = 0).
                ("33.000.167/0001-01", Ok("33.000.167/0001-01")),
                // Caixa Econômica Federal, published on its website.
                ("00.360.305/0001-04", Ok("00.360.305/0001-04")),
                // The alphanumeric example of the Receita Federal's technical note and
                // FAQ on the alphanumeric CNPJ. By hand: first sum 459, 459 % 11 = 8 ->
                // 3; second sum 424, 424 % 11 = 6 -> 5.
                ("12.ABC.345/01DE-35", Ok("12.ABC.345/01DE-35")),
                ("12ABC34501DE35", Ok("12.ABC.345/01DE-35")),
                ("12.abc.345/01de-35", Ok("12.ABC.345/01DE-35")),
                (" 12abc34501de35 ", Ok("12.ABC.345/01DE-35")),
                ("12.ABC.345/01DE-36", Err("CNPJ inválido.")),
                // Wrong first digit, second digit right for it (see the CPF test).
                ("12.ABC.345/01DE-43", Err("CNPJ inválido.")),
                ("00.000.000/0001-92", Err("CNPJ inválido.")),
                ("12.ABC.345/01DE-3A", Err("CNPJ inválido.")),
                // These carry the check digits that ASCII-minus-48 gives them ('[' and
                // ':' both sum to DV 35, '@' to 20), so only the [0-9A-Z] rule rejects
                // them.
                ("12ABC34501D[35", Err("CNPJ inválido.")),
                ("12ABC34501D:35", Err("CNPJ inválido.")),
                ("12ABC34501D@20", Err("CNPJ inválido.")),
                // The DVs lower-case letters would give if not upper-cased first.
                ("12abc34501de05", Err("CNPJ inválido.")),
                // All-equal: passes the check digits (0 -> 0, 0 -> 0).
                ("00.000.000/0000-00", Err("CNPJ inválido.")),
                ("0000000000019", Err("CNPJ inválido.")),
                ("000000000001911", Err("CNPJ inválido.")),
                ("12ÇBC34501DE35", Err("CNPJ inválido.")),
                ("", Err("CNPJ inválido.")),
            ],
        );
        assert_eq!(
            Cnpj::parse("12.abc.345/01de-35").map(|c| c.as_str().to_owned()),
            Ok("12ABC34501DE35".to_owned())
        );
    }

    #[test]
    fn cpf_cnpj_chooses_by_length() {
        check(
            CpfCnpj::parse,
            &[
                // Same public vectors as the `cpf` and `cnpj` tests.
                ("111.444.777-35", Ok("111.444.777-35")),
                ("00.000.000/0001-91", Ok("00.000.000/0001-91")),
                ("12abc34501de35", Ok("12.ABC.345/01DE-35")),
                ("111.444.777-30", Err("CPF inválido.")),
                ("00.000.000/0001-92", Err("CNPJ inválido.")),
                ("123", Err("CPF/CNPJ inválido.")),
                ("", Err("CPF/CNPJ inválido.")),
            ],
        );
        assert!(matches!(CpfCnpj::parse("11144477735"), Ok(CpfCnpj::Cpf(_))));
        assert!(matches!(
            CpfCnpj::parse("00000000000191"),
            Ok(CpfCnpj::Cnpj(_))
        ));
        assert_eq!(
            CpfCnpj::parse("12.ABC.345/01DE-35").map(|d| d.as_str().to_owned()),
            Ok("12ABC34501DE35".to_owned())
        );
    }

    /// The worked example of the access-key check digit in the NF-e "Manual de
    /// Orientação do Contribuinte" (MOC 7.0): weights 2..9 from the right over the first
    /// 43 digits sum to 644, 644 % 11 = 6, 11 - 6 = 5.
    const MOC_KEY: &str = "52060433009911002506550120000007800267301615";

    #[test]
    fn access_key() {
        // Hand-computed: the only non-zero digit, 6, has weight 2: 12 % 11 = 1,
        // 11 - 1 = 10, which becomes 0.
        let ten_becomes_zero = format!("{}60", "0".repeat(42));
        let ten_left_as_is = format!("{}61", "0".repeat(42));
        // Sum 0, 11 - 0 = 11, which becomes 0.
        let eleven_becomes_zero = "0".repeat(44);
        let too_short = &MOC_KEY[..43];
        let too_long = format!("{MOC_KEY}0");
        let with_letter = format!("{}A", &MOC_KEY[..43]);
        let wrong_digit = format!("{}4", &MOC_KEY[..43]);
        check(
            AccessKey::parse,
            &[
                (MOC_KEY, Ok(MOC_KEY)),
                (
                    "5206 0433 0099 1100 2506 5501 2000 0007 8002 6730 1615",
                    Ok(MOC_KEY),
                ),
                (&ten_becomes_zero, Ok(&ten_becomes_zero)),
                (&eleven_becomes_zero, Ok(&eleven_becomes_zero)),
                (&wrong_digit, Err("Número inválido.")),
                (&ten_left_as_is, Err("Número inválido.")),
                (too_short, Err("Número incompleto.")),
                (&too_long, Err("Número incompleto.")),
                (&with_letter, Err("Número incompleto.")),
                ("", Err("Número incompleto.")),
            ],
        );
    }

    #[test]
    fn phone() {
        check(
            Phone::parse,
            &[
                // Invented numbers: phones have no check digit to take from a source.
                ("(83) 99999-1234", Ok("(83) 99999-1234")),
                ("83999991234", Ok("(83) 99999-1234")),
                ("", Err("Número incompleto.")),
                ("   ", Err("Número incompleto.")),
                ("(  )      -    ", Err("Número incompleto.")),
                ("(83) 9999-1234", Err("Número incompleto")),
                ("(83) 99999-12345", Err("Número incompleto")),
                ("(83) 9999A-1234", Err("Número incompleto")),
                ("+55 (83) 99999-1234", Err("Número incompleto")),
            ],
        );
        assert_eq!(
            Phone::parse("(83) 99999-1234").map(|p| p.as_str().to_owned()),
            Ok("83999991234".to_owned())
        );
    }

    #[test]
    fn cep() {
        check(
            Cep::parse,
            &[
                // Avenida Paulista, São Paulo, as the Correios list it.
                ("01310-100", Ok("01310-100")),
                ("01310100", Ok("01310-100")),
                ("01.310-100", Ok("01310-100")),
                ("0131010", Err("CEP inválido.")),
                ("013101000", Err("CEP inválido.")),
                ("01310-10a", Err("CEP inválido.")),
                ("", Err("CEP inválido.")),
            ],
        );
    }

    #[test]
    fn email() {
        check(
            Email::parse,
            &[
                ("financeiro@empresa.com.br", Ok("financeiro@empresa.com.br")),
                (" a@b.c ", Ok("a@b.c")),
                // The pattern only needs some dot with a character on each side.
                ("a@b..c", Ok("a@b..c")),
                ("", Err("E-mail inválido.")),
                ("financeiro", Err("E-mail inválido.")),
                ("financeiro@", Err("E-mail inválido.")),
                ("@empresa.com", Err("E-mail inválido.")),
                ("financeiro@empresa", Err("E-mail inválido.")),
                ("financeiro@.com", Err("E-mail inválido.")),
                ("financeiro@empresa.", Err("E-mail inválido.")),
                ("finan ceiro@empresa.com", Err("E-mail inválido.")),
                ("financeiro@@empresa.com", Err("E-mail inválido.")),
                ("a@b@empresa.com", Err("E-mail inválido.")),
            ],
        );
    }

    #[test]
    fn optional_email_allows_blank() {
        assert_eq!(Email::parse_optional(""), Ok(None));
        assert_eq!(Email::parse_optional("  "), Ok(None));
        assert_eq!(
            Email::parse_optional("a@b.c").map(|e| e.map(|e| e.as_str().to_owned())),
            Ok(Some("a@b.c".to_owned()))
        );
        assert_eq!(
            Email::parse_optional("a@b").map_err(|e| e.to_string()),
            Err("E-mail inválido.".to_owned())
        );
    }

    #[test]
    fn hex_color() {
        check(
            HexColor::parse,
            &[
                // The default theme's primary and error colours (spec §1).
                ("#365998", Ok("#365998")),
                ("#f51515", Ok("#F51515")),
                ("056e6e", Ok("#056E6E")),
                ("#36599", Err("Valor hexadecimal inválido.")),
                ("#3659988", Err("Valor hexadecimal inválido.")),
                ("#36599G", Err("Valor hexadecimal inválido.")),
                ("##365998", Err("Valor hexadecimal inválido.")),
                ("0x365998", Err("Valor hexadecimal inválido.")),
                ("#", Err("Valor hexadecimal inválido.")),
                ("", Err("Valor hexadecimal inválido.")),
            ],
        );
    }

    #[test]
    fn br_date() {
        check(
            |s: &str| parse_br_date(s).map(format_br_date),
            &[
                ("29/02/2024", Ok("29/02/2024")),
                ("31/12/1999", Ok("31/12/1999")),
                ("01/01/0001", Ok("01/01/0001")),
                (" 05/08/2026 ", Ok("05/08/2026")),
                ("29/02/2023", Err("Data inválida")),
                // 1900 is not a leap year (divisible by 100, not by 400).
                ("29/02/1900", Err("Data inválida")),
                ("31/04/2024", Err("Data inválida")),
                ("00/01/2024", Err("Data inválida")),
                ("01/13/2024", Err("Data inválida")),
                ("01/01/0000", Err("Data inválida")),
                ("1/2/2024", Err("Data inválida")),
                ("01/02/24", Err("Data inválida")),
                ("01-02-2024", Err("Data inválida")),
                ("2024-02-01", Err("Data inválida")),
                ("aa/bb/cccc", Err("Data inválida")),
                ("", Err("Data inválida")),
            ],
        );
    }

    #[test]
    fn api_date() {
        check(
            |s: &str| parse_api_date(s).map(format_br_date),
            &[
                ("2024-02-29", Ok("29/02/2024")),
                ("2000-02-29", Ok("29/02/2000")),
                ("2023-02-29", Err("Data inválida")),
                ("2024-2-29", Err("Data inválida")),
                ("+2024-02-29", Err("Data inválida")),
                ("29/02/2024", Err("Data inválida")),
                ("", Err("Data inválida")),
            ],
        );
    }

    #[test]
    fn br_date_round_trips() {
        for (y, m, d) in [(2026, 8, 5), (999, 1, 2), (9999, 12, 31)] {
            let date = NaiveDate::from_ymd_opt(y, m, d).expect("valid test date");
            assert_eq!(parse_br_date(&format_br_date(date)), Ok(date));
        }
        assert_eq!(
            format_br_date(NaiveDate::from_ymd_opt(999, 1, 2).expect("valid test date")),
            "02/01/0999"
        );
    }

    #[test]
    fn generated_cpfs_are_valid() {
        for base in [1u64, 111_444_777, 529_982_247, 999_999_998] {
            let c = Cpf::from_base(base);
            assert_eq!(
                Cpf::parse(c.as_str()).map(|p| p.as_str().to_string()).ok(),
                Some(c.as_str().to_string())
            );
        }
        assert_eq!(Cpf::from_base(111_444_777).as_str(), "11144477735");
    }

    #[test]
    fn generated_cnpjs_are_valid() {
        for base in [1u64, 112_223_330_001, 876_543_210_001, 999_999_999_998] {
            let c = Cnpj::from_base(base);
            assert!(Cnpj::parse(c.as_str()).is_ok(), "{c}");
        }
        // Public vectors.
        assert_eq!(Cnpj::from_base(114_447_770_001).as_str(), "11444777000161");
        assert_eq!(
            Cnpj::from_base(112_223_330_001).to_string(),
            "11.222.333/0001-81"
        );
    }
}
