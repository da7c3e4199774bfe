//! Login and logout, shared by the legacy REST calls and GraphQL.
//!
//! Failed logins are counted per client document and login name in the cache;
//! once `ERP_LOGIN_MAX_FAILURES` (100) failed within the window, further attempts
//! are refused before the password is even checked.

use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::validators::only_digits;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::{LoginRequest, Principal};
use serde_json::{json, Value};

use crate::auth::{Auth, Claims};
use crate::state::AppState;
use crate::upstream::{call, request};

pub const TOO_MANY: &str = "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.";

fn attempts_key(cpfcnpj: &str, login: &str) -> String {
    let doc: String = cpfcnpj
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_uppercase();
    let doc = if doc.is_empty() {
        only_digits(cpfcnpj)
    } else {
        doc
    };
    format!("login:fail:{doc}:{}", login.trim().to_lowercase())
}

pub struct Session {
    pub token: String,
    pub claims: Claims,
    pub principal: Principal,
}

pub async fn login(
    st: &AppState,
    cpfcnpj: &str,
    login: &str,
    password: &str,
    company: Option<i64>,
) -> Result<Session> {
    if login.trim().is_empty() || password.is_empty() || cpfcnpj.trim().is_empty() {
        return Err(Error::validation("Informe CPF/CNPJ, usuário e senha."));
    }
    let key = attempts_key(cpfcnpj, login);
    let failures = st
        .cache
        .get(&key)
        .await?
        .and_then(|v| String::from_utf8(v).ok())
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or(0);
    if failures >= st.cfg.login_max_failures {
        metrics::counter!("erp_login_total", "result" => "blocked").increment(1);
        return Err(Error::TooManyRequests(TOO_MANY.into()));
    }
    let anonymous = Caller { client_id: 0, user_id: 0, emp_id: 0, privileged: false };
    let req = request(
        &anonymous,
        LoginRequest {
            cpfcnpj: cpfcnpj.into(),
            login: login.into(),
            password: password.into(),
            company_id: company,
        },
    );
    let mut client = st.up.identity.clone();
    match call(client.login(req)).await {
        Ok(principal) => {
            st.cache.del(&key).await?;
            let user = principal
                .user
                .as_ref()
                .ok_or_else(|| Error::internal("principal without user"))?;
            let emp = principal
                .company
                .as_ref()
                .map(|c| c.id)
                .unwrap_or(user.company_id);
            let (token, claims) = st.jwt.mint(principal.client_id, user.id, emp)?;
            metrics::counter!("erp_login_total", "result" => "ok").increment(1);
            Ok(Session { token, claims, principal })
        }
        Err(Error::Unauthenticated(msg)) => {
            st.cache
                .incr(&key, Duration::from_secs(st.cfg.login_window_secs))
                .await?;
            metrics::counter!("erp_login_total", "result" => "failed").increment(1);
            Err(Error::Unauthenticated(msg))
        }
        Err(e) => Err(e),
    }
}

pub async fn logout(st: &AppState, auth: &Auth) -> Result<()> {
    crate::auth::revoke(st, &auth.claims).await
}

/// The login answer of the legacy API.
pub fn legacy_body(s: &Session) -> Value {
    let p = &s.principal;
    let company = |c: &erp_proto::identity::v1::Company| {
        json!({"EMP_ID": c.id, "EMP_DESCRICAO": c.name, "EMP_CGC": c.tax_id, "EMP_FANTASIA": c.fantasy_name,
               "EMP_IMG_LOGO_REL": c.logo})
    };
    let user = p.user.clone().unwrap_or_default();
    json!({
        "token": s.token,
        "cliente": p.client_id,
        "usuario": {"USR_ID": user.id, "USR_USUARIO": user.login, "USR_NOME": user.name, "USR_EMP_ID": user.company_id},
        "empresa": p.company.as_ref().map(company),
        "empresas": p.companies.iter().map(company).collect::<Vec<_>>(),
        "programas": p.programs.iter().map(|pr| erp_identity::grpc::program_row(pr, user.id)).collect::<Vec<_>>(),
        "favoritos": p.programs.iter().filter(|pr| pr.favorite).filter_map(|pr| pr.web_path.clone()).collect::<Vec<_>>(),
        "privilegiado": p.privileged,
        "versao": erp_platform::VERSION,
        "expira": s.claims.exp,
    })
}

/// The cookie `<img>` requests under /uploads authenticate with.
pub fn cookie(s: &Session) -> String {
    let max_age = (s.claims.exp - s.claims.iat).max(0);
    format!(
        "{}={}; Path=/uploads; HttpOnly; SameSite=Strict; Max-Age={max_age}",
        crate::auth::COOKIE,
        s.token
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn attempts_are_counted_per_document_and_login() {
        assert_eq!(
            super::attempts_key("11.222.333/0001-81", " Admin "),
            "login:fail:11222333000181:admin"
        );
        assert_eq!(
            super::attempts_key("12.abc.345/01de-35", "x"),
            "login:fail:12ABC34501DE35:x"
        );
    }
}
