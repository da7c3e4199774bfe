//! The 44-digit access key (chave de acesso) of NF-e, CT-e and MDF-e, built
//! as the SEFAZ layouts define it: cUF (2), AAMM (4), CNPJ/CPF (14), modelo
//! (2), série (3), número (9), tpEmis (1), código numérico (8) and a check
//! digit (modulo 11).

/// The parts of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyParts<'a> {
    pub c_uf: u32,
    /// Year and month of `dhEmi`, `AAMM`.
    pub aamm: &'a str,
    /// CNPJ, or CPF (zero-padded to 14).
    pub cpf_cnpj: &'a str,
    pub modelo: u32,
    pub serie: u32,
    pub numero: u32,
    pub tp_emis: u32,
    /// cNF / cCT / cMDF.
    pub codigo: u32,
}

/// The key, or `None` when a part does not fit its width.
pub fn build(p: &KeyParts<'_>) -> Option<String> {
    let digits: String = p.cpf_cnpj.chars().filter(char::is_ascii_digit).collect();
    if digits.len() > 14
        || p.aamm.len() != 4
        || !p.aamm.bytes().all(|b| b.is_ascii_digit())
        || p.c_uf > 99
        || p.modelo > 99
        || p.serie > 999
        || p.numero > 999_999_999
        || p.tp_emis > 9
        || p.codigo > 99_999_999
    {
        return None;
    }
    let body = format!(
        "{:02}{}{:0>14}{:02}{:03}{:09}{}{:08}",
        p.c_uf, p.aamm, digits, p.modelo, p.serie, p.numero, p.tp_emis, p.codigo
    );
    let dv = check_digit(&body)?;
    Some(format!("{body}{dv}"))
}

/// Modulo 11 with weights 2..9 from the right; remainders 0 and 1 give 0.
pub fn check_digit(digits: &str) -> Option<u32> {
    let mut sum = 0;
    for (i, c) in digits.chars().rev().enumerate() {
        sum += c.to_digit(10)? * (2 + (i as u32 % 8));
    }
    let rest = sum % 11;
    Some(if rest < 2 { 0 } else { 11 - rest })
}

/// Whether `key` has 44 digits and a right check digit.
pub fn is_valid(key: &str) -> bool {
    key.len() == 44
        && key.bytes().all(|b| b.is_ascii_digit())
        && check_digit(&key[..43]).map(|d| d.to_string()) == Some(key[43..].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digit_of_a_published_key() {
        // The example key of the NF-e manual (MOC): its last digit, 5, is the
        // check digit of the 43 before it.
        let key = "52060433009911002506550120000007800267301615";
        assert!(is_valid(key));
        assert_eq!(check_digit(&key[..43]), Some(5));
    }

    #[test]
    fn builds_44_digits_with_a_valid_check_digit() {
        let key = build(&KeyParts {
            c_uf: 35,
            aamm: "2405",
            cpf_cnpj: "12.345.678/0001-95",
            modelo: 55,
            serie: 1,
            numero: 1234,
            tp_emis: 1,
            codigo: 87654321,
        })
        .unwrap();
        assert_eq!(key.len(), 44);
        assert_eq!(&key[..20], "35240512345678000195");
        assert_eq!(&key[20..22], "55");
        assert_eq!(&key[22..25], "001");
        assert_eq!(&key[25..34], "000001234");
        assert_eq!(&key[34..35], "1");
        assert_eq!(&key[35..43], "87654321");
        assert!(is_valid(&key));
        let mut wrong = key.clone();
        wrong.replace_range(43..44, if &key[43..] == "0" { "1" } else { "0" });
        assert!(!is_valid(&wrong));
    }

    #[test]
    fn refuses_parts_that_do_not_fit() {
        let parts = KeyParts {
            c_uf: 35,
            aamm: "2405",
            cpf_cnpj: "12345678000195",
            modelo: 55,
            serie: 1000,
            numero: 1,
            tp_emis: 1,
            codigo: 1,
        };
        assert_eq!(build(&parts), None);
    }
}
