//! Secrets at rest: values a service must keep but never show (a provider's
//! token, an SMTP password, an A1 certificate) are sealed with AES-256-GCM before
//! they reach the database and opened only to be used.
//!
//! Each service names its key ([`KeySpec`]): an environment variable holding 32
//! bytes in base64 (`openssl rand -base64 32`). Without it (development) a fixed
//! key derived from a public label is used and a warning is logged once:
//! anything sealed with it is readable by anyone with this source, so production
//! must set the variable. A variable that is set but is not 32 bytes of base64
//! stops the service at start-up.
//!
//! A sealed value is `1 | key id (4) | nonce (12) | ciphertext and tag`: the
//! version byte leaves room for another scheme, the key id (the first bytes of
//! the key's SHA-256) tells a value sealed under another key from a tampered
//! one, and the nonce is random per value. The associated data binds a value
//! to its place (client, company, column), so a sealed value copied into
//! another row or tenant does not open.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use aes_gcm::aead::{Aead, Generate, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::{Error, Result};

const VERSION: u8 = 1;
const HEADER: usize = 1 + 4 + 12;

/// Which key a service seals with.
#[derive(Debug)]
pub struct KeySpec {
    /// The environment variable holding the key (`ERP_MESSAGING_KEY`).
    pub var: &'static str,
    /// What the development key is derived from (public: never for production).
    pub dev_label: &'static str,
    /// Told when a value was sealed under another key (what to send again).
    pub other_key: &'static str,
}

/// Variables whose development key was already warned about.
static WARNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// Seals and opens values with one AES-256-GCM key.
#[derive(Clone)]
pub struct Sealer {
    cipher: Aes256Gcm,
    key_id: [u8; 4],
    other_key: &'static str,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sealer")
            .field("key_id", &hex(&self.key_id))
            .finish_non_exhaustive()
    }
}

impl Sealer {
    /// From the spec's variable, or its development key (with a warning, once).
    pub fn from_env(spec: &'static KeySpec) -> std::result::Result<Sealer, String> {
        Sealer::from_var(spec, std::env::var(spec.var).ok().as_deref())
    }

    /// From the variable's value: `None` or blank is the development key.
    pub fn from_var(
        spec: &'static KeySpec,
        value: Option<&str>,
    ) -> std::result::Result<Sealer, String> {
        let var = spec.var;
        match value.map(str::trim).filter(|v| !v.is_empty()) {
            Some(v) => {
                let key = base64::engine::general_purpose::STANDARD
                    .decode(v)
                    .map_err(|_| format!("{var}: não é base64 válido"))?;
                if key.len() != 32 {
                    return Err(format!(
                        "{var}: a chave deve ter 32 bytes (tem {})",
                        key.len()
                    ));
                }
                Sealer::new(spec, &key)
            }
            None => {
                let mut warned = WARNED.lock().unwrap_or_else(PoisonError::into_inner);
                if warned.get_or_insert_with(HashSet::new).insert(var) {
                    tracing::warn!(
                        "{var} não configurada: os dados sigilosos são cifrados com a chave de desenvolvimento"
                    );
                }
                Sealer::new(spec, &Sha256::digest(spec.dev_label.as_bytes()))
            }
        }
    }

    fn new(spec: &'static KeySpec, key: &[u8]) -> std::result::Result<Sealer, String> {
        let cipher = Aes256Gcm::new_from_slice(key).map_err(|e| format!("{}: {e}", spec.var))?;
        let digest = Sha256::digest(key);
        let mut key_id = [0u8; 4];
        key_id.copy_from_slice(&digest[..4]);
        Ok(Sealer { cipher, key_id, other_key: spec.other_key })
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
            return Err(Error::validation(self.other_key));
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

    static SPEC: KeySpec = KeySpec {
        var: "ERP_TEST_KEY",
        dev_label: "erp test development key",
        other_key: "Gravado com outra chave.",
    };

    fn key(byte: u8) -> String {
        base64::engine::general_purpose::STANDARD.encode([byte; 32])
    }

    #[test]
    fn a_sealed_value_opens_only_in_its_place_and_under_its_key() {
        let s = Sealer::from_var(&SPEC, Some(&key(7))).expect("key");
        let sealed = s.seal(b"senha secreta", "1:1:token").expect("seal");
        assert!(!sealed
            .windows(b"senha secreta".len())
            .any(|w| w == b"senha secreta"));
        assert_eq!(
            s.open(&sealed, "1:1:token").expect("open"),
            b"senha secreta"
        );
        assert!(s.open(&sealed, "2:1:token").is_err(), "another place");
        let mut tampered = sealed.clone();
        if let Some(last) = tampered.last_mut() {
            *last ^= 1;
        }
        assert!(s.open(&tampered, "1:1:token").is_err(), "tampered");
        let other = Sealer::from_var(&SPEC, Some(&key(8))).expect("key");
        let e = other
            .open(&sealed, "1:1:token")
            .err()
            .map(|e| e.public_message());
        assert_eq!(e.as_deref(), Some(SPEC.other_key));
        // Two seals of the same value differ (random nonce).
        assert_ne!(s.seal(b"x", "p").ok(), s.seal(b"x", "p").ok());
        let text = s.seal_text("abc-123", "t").expect("seal text");
        assert_eq!(s.open_text(&text, "t").expect("open text"), "abc-123");
    }

    #[test]
    fn the_key_must_be_32_bytes_of_base64_and_blank_is_the_development_key() {
        assert!(Sealer::from_var(&SPEC, Some("not base64!")).is_err());
        let short = base64::engine::general_purpose::STANDARD.encode([1u8; 16]);
        assert!(Sealer::from_var(&SPEC, Some(&short)).is_err());
        let a = Sealer::from_var(&SPEC, None).expect("dev");
        let b = Sealer::from_var(&SPEC, Some("  ")).expect("dev");
        let sealed = a.seal(b"x", "p").expect("seal");
        assert_eq!(b.open(&sealed, "p").expect("same dev key"), b"x");
    }
}
