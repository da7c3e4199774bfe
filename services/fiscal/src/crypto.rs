//! Secrets at rest: the A1 certificate (`.pfx`), its password and the fiscal
//! settings' secrets (NFC-e CSC, NFS-e password and token) are sealed with
//! AES-256-GCM before they reach the database (`erp_platform::crypto::Sealer`,
//! bound to their row) and opened only to be sent to the Nuvem Fiscal.
//!
//! The key is `ERP_FISCAL_KEY`: 32 bytes in base64 (`openssl rand -base64 32`).
//! Without it (development) a fixed key derived from a public label is used
//! and a warning is logged once: anything sealed with it is readable by anyone
//! with this source, so production must set the variable. A variable that is
//! set but is not 32 bytes of base64 stops the service at start-up.

use erp_platform::crypto::KeySpec;
pub use erp_platform::crypto::Sealer;

/// The environment variable holding the key.
pub const KEY_VAR: &str = "ERP_FISCAL_KEY";
/// Told when a value was sealed under another key.
pub const OTHER_KEY: &str =
    "Os dados sigilosos foram gravados com outra chave (ERP_FISCAL_KEY): envie o certificado e as senhas novamente.";

/// The fiscal service's key (the development label is the one values were
/// always sealed with: development data stays readable).
pub static KEY: KeySpec = KeySpec {
    var: KEY_VAR,
    dev_label: "erp-fiscal development key: never use in production",
    other_key: OTHER_KEY,
};

/// The sealer of `ERP_FISCAL_KEY`, or of the development key (with a warning).
pub fn sealer() -> Result<Sealer, String> {
    Sealer::from_env(&KEY)
}

#[cfg(test)]
mod tests {
    use base64::Engine;

    use super::*;

    #[test]
    fn a_value_sealed_under_another_key_says_to_send_the_certificate_again() {
        let key = |b: u8| base64::engine::general_purpose::STANDARD.encode([b; 32]);
        let s = Sealer::from_var(&KEY, Some(&key(7))).expect("key");
        let sealed = s.seal(b"senha", "1:1:pfx").expect("seal");
        assert_eq!(s.open(&sealed, "1:1:pfx").expect("open"), b"senha");
        let other = Sealer::from_var(&KEY, Some(&key(8))).expect("key");
        let e = other
            .open(&sealed, "1:1:pfx")
            .err()
            .map(|e| e.public_message());
        assert_eq!(e.as_deref(), Some(OTHER_KEY));
        assert!(Sealer::from_var(&KEY, Some("not base64!")).is_err());
    }

    #[test]
    fn the_development_key_is_the_one_it_always_was() {
        // What the service sealed with the development key before the sealer
        // moved to the platform: SHA-256 of the same label.
        use sha2::{Digest, Sha256};
        let raw = base64::engine::general_purpose::STANDARD
            .encode(Sha256::digest(KEY.dev_label.as_bytes()));
        let explicit = Sealer::from_var(&KEY, Some(&raw)).expect("key");
        let dev = Sealer::from_var(&KEY, None).expect("dev");
        let sealed = explicit.seal(b"x", "p").expect("seal");
        assert_eq!(dev.open(&sealed, "p").expect("same key"), b"x");
    }
}
