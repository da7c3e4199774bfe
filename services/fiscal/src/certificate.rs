//! The A1 digital certificate (ICP-Brasil e-CNPJ or e-CPF) a company signs its
//! fiscal documents with: a PKCS#12 file (`.pfx`/`.p12`) opened with its
//! password, read in pure Rust (`p12-keystore`, `x509-parser`).
//!
//! What is read from the certificate that holds the private key: validity,
//! serial number, holder (subject CN), issuer (CN) and the holder's CNPJ or
//! CPF, from the ICP-Brasil `otherName` of the subject alternative name
//! (2.16.76.1.3.3 is the company's CNPJ; 2.16.76.1.3.1 holds a person's birth
//! date then CPF) or else from the CN `NOME:DOCUMENTO` that ICP-Brasil
//! certificates carry.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use p12_keystore::error::Error as P12Error;
use p12_keystore::Pkcs12Archive;
use x509_parser::certificate::X509Certificate;
use x509_parser::extensions::GeneralName;

/// A wrong password (the file's MAC or its decryption fails).
pub const WRONG_PASSWORD: &str = "Senha do certificado incorreta.";
pub const NOT_A_PFX: &str = "O arquivo não é um certificado digital A1 válido (.pfx ou .p12).";
pub const NO_KEY: &str =
    "O arquivo não contém a chave privada do certificado: exporte o certificado A1 com a chave privada.";
pub const UNSUPPORTED: &str =
    "O certificado usa uma criptografia não suportada: exporte-o novamente (AES ou 3DES).";

const OID_CNPJ: &str = "2.16.76.1.3.3";
const OID_PERSON: &str = "2.16.76.1.3.1";

/// What the certificate says of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertInfo {
    /// Serial number in upper-case hex, as issuers print it.
    pub serial: String,
    /// The holder: the subject's CN.
    pub holder: String,
    /// The issuer's CN (the certification authority).
    pub issuer: String,
    /// The holder's CNPJ or CPF, unmasked, when the certificate names one.
    pub document: Option<String>,
    pub not_before: DateTime<Utc>,
    pub not_after: DateTime<Utc>,
}

impl CertInfo {
    pub fn expired_at(&self, now: DateTime<Utc>) -> bool {
        self.not_after < now
    }

    /// The first day of validity, in Brasília.
    pub fn valid_from(&self) -> NaiveDate {
        brasilia_date(self.not_before)
    }

    /// The last day of validity, in Brasília.
    pub fn valid_until(&self) -> NaiveDate {
        brasilia_date(self.not_after)
    }
}

/// The date in Brasília (UTC-3: Brazil has had no daylight saving since 2019).
pub fn brasilia_date(t: DateTime<Utc>) -> NaiveDate {
    match FixedOffset::west_opt(3 * 3600) {
        Some(tz) => t.with_timezone(&tz).date_naive(),
        None => t.date_naive(),
    }
}

/// Opens `pfx` with `password` and reads its certificate. Errors are the pt-BR
/// messages above (400).
pub fn read_pfx(pfx: &[u8], password: &str) -> Result<CertInfo> {
    let archive = Pkcs12Archive::from_pkcs12(pfx, password).map_err(p12_error)?;
    if archive.keys.is_empty() {
        return Err(Error::validation(NO_KEY));
    }
    // The holder's certificate is the one linked to the key; else the one that
    // issued no other (the chain's leaf).
    let linked = archive.certs.iter().find(|c| {
        c.local_key_id.as_ref().is_some_and(|id| {
            archive
                .keys
                .iter()
                .any(|k| k.local_key_id.as_ref().is_some_and(|kid| kid.0 == *id))
        })
    });
    let leaf = linked
        .or_else(|| {
            archive.certs.iter().find(|c| {
                !archive.certs.iter().any(|o| {
                    o.cert.issuer() == c.cert.subject() && o.cert.subject() != c.cert.subject()
                })
            })
        })
        .ok_or_else(|| Error::validation(NO_KEY))?;
    info(leaf.cert.as_der())
}

fn p12_error(e: P12Error) -> Error {
    match e {
        P12Error::MacError(_) | P12Error::UnpadError | P12Error::Pkcs5Error(_) => {
            Error::validation(WRONG_PASSWORD)
        }
        P12Error::UnsupportedEncryptionScheme | P12Error::UnsupportedMacAlgorithm => {
            Error::validation(UNSUPPORTED)
        }
        _ => Error::validation(NOT_A_PFX),
    }
}

fn info(der: &[u8]) -> Result<CertInfo> {
    let (_, cert) =
        x509_parser::parse_x509_certificate(der).map_err(|_| Error::validation(NOT_A_PFX))?;
    let when =
        |t: i64| DateTime::<Utc>::from_timestamp(t, 0).ok_or_else(|| Error::validation(NOT_A_PFX));
    let validity = cert.validity();
    let holder = common_name(cert.subject()).unwrap_or_else(|| cert.subject().to_string());
    let issuer = common_name(cert.issuer()).unwrap_or_else(|| cert.issuer().to_string());
    let document = other_name_document(&cert).or_else(|| cn_document(&holder));
    Ok(CertInfo {
        serial: cert
            .raw_serial()
            .iter()
            .skip_while(|b| **b == 0)
            .map(|b| format!("{b:02X}"))
            .collect(),
        holder,
        issuer,
        document,
        not_before: when(validity.not_before.timestamp())?,
        not_after: when(validity.not_after.timestamp())?,
    })
}

fn common_name(name: &x509_parser::x509::X509Name<'_>) -> Option<String> {
    name.iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .map(|s| s.trim().to_string())
}

/// `NOME DA EMPRESA:12345678000195`: the document after the last `:`.
fn cn_document(cn: &str) -> Option<String> {
    let (_, doc) = cn.rsplit_once(':')?;
    CpfCnpj::parse(doc.trim())
        .ok()
        .map(|d| d.as_str().to_string())
}

/// The CNPJ or CPF of ICP-Brasil's `otherName`s.
fn other_name_document(cert: &X509Certificate<'_>) -> Option<String> {
    let san = cert.subject_alternative_name().ok().flatten()?;
    let mut cpf = None;
    for name in &san.value.general_names {
        let GeneralName::OtherName(oid, value) = name else {
            continue;
        };
        let text: String = other_name_text(value)
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        match oid.to_id_string().as_str() {
            OID_CNPJ => {
                if let Ok(d) = CpfCnpj::parse(&text) {
                    return Some(d.as_str().to_string());
                }
            }
            // ddmmaaaa, then the CPF's 11 digits, then more.
            OID_PERSON => {
                cpf = text
                    .get(8..19)
                    .and_then(|c| CpfCnpj::parse(c).ok())
                    .map(|d| d.as_str().to_string());
            }
            _ => {}
        }
    }
    cpf
}

/// The text inside `[0] EXPLICIT` and the string (OCTET, Printable, UTF8...)
/// it wraps; what is not DER is taken as it is.
fn other_name_text(value: &[u8]) -> String {
    let inner = match tlv(value) {
        Some((0xA0, content)) => content,
        _ => value,
    };
    let content = tlv(inner).map_or(inner, |(_, c)| c);
    String::from_utf8_lossy(content).into_owned()
}

/// One DER tag-length-value: the tag and the content.
fn tlv(b: &[u8]) -> Option<(u8, &[u8])> {
    let tag = *b.first()?;
    let first = *b.get(1)?;
    let (len, start) = if first < 0x80 {
        (usize::from(first), 2)
    } else {
        let n = usize::from(first & 0x7F);
        if n == 0 || n > 4 {
            return None;
        }
        let len = b
            .get(2..2 + n)?
            .iter()
            .fold(0usize, |acc, x| (acc << 8) | usize::from(*x));
        (len, 2 + n)
    };
    Some((tag, b.get(start..start.checked_add(len)?)?))
}

/// Whether a certificate of `cert_doc` may sign for the company `company_doc`:
/// the same CPF, or a CNPJ of the same root (the first 8 characters: a
/// branch signs with its head office's certificate, as the SEFAZ allows).
pub fn same_owner(cert_doc: &str, company_doc: &str) -> bool {
    match (cert_doc.len(), company_doc.len()) {
        (14, 14) => cert_doc
            .get(..8)
            .zip(company_doc.get(..8))
            .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b)),
        _ => cert_doc.eq_ignore_ascii_case(company_doc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_come_from_the_cn_and_other_names() {
        assert_eq!(
            cn_document("EMPRESA TESTE LTDA:11444777000161").as_deref(),
            Some("11444777000161")
        );
        assert_eq!(cn_document("EMPRESA TESTE LTDA"), None);
        assert_eq!(cn_document("X:123"), None);
        // [0] { OCTET STRING "11444777000161" }
        let mut v = vec![0xA0, 16, 0x04, 14];
        v.extend_from_slice(b"11444777000161");
        assert_eq!(other_name_text(&v), "11444777000161");
        assert_eq!(other_name_text(b"plain"), "plain");
        assert_eq!(tlv(&[0x04, 0x82, 0x00]), None);
    }

    #[test]
    fn a_branch_signs_with_its_head_office_certificate() {
        assert!(same_owner("11444777000161", "11444777000242"));
        assert!(!same_owner("11444777000161", "11222333000181"));
        assert!(same_owner("11144477735", "11144477735"));
        assert!(!same_owner("11144477735", "11444777000161"));
    }

    /// A PKCS#12 as Windows exports an ICP-Brasil A1: 3DES and SHA-1, the
    /// CNPJ in the `otherName` 2.16.76.1.3.3, a CN without it.
    fn legacy_pfx(password: &str) -> Vec<u8> {
        use p12_keystore::{
            Certificate, EncryptionAlgorithm, KeyStore, KeyStoreEntry, MacAlgorithm, PrivateKey,
            PrivateKeyChain,
        };
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "EMPRESA TESTE LTDA");
        params.not_before = rcgen::date_time_ymd(2026, 3, 1);
        // 01:30 UTC on 1 June is still 31 May in Brasília.
        params.not_after = rcgen::date_time_ymd(2027, 6, 1)
            .replace_hour(1)
            .expect("hour");
        params.serial_number = Some(rcgen::SerialNumber::from_slice(&[0x00, 0x7F, 0x01]));
        params.subject_alt_names = vec![rcgen::SanType::OtherName((
            vec![2, 16, 76, 1, 3, 3],
            rcgen::OtherNameValue::Utf8String("11444777000161".into()),
        ))];
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = params.self_signed(&key).expect("cert");
        let chain = PrivateKeyChain::new(
            b"k".as_slice(),
            PrivateKey::from_der(&key.serialize_der()).expect("key der"),
            [Certificate::from_der(cert.der()).expect("cert der")],
        );
        let mut store = KeyStore::new();
        store.add_entry("a1", KeyStoreEntry::PrivateKeyChain(chain));
        store
            .writer(password)
            .encryption_algorithm(EncryptionAlgorithm::PbeWithShaAnd3KeyTripleDesCbc)
            .mac_algorithm(MacAlgorithm::HmacSha1)
            .write()
            .expect("pfx")
    }

    #[test]
    fn a_legacy_icp_brasil_pfx_is_read_with_its_cnpj() {
        let file = legacy_pfx("segredo");
        let info = read_pfx(&file, "segredo").expect("read");
        assert_eq!(info.holder, "EMPRESA TESTE LTDA");
        assert_eq!(info.document.as_deref(), Some("11444777000161"));
        assert_eq!(info.serial, "7F01");
        assert_eq!(info.valid_from().to_string(), "2026-02-28");
        assert_eq!(info.valid_until().to_string(), "2027-05-31");
        let e = read_pfx(&file, "outra").err().map(|e| e.public_message());
        assert_eq!(e.as_deref(), Some(WRONG_PASSWORD));
    }

    #[test]
    fn what_is_not_a_pfx_is_refused_plainly() {
        let e = read_pfx(b"not a pfx", "x")
            .err()
            .map(|e| e.public_message());
        assert_eq!(e.as_deref(), Some(NOT_A_PFX));
    }
}
