//! Tokens and the authenticated caller.
//!
//! JWT HS256 only (the algorithm is pinned: `alg=none` or RS256 tokens fail), with
//! `exp`, `iss` and `aud` checked. Logout puts the token id on a denylist in the
//! cache until the token would have expired. The client, user and company come
//! only from the verified token; the principal (companies, permissions, active
//! flag) is fetched from identity and cached, and evicted when identity publishes
//! a change.

use std::sync::Arc;
use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::{Principal, PrincipalRequest};
use http::HeaderMap;
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use prost::Message;
use serde::{Deserialize, Serialize};

use crate::state::AppState;

pub const ISSUER: &str = "erp";
pub const AUDIENCE: &str = "erp-web";
pub const CLIENT_HEADER: &str = "x-erp-client";
pub const USER_HEADER: &str = "x-erp-user";
pub const SCREEN_HEADER: &str = "x-erp-screen";
pub const COOKIE: &str = "erp_token";
const PRINCIPAL_TTL: Duration = Duration::from_secs(60);

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

/// A verified caller and what it may do.
#[derive(Clone, Debug)]
pub struct Auth {
    pub claims: Claims,
    pub principal: Arc<Principal>,
    pub caller: Caller,
    pub screen: Option<String>,
}

impl Auth {
    pub fn companies(&self) -> impl Iterator<Item = i64> + '_ {
        self.principal.companies.iter().map(|c| c.id)
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v)
}

fn deny_key(jti: &str) -> String {
    format!("jwt:deny:{jti}")
}

fn version_key(cid: i64, uid: i64) -> String {
    format!("principal:ver:{cid}:{uid}")
}

/// Verifies the token of a request. The cookie is accepted only where `cookie` is
/// set (image requests from `<img>`), never for calls that change data.
pub async fn authenticate(st: &AppState, headers: &HeaderMap, cookie: bool) -> Result<Auth> {
    let token = bearer(headers)
        .or_else(|| if cookie { cookie_token(headers) } else { None })
        .ok_or_else(|| Error::Unauthenticated("Token não informado.".into()))?;
    authenticate_token(st, token, headers).await
}

pub async fn authenticate_token(st: &AppState, token: &str, headers: &HeaderMap) -> Result<Auth> {
    let claims = st.jwt.verify(token)?;
    if st.cache.get(&deny_key(&claims.jti)).await?.is_some() {
        return Err(Error::Unauthenticated("Sessão encerrada.".into()));
    }
    let header_i64 = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|s| s.trim().parse::<i64>())
    };
    if let Some(c) = header_i64(CLIENT_HEADER) {
        if c.ok() != Some(claims.cid) {
            return Err(Error::Unauthenticated(
                "Cliente do cabeçalho não confere com a sessão.".into(),
            ));
        }
    }
    if let Some(u) = header_i64(USER_HEADER) {
        if u.ok() != Some(claims.uid) {
            return Err(Error::Unauthenticated(
                "Usuário do cabeçalho não confere com a sessão.".into(),
            ));
        }
    }
    let principal = principal(st, claims.cid, claims.uid, claims.emp).await?;
    if !principal.active {
        return Err(Error::Unauthenticated("Usuário desativado.".into()));
    }
    let caller = Caller {
        client_id: claims.cid,
        user_id: claims.uid,
        emp_id: claims.emp,
        privileged: principal.privileged,
    };
    let screen = headers
        .get(SCREEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.chars().take(200).collect());
    Ok(Auth {
        claims,
        principal,
        caller,
        screen,
    })
}

/// The principal, cached per (client, user, company, version). Identity's events
/// bump the version, so a change is seen on the next request.
pub async fn principal(st: &AppState, cid: i64, uid: i64, emp: i64) -> Result<Arc<Principal>> {
    let version = st
        .cache
        .get(&version_key(cid, uid))
        .await?
        .and_then(|v| String::from_utf8(v).ok())
        .unwrap_or_else(|| "0".into());
    let key = format!("principal:{cid}:{uid}:{emp}:{version}");
    if let Some(bytes) = st.cache.get(&key).await? {
        if let Ok(p) = Principal::decode(bytes.as_slice()) {
            return Ok(Arc::new(p));
        }
    }
    let system = Caller {
        client_id: cid,
        user_id: uid,
        emp_id: emp,
        privileged: false,
    };
    let req = crate::upstream::request(
        &system,
        PrincipalRequest {
            client_id: cid,
            user_id: uid,
            company_id: emp,
        },
    );
    let mut client = st.up.identity.clone();
    let p = crate::upstream::call(client.get_principal(req))
        .await
        .map_err(|e| match e {
            Error::NotFound(_) | Error::Forbidden(_) | Error::Unauthenticated(_) => {
                Error::Unauthenticated("Sessão inválida.".into())
            }
            other => other,
        })?;
    st.cache
        .set(&key, &p.encode_to_vec(), PRINCIPAL_TTL)
        .await?;
    Ok(Arc::new(p))
}

/// Forgets a user's cached principal (identity published a change).
pub async fn evict(st: &AppState, cid: i64, uid: i64) -> Result<()> {
    st.cache
        .incr(&version_key(cid, uid), Duration::from_secs(7 * 24 * 3600))
        .await?;
    Ok(())
}

/// Revokes a token until its expiry.
pub async fn revoke(st: &AppState, claims: &Claims) -> Result<()> {
    let left = (claims.exp - chrono::Utc::now().timestamp()).max(1) as u64;
    st.cache
        .set(&deny_key(&claims.jti), b"1", Duration::from_secs(left + 10))
        .await
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

    #[test]
    fn cookie_is_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            http::header::COOKIE,
            "a=1; erp_token=abc.def.ghi; b=2".parse().expect("header"),
        );
        assert_eq!(cookie_token(&h), Some("abc.def.ghi"));
    }
}
