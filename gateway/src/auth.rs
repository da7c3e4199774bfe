//! The authenticated caller: an axum extractor ([`Auth`]) that verifies the token
//! (`token`), checks the denylist and the optional client/user headers, and loads
//! the principal. Logout puts the token id on a denylist in the
//! cache until the token would have expired. The client, user and company come
//! only from the verified token; the principal (companies, permissions, active
//! flag) is fetched from identity and cached, and evicted when identity publishes
//! a change.

use std::sync::Arc;
use std::time::{Duration, Instant};

use erp_platform::grpc::Caller;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::{Principal, PrincipalRequest};
use http::HeaderMap;
use prost::Message;

use crate::reply::ApiError;
use crate::state::AppState;
pub use crate::token::{Claims, Jwt};

pub const CLIENT_HEADER: &str = "x-erp-client";
pub const USER_HEADER: &str = "x-erp-user";
pub const SCREEN_HEADER: &str = "x-erp-screen";
pub const COOKIE: &str = "erp_token";
const PRINCIPAL_TTL: Duration = Duration::from_secs(60);

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

/// The authenticated caller of a request (bearer token only: the session cookie
/// is accepted only where `authenticate` is asked to, for `<img>` requests).
impl axum::extract::FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        st: &AppState,
    ) -> std::result::Result<Self, Self::Rejection> {
        authenticate(st, &parts.headers, false)
            .await
            .map_err(ApiError)
    }
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
    let deny = deny_key(&claims.jti);
    let principal = principal(st, claims.cid, claims.uid, claims.emp, Some(&deny)).await?;
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
    Ok(Auth { claims, principal, caller, screen })
}

/// The principal, cached per (client, user, company, version). Identity's events
/// bump the version, so a change is seen on the next request. `revoked`: the
/// token's denylist key, read in the same round trip as the version.
pub async fn principal(
    st: &AppState,
    cid: i64,
    uid: i64,
    emp: i64,
    revoked: Option<&str>,
) -> Result<Arc<Principal>> {
    let vkey = version_key(cid, uid);
    let mut keys = vec![vkey.as_str()];
    keys.extend(revoked);
    let got = st.cache.get_many(&keys).await?;
    if got.get(1).is_some_and(Option::is_some) {
        return Err(Error::Unauthenticated("Sessão encerrada.".into()));
    }
    let version = got
        .into_iter()
        .next()
        .flatten()
        .and_then(|v| String::from_utf8(v).ok())
        .unwrap_or_else(|| "0".into());
    let key = format!("principal:{cid}:{uid}:{emp}:{version}");
    if let Some((p, at)) = st.principals.0.get(&key) {
        if at.elapsed() < PRINCIPAL_TTL {
            return Ok(p);
        }
    }
    if let Some(bytes) = st.cache.get(&key).await? {
        if let Ok(p) = Principal::decode(bytes.as_slice()) {
            let p = Arc::new(p);
            st.principals.0.insert(key, (p.clone(), Instant::now()));
            return Ok(p);
        }
    }
    let system = Caller { client_id: cid, user_id: uid, emp_id: emp, privileged: false };
    let req = crate::upstream::request(
        &system,
        PrincipalRequest { client_id: cid, user_id: uid, company_id: emp },
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
    let p = Arc::new(p);
    st.principals.0.insert(key, (p.clone(), Instant::now()));
    Ok(p)
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
    fn cookie_is_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            http::header::COOKIE,
            "a=1; erp_token=abc.def.ghi; b=2".parse().expect("header"),
        );
        assert_eq!(cookie_token(&h), Some("abc.def.ghi"));
    }
}
