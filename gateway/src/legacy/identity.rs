//! Identity's legacy calls: sessions, company lookup, menus, user permissions,
//! user self-service, credential validation, subgroup access and company logos.

use axum::extract::Request;
use axum::http::{header, Method};
use axum::response::IntoResponse;
use axum::Json;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::{
    CompanyLogo, CompanyLogoKey, CompanyRequest, Empty, FavoriteRequest, GrantKey, GrantRequest,
    UserRequest, UserSelfRequest, ValidateUserRequest,
};
use serde_json::{json, Map, Value};

use crate::register_calls::Body;
use crate::reply::{body_bytes, list_response, ok_json, rows_response, ApiResult};
use crate::routes::{Params, Routes};

/// The JSON object of a request body (`{}` when empty).
async fn json_body(req: Request) -> Result<Map<String, Value>> {
    Ok(Body::parse(body_bytes(req).await?)?.map().clone())
}
use crate::access::{authorize, check_companies, Perm};
use crate::auth::Auth;
use crate::state::AppState;
use crate::upstream::{call, request};
use crate::{register_calls, session, uploads};

fn text<'a>(body: &'a Map<String, Value>, keys: &[&str]) -> &'a str {
    keys.iter()
        .find_map(|k| body.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
}

fn json_of(bytes: &[u8]) -> Result<Value> {
    Ok(serde_json::from_slice(bytes)?)
}

/// Another user's permissions are a user administrator's business.
fn self_or(auth: &Auth, user: i64, perm: Perm) -> Result<()> {
    if user == auth.caller.user_id {
        Ok(())
    } else {
        authorize(auth, "usuarios", "Usuários", perm, &[], None)
    }
}

async fn login(st: AppState, _p: Params, req: Request) -> ApiResult {
    let body = json_body(req).await?;
    let company = body
        .get("EMP_ID")
        .or_else(|| body.get("empresa"))
        .and_then(|v| v.as_i64().or_else(|| v.as_str()?.parse().ok()));
    let s = session::login(
        &st,
        text(&body, &["cpfcnpj", "CPF_CNPJ", "cnpj"]),
        text(&body, &["usuario", "USR_USUARIO", "login"]),
        text(&body, &["senha", "USR_SENHA", "password"]),
        company,
    )
    .await?;
    Ok((
        [(header::SET_COOKIE, session::cookie(&s))],
        Json(session::legacy_body(&s)),
    )
        .into_response())
}

async fn logout(st: AppState, auth: Auth, _p: Params, _req: Request) -> ApiResult {
    session::logout(&st, &auth).await?;
    let clear = format!(
        "{}=; Path=/uploads; HttpOnly; SameSite=Strict; Max-Age=0",
        crate::auth::COOKIE
    );
    Ok((
        [(header::SET_COOKIE, clear)],
        Json(json!({"code": 200, "msg": "Sessão encerrada."})),
    )
        .into_response())
}

async fn company(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let emp = p.i64("id")?;
    check_companies(&auth, &[emp])?;
    let r = call(
        st.up
            .identity
            .clone()
            .get_company(request(&auth.caller, CompanyRequest { emp })),
    )
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn user_programs(st: &AppState, auth: &Auth, user: i64) -> Result<Vec<Value>> {
    let r = call(
        st.up
            .identity
            .clone()
            .user_programs(request(&auth.caller, UserRequest { user_id: user })),
    )
    .await?;
    Ok(serde_json::from_slice(&r.json)?)
}

async fn menu(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let user = p.i64("user")?;
    self_or(&auth, user, Perm::View)?;
    let rows: Vec<Value> = user_programs(&st, &auth, user)
        .await?
        .into_iter()
        .filter(|r| r.get("PRGU_CONSULTA").and_then(Value::as_i64) == Some(1))
        .collect();
    rows_response(rows)
}

async fn programs_of(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let user = p.i64("user")?;
    self_or(&auth, user, Perm::View)?;
    rows_response(user_programs(&st, &auth, user).await?)
}

const GRANT_FLAGS: [&str; 4] = [
    "PRGU_CONSULTA",
    "PRGU_INCLUSAO",
    "PRGU_ALTERACAO",
    "PRGU_EXCLUSAO",
];

/// PUT /programasusuario/{PROG_ID}/{user}: a body with permission flags changes the
/// grant (user administrators); otherwise it toggles the user's own favourite.
async fn put_program(st: AppState, auth: Auth, p: Params, req: Request) -> ApiResult {
    let (prog, user) = (p.i64("PROG_ID")?, p.i64("user")?);
    let body = json_body(req).await?;
    let mut id = st.up.identity.clone();
    if GRANT_FLAGS.iter().any(|f| body.contains_key(*f)) {
        authorize(&auth, "usuarios", "Usuários", Perm::Update, &[], None)?;
        let key = Some(GrantKey { user_id: user, program_id: prog });
        let r = call(id.grant_program(request(
            &auth.caller,
            GrantRequest { key, body_json: serde_json::to_vec(&body).map_err(Error::from)? },
        )))
        .await?;
        return ok_json(json_of(&r.json)?);
    }
    if user != auth.caller.user_id {
        return Err(Error::forbidden().into());
    }
    let r = call(id.toggle_favorite(request(
        &auth.caller,
        FavoriteRequest { user_id: user, program_id: prog },
    )))
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn grant(st: AppState, auth: Auth, _p: Params, req: Request) -> ApiResult {
    authorize(&auth, "usuarios", "Usuários", Perm::Create, &[], None)?;
    let body = json_body(req).await?;
    let r = call(st.up.identity.clone().grant_program(request(
        &auth.caller,
        GrantRequest { key: None, body_json: serde_json::to_vec(&body).map_err(Error::from)? },
    )))
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn revoke(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    authorize(&auth, "usuarios", "Usuários", Perm::Delete, &[], None)?;
    let key = GrantKey { user_id: p.i64("user")?, program_id: p.i64("PROG_ID")? };
    let r = call(
        st.up
            .identity
            .clone()
            .revoke_program(request(&auth.caller, key)),
    )
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn programs_for_registration(
    st: AppState,
    auth: Auth,
    _p: Params,
    _req: Request,
) -> ApiResult {
    authorize(&auth, "usuarios", "Usuários", Perm::View, &[], None)?;
    let r = call(
        st.up
            .identity
            .clone()
            .programs_for_registration(request(&auth.caller, Empty {})),
    )
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn user_self(st: AppState, auth: Auth, p: Params, req: Request) -> ApiResult {
    let (user, emp) = (p.i64("id")?, p.i64("emp")?);
    let body = Value::Object(json_body(req).await?);
    authorize(
        &auth,
        "usuarios",
        "Usuários",
        Perm::None,
        &[emp],
        Some(&body),
    )?;
    let r = call(st.up.identity.clone().update_user_self(request(
        &auth.caller,
        UserSelfRequest {
            user_id: user,
            emp,
            body_json: serde_json::to_vec(&body).map_err(Error::from)?,
        },
    )))
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn validate_user(st: AppState, auth: Auth, p: Params, req: Request) -> ApiResult {
    let emp = p.i64("emp")?;
    let body = Value::Object(json_body(req).await?);
    authorize(
        &auth,
        "usuarios",
        "Usuários",
        Perm::None,
        &[emp],
        Some(&body),
    )?;
    let r = call(st.up.identity.clone().validate_user(request(
        &auth.caller,
        ValidateUserRequest { emp, body_json: serde_json::to_vec(&body).map_err(Error::from)? },
    )))
    .await?;
    ok_json(json_of(&r.json)?)
}

async fn subgroups_of(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let (emp, user) = (p.i64("emp")?, p.i64("user")?);
    let mut body = Map::new();
    body.insert("SGUS_USR_ID".into(), Value::from(user));
    let body = Body::from_map(body)?;
    list_response(
        register_calls::list(&st, &auth, "subgrupousuario", Some(emp), body, false).await?,
    )
}

async fn subgroup_delete(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let (id, emp) = (p.get("id")?.to_string(), p.i64("emp")?);
    register_calls::delete(&st, &auth, "subgrupousuario", Some(emp), vec![id]).await?;
    ok_json(json!({"code": 200, "msg": "Registro excluído com sucesso."}))
}

async fn logo_upload(st: AppState, auth: Auth, p: Params, req: Request) -> ApiResult {
    let (emp, kind) = (p.i64("ID")?, p.get("ID_IMG")?.to_string());
    authorize(&auth, "empresas", "Empresas", Perm::Update, &[emp], None)?;
    let stored = uploads::receive(&st, &auth, emp, req, uploads::IMAGES).await?;
    let r = call(st.up.identity.clone().set_company_logo(request(
        &auth.caller,
        CompanyLogo { emp, kind, file_name: stored.name.clone() },
    )))
    .await;
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            uploads::remove(&st, &auth, emp, &stored.name).await;
            return Err(e.into());
        }
    };
    let mut v = json_of(&r.json)?;
    if let Some(old) = v
        .get("anterior")
        .and_then(Value::as_str)
        .map(str::to_string)
    {
        uploads::remove(&st, &auth, emp, &old).await;
    }
    if let Value::Object(m) = &mut v {
        m.remove("anterior");
        m.insert(
            "url".into(),
            Value::from(format!("/uploads/{emp}/{}", stored.name)),
        );
    }
    ok_json(v)
}

async fn logo_delete(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let emp = p.i64("ID")?;
    let name = p.get("NOME_IMAGE")?.to_string();
    authorize(&auth, "empresas", "Empresas", Perm::Update, &[emp], None)?;
    let kind = p.get("ID_IMAGE")?.to_string();
    let r = call(st.up.identity.clone().delete_company_logo(request(
        &auth.caller,
        CompanyLogoKey { emp, kind, file_name: name.clone() },
    )))
    .await?;
    uploads::remove(&st, &auth, emp, &name).await;
    ok_json(json_of(&r.json)?)
}

pub fn add(routes: &mut Routes) {
    routes.add_public(
        Method::POST,
        "/usuarios/sessions",
        "Login: token, usuário, empresa e programas",
        login,
    );
    routes.add(
        Method::DELETE,
        "/usuarios/sessions",
        "Logout: revoga o token",
        logout,
    );
    routes.add(
        Method::POST,
        "/usuarios/logout",
        "Logout: revoga o token",
        logout,
    );
    routes.add(
        Method::GET,
        "/empresa/consulta/{id}",
        "Dados da empresa",
        company,
    );
    routes.add(
        Method::GET,
        "/programasusuario/montamenu/{user}",
        "Menu do usuário (programas com consulta)",
        menu,
    );
    routes.add(
        Method::GET,
        "/programasusuario/{user}",
        "Programas e permissões do usuário",
        programs_of,
    );
    routes.add(
        Method::PUT,
        "/programasusuario/{PROG_ID}/{user}",
        "Favorito (0/1) ou permissões do programa",
        put_program,
    );
    routes.add(
        Method::POST,
        "/programasusuario",
        "Concede um programa ao usuário",
        grant,
    );
    routes.add(
        Method::DELETE,
        "/programasusuario/{PROG_ID}/{user}",
        "Remove um programa do usuário",
        revoke,
    );
    routes.add(
        Method::GET,
        "/programas/menucadastrousuario",
        "Programas para o cadastro de usuários",
        programs_for_registration,
    );
    routes.add(
        Method::PUT,
        "/usuariosModificacoes/{id}/{emp}",
        "Alterações do próprio usuário (dados e senha)",
        user_self,
    );
    routes.add(
        Method::POST,
        "/validausuarios/{emp}",
        "Valida usuário e senha (liberação)",
        validate_user,
    );
    routes.add(
        Method::GET,
        "/subgrupousuario/{emp}/{user}",
        "Subgrupos liberados ao usuário",
        subgroups_of,
    );
    routes.add(
        Method::POST,
        "/subgrupousuario/{emp}/{user}",
        "Subgrupos liberados ao usuário",
        subgroups_of,
    );
    routes.add(
        Method::DELETE,
        "/subgrupousuario/{id}/{emp}/{user}",
        "Remove subgrupo do usuário",
        subgroup_delete,
    );
    routes.add(
        Method::PUT,
        "/empresas/uploads/{ID}/{ID_IMG}",
        "Envia logo da empresa (multipart: file)",
        logo_upload,
    );
    routes.add(
        Method::DELETE,
        "/empresas/uploads/{ID}/{ID_IMAGE}/{NOME_IMAGE}",
        "Remove logo da empresa",
        logo_delete,
    );
}
