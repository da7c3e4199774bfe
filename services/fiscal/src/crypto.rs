//! Secrets at rest: the A1 certificate (`.pfx`), its password and the fiscal
//! settings' secrets (NFC-e CSC, NFS-e password and token) are sealed with
//! AES-256-GCM before they reach the database, and opened only to be sent to
//! the Nuvem Fiscal.
//!
//! The key is `ERP_FISCAL_KEY`: 32 bytes in base64 (`openssl rand -base64 32`).
//! Without it (development) a fixed key derived from a public label is used
//! and a warning is logged once: anything sealed with it is readable by anyone
//! with this source, so production must set the variable. A variable that is
//! set but is not 32 bytes of base64 stops the service at start-up.
//!
//! A sealed value is `1 | key id (4) | nonce (12) | ciphertext and tag`: the
//! version byte leaves room for another scheme, the key id (the first bytes of
//! the key's SHA-256) tells a value sealed under another key from a tampered
//! one, and the nonce is random per value. The associated data binds a value
//! to its place (client, company, column), so a sealed value copied into
//! another row or tenant does not open.

use std::sync::Once;

use aes_gcm::aead::{Aead, Generate, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use erp_platform::{Error, Result};
use sha2::{Digest, Sha256};

/// The environment variable holding the key.
pub const KEY_VAR: &str = "ERP_FISCAL_KEY";
const VERSION: u8 = 1;
const HEADER: usize = 1 + 4 + 12;
const DEV_LABEL: &[u8] = b"erp-fiscal development key: never use in production";
/// Told when a value was sealed under another key.
pub const OTHER_KEY: &str =
    "Os dados sigilosos foram gravados com outra chave (ERP_FISCAL_KEY): envie o certificado e as senhas novamente.";

static DEV_WARNING: Once = Once::new();

/// Seals and opens values with one AES-256-GCM key.
#[derive(Clone)]
pub struct Sealer {
    cipher: Aes256Gcm,
    key_id: [u8; 4],
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sealer")
            .field("key_id", &hex(&self.key_id))
            .finish_non_exhaustive()
    }
}

impl Sealer {
    /// From `ERP_FISCAL_KEY`, or the development key (with a warning, once).
    pub fn from_env() -> std::result::Result<Sealer, String> {
        Sealer::from_var(std::env::var(KEY_VAR).ok().as_deref())
    }

    /// From the variable's value: `None` or blank is the development key.
    pub fn from_var(value: Option<&str>) -> std::result::Result<Sealer, String> {
        match value.map(str::trim).filter(|v| !v.is_empty()) {
            Some(v) => {
                let key = base64::engine::general_purpose::STANDARD
                    .decode(v)
                    .map_err(|_| format!("{KEY_VAR}: não é base64 válido"))?;
                if key.len() != 32 {
                    return Err(format!(
                        "{KEY_VAR}: a chave deve ter 32 bytes (tem {})",
                        key.len()
                    ));
                }
                Sealer::new(&key)
            }
            None => {
                DEV_WARNING.call_once(|| {
                    tracing::warn!(
                        "{KEY_VAR} não configurada: certificados e senhas fiscais são cifrados com a chave de desenvolvimento"
                    );
                });
                Sealer::new(&Sha256::digest(DEV_LABEL))
            }
        }
    }

    fn new(key: &[u8]) -> std::result::Result<Sealer, String> {
        let cipher = Aes256Gcm::new_from_slice(key).map_err(|e| format!("{KEY_VAR}: {e}"))?;
        let digest = Sha256::digest(key);
        let mut key_id = [0u8; 4];
        key_id.copy_from_slice(&digest[..4]);
        Ok(Sealer { cipher, key_id })
    }

    /// `plain` sealed for `place` (see the module doc).
    pub fn seal(&self, plain: &[u8], place: &str) -> Result<Vec<u8>> {
        let nonce_bytes = <[u8; 12]>::try_generate()
            .map_err(|e| Error::internal(format!("random nonce: {e}")))?;
        let mut out = Vec::with_capacity(HEADER + plain.len() + 16);
        out.push(VERSION);
        out.extend_from_slice(&self.key_id);
        out.extend_from_slice(&nonce_bytes);
        let aad = [&out[..5], place.as_bytes()].concat();
        let sealed = self
            .cipher
            .encrypt(&Nonce::from(nonce_bytes), Payload { msg: plain, aad: &aad })
            .map_err(|_| Error::internal("seal failed"))?;
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// The plain value of `sealed`, which must have been sealed for `place`.
    pub fn open(&self, sealed: &[u8], place: &str) -> Result<Vec<u8>> {
        if sealed.len() < HEADER + 16 || sealed[0] != VERSION {
            return Err(Error::internal("sealed value: bad header"));
        }
        if sealed[1..5] != self.key_id {
            return Err(Error::validation(OTHER_KEY));
        }
        let mut nonce_bytes = [0u8; 12];
        nonce_bytes.copy_from_slice(&sealed[5..HEADER]);
        let aad = [&sealed[..5], place.as_bytes()].concat();
        self.cipher
            .decrypt(
                &Nonce::from(nonce_bytes),
                Payload { msg: &sealed[HEADER..], aad: &aad },
            )
            .map_err(|_| Error::internal("sealed value does not open (tampered or moved)"))
    }

    /// [`Sealer::seal`] as text (base64), for text columns.
    pub fn seal_text(&self, plain: &str, place: &str) -> Result<String> {
        Ok(base64::engine::general_purpose::STANDARD.encode(self.seal(plain.as_bytes(), place)?))
    }

    /// The plain text of a value from [`Sealer::seal_text`].
    pub fn open_text(&self, sealed: &str, place: &str) -> Result<String> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(sealed.trim())
            .map_err(|_| Error::internal("sealed text: not base64"))?;
        String::from_utf8(self.open(&bytes, place)?)
            .map_err(|_| Error::internal("sealed text: not UTF-8"))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> String {
        base64::engine::general_purpose::STANDARD.encode([byte; 32])
    }

    #[test]
    fn a_sealed_value_opens_only_in_its_place_and_under_its_key() {
        let s = Sealer::from_var(Some(&key(7))).expect("key");
        let sealed = s.seal(b"senha secreta", "1:1:pfx").expect("seal");
        assert!(!sealed
            .windows(b"senha secreta".len())
            .any(|w| w == b"senha secreta"));
        assert_eq!(s.open(&sealed, "1:1:pfx").expect("open"), b"senha secreta");
        assert!(s.open(&sealed, "2:1:pfx").is_err(), "another place");
        let mut tampered = sealed.clone();
        if let Some(last) = tampered.last_mut() {
            *last ^= 1;
        }
        assert!(s.open(&tampered, "1:1:pfx").is_err(), "tampered");
        let other = Sealer::from_var(Some(&key(8))).expect("key");
        let e = other
            .open(&sealed, "1:1:pfx")
            .err()
            .map(|e| e.public_message());
        assert_eq!(e.as_deref(), Some(OTHER_KEY));
        // Two seals of the same value differ (random nonce).
        assert_ne!(s.seal(b"x", "p").ok(), s.seal(b"x", "p").ok());
        let text = s.seal_text("CSC-123", "csc").expect("seal text");
        assert_eq!(s.open_text(&text, "csc").expect("open text"), "CSC-123");
    }

    #[test]
    fn the_key_must_be_32_bytes_of_base64_and_blank_is_the_development_key() {
        assert!(Sealer::from_var(Some("not base64!")).is_err());
        let short = base64::engine::general_purpose::STANDARD.encode([1u8; 16]);
        assert!(Sealer::from_var(Some(&short)).is_err());
        let a = Sealer::from_var(None).expect("dev");
        let b = Sealer::from_var(Some("  ")).expect("dev");
        let sealed = a.seal(b"x", "p").expect("seal");
        assert_eq!(b.open(&sealed, "p").expect("same dev key"), b"x");
    }
}
