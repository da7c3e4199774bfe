//! Session tokens: JWT HS256 only (the algorithm is pinned: `alg=none` or RS256
//! tokens fail), with `exp`, `iss` and `aud` checked.

use erp_platform::{Error, Result};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

pub const ISSUER: &str = "erp";
pub const AUDIENCE: &str = "erp-web";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Claims {
    pub sub: String,
    pub cid: i64,
    pub uid: i64,
    pub emp: i64,
    pub jti: String,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

pub struct Jwt {
    enc: EncodingKey,
    dec: DecodingKey,
    validation: Validation,
    ttl_secs: i64,
}

impl Jwt {
    pub fn new(secret: &str, ttl_minutes: i64) -> Jwt {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Jwt {
            enc: EncodingKey::from_secret(secret.as_bytes()),
            dec: DecodingKey::from_secret(secret.as_bytes()),
            validation,
            ttl_secs: ttl_minutes * 60,
        }
    }

    pub fn mint(&self, cid: i64, uid: i64, emp: i64) -> Result<(String, Claims)> {
        let now = chrono::Utc::now().timestamp();
        self.mint_at(cid, uid, emp, now, now + self.ttl_secs)
    }

    pub fn mint_at(
        &self,
        cid: i64,
        uid: i64,
        emp: i64,
        iat: i64,
        exp: i64,
    ) -> Result<(String, Claims)> {
        let claims = Claims {
            sub: uid.to_string(),
            cid,
            uid,
            emp,
            jti: uuid::Uuid::new_v4().to_string(),
            iat,
            exp,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
        };
        let token =
            encode(&Header::new(Algorithm::HS256), &claims, &self.enc).map_err(Error::internal)?;
        Ok((token, claims))
    }

    pub fn verify(&self, token: &str) -> Result<Claims> {
        decode::<Claims>(token, &self.dec, &self.validation)
            .map(|d| d.claims)
            .map_err(|_| Error::Unauthenticated("Sessão expirada ou inválida.".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_reject_tampering() {
        let jwt = Jwt::new("0123456789abcdef0123456789abcdef", 60);
        let (t, c) = jwt.mint(2, 1, 1).expect("mint");
        assert_eq!(jwt.verify(&t).expect("verify"), c);
        let mut parts: Vec<String> = t.split('.').map(String::from).collect();
        parts[1] = parts[1].chars().rev().collect();
        assert!(jwt.verify(&parts.join(".")).is_err());
        let other = Jwt::new("another-secret-another-secret-xx", 60);
        assert!(other.verify(&t).is_err());
    }

    #[test]
    fn expired_and_unsigned_tokens_fail() {
        let jwt = Jwt::new("0123456789abcdef0123456789abcdef", 60);
        let now = chrono::Utc::now().timestamp();
        let (t, _) = jwt.mint_at(2, 1, 1, now - 7200, now - 3600).expect("mint");
        assert!(jwt.verify(&t).is_err());
        // alg=none: header {"alg":"none","typ":"JWT"} and an empty signature.
        use base64::Engine;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let (good, _) = jwt.mint(2, 1, 1).expect("mint");
        let payload = good.split('.').nth(1).unwrap_or_default().to_string();
        let none = format!(
            "{}.{}.",
            b64.encode(br#"{"alg":"none","typ":"JWT"}"#),
            payload
        );
        assert!(jwt.verify(&none).is_err());
    }
}
