//! The documents of a vehicle: the plate (old or Mercosul), the chassis (VIN) and
//! the RENAVAM, each parsed into its stored form.

use erp_platform::{validators, Error, Result};

/// A Brazilian plate, old (AAA9999) or Mercosul (AAA9A99), stored upper case
/// without the hyphen.
pub(crate) fn plate(s: &str) -> Result<String> {
    let p: String = s
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .collect::<String>()
        .to_uppercase();
    let b = p.as_bytes();
    let ok = b.len() == 7
        && b[..3].iter().all(u8::is_ascii_uppercase)
        && b[3].is_ascii_digit()
        && (b[4].is_ascii_digit() || b[4].is_ascii_uppercase())
        && b[5..].iter().all(u8::is_ascii_digit);
    if ok {
        Ok(p)
    } else {
        Err(Error::validation("Placa inválida."))
    }
}

/// A VIN: 17 letters and digits, never I, O or Q (they read as 1 and 0).
pub(crate) fn chassis(s: &str) -> Result<String> {
    let c: String = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let ok = c.len() == 17
        && c.bytes()
            .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"IOQ".contains(&b)));
    if ok {
        Ok(c)
    } else {
        Err(Error::validation("Chassi inválido."))
    }
}

/// RENAVAM: 11 digits (the old 9-digit numbers take two leading zeros), the last a
/// modulo-11 check digit over the first ten with weights 3,2,9,8,7,6,5,4,3,2.
pub(crate) fn renavam(s: &str) -> Result<String> {
    let bad = || Error::validation("RENAVAM inválido.");
    let mut d = validators::only_digits(s);
    if s.chars()
        .any(|c| !(c.is_ascii_digit() || matches!(c, '.' | '-' | ' ')))
    {
        return Err(bad());
    }
    if d.len() == 9 {
        d.insert_str(0, "00");
    }
    let b = d.as_bytes();
    if b.len() != 11 || b.iter().all(|c| *c == b[0]) {
        return Err(bad());
    }
    let sum: u32 = b[..10]
        .iter()
        .zip([3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        .map(|(c, w)| u32::from(c - b'0') * w)
        .sum();
    let dv = match 11 - sum % 11 {
        10 | 11 => 0,
        n => n,
    };
    if u32::from(b[10] - b'0') == dv {
        Ok(d)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T>(r: Result<T>) -> Option<String> {
        r.err().map(|e| e.to_string())
    }

    #[test]
    fn plates_old_and_mercosul() {
        assert_eq!(plate("abc-1234").ok(), Some("ABC1234".into()));
        assert_eq!(plate("BRA2E19").ok(), Some("BRA2E19".into()));
        assert_eq!(plate(" bra 2e19 ").ok(), Some("BRA2E19".into()));
        for bad in [
            "AB1234", "ABC12345", "1BC1234", "ABCD234", "ABC1A2B", "ÁBC1234",
        ] {
            assert_eq!(msg(plate(bad)), Some("Placa inválida.".into()), "{bad}");
        }
    }

    #[test]
    fn chassis_has_17_characters_without_i_o_q() {
        assert_eq!(
            chassis("9bwzzz377vt004251").ok(),
            Some("9BWZZZ377VT004251".into())
        );
        for bad in ["9BWZZZ377VT00425", "9BWZZZ377VT0042O1", "9BWZZZ377VT00425-"] {
            assert_eq!(msg(chassis(bad)), Some("Chassi inválido.".into()), "{bad}");
        }
    }

    #[test]
    fn renavam_check_digit() {
        for good in ["00639884962", "639884962", "86769597308", "35298206229"] {
            assert!(renavam(good).is_ok(), "{good}");
        }
        assert_eq!(renavam("639884962").ok(), Some("00639884962".into()));
        for bad in ["00639884963", "11111111111", "1234", "0063988496a"] {
            assert_eq!(msg(renavam(bad)), Some("RENAVAM inválido.".into()), "{bad}");
        }
    }
}
