//! What an NF-e XML (`nfeProc` or a bare `NFe`) and its access key say, for
//! the NF-e manifest (an uploaded NF-e) and the fake provider's distribution
//! (an NF-e issued against a company).

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;

/// The access key's parts (cUF, AAMM, CNPJ, mod, serie, nNF, tpEmis, cNF, cDV).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessKey {
    pub key: String,
    pub cnpj: String,
    pub modelo: u32,
    pub serie: i32,
    pub numero: i64,
}

impl AccessKey {
    /// 44 digits whose last one is the modulo-11 check digit of the others.
    pub fn parse(raw: &str) -> Option<AccessKey> {
        let key = raw.trim().trim_start_matches("NFe");
        if key.len() != 44 || !key.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits: Vec<u32> = key.bytes().map(|b| u32::from(b - b'0')).collect();
        if check_digit(&digits[..43]) != digits[43] {
            return None;
        }
        Some(AccessKey {
            key: key.to_string(),
            cnpj: key[6..20].to_string(),
            modelo: key[20..22].parse().ok()?,
            serie: key[22..25].parse().ok()?,
            numero: key[25..34].parse().ok()?,
        })
    }
}

/// The SEFAZ's modulo 11 with weights 2..9 from the right; 0 or 1 rest -> 0.
fn check_digit(digits: &[u32]) -> u32 {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| d * (2 + (i as u32 % 8)))
        .sum();
    match sum % 11 {
        0 | 1 => 0,
        r => 11 - r,
    }
}

/// The header of an NF-e: key, emitter, total, date and protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct NfeHeader {
    pub key: AccessKey,
    pub emitente_cnpj: String,
    pub emitente_nome: String,
    pub emitente_ie: String,
    pub valor: Decimal,
    pub emissao: Option<DateTime<FixedOffset>>,
    /// `nProt` of an `nfeProc`; `None` for a bare `NFe`.
    pub protocolo: Option<String>,
    /// `tpNF`: 0 entrada, 1 saída.
    pub tipo: Option<i32>,
    /// `dest`'s CNPJ or CPF.
    pub destinatario: String,
}

impl NfeHeader {
    /// Reads an NF-e XML; a file that is not one is said in pt-BR.
    pub fn read(xml: &[u8]) -> Result<NfeHeader, String> {
        let text =
            std::str::from_utf8(xml).map_err(|_| "O arquivo não é um XML em UTF-8.".to_string())?;
        let doc = roxmltree::Document::parse(text.trim_start_matches('\u{feff}'))
            .map_err(|e| format!("XML inválido: {e}"))?;
        let find = |name: &str| doc.descendants().find(|n| n.has_tag_name(name));
        let text_in = |parent: Option<roxmltree::Node>, name: &str| -> String {
            parent
                .and_then(|p| p.children().find(|n| n.has_tag_name(name)))
                .and_then(|n| n.text())
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let inf = find("infNFe").ok_or("O XML não é de uma NF-e (sem infNFe).")?;
        let key = inf
            .attribute("Id")
            .and_then(AccessKey::parse)
            .ok_or("A NF-e não tem uma chave de acesso válida (infNFe Id).")?;
        let ide = find("ide");
        let emit = find("emit");
        let dest = find("dest");
        let valor: Decimal = text_in(find("ICMSTot"), "vNF")
            .parse()
            .map_err(|_| "A NF-e não tem o valor total (vNF).".to_string())?;
        let first = |a: String, b: String| if a.is_empty() { b } else { a };
        Ok(NfeHeader {
            emitente_cnpj: first(text_in(emit, "CNPJ"), text_in(emit, "CPF")),
            emitente_nome: text_in(emit, "xNome"),
            emitente_ie: text_in(emit, "IE"),
            valor,
            emissao: DateTime::parse_from_rfc3339(&first(
                text_in(ide, "dhEmi"),
                text_in(ide, "dEmi"),
            ))
            .ok(),
            protocolo: Some(text_in(find("infProt"), "nProt")).filter(|p| !p.is_empty()),
            tipo: text_in(ide, "tpNF").parse().ok(),
            destinatario: first(text_in(dest, "CNPJ"), text_in(dest, "CPF")),
            key,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROC: &[u8] = include_bytes!("../tests/fixtures/nfe/sped-nfe_nfe_layout4_com_prot.xml");
    const BARE: &[u8] = include_bytes!(
        "../tests/fixtures/nfe/oca_NFe35200159594315000157550010000000012062777161.xml"
    );

    #[test]
    fn reads_the_header_of_real_nfe() {
        let h = NfeHeader::read(PROC).expect("nfeProc");
        assert_eq!(h.key.key, "43180906929383000163550010000000261000010301");
        assert_eq!((h.key.serie, h.key.numero, h.key.modelo), (1, 26, 55));
        assert_eq!(h.emitente_cnpj, "06929383000163");
        assert_eq!(h.emitente_nome, "UMA RAZAO SOCIAL DE TESTE QUALQUER");
        assert_eq!(h.valor, Decimal::new(50000, 2));
        assert_eq!(h.protocolo.as_deref(), Some("143180006932433"));
        assert_eq!(
            h.emissao.map(|d| d.date_naive().to_string()).as_deref(),
            Some("2018-09-25")
        );

        let b = NfeHeader::read(BARE).expect("bare NFe");
        assert_eq!(b.key.key, "35200159594315000157550010000000012062777161");
        assert_eq!((b.key.serie, b.key.numero), (1, 1));
        assert_eq!(b.valor, Decimal::new(1400, 2));
        assert_eq!(b.protocolo, None);
    }

    #[test]
    fn refuses_what_is_not_an_nfe() {
        assert!(NfeHeader::read(b"<NFe/>").is_err());
        assert!(NfeHeader::read(b"not xml").is_err());
        assert!(NfeHeader::read(&[0xff, 0xfe]).is_err());
    }

    #[test]
    fn the_key_check_digit_is_the_sefaz_modulo_11() {
        // Real keys of the fixtures, and one digit changed.
        assert!(AccessKey::parse("43180906929383000163550010000000261000010301").is_some());
        assert!(AccessKey::parse("NFe35200159594315000157550010000000012062777161").is_some());
        assert!(AccessKey::parse("43180906929383000163550010000000261000010302").is_none());
        assert!(AccessKey::parse("4318090692938300016355001000000026100001030").is_none());
    }
}
