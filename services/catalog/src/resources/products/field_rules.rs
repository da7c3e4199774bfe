//! Field rules of the product registers that the generic kinds do not cover:
//! GTIN/EAN check digits, NCM and CEST codes, unit abbreviations. They run in
//! `before_write`, so a body is parsed into the stored form before validation:
//! `ProductRules` on the grid, barcodes and units, and the product register's own
//! hooks (`product_hooks`) through `barcode`, `ncm` and `cest`.

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

pub const BARCODE_MSG: &str = "Código de barras inválido.";
pub const NCM_MSG: &str = "NCM inválido.";
pub const CEST_MSG: &str = "CEST inválido.";

/// True for a GTIN with a right GS1 check digit. EAN-13 and EAN-8 are what the
/// barcode reader produces; GTIN-12 (UPC-A) and GTIN-14 (logistic units, boxes)
/// are accepted too because NF-e items (cEAN/cEANTrib) carry them.
pub fn is_gtin(code: &str) -> bool {
    let Some(digits) = code
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<Vec<u32>>>()
    else {
        return false;
    };
    let Some((check, body)) = digits.split_last() else {
        return false;
    };
    if !matches!(digits.len(), 8 | 12 | 13 | 14) {
        return false;
    }
    // Weights 3, 1, 3, ... from the digit next to the check digit leftwards.
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { d * 3 } else { *d })
        .sum();
    (10 - sum % 10) % 10 == *check
}

/// A body value as trimmed text; blank (or absent) is `None`, so optional fields
/// stay optional.
pub fn text_of(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

/// A barcode as stored: trimmed, with a right GS1 check digit ('Código de barras
/// inválido.').
pub fn barcode(code: &str) -> Result<String> {
    let code = code.trim();
    if is_gtin(code) {
        Ok(code.to_string())
    } else {
        Err(Error::validation(BARCODE_MSG))
    }
}

/// An NCM as stored: its 8 digits ('NCM inválido.').
pub fn ncm(code: &str) -> Result<String> {
    code_digits(code, 8, NCM_MSG)
}

/// A CEST as stored: its 7 digits ('CEST inválido.').
pub fn cest(code: &str) -> Result<String> {
    code_digits(code, 7, CEST_MSG)
}

/// Codes typed with their usual punctuation (`8471.30.12`, `28.038.00`) are
/// stored as digits; anything else than digits and punctuation is refused.
fn code_digits(s: &str, len: usize, msg: &str) -> Result<String> {
    let digits: String = s
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | ' '))
        .collect();
    if digits.len() == len && digits.chars().all(|c| c.is_ascii_digit()) {
        Ok(digits)
    } else {
        Err(Error::validation(msg))
    }
}

/// Which fields of a register get which rule.
#[derive(Default)]
pub struct ProductRules {
    pub barcodes: &'static [&'static str],
    pub ncm: Option<&'static str>,
    pub cest: Option<&'static str>,
    /// Abbreviations such as units are kept upper-case (`kg` is `KG` on an NF-e).
    pub upper: &'static [&'static str],
}

#[async_trait]
impl Hooks for ProductRules {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        for name in self.barcodes {
            if let Some(code) = text_of(body.get(*name)) {
                body.insert((*name).into(), Value::from(barcode(&code)?));
            }
        }
        let rules: [(Option<&str>, fn(&str) -> Result<String>); 2] =
            [(self.ncm, ncm), (self.cest, cest)];
        for (name, rule) in rules {
            let Some(name) = name else { continue };
            if let Some(code) = text_of(body.get(name)) {
                body.insert(name.into(), Value::from(rule(&code)?));
            }
        }
        for name in self.upper {
            if let Some(s) = text_of(body.get(*name)) {
                body.insert((*name).into(), Value::from(s.to_uppercase()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtin_check_digits() {
        // GS1's own worked example (EAN-13 629104150021 -> 3) and hand-computed
        // codes of each accepted length.
        for ok in [
            "6291041500213",
            "7891000315507",
            "12345670",
            "036000291452",
            "00012345678905",
        ] {
            assert!(is_gtin(ok), "{ok}");
        }
        for bad in [
            "6291041500214",
            "7891000315508",
            "12345671",
            "789100031550",
            "78910003155070",
            "1234567",
            "",
            "789100031550a",
            "７８９１０００３１５５０７",
        ] {
            assert!(!is_gtin(bad), "{bad}");
        }
    }

    #[test]
    fn codes_keep_only_digits() {
        assert_eq!(
            code_digits("8471.30.12", 8, NCM_MSG).ok(),
            Some("84713012".into())
        );
        assert_eq!(
            code_digits("28.038.00", 7, CEST_MSG).ok(),
            Some("2803800".into())
        );
        assert!(code_digits("8471.30.1", 8, NCM_MSG).is_err());
        assert!(code_digits("8471A012", 8, NCM_MSG).is_err());
    }
}
