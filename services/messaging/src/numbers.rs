//! Brazilian WhatsApp numbers as the queue takes them (`MENS_DESTINATARIO`): the
//! country code 55, an area code (DDD) in use, then a mobile number (9 digits
//! starting with 9) or a landline (8 digits starting with 2 to 5). Anything else
//! is 'Número Inválido ou não encontrado!' (screens-and-rules.md §5).

/// The contract's message for a number the queue refuses.
pub const INVALID: &str = "Número Inválido ou não encontrado!";

/// The area codes in use (Anatel's national numbering plan): 67 of them.
pub const DDDS: [u8; 67] = [
    11, 12, 13, 14, 15, 16, 17, 18, 19, // São Paulo
    21, 22, 24, // Rio de Janeiro
    27, 28, // Espírito Santo
    31, 32, 33, 34, 35, 37, 38, // Minas Gerais
    41, 42, 43, 44, 45, 46, // Paraná
    47, 48, 49, // Santa Catarina
    51, 53, 54, 55, // Rio Grande do Sul
    61, // Distrito Federal
    62, 64, // Goiás
    63, // Tocantins
    65, 66, // Mato Grosso
    67, // Mato Grosso do Sul
    68, // Acre
    69, // Rondônia
    71, 73, 74, 75, 77, // Bahia
    79, // Sergipe
    81, 87, // Pernambuco
    82, // Alagoas
    83, // Paraíba
    84, // Rio Grande do Norte
    85, 88, // Ceará
    86, 89, // Piauí
    91, 93, 94, // Pará
    92, 97, // Amazonas
    95, // Roraima
    96, // Amapá
    98, 99, // Maranhão
];

/// What kind of line a number is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    Mobile,
    Landline,
}

/// A valid number: only its digits, 55 first (`5554999876543`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatsappNumber {
    digits: String,
    line: Line,
}

impl WhatsappNumber {
    /// Reads a number as people write it: digits with spaces, `+`, parentheses,
    /// hyphens or dots between them; any other character refuses it.
    pub fn parse(input: &str) -> Result<WhatsappNumber, &'static str> {
        let mut digits = String::with_capacity(13);
        for c in input.trim().chars() {
            match c {
                '0'..='9' => digits.push(c),
                ' ' | '+' | '(' | ')' | '-' | '.' => {}
                _ => return Err(INVALID),
            }
        }
        let rest = digits.strip_prefix("55").ok_or(INVALID)?;
        if rest.len() < 2 {
            return Err(INVALID);
        }
        let ddd: u8 = rest[..2].parse().map_err(|_| INVALID)?;
        if !DDDS.contains(&ddd) {
            return Err(INVALID);
        }
        let subscriber = &rest[2..];
        let first = subscriber.as_bytes().first().copied();
        let line = match (subscriber.len(), first) {
            (9, Some(b'9')) => Line::Mobile,
            (8, Some(b'2'..=b'5')) => Line::Landline,
            _ => return Err(INVALID),
        };
        Ok(WhatsappNumber { digits, line })
    }

    pub fn as_str(&self) -> &str {
        &self.digits
    }

    pub fn line(&self) -> Line {
        self.line
    }

    /// The area code.
    pub fn ddd(&self) -> u8 {
        self.digits[2..4].parse().unwrap_or_default()
    }
}

impl std::fmt::Display for WhatsappNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobiles_and_landlines_with_a_real_ddd_after_55() {
        let n = WhatsappNumber::parse("5554999876543").expect("mobile");
        assert_eq!(
            (n.as_str(), n.line(), n.ddd()),
            ("5554999876543", Line::Mobile, 54)
        );
        let n = WhatsappNumber::parse("+55 (11) 3456-7890").expect("landline");
        assert_eq!((n.as_str(), n.line()), ("551134567890", Line::Landline));
        // DDD 55 (Santa Maria, RS) after the country code 55.
        assert!(WhatsappNumber::parse("5555991234567").is_ok());
        for first in ['2', '3', '4', '5'] {
            assert!(WhatsappNumber::parse(&format!("5551{first}23456789")).is_err());
            assert!(WhatsappNumber::parse(&format!("5551{first}2345678")).is_ok());
        }
    }

    #[test]
    fn everything_else_is_refused_with_the_contracts_message() {
        for bad in [
            "",
            "54999876543",     // no 55
            "1554999876543",   // another country
            "5520999876543",   // DDD 20 does not exist
            "5523999876543",   // nor 23
            "5510999876543",   // nor 10
            "5554899876543",   // 9 digits not starting with 9
            "555499987654",    // 8 digits starting with 9 (a mobile without its 9)
            "555419876543",    // landline starting with 1
            "555469876543",    // landline starting with 6
            "55549998765432",  // too long
            "5554",            // too short
            "55 54 9998a7654", // a letter
            "5554999876543;",  // a separator
        ] {
            assert_eq!(WhatsappNumber::parse(bad), Err(INVALID), "{bad}");
        }
    }

    #[test]
    fn the_ddd_list_has_the_67_codes_in_use_once_each() {
        let mut seen = std::collections::HashSet::new();
        assert!(DDDS
            .iter()
            .all(|d| seen.insert(*d) && (11..=99).contains(d)));
        // No code ends in 0 and the plan skips 20, 23, 25, 26, 29, 30, 36, 39, 40,
        // 50, 52, 56-60, 70, 72, 76, 78, 80, 90.
        for unused in [
            20, 23, 25, 26, 29, 30, 36, 39, 40, 50, 52, 56, 57, 58, 59, 60, 70, 72, 76, 78, 80, 90,
        ] {
            assert!(!DDDS.contains(&unused), "{unused}");
        }
    }
}
