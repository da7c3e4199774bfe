//! Password hashing with argon2id (the crate's defaults: m=19 MiB, t=2, p=1), run
//! off the async threads.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use erp_platform::{Error, Result};

pub async fn hash(password: String) -> Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(Error::internal)
    })
    .await
    .map_err(Error::internal)?
}

/// Verifies against a stored hash; with no hash (unknown user) it still spends the
/// same work on a fixed hash, so timing does not tell which users exist.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool> {
    tokio::task::spawn_blocking(move || {
        let (hash, real) = match stored {
            Some(h) => (h, true),
            None => (DUMMY_HASH.to_string(), false),
        };
        let parsed = PasswordHash::new(&hash).map_err(Error::internal)?;
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(ok && real)
    })
    .await
    .map_err(Error::internal)?
}

/// argon2id hash of a random string nobody knows.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$7e2sHqVsDZ2cJ5PD3oQ7v3pFq2r3i6XJ9dK0p8gU7c0";

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_and_verify() {
        let h = hash("segredo123".into()).await.expect("hash");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("segredo123".into(), Some(h.clone()))
            .await
            .expect("verify"));
        assert!(!verify("errada".into(), Some(h)).await.expect("verify"));
        assert!(!verify("qualquer".into(), None).await.expect("verify"));
    }
}
