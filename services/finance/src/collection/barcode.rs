//! FEBRABAN boleto (cobrança) barcode, linha digitável and the per-bank free field.
//!
//! A barcode has 44 digits: bank (3), currency `9` (1), general check digit (1),
//! due-date factor (4), amount in cents (10) and a 25-digit free field whose
//! layout each bank defines. The linha digitável (47 digits) carries the same data
//! split in five fields, the first three with a mod-10 check digit each.
//!
//! Non-obvious choices:
//! - **Due-date factor.** The factor counts days since 07/10/1997. Factor 9999 was
//!   21/02/2025 and, by FEBRABAN's rule, the next day (22/02/2025) restarted at
//!   1000, so every 9000 days the same factor repeats. Encoding is therefore
//!   `((days − 1000) mod 9000) + 1000`, defined from 03/07/2000 (factor 1000) on.
//!   Decoding is ambiguous by nature: [`factor_to_date`] picks the cycle whose date
//!   lies nearest to a caller-given reference date (normally "today" or the date
//!   the document was issued); an exact tie goes to the later cycle. Factor `0000`
//!   means "no due date" (boleto sem vencimento); 0001–0999 are invalid.
//! - **General check digit.** Mod 11 over the other 43 digits with weights 2..9
//!   from the right; when `11 − remainder` is 0, 10 or 11 the digit is 1 (a
//!   barcode never carries 0 in that position).
//! - **Amounts** are `Decimal` with two places; an amount with a non-zero third
//!   decimal place is rejected instead of rounded, because silently moving a
//!   cent on a bank slip is worse than refusing it.
//! - The bank-specific check digits (nosso número, beneficiary code) each follow
//!   their bank's manual; remainders that map to special values (Bradesco's `P`,
//!   Santander's remainder 10 → 1, Caixa's "greater than 9 → 0") are documented
//!   next to each function.

use chrono::{Duration, NaiveDate};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Errors of barcode, linha digitável and free-field handling.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BarcodeError {
    #[error("Código de barras inválido: deve ter 44 dígitos, tem {0}.")]
    BarcodeLength(usize),
    #[error("Linha digitável inválida: deve ter 47 dígitos, tem {0}.")]
    LinhaLength(usize),
    #[error("{what} inválido: caractere '{ch}' não é dígito.")]
    NotDigit { what: &'static str, ch: char },
    #[error("Código de barras inválido: moeda '{0}' não suportada (esperado 9 = Real).")]
    Currency(char),
    #[error(
        "Código de barras inválido: dígito verificador geral não confere (esperado {expected}, encontrado {found})."
    )]
    GeneralDigit { expected: u8, found: u8 },
    #[error("Linha digitável inválida: dígito do campo {0} não confere.")]
    FieldDigit(u8),
    #[error("Linha digitável inválida: dígito verificador geral (campo 4) não confere.")]
    LinhaGeneralDigit,
    #[error("Fator de vencimento {0:04} inválido: use 0000 (sem vencimento) ou de 1000 a 9999.")]
    Factor(u16),
    #[error(
        "Data de vencimento {0} anterior a 03/07/2000: fora do alcance do fator de vencimento."
    )]
    DateOutOfRange(NaiveDate),
    #[error(
        "Valor {0} inválido: deve ser positivo, ter no máximo 2 casas decimais e não passar de 99.999.999,99."
    )]
    Amount(Decimal),
    #[error("Campo {field} inválido: {reason}.")]
    Field { field: &'static str, reason: String },
}

type Result<T> = std::result::Result<T, BarcodeError>;

/// Day 0 of the due-date factor (07/10/1997).
const FACTOR_BASE: NaiveDate = match NaiveDate::from_ymd_opt(1997, 10, 7) {
    Some(d) => d,
    None => panic!("data base do fator inválida"),
};
const FACTOR_CYCLE: i64 = 9000;

/// Due-date factor of `date` under the 2025 restart rule (see the module notes).
pub fn due_date_factor(date: NaiveDate) -> Result<u16> {
    let days = (date - FACTOR_BASE).num_days();
    if days < 1000 {
        return Err(BarcodeError::DateOutOfRange(date));
    }
    let factor = (days - 1000) % FACTOR_CYCLE + 1000;
    u16::try_from(factor).map_err(|_| BarcodeError::DateOutOfRange(date))
}

/// Date of a due-date factor, choosing the 9000-day cycle nearest to `reference`
/// (ties go to the later cycle). `Ok(None)` for factor 0 (no due date).
pub fn factor_to_date(factor: u16, reference: NaiveDate) -> Result<Option<NaiveDate>> {
    match factor {
        0 => Ok(None),
        1000..=9999 => {
            let first = FACTOR_BASE + Duration::days(i64::from(factor));
            let offset = (reference - first).num_days();
            let cycles = if offset <= 0 {
                0
            } else {
                (offset + FACTOR_CYCLE / 2) / FACTOR_CYCLE
            };
            Ok(Some(first + Duration::days(cycles * FACTOR_CYCLE)))
        }
        other => Err(BarcodeError::Factor(other)),
    }
}

/// Mod 10 check digit (weights 2,1 from the right, products above 9 have their
/// digits added), as used by each linha digitável field and Itaú's DAC.
pub fn mod10(digits: &str) -> u8 {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            let p = if i % 2 == 0 { d * 2 } else { d };
            if p > 9 {
                p - 9
            } else {
                p
            }
        })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

/// Weighted sum with weights 2..=`max_weight` cycling from the right.
fn mod11_sum(digits: &str, max_weight: u32) -> u32 {
    digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * (2 + (i as u32) % (max_weight - 1)))
        .sum()
}

/// General check digit of a barcode from its other 43 digits.
fn general_digit(digits43: &str) -> u8 {
    let dv = 11 - mod11_sum(digits43, 9) % 11;
    if dv == 0 || dv >= 10 {
        1
    } else {
        dv as u8
    }
}

/// Caixa's mod 11 (weights 2..9): `11 − remainder`, and any result above 9 is 0.
/// Used for the beneficiary code, the free-field digit and the nosso número.
pub fn caixa_dv(digits: &str) -> Result<u8> {
    let digits = only_digits("número", digits)?;
    let dv = 11 - mod11_sum(&digits, 9) % 11;
    Ok(if dv > 9 { 0 } else { dv as u8 })
}

/// Itaú nosso número DAC: mod 10 over agência (4) + conta (5) + carteira (3) +
/// nosso número (8); for carteiras 126, 131, 146, 150 and 168 the manual leaves
/// agência and conta out.
pub fn itau_nosso_numero_dv(
    agencia: &str,
    conta: &str,
    carteira: &str,
    nosso_numero: &str,
) -> Result<u8> {
    let carteira = pad("carteira", carteira, 3)?;
    let nn = pad("nosso número", nosso_numero, 8)?;
    let base = if matches!(carteira.as_str(), "126" | "131" | "146" | "150" | "168") {
        format!("{carteira}{nn}")
    } else {
        format!(
            "{}{}{carteira}{nn}",
            pad("agência", agencia, 4)?,
            pad("conta", conta, 5)?
        )
    };
    Ok(mod10(&base))
}

/// Bradesco nosso número digit: mod 11 with weights 2..7 over carteira (2) +
/// nosso número (11). Remainder 0 gives `'0'`, remainder 1 gives `'P'`,
/// otherwise `11 − remainder`.
pub fn bradesco_nosso_numero_dv(carteira: &str, nosso_numero: &str) -> Result<char> {
    let base = format!(
        "{}{}",
        pad("carteira", carteira, 2)?,
        pad("nosso número", nosso_numero, 11)?
    );
    Ok(match mod11_sum(&base, 7) % 11 {
        0 => '0',
        1 => 'P',
        r => char::from(b'0' + (11 - r) as u8),
    })
}

/// Santander nosso número digit: mod 11 with weights 2..9 over the 12-digit
/// number; remainder 0 or 1 gives 0, remainder 10 gives 1, otherwise `11 − r`.
pub fn santander_nosso_numero_dv(nosso_numero: &str) -> Result<u8> {
    let base = pad("nosso número", nosso_numero, 12)?;
    Ok(match mod11_sum(&base, 9) % 11 {
        0 | 1 => 0,
        10 => 1,
        r => (11 - r) as u8,
    })
}

/// Sicoob nosso número digit: agência (4) + código do cliente (10) + nosso número
/// (7), weights 3,1,9,7 repeated from the left; remainder 0 or 1 gives 0,
/// otherwise `11 − remainder`.
pub fn sicoob_nosso_numero_dv(agencia: &str, cliente: &str, nosso_numero: &str) -> Result<u8> {
    let base = format!(
        "{}{}{}",
        pad("agência", agencia, 4)?,
        pad("código do cliente", cliente, 10)?,
        pad("nosso número", nosso_numero, 7)?
    );
    const WEIGHTS: [u32; 4] = [3, 1, 9, 7];
    let sum: u32 = base
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * WEIGHTS[i % 4])
        .sum();
    Ok(match sum % 11 {
        0 | 1 => 0,
        r => (11 - r) as u8,
    })
}

/// Checks that `value` holds only digits and returns it without surrounding spaces.
fn only_digits(field: &'static str, value: &str) -> Result<String> {
    let value = value.trim();
    if let Some(ch) = value.chars().find(|c| !c.is_ascii_digit()) {
        return Err(BarcodeError::Field {
            field,
            reason: format!("caractere '{ch}' não é dígito"),
        });
    }
    if value.is_empty() {
        return Err(BarcodeError::Field { field, reason: "vazio".to_string() });
    }
    Ok(value.to_string())
}

/// Left-pads a numeric field with zeros to `width`, refusing longer values.
fn pad(field: &'static str, value: &str, width: usize) -> Result<String> {
    let value = only_digits(field, value)?;
    if value.len() > width {
        return Err(BarcodeError::Field {
            field,
            reason: format!("tem {} dígitos, o máximo é {width}", value.len()),
        });
    }
    Ok(format!("{value:0>width$}"))
}

/// Inputs of the 25-digit free field, one variant per supported bank. Numeric
/// inputs are digit strings; shorter values are zero-padded on the left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FreeFieldInput {
    /// Banco do Brasil (001). The convênio length selects the layout: 4 digits
    /// (nosso número of 7), 6 digits (nosso número of 5, or of 17 with carteira
    /// 16/18 and service code 21) or 7 digits (nosso número of 10, carteira 17/18).
    BancoDoBrasil {
        convenio: String,
        nosso_numero: String,
        agencia: String,
        conta: String,
        carteira: String,
    },
    /// Itaú (341), carteiras with the standard layout (109, 112, 175, …).
    Itau {
        carteira: String,
        nosso_numero: String,
        agencia: String,
        conta: String,
    },
    /// Bradesco (237).
    Bradesco {
        agencia: String,
        carteira: String,
        nosso_numero: String,
        conta: String,
    },
    /// Caixa (104), SIGCB: 6-digit beneficiary code and a 15-digit nosso número;
    /// `registrada` selects constant 1 (registered) or 2, emission is always 4
    /// (by the beneficiary).
    Caixa {
        beneficiario: String,
        nosso_numero: String,
        registrada: bool,
    },
    /// Santander (033): 7-digit beneficiary code, 12-digit nosso número (its
    /// digit is computed here), IOS (0 for most companies) and carteira (101, 102…).
    Santander {
        beneficiario: String,
        nosso_numero: String,
        ios: String,
        carteira: String,
    },
    /// Sicoob (756): carteira (1), cooperativa/agência (4), modalidade (2), client
    /// code (7), nosso número of 7 (its digit is computed here) and parcela (3).
    Sicoob {
        carteira: String,
        agencia: String,
        modalidade: String,
        cliente: String,
        nosso_numero: String,
        parcela: String,
    },
}

impl FreeFieldInput {
    /// Compensation code of the bank.
    pub fn bank_code(&self) -> &'static str {
        match self {
            FreeFieldInput::BancoDoBrasil { .. } => "001",
            FreeFieldInput::Itau { .. } => "341",
            FreeFieldInput::Bradesco { .. } => "237",
            FreeFieldInput::Caixa { .. } => "104",
            FreeFieldInput::Santander { .. } => "033",
            FreeFieldInput::Sicoob { .. } => "756",
        }
    }

    /// The 25-digit free field.
    pub fn free_field(&self) -> Result<String> {
        match self {
            FreeFieldInput::BancoDoBrasil { convenio, nosso_numero, agencia, conta, carteira } => {
                bb_free_field(convenio, nosso_numero, agencia, conta, carteira)
            }
            FreeFieldInput::Itau { carteira, nosso_numero, agencia, conta } => {
                let dac_nn = itau_nosso_numero_dv(agencia, conta, carteira, nosso_numero)?;
                let ag = pad("agência", agencia, 4)?;
                let cc = pad("conta", conta, 5)?;
                let dac_conta = mod10(&format!("{ag}{cc}"));
                Ok(format!(
                    "{}{}{dac_nn}{ag}{cc}{dac_conta}000",
                    pad("carteira", carteira, 3)?,
                    pad("nosso número", nosso_numero, 8)?
                ))
            }
            FreeFieldInput::Bradesco { agencia, carteira, nosso_numero, conta } => Ok(format!(
                "{}{}{}{}0",
                pad("agência", agencia, 4)?,
                pad("carteira", carteira, 2)?,
                pad("nosso número", nosso_numero, 11)?,
                pad("conta", conta, 7)?
            )),
            FreeFieldInput::Caixa { beneficiario, nosso_numero, registrada } => {
                let ben = pad("código do beneficiário", beneficiario, 6)?;
                let nn = pad("nosso número", nosso_numero, 15)?;
                let kind = if *registrada { '1' } else { '2' };
                let body = format!(
                    "{ben}{}{}{kind}{}4{}",
                    caixa_dv(&ben)?,
                    &nn[0..3],
                    &nn[3..6],
                    &nn[6..15]
                );
                Ok(format!("{body}{}", caixa_dv(&body)?))
            }
            FreeFieldInput::Santander { beneficiario, nosso_numero, ios, carteira } => {
                let nn = pad("nosso número", nosso_numero, 12)?;
                Ok(format!(
                    "9{}{nn}{}{}{}",
                    pad("código do beneficiário", beneficiario, 7)?,
                    santander_nosso_numero_dv(&nn)?,
                    pad("IOS", ios, 1)?,
                    pad("carteira", carteira, 3)?
                ))
            }
            FreeFieldInput::Sicoob {
                carteira,
                agencia,
                modalidade,
                cliente,
                nosso_numero,
                parcela,
            } => Ok(format!(
                "{}{}{}{}{}{}{}",
                pad("carteira", carteira, 1)?,
                pad("agência", agencia, 4)?,
                pad("modalidade", modalidade, 2)?,
                pad("código do cliente", cliente, 7)?,
                pad("nosso número", nosso_numero, 7)?,
                sicoob_nosso_numero_dv(agencia, cliente, nosso_numero)?,
                pad("parcela", parcela, 3)?
            )),
        }
    }
}

fn bb_free_field(
    convenio: &str,
    nosso_numero: &str,
    agencia: &str,
    conta: &str,
    carteira: &str,
) -> Result<String> {
    let conv = only_digits("convênio", convenio)?;
    let nn = only_digits("nosso número", nosso_numero)?;
    let cart = pad("carteira", carteira, 2)?;
    let tail = || -> Result<String> {
        Ok(format!(
            "{}{}{cart}",
            pad("agência", agencia, 4)?,
            pad("conta", conta, 8)?
        ))
    };
    match conv.len() {
        4 => Ok(format!("{conv}{}{}", pad("nosso número", &nn, 7)?, tail()?)),
        6 if nn.len() <= 5 => Ok(format!("{conv}{}{}", pad("nosso número", &nn, 5)?, tail()?)),
        6 if cart == "16" || cart == "18" => {
            Ok(format!("{conv}{}21", pad("nosso número", &nn, 17)?))
        }
        6 => Err(BarcodeError::Field {
            field: "nosso número",
            reason: format!(
                "nosso número de 17 dígitos só é permitido nas carteiras 16 e 18 (carteira {cart})"
            ),
        }),
        7 => Ok(format!(
            "000000{conv}{}{cart}",
            pad("nosso número", &nn, 10)?
        )),
        n => Err(BarcodeError::Field {
            field: "convênio",
            reason: format!("Banco do Brasil aceita convênio de 4, 6 ou 7 dígitos (tem {n})"),
        }),
    }
}

fn amount_to_cents(amount: Decimal) -> Result<u64> {
    if amount.is_sign_negative() || amount.round_dp(2) != amount {
        return Err(BarcodeError::Amount(amount));
    }
    let cents = (amount * Decimal::ONE_HUNDRED)
        .to_u64()
        .ok_or(BarcodeError::Amount(amount))?;
    if cents > 9_999_999_999 {
        return Err(BarcodeError::Amount(amount));
    }
    Ok(cents)
}

fn cents_to_amount(digits: &str) -> Decimal {
    // Callers pass 10 validated digits, which always fit in an i64.
    let cents: i64 = digits
        .bytes()
        .fold(0, |acc, b| acc * 10 + i64::from(b - b'0'));
    Decimal::new(cents, 2)
}

fn digits_of(what: &'static str, input: &str, separators: &[char]) -> Result<String> {
    let mut out = String::with_capacity(input.len());
    for ch in input.trim().chars() {
        if ch.is_ascii_digit() {
            out.push(ch);
        } else if !separators.contains(&ch) {
            return Err(BarcodeError::NotDigit { what, ch });
        }
    }
    Ok(out)
}

/// A validated 44-digit boleto barcode.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Barcode(String);

impl Barcode {
    /// Builds a barcode from its parts; `due_date` `None` writes factor 0000.
    pub fn build(
        bank: &str,
        due_date: Option<NaiveDate>,
        amount: Decimal,
        free_field: &str,
    ) -> Result<Self> {
        let bank = pad("banco", bank, 3)?;
        let free = only_digits("campo livre", free_field)?;
        if free.len() != 25 {
            return Err(BarcodeError::Field {
                field: "campo livre",
                reason: format!("deve ter 25 dígitos, tem {}", free.len()),
            });
        }
        let factor = match due_date {
            Some(d) => due_date_factor(d)?,
            None => 0,
        };
        let cents = amount_to_cents(amount)?;
        let body = format!("{bank}9{factor:04}{cents:010}{free}");
        let dv = general_digit(&body);
        Ok(Barcode(format!("{}{dv}{}", &body[..4], &body[4..])))
    }

    /// Builds the barcode of a slip of one of the supported banks.
    pub fn from_slip(
        input: &FreeFieldInput,
        due_date: Option<NaiveDate>,
        amount: Decimal,
    ) -> Result<Self> {
        Barcode::build(input.bank_code(), due_date, amount, &input.free_field()?)
    }

    /// Parses and validates a barcode (digits only; surrounding spaces ignored).
    pub fn parse(code: &str) -> Result<Self> {
        let digits = digits_of("Código de barras", code, &[])?;
        if digits.len() != 44 {
            return Err(BarcodeError::BarcodeLength(digits.len()));
        }
        let currency = char::from(digits.as_bytes()[3]);
        if currency != '9' {
            return Err(BarcodeError::Currency(currency));
        }
        let found = digits.as_bytes()[4] - b'0';
        let expected = general_digit(&format!("{}{}", &digits[..4], &digits[5..]));
        if found != expected {
            return Err(BarcodeError::GeneralDigit { expected, found });
        }
        let barcode = Barcode(digits);
        let factor = barcode.due_factor();
        if factor != 0 && factor < 1000 {
            return Err(BarcodeError::Factor(factor));
        }
        Ok(barcode)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Bank compensation code (3 digits).
    pub fn bank(&self) -> &str {
        &self.0[0..3]
    }

    pub fn check_digit(&self) -> u8 {
        self.0.as_bytes()[4] - b'0'
    }

    pub fn due_factor(&self) -> u16 {
        self.0[5..9]
            .bytes()
            .fold(0, |acc, b| acc * 10 + u16::from(b - b'0'))
    }

    /// Due date, resolving the factor cycle nearest to `reference`; `None` when
    /// the slip has no due date (factor 0000).
    pub fn due_date(&self, reference: NaiveDate) -> Option<NaiveDate> {
        // The factor was validated by `parse`/`build`, so only 0 or 1000..=9999 reach here.
        factor_to_date(self.due_factor(), reference).unwrap_or(None)
    }

    pub fn amount(&self) -> Decimal {
        cents_to_amount(&self.0[9..19])
    }

    pub fn free_field(&self) -> &str {
        &self.0[19..44]
    }

    /// The 47-digit linha digitável of this barcode.
    pub fn to_linha(&self) -> LinhaDigitavel {
        let b = &self.0;
        let f1 = format!("{}{}", &b[0..4], &b[19..24]);
        let f2 = &b[24..34];
        let f3 = &b[34..44];
        LinhaDigitavel(format!(
            "{f1}{}{f2}{}{f3}{}{}{}",
            mod10(&f1),
            mod10(f2),
            mod10(f3),
            &b[4..5],
            &b[5..19]
        ))
    }
}

/// A validated 47-digit linha digitável.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LinhaDigitavel(String);

impl LinhaDigitavel {
    /// Parses a linha digitável, accepting the usual dots and spaces, and checks
    /// the three field digits and the general digit.
    pub fn parse(linha: &str) -> Result<Self> {
        let digits = digits_of("Linha digitável", linha, &['.', ' ', '-'])?;
        if digits.len() != 47 {
            return Err(BarcodeError::LinhaLength(digits.len()));
        }
        let fields = [(0usize, 9usize, 1u8), (10, 20, 2), (21, 31, 3)];
        for (start, end, number) in fields {
            let expected = mod10(&digits[start..end]);
            if digits.as_bytes()[end] - b'0' != expected {
                return Err(BarcodeError::FieldDigit(number));
            }
        }
        let linha = LinhaDigitavel(digits);
        match Barcode::parse(&linha.barcode_digits()) {
            Ok(_) => Ok(linha),
            Err(BarcodeError::GeneralDigit { .. }) => Err(BarcodeError::LinhaGeneralDigit),
            Err(other) => Err(other),
        }
    }

    fn barcode_digits(&self) -> String {
        let l = &self.0;
        format!(
            "{}{}{}{}{}{}",
            &l[0..4],
            &l[32..33],
            &l[33..47],
            &l[4..9],
            &l[10..20],
            &l[21..31]
        )
    }

    /// The barcode this line encodes (already validated by `parse`).
    pub fn to_barcode(&self) -> Barcode {
        Barcode(self.barcode_digits())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Printed form `AAABC.CCCCX DDDDD.DDDDDY EEEEE.EEEEEZ K UUUUVVVVVVVVVV`.
    pub fn formatted(&self) -> String {
        let l = &self.0;
        format!(
            "{}.{} {}.{} {}.{} {} {}",
            &l[0..5],
            &l[5..10],
            &l[10..15],
            &l[15..21],
            &l[21..26],
            &l[26..32],
            &l[32..33],
            &l[33..47]
        )
    }

    pub fn amount(&self) -> Decimal {
        cents_to_amount(&self.0[37..47])
    }

    /// Due date, resolving the factor cycle nearest to `reference`.
    pub fn due_date(&self, reference: NaiveDate) -> Option<NaiveDate> {
        self.to_barcode().due_date(reference)
    }
}

/// Linha digitável of a barcode given as text (validating it first).
pub fn barcode_to_linha(barcode: &str) -> Result<LinhaDigitavel> {
    Ok(Barcode::parse(barcode)?.to_linha())
}

/// Barcode of a linha digitável given as text (validating every digit first).
pub fn linha_to_barcode(linha: &str) -> Result<Barcode> {
    Ok(LinhaDigitavel::parse(linha)?.to_barcode())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    /// Barcode ↔ linha ↔ amount ↔ due date must agree both ways.
    fn assert_vector(
        barcode: &str,
        linha: &str,
        amount: &str,
        due: Option<NaiveDate>,
        reference: NaiveDate,
    ) {
        let b = Barcode::parse(barcode).unwrap();
        let l = LinhaDigitavel::parse(linha).unwrap();
        assert_eq!(b.to_linha(), l, "barcode → linha");
        assert_eq!(l.to_barcode(), b, "linha → barcode");
        assert_eq!(b.amount(), dec(amount));
        assert_eq!(l.amount(), dec(amount));
        assert_eq!(b.due_date(reference), due);
        assert_eq!(l.due_date(reference), due);
        if linha.contains('.') {
            assert_eq!(l.formatted(), linha);
        }
    }

    // pyboleto (eduardocereto/pyboleto), tests/test_banco_do_brasil.py:
    // convênio 7777777 (7 digits), carteira 18, agência 9999, conta 99999,
    // nosso número 87654, 2952.95 due 08/03/2011.
    #[test]
    fn banco_do_brasil_convenio_7_pyboleto() {
        let input = FreeFieldInput::BancoDoBrasil {
            convenio: "7777777".into(),
            nosso_numero: "87654".into(),
            agencia: "9999".into(),
            conta: "99999".into(),
            carteira: "18".into(),
        };
        let b = Barcode::from_slip(&input, Some(date(2011, 3, 8)), dec("2952.95")).unwrap();
        assert_eq!(b.as_str(), "00196490000002952950000007777777000008765418");
        assert_vector(
            b.as_str(),
            "00190.00009 07777.777009 00087.654182 6 49000000295295",
            "2952.95",
            Some(date(2011, 3, 8)),
            date(2011, 3, 1),
        );
    }

    // brcobranca (kivanio/brcobranca), spec/brcobranca/boleto/banco_brasil_spec.rb:
    // agência 4042, conta 61900, carteira 18 (16 for the 17-digit case), 135.00 due 01/02/2008.
    #[test]
    fn banco_do_brasil_convenio_4_and_6_brcobranca() {
        let bb = |convenio: &str, nn: &str, carteira: &str| FreeFieldInput::BancoDoBrasil {
            convenio: convenio.into(),
            nosso_numero: nn.into(),
            agencia: "4042".into(),
            conta: "61900".into(),
            carteira: carteira.into(),
        };
        let due = Some(date(2008, 2, 1));
        let cases = [
            (
                bb("1238", "123456", "18"),
                "00191376900000135001238012345640420006190018",
                "00191.23801 12345.640424 00061.900189 1 37690000013500",
            ),
            (
                bb("123879", "1234", "18"),
                "00192376900000135001238790123440420006190018",
                "00191.23876 90123.440423 00061.900189 2 37690000013500",
            ),
            (
                bb("123879", "1234567899", "16"),
                "00199376900000135001238790000000123456789921",
                "00191.23876 90000.000126 34567.899215 9 37690000013500",
            ),
        ];
        for (input, barcode, linha) in cases {
            let b = Barcode::from_slip(&input, due, dec("135.00")).unwrap();
            assert_eq!(b.as_str(), barcode);
            assert_vector(barcode, linha, "135.00", due, date(2008, 1, 1));
        }
        // Same suite: a 17-digit nosso número is refused outside carteiras 16/18.
        let err = bb("123879", "1234567899", "17").free_field().unwrap_err();
        assert!(err.to_string().contains("carteiras 16 e 18"), "{err}");
    }

    // pyboleto, tests/test_banco_itau.py: carteira 109, agência 0293, conta 01328,
    // nosso número 157 (DAC 1), agência/conta DAC 0, 29.80 due 19/10/2009.
    #[test]
    fn itau_pyboleto() {
        assert_eq!(
            itau_nosso_numero_dv("0293", "01328", "109", "157").unwrap(),
            1
        );
        assert_eq!(mod10("029301328"), 0);
        let input = FreeFieldInput::Itau {
            carteira: "109".into(),
            nosso_numero: "157".into(),
            agencia: "0293".into(),
            conta: "01328".into(),
        };
        let b = Barcode::from_slip(&input, Some(date(2009, 10, 19)), dec("29.80")).unwrap();
        assert_eq!(b.as_str(), "34199439500000029801090000015710293013280000");
        assert_vector(
            b.as_str(),
            "34191.09008 00015.710296 30132.800001 9 43950000002980",
            "29.80",
            Some(date(2009, 10, 19)),
            date(2009, 10, 1),
        );
    }

    // pyboleto, tests/test_banco_bradesco.py: carteira 06, agência 0278, conta 0039232,
    // nosso número 2125525, 8280.00 due 05/02/2011.
    #[test]
    fn bradesco_pyboleto() {
        let input = FreeFieldInput::Bradesco {
            agencia: "278".into(),
            carteira: "06".into(),
            nosso_numero: "2125525".into(),
            conta: "039232".into(),
        };
        let b = Barcode::from_slip(&input, Some(date(2011, 2, 5)), dec("8280.00")).unwrap();
        assert_eq!(b.as_str(), "23794486900008280000278060000212552500392320");
        assert_vector(
            b.as_str(),
            "23790.27804 60000.212559 25003.923205 4 48690000828000",
            "8280.00",
            Some(date(2011, 2, 5)),
            date(2011, 1, 18),
        );
    }

    // brcobranca, spec/brcobranca/boleto/bradesco_spec.rb ("Montar nosso_numero_boleto").
    #[test]
    fn bradesco_nosso_numero_digit_brcobranca() {
        let cases = [
            ("06", "00000000525", 'P'),
            ("09", "00000000001", '1'),
            ("19", "00000000002", '8'),
            ("19", "6", '0'),
            ("19", "00000000001", 'P'),
        ];
        for (carteira, nn, dv) in cases {
            assert_eq!(
                bradesco_nosso_numero_dv(carteira, nn).unwrap(),
                dv,
                "{carteira}/{nn}"
            );
        }
    }

    // Caixa SIGCB.
    // brcobranca, spec/brcobranca/boleto/caixa_spec.rb: convênio 245274 (DV 0),
    // nosso número 000000000000001 → second part 2452740000100040000000017 and
    // nosso número "14000000000000001-4".
    // boleto-utils (mrmgomes/boleto-utils), test/test.js: the Caixa slip
    // 10499898100000214032006561000100040099726390 / 10492006506100010004200997263900989810000021403,
    // 214.03 due 10/05/2022.
    #[test]
    fn caixa_sigcb_brcobranca_and_boleto_utils() {
        assert_eq!(caixa_dv("245274").unwrap(), 0);
        assert_eq!(caixa_dv("14000000000000001").unwrap(), 4);
        let input = FreeFieldInput::Caixa {
            beneficiario: "245274".into(),
            nosso_numero: "1".into(),
            registrada: true,
        };
        assert_eq!(input.free_field().unwrap(), "2452740000100040000000017");

        let input = FreeFieldInput::Caixa {
            beneficiario: "200656".into(),
            nosso_numero: "000000009972639".into(),
            registrada: true,
        };
        let b = Barcode::from_slip(&input, Some(date(2022, 5, 10)), dec("214.03")).unwrap();
        assert_eq!(b.as_str(), "10499898100000214032006561000100040099726390");
        assert_vector(
            b.as_str(),
            "10492006506100010004200997263900989810000021403",
            "214.03",
            Some(date(2022, 5, 10)),
            date(2022, 5, 1),
        );
    }

    // pyboleto, tests/test_banco_santander.py: beneficiário 0707077, nosso número
    // 1234567 (formatted 000001234567-9), IOS 0, carteira 102, 2952.95 due 22/07/2012.
    #[test]
    fn santander_pyboleto() {
        assert_eq!(santander_nosso_numero_dv("000001234567").unwrap(), 9);
        let input = FreeFieldInput::Santander {
            beneficiario: "0707077".into(),
            nosso_numero: "1234567".into(),
            ios: "0".into(),
            carteira: "102".into(),
        };
        let b = Barcode::from_slip(&input, Some(date(2012, 7, 22)), dec("2952.95")).unwrap();
        assert_eq!(b.as_str(), "03395540200002952959070707700000123456790102");
        assert_vector(
            b.as_str(),
            "03399.07073 07700.000123 34567.901029 5 54020000295295",
            "2952.95",
            Some(date(2012, 7, 22)),
            date(2012, 7, 17),
        );
    }

    // boleto-utils (fernandosavio/boleto-utils, the Rust port), boleto-utils/tests/lib_test.rs:
    // Sicoob barcode 75696903800002500001434301033723400014933001 (factor 9038 = 06/07/2022,
    // check digit 6): carteira 1, cooperativa 4343, modalidade 01, cliente 0337234,
    // nosso número 0001493 + DV 3, parcela 001, amount 2500.00.
    #[test]
    fn sicoob_boleto_utils() {
        assert_eq!(sicoob_nosso_numero_dv("4343", "337234", "1493").unwrap(), 3);
        let input = FreeFieldInput::Sicoob {
            carteira: "1".into(),
            agencia: "4343".into(),
            modalidade: "01".into(),
            cliente: "0337234".into(),
            nosso_numero: "1493".into(),
            parcela: "001".into(),
        };
        let b = Barcode::from_slip(&input, Some(date(2022, 7, 6)), dec("2500.00")).unwrap();
        assert_eq!(b.as_str(), "75696903800002500001434301033723400014933001");
        assert_eq!(b.check_digit(), 6);
        assert_eq!(b.due_factor(), 9038);
        let l = b.to_linha();
        assert_eq!(LinhaDigitavel::parse(l.as_str()).unwrap().to_barcode(), b);
    }

    // boleto-utils (fernandosavio/boleto-utils), boleto-utils/tests/lib_test.rs,
    // fator_vencimento_validation: factor ↔ date across the 2025 restart.
    #[test]
    fn factor_vectors_boleto_utils() {
        let cases = [
            (1000, date(2025, 2, 22)),
            (1002, date(2025, 2, 24)),
            (1667, date(2026, 12, 21)),
            (9999, date(2025, 2, 21)),
            (4789, date(2010, 11, 17)),
            (9038, date(2022, 7, 6)),
            (6679, date(2016, 1, 20)),
            (5862, date(2013, 10, 25)),
            (8967, date(2022, 4, 26)),
            (6720, date(2016, 3, 1)),
        ];
        for (factor, day) in cases {
            assert_eq!(due_date_factor(day).unwrap(), factor, "{day}");
            // Decoding with a reference a few days before the due date picks its cycle.
            let reference = day - Duration::days(10);
            assert_eq!(
                factor_to_date(factor, reference).unwrap(),
                Some(day),
                "{factor}"
            );
        }
        // Same suite: 0 means no due date; 0001 and 0999 are invalid.
        assert_eq!(factor_to_date(0, date(2026, 1, 1)).unwrap(), None);
        assert_eq!(
            factor_to_date(1, date(2026, 1, 1)),
            Err(BarcodeError::Factor(1))
        );
        assert_eq!(
            factor_to_date(999, date(2026, 1, 1)),
            Err(BarcodeError::Factor(999))
        );
        // A barcode whose check digit is right but whose factor is 0001.
        let body = "1119000155555555556666666666666666666666666";
        let bad = format!("{}{}{}", &body[..4], general_digit(body), &body[4..]);
        assert_eq!(Barcode::parse(&bad), Err(BarcodeError::Factor(1)));
    }

    #[test]
    fn factor_cycle_is_chosen_by_reference_date() {
        // Factor 4789 is 17/11/2010 or, one cycle later, 17/11/2010 + 9000 days.
        let later = date(2010, 11, 17) + Duration::days(9000);
        assert_eq!(later, date(2035, 7, 9));
        assert_eq!(
            factor_to_date(4789, date(2011, 1, 1)).unwrap(),
            Some(date(2010, 11, 17))
        );
        assert_eq!(factor_to_date(4789, date(2030, 1, 1)).unwrap(), Some(later));
        // Exactly half a cycle away from both: the later cycle wins.
        let midpoint = date(2010, 11, 17) + Duration::days(4500);
        assert_eq!(factor_to_date(4789, midpoint).unwrap(), Some(later));
        // An old slip (2016, factor 6720) decodes right when read near its date,
        // and a 2026 slip (factor 1667) decodes to 2026, not to 2001.
        assert_eq!(
            factor_to_date(6720, date(2016, 2, 1)).unwrap(),
            Some(date(2016, 3, 1))
        );
        assert_eq!(
            factor_to_date(1667, date(2026, 11, 1)).unwrap(),
            Some(date(2026, 12, 21))
        );
        assert_eq!(
            factor_to_date(1667, date(2001, 1, 1)).unwrap(),
            Some(date(2002, 5, 1))
        );
        assert!(matches!(
            due_date_factor(date(2000, 7, 2)),
            Err(BarcodeError::DateOutOfRange(_))
        ));
    }

    // boleto-utils (fernandosavio/boleto-utils), boleto-utils/tests/lib_test.rs,
    // digito_verificador_validation: real barcodes and their general check digit.
    #[test]
    fn general_digit_vectors_boleto_utils() {
        let cases = [
            ("10499898100000214032006561000100040099726390", 9),
            ("75696903800002500001434301033723400014933001", 6),
            ("00191667900002434790000002656973019362470618", 1),
            ("00195586200000773520000002464206011816073018", 5),
            ("75592896700003787000003389850761252543475984", 2),
            ("23791672000003249052028269705944177105205220", 1),
            ("23791672000003097902028060007024617500249000", 1),
        ];
        for (code, dv) in cases {
            let b = Barcode::parse(code).unwrap();
            assert_eq!(b.check_digit(), dv, "{code}");
            // Round trip through the linha digitável.
            assert_eq!(
                linha_to_barcode(barcode_to_linha(code).unwrap().as_str()).unwrap(),
                b
            );
        }
        let b = Barcode::parse("00191667900002434790000002656973019362470618").unwrap();
        assert_eq!(b.amount(), dec("2434.79"));
        assert_eq!(b.due_date(date(2016, 1, 1)), Some(date(2016, 1, 20)));
    }

    #[test]
    fn invalid_inputs_are_rejected_with_pt_br_messages() {
        // Field 2 digit of the pyboleto Itaú line changed from 6 to 7.
        let err = LinhaDigitavel::parse("34191.09008 00015.710297 30132.800001 9 43950000002980")
            .unwrap_err();
        assert_eq!(err, BarcodeError::FieldDigit(2));
        assert_eq!(
            err.to_string(),
            "Linha digitável inválida: dígito do campo 2 não confere."
        );
        // General digit changed from 9 to 8.
        let err = LinhaDigitavel::parse("34191.09008 00015.710296 30132.800001 8 43950000002980")
            .unwrap_err();
        assert_eq!(err, BarcodeError::LinhaGeneralDigit);
        let err = Barcode::parse("34199439500000029801090000015710293013280001").unwrap_err();
        assert!(matches!(err, BarcodeError::GeneralDigit { .. }));
        assert_eq!(
            Barcode::parse("1234").unwrap_err(),
            BarcodeError::BarcodeLength(4)
        );
        assert!(matches!(
            Barcode::parse("3419943950000002980109000001571029301328000X"),
            Err(BarcodeError::NotDigit { ch: 'X', .. })
        ));
        assert_eq!(
            Barcode::build("341", None, dec("1.005"), "1090000015710293013280000").unwrap_err(),
            BarcodeError::Amount(dec("1.005"))
        );
        assert!(Barcode::build("341", None, dec("-1"), "1090000015710293013280000").is_err());
        assert!(Barcode::build(
            "341",
            None,
            dec("100000000.00"),
            "1090000015710293013280000"
        )
        .is_err());
    }

    #[test]
    fn slip_without_due_date_and_maximum_amount() {
        let b =
            Barcode::build("341", None, dec("99999999.99"), "1090000015710293013280000").unwrap();
        assert_eq!(b.due_factor(), 0);
        assert_eq!(b.due_date(date(2026, 1, 1)), None);
        assert_eq!(b.amount(), dec("99999999.99"));
        assert_eq!(
            LinhaDigitavel::parse(b.to_linha().as_str())
                .unwrap()
                .to_barcode(),
            b
        );
    }

    #[test]
    fn post_2025_slip_round_trips() {
        let input = FreeFieldInput::Itau {
            carteira: "109".into(),
            nosso_numero: "12345678".into(),
            agencia: "0293".into(),
            conta: "01328".into(),
        };
        let due = date(2026, 12, 21);
        let b = Barcode::from_slip(&input, Some(due), dec("1500.10")).unwrap();
        assert_eq!(b.due_factor(), 1667);
        let l = b.to_linha();
        let again = LinhaDigitavel::parse(&l.formatted()).unwrap();
        assert_eq!(again.to_barcode(), b);
        assert_eq!(again.due_date(date(2026, 11, 15)), Some(due));
        assert_eq!(again.amount(), dec("1500.10"));
    }
}
