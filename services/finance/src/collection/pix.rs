//! PIX BR Code (EMV® QRCPS merchant-presented mode), static payloads: generator
//! and TLV parser.
//!
//! A BR Code is a list of `ID (2 digits) + length (2 digits) + value` fields; field
//! 26 nests the PIX account data (GUI `br.gov.bcb.pix`, key, optional description)
//! and field 62 nests the txid (`***` when there is none). The last field is
//! `6304` + CRC16-CCITT (poly 0x1021, init 0xFFFF, no reflection, no final XOR),
//! computed over the whole payload *including* the literal `6304`.
//!
//! Non-obvious choices:
//! - Text fields are transliterated to ASCII (accents removed) because many
//!   banking apps reject or garble anything else; upper-casing is a flag because
//!   the Banco Central's own example keeps "Fulano de Tal" in mixed case, while
//!   most banks print names in capitals.
//! - Merchant name and city are truncated to 25 and 15 characters (what banks do
//!   with long legal names); the txid is never truncated — it identifies the
//!   payment, so an invalid one is an error.
//! - TLV lengths count characters, not bytes (payloads seen in the wild carry
//!   "BRASÍLIA" with length 08), while the CRC runs over the UTF-8 bytes.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Errors of BR Code generation and parsing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PixError {
    #[error("BR Code inválido: campo {0} é obrigatório e não foi informado.")]
    Missing(&'static str),
    #[error("BR Code inválido: {field} com {len} caracteres excede o máximo de {max}.")]
    TooLong {
        field: &'static str,
        len: usize,
        max: usize,
    },
    #[error(
        "BR Code inválido: txid '{0}' deve ter até 25 caracteres alfanuméricos (A-Z, a-z, 0-9)."
    )]
    Txid(String),
    #[error("BR Code inválido: valor {0} deve ser positivo e ter no máximo 2 casas decimais.")]
    Amount(String),
    #[error("BR Code inválido: caractere '{ch}' não permitido em {field}.")]
    Character { field: &'static str, ch: char },
    #[error("BR Code inválido: estrutura TLV quebrada na posição {position}: {reason}.")]
    Tlv { position: usize, reason: String },
    #[error("BR Code inválido: CRC não confere (informado {found}, calculado {expected}).")]
    Crc { expected: String, found: String },
    #[error("BR Code inválido: campo {field} com valor '{value}' inesperado.")]
    Value { field: &'static str, value: String },
}

type Result<T> = std::result::Result<T, PixError>;

const GUI: &str = "br.gov.bcb.pix";

/// CRC16-CCITT (poly 0x1021, init 0xFFFF), as required for field 63.
pub fn crc16_ccitt(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &byte in data {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// Removes accents (Portuguese and common Latin-1 letters) and optionally
/// upper-cases; any other non-ASCII character is an error.
pub fn normalize_text(field: &'static str, text: &str, upper_case: bool) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    for ch in text.trim().chars() {
        let plain = match ch {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => 'A',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => 'O',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
            'ç' => 'c',
            'Ç' => 'C',
            'ñ' => 'n',
            'Ñ' => 'N',
            c if c.is_ascii() && !c.is_ascii_control() => c,
            c => return Err(PixError::Character { field, ch: c }),
        };
        out.push(if upper_case {
            plain.to_ascii_uppercase()
        } else {
            plain
        });
    }
    Ok(out)
}

/// Data of a static PIX charge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticPix {
    /// PIX key (CPF, CNPJ, e-mail, +55 phone or random key), up to 77 characters.
    pub key: String,
    /// Message shown to the payer (field 26-02); accents removed.
    pub description: Option<String>,
    /// Merchant name; accents removed, truncated to 25 characters.
    pub merchant_name: String,
    /// Merchant city; accents removed, truncated to 15 characters.
    pub merchant_city: String,
    /// Amount; `None` lets the payer type it.
    pub amount: Option<Decimal>,
    /// Transaction id, up to 25 alphanumeric characters; `None` writes `***`.
    pub txid: Option<String>,
    /// Upper-case name, city and description (most banks print them so).
    pub upper_case: bool,
}

fn tlv(id: &str, value: &str) -> Result<String> {
    let len = value.chars().count();
    if len > 99 {
        return Err(PixError::TooLong { field: "campo TLV", len, max: 99 });
    }
    Ok(format!("{id}{len:02}{value}"))
}

fn truncate(text: String, max: usize) -> String {
    text.chars().take(max).collect()
}

impl StaticPix {
    /// The "copia e cola" payload, CRC included.
    pub fn payload(&self) -> Result<String> {
        let key = self.key.trim();
        if key.is_empty() {
            return Err(PixError::Missing("chave PIX"));
        }
        if key.chars().count() > 77 {
            return Err(PixError::TooLong {
                field: "chave PIX",
                len: key.chars().count(),
                max: 77,
            });
        }
        let mut account = tlv("00", GUI)? + &tlv("01", key)?;
        if let Some(desc) = self.description.as_deref().filter(|d| !d.trim().is_empty()) {
            let desc = normalize_text("descrição", desc, self.upper_case)?;
            account += &tlv("02", &desc)?;
        }
        if account.len() > 99 {
            return Err(PixError::TooLong {
                field: "chave + descrição (campo 26)",
                len: account.len(),
                max: 99,
            });
        }
        let name = truncate(
            normalize_text("nome do recebedor", &self.merchant_name, self.upper_case)?,
            25,
        );
        let city = truncate(
            normalize_text("cidade", &self.merchant_city, self.upper_case)?,
            15,
        );
        if name.is_empty() {
            return Err(PixError::Missing("nome do recebedor"));
        }
        if city.is_empty() {
            return Err(PixError::Missing("cidade"));
        }
        let txid = match self.txid.as_deref().map(str::trim) {
            None | Some("") => "***".to_string(),
            Some(t) if t.len() <= 25 && t.chars().all(|c| c.is_ascii_alphanumeric()) => {
                t.to_string()
            }
            Some(t) => return Err(PixError::Txid(t.to_string())),
        };

        let mut out = tlv("00", "01")?;
        out += &tlv("26", &account)?;
        out += &tlv("52", "0000")?;
        out += &tlv("53", "986")?;
        if let Some(amount) = self.amount {
            out += &tlv("54", &format_amount(amount)?)?;
        }
        out += &tlv("58", "BR")?;
        out += &tlv("59", &name)?;
        out += &tlv("60", &city)?;
        out += &tlv("62", &tlv("05", &txid)?)?;
        out += "6304";
        let crc = crc16_ccitt(out.as_bytes());
        Ok(format!("{out}{crc:04X}"))
    }
}

fn format_amount(amount: Decimal) -> Result<String> {
    if amount <= Decimal::ZERO || amount.round_dp(2) != amount {
        return Err(PixError::Amount(amount.to_string()));
    }
    let mut a = amount;
    a.rescale(2);
    Ok(a.to_string())
}

/// One TLV field of a payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tlv {
    pub id: String,
    pub value: String,
}

/// Splits a TLV string (lengths in characters) into its fields.
pub fn decode_tlv(input: &str) -> Result<Vec<Tlv>> {
    let chars: Vec<char> = input.chars().collect();
    let mut fields = Vec::new();
    let mut pos = 0;
    while pos < chars.len() {
        if pos + 4 > chars.len() {
            return Err(PixError::Tlv {
                position: pos,
                reason: "cabeçalho de campo incompleto".to_string(),
            });
        }
        let id: String = chars[pos..pos + 2].iter().collect();
        let len_text: String = chars[pos + 2..pos + 4].iter().collect();
        if !id.chars().all(|c| c.is_ascii_digit()) || !len_text.chars().all(|c| c.is_ascii_digit())
        {
            return Err(PixError::Tlv {
                position: pos,
                reason: format!("identificador/tamanho '{id}{len_text}' não numérico"),
            });
        }
        let len: usize = len_text.parse().map_err(|_| PixError::Tlv {
            position: pos,
            reason: format!("tamanho '{len_text}' inválido"),
        })?;
        let start = pos + 4;
        if start + len > chars.len() {
            return Err(PixError::Tlv {
                position: pos,
                reason: format!("campo {id} declara {len} caracteres além do fim"),
            });
        }
        fields.push(Tlv { id, value: chars[start..start + len].iter().collect() });
        pos = start + len;
    }
    Ok(fields)
}

/// A decoded BR Code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrCode {
    pub payload_format: String,
    /// Field 01: `11` reusable (static) or `12` single use.
    pub point_of_initiation: Option<String>,
    pub gui: String,
    pub key: Option<String>,
    pub description: Option<String>,
    /// Location of a dynamic charge (field 26-25).
    pub url: Option<String>,
    pub merchant_category_code: String,
    pub currency: String,
    pub amount: Option<Decimal>,
    pub country: String,
    pub merchant_name: String,
    pub merchant_city: String,
    pub postal_code: Option<String>,
    /// `None` when the payload carries `***`.
    pub txid: Option<String>,
    pub crc: String,
}

fn find<'a>(fields: &'a [Tlv], id: &str) -> Option<&'a str> {
    fields.iter().find(|f| f.id == id).map(|f| f.value.as_str())
}

fn required<'a>(fields: &'a [Tlv], id: &str, name: &'static str) -> Result<&'a str> {
    find(fields, id).ok_or(PixError::Missing(name))
}

/// Parses a BR Code, validating its CRC and the mandatory fields.
pub fn parse_brcode(payload: &str) -> Result<BrCode> {
    let payload = payload.trim();
    let split = payload
        .char_indices()
        .rev()
        .nth(3)
        .map(|(i, _)| i)
        .ok_or(PixError::Missing("CRC (63)"))?;
    let (body, crc_text) = payload.split_at(split);
    if !body.ends_with("6304") {
        return Err(PixError::Missing("CRC (63)"));
    }
    let expected = format!("{:04X}", crc16_ccitt(body.as_bytes()));
    if !crc_text.eq_ignore_ascii_case(&expected) {
        return Err(PixError::Crc { expected, found: crc_text.to_string() });
    }
    let fields = decode_tlv(payload)?;
    let account_field = fields
        .iter()
        .filter(|f| matches!(f.id.parse::<u8>(), Ok(26..=51)))
        .find_map(|f| {
            decode_tlv(&f.value)
                .ok()
                .filter(|inner| find(inner, "00").is_some_and(|gui| gui.eq_ignore_ascii_case(GUI)))
        })
        .ok_or(PixError::Missing("informações da conta PIX (26)"))?;
    let payload_format = required(&fields, "00", "indicador de formato (00)")?;
    if payload_format != "01" {
        return Err(PixError::Value {
            field: "indicador de formato (00)",
            value: payload_format.to_string(),
        });
    }
    let amount = match find(&fields, "54") {
        None => None,
        Some(text) => {
            let cleaned = text.strip_suffix('.').unwrap_or(text);
            Some(Decimal::from_str(cleaned).map_err(|_| PixError::Amount(text.to_string()))?)
        }
    };
    let additional = match find(&fields, "62") {
        Some(v) => decode_tlv(v)?,
        None => Vec::new(),
    };
    let txid = find(&additional, "05")
        .filter(|t| *t != "***")
        .map(str::to_string);
    Ok(BrCode {
        payload_format: payload_format.to_string(),
        point_of_initiation: find(&fields, "01").map(str::to_string),
        gui: find(&account_field, "00").unwrap_or(GUI).to_string(),
        key: find(&account_field, "01").map(str::to_string),
        description: find(&account_field, "02").map(str::to_string),
        url: find(&account_field, "25").map(str::to_string),
        merchant_category_code: required(&fields, "52", "MCC (52)")?.to_string(),
        currency: required(&fields, "53", "moeda (53)")?.to_string(),
        amount,
        country: required(&fields, "58", "país (58)")?.to_string(),
        merchant_name: required(&fields, "59", "nome do recebedor (59)")?.to_string(),
        merchant_city: required(&fields, "60", "cidade (60)")?.to_string(),
        postal_code: find(&fields, "61").map(str::to_string),
        txid,
        crc: crc_text.to_ascii_uppercase(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn crc_check_value() {
        // The catalogued check value of CRC-16/CCITT-FALSE for "123456789".
        assert_eq!(crc16_ccitt(b"123456789"), 0x29B1);
    }

    // Banco Central, "Manual de Padrões para Iniciação do Pix", static example; the same
    // string is asserted in stone-payments/ex-pix-brcode, test/ex_pix_brcode/decoder_test.exs
    // ("succeeds on BACEN example").
    const BCB_EXAMPLE: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    #[test]
    fn bcb_manual_example_generated_byte_for_byte() {
        let pix = StaticPix {
            key: "123e4567-e12b-12d1-a456-426655440000".into(),
            description: None,
            merchant_name: "Fulano de Tal".into(),
            merchant_city: "BRASILIA".into(),
            amount: None,
            txid: None,
            upper_case: false,
        };
        assert_eq!(pix.payload().unwrap(), BCB_EXAMPLE);
        let parsed = parse_brcode(BCB_EXAMPLE).unwrap();
        assert_eq!(
            parsed.key.as_deref(),
            Some("123e4567-e12b-12d1-a456-426655440000")
        );
        assert_eq!(parsed.merchant_name, "Fulano de Tal");
        assert_eq!(parsed.merchant_city, "BRASILIA");
        assert_eq!(parsed.amount, None);
        assert_eq!(parsed.txid, None);
        assert_eq!(parsed.crc, "1D3D");
        assert_eq!(parsed.currency, "986");
    }

    // thalesog/pix-utils, tests/creator.test.ts ("should be able to create a static pix from
    // mandatory fields") with the expected STATIC_TEST_EMV from tests/emvCodes.ts: accents are
    // removed from the city, the amount 10 is written 10.00 and the description goes in 26-02.
    #[test]
    fn pix_utils_static_vector() {
        let expected = "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63044367";
        let pix = StaticPix {
            key: "thalesog@me.com".into(),
            description: Some("Pedido 123".into()),
            merchant_name: "Thales Ogliari".into(),
            merchant_city: "SÃO MIGUÉL DO O".into(),
            amount: Some(dec("10")),
            txid: None,
            upper_case: false,
        };
        assert_eq!(pix.payload().unwrap(), expected);
        let parsed = parse_brcode(expected).unwrap();
        assert_eq!(parsed.description.as_deref(), Some("Pedido 123"));
        assert_eq!(parsed.amount, Some(dec("10.00")));
        // STATIC_TEST_NO_VALUE_ELEMENT_EMV of the same file: no field 54 at all.
        let no_amount = "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 1235204000053039865802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63042C6B";
        let pix = StaticPix { amount: None, ..pix };
        assert_eq!(pix.payload().unwrap(), no_amount);
        assert_eq!(parse_brcode(no_amount).unwrap().amount, None);
    }

    // starkbank/brcode-python, tests/brcode/testStaticBrcode.py: amount 12500 cents,
    // city "São Paulo" → "Sao Paulo", txid 1297364819273409.
    #[test]
    fn starkbank_static_vector() {
        let expected = "00020126360014br.gov.bcb.pix0114arya@stark.com5204000053039865406125.005802BR5910Arya Stark6009Sao Paulo622005161297364819273409630440F2";
        let pix = StaticPix {
            key: "arya@stark.com".into(),
            description: None,
            merchant_name: "Arya Stark".into(),
            merchant_city: "São Paulo".into(),
            amount: Some(dec("125.00")),
            txid: Some("1297364819273409".into()),
            upper_case: false,
        };
        assert_eq!(pix.payload().unwrap(), expected);
        let parsed = parse_brcode(expected).unwrap();
        assert_eq!(parsed.txid.as_deref(), Some("1297364819273409"));
        assert_eq!(parsed.amount, Some(dec("125.00")));
    }

    // stone-payments/ex-pix-brcode, test/ex_pix_brcode/decoder_test.exs: payloads from
    // financial institutions (upper-case GUI, txid, postal code 61, accented city, dynamic URL).
    #[test]
    fn stone_decoder_vectors() {
        let p = parse_brcode("00020126580014BR.GOV.BCB.PIX013611111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925TESTE DO TESTE DO TESTEIE6009SAO PAULO6226052211111111111111111111116304642D").unwrap();
        assert_eq!(p.gui, "BR.GOV.BCB.PIX");
        assert_eq!(p.amount, Some(dec("0.01")));
        assert_eq!(p.txid.as_deref(), Some("1111111111111111111111"));
        assert_eq!(p.merchant_name, "TESTE DO TESTE DO TESTEIE");

        let p = parse_brcode("00020126580014BR.GOV.BCB.PIX013611111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925Teste do Teste do TesteIE6009SAO PAULO61081111111162160512NUgpnvaS87Ts6304760E").unwrap();
        assert_eq!(p.postal_code.as_deref(), Some("11111111"));
        assert_eq!(p.txid.as_deref(), Some("NUgpnvaS87Ts"));

        let p = parse_brcode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASÍLIA62070503***6304B4F6").unwrap();
        assert_eq!(p.merchant_city, "BRASÍLIA");

        let p = parse_brcode("00020101021226850014br.gov.bcb.pix2563exemplodeurl.com.br/pix/v2/11111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925TESTE DE TESTE DO TESTEIE6014RIO DE JANEIRO62070503***6304CD52").unwrap();
        assert_eq!(p.point_of_initiation.as_deref(), Some("12"));
        assert_eq!(
            p.url.as_deref(),
            Some("exemplodeurl.com.br/pix/v2/11111111-1111-1111-1111-111111111111")
        );
        assert_eq!(p.key, None);
    }

    #[test]
    fn corrupted_payloads_are_rejected() {
        let mut broken = BCB_EXAMPLE.replace("Fulano", "Fulana");
        let err = parse_brcode(&broken).unwrap_err();
        assert!(matches!(err, PixError::Crc { ref found, .. } if found == "1D3D"));
        assert!(err
            .to_string()
            .starts_with("BR Code inválido: CRC não confere"));
        broken = BCB_EXAMPLE.trim_end_matches("63041D3D").to_string();
        assert_eq!(parse_brcode(&broken), Err(PixError::Missing("CRC (63)")));
        // A length that runs past the end, with a CRC that matches the broken text.
        let body = "00020126990014br.gov.bcb.pix6304";
        let payload = format!("{body}{:04X}", crc16_ccitt(body.as_bytes()));
        assert!(matches!(
            parse_brcode(&payload),
            Err(PixError::Tlv { position: 6, .. })
        ));
    }

    #[test]
    fn generated_payload_is_normalized_and_parses_back() {
        let pix = StaticPix {
            key: "+5561998765432".into(),
            description: Some("Ação nº 7".replace('º', "o")),
            merchant_name: "Padaria São João da Esquina Ltda ME".into(),
            merchant_city: "São José dos Campos".into(),
            amount: Some(dec("1234.5")),
            txid: Some("PEDIDO42".into()),
            upper_case: true,
        };
        let payload = pix.payload().unwrap();
        let parsed = parse_brcode(&payload).unwrap();
        assert_eq!(parsed.merchant_name, "PADARIA SAO JOAO DA ESQUI");
        assert_eq!(parsed.merchant_city, "SAO JOSE DOS CA");
        assert_eq!(parsed.description.as_deref(), Some("ACAO NO 7"));
        assert_eq!(parsed.amount, Some(dec("1234.50")));
        assert!(payload.contains("54071234.50"));
        assert_eq!(parsed.txid.as_deref(), Some("PEDIDO42"));
        assert_eq!(parsed.key.as_deref(), Some("+5561998765432"));
    }

    #[test]
    fn invalid_inputs_are_refused() {
        let base = StaticPix {
            key: "chave@exemplo.com".into(),
            description: None,
            merchant_name: "Loja".into(),
            merchant_city: "Recife".into(),
            amount: None,
            txid: None,
            upper_case: true,
        };
        let bad_txid = StaticPix { txid: Some("PEDIDO-42".into()), ..base.clone() };
        assert_eq!(bad_txid.payload(), Err(PixError::Txid("PEDIDO-42".into())));
        let long_txid = StaticPix { txid: Some("A".repeat(26)), ..base.clone() };
        assert!(matches!(long_txid.payload(), Err(PixError::Txid(_))));
        let bad_amount = StaticPix { amount: Some(dec("10.005")), ..base.clone() };
        assert!(matches!(bad_amount.payload(), Err(PixError::Amount(_))));
        let no_key = StaticPix { key: " ".into(), ..base.clone() };
        assert_eq!(no_key.payload(), Err(PixError::Missing("chave PIX")));
        let emoji = StaticPix { merchant_name: "Loja 😀".into(), ..base };
        assert!(matches!(
            emoji.payload(),
            Err(PixError::Character { ch: '😀', .. })
        ));
    }
}
