//! Register operations as both front doors (legacy REST and GraphQL) use them:
//! resolve the register, work out the company, run the guard and the permission
//! check, call the owning service.

use std::sync::Arc;

use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use erp_proto::erp::v1::{ActionRequest, KeyRequest, ListRequest, SearchRequest, WriteRequest};
use serde_json::{Map, Value};

use crate::access::{authorize, Perm};
use crate::auth::Auth;
use crate::state::AppState;
use crate::upstream::{call, request};

pub fn resource(st: &AppState, name: &str) -> Result<Arc<Resource>> {
    st.registry
        .get(name)
        .cloned()
        .ok_or_else(|| Error::NotFound(format!("Cadastro '{name}' não encontrado.")))
}

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

/// The company a register call works in: the path's, else the body's company
/// column or EMP_ID, else the user's current company.
fn company(
    res: &Resource,
    auth: &Auth,
    path_emp: Option<i64>,
    body: &Map<String, Value>,
) -> Option<i64> {
    let col = res.company.as_deref()?;
    path_emp
        .or_else(|| body.get(col).and_then(int_of))
        .or_else(|| body.get("EMP_ID").and_then(int_of))
        .or(Some(auth.caller.emp_id))
}

/// Public reference tables (states, cities, NCM) are readable by every signed-in
/// user: forms of any register pick from them.
fn read_perm(res: &Resource) -> Perm {
    if res.tenant {
        Perm::View
    } else {
        Perm::None
    }
}

/// Key values that name a company (the `empresas` register is keyed by EMP_ID).
fn key_companies(res: &Resource, key: &[String]) -> Vec<i64> {
    res.key
        .iter()
        .zip(key)
        .filter(|(k, _)| k.as_str() == "EMP_ID")
        .filter_map(|(_, v)| v.parse().ok())
        .collect()
}

/// Companies the guard checks: the one worked in, one named by the path even when
/// the register is shared (states), and company keys.
fn emps(emp: Option<i64>, path_emp: Option<i64>, extra: Vec<i64>) -> Vec<i64> {
    emp.into_iter().chain(path_emp).chain(extra).collect()
}

/// Guard, permission and the request of a list or a count: both take the same
/// filter body.
fn list_request(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Map<String, Value>,
) -> Result<(Arc<Resource>, tonic::Request<ListRequest>)> {
    let res = resource(st, name)?;
    let emp = company(&res, auth, path_emp, &body);
    let body = Value::Object(body);
    authorize(
        auth,
        &res.program,
        &res.title,
        read_perm(&res),
        &emps(emp, path_emp, vec![]),
        Some(&body),
    )?;
    let msg = ListRequest {
        resource: res.name.clone(),
        emp,
        filter_json: serde_json::to_vec(&body)?,
    };
    Ok((res, request(&auth.caller, msg)))
}

pub async fn list(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Map<String, Value>,
) -> Result<Vec<Value>> {
    let (res, req) = list_request(st, auth, name, path_emp, body)?;
    let reply = call(st.up.resources(&res.schema)?.list(req)).await?;
    Ok(serde_json::from_slice(&reply.rows_json)?)
}

pub async fn count(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Map<String, Value>,
) -> Result<i64> {
    let (res, req) = list_request(st, auth, name, path_emp, body)?;
    Ok(call(st.up.resources(&res.schema)?.count(req)).await?.total)
}

pub async fn get(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
) -> Result<Value> {
    let res = resource(st, name)?;
    let emp = company(&res, auth, path_emp, &Map::new());
    authorize(
        auth,
        &res.program,
        &res.title,
        read_perm(&res),
        &emps(emp, path_emp, key_companies(&res, &key)),
        None,
    )?;
    let req = request(
        &auth.caller,
        KeyRequest {
            resource: res.name.clone(),
            emp,
            key,
        },
    );
    let reply = call(st.up.resources(&res.schema)?.get(req)).await?;
    Ok(serde_json::from_slice(&reply.row_json)?)
}

pub async fn create(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    mut body: Map<String, Value>,
) -> Result<Value> {
    let res = resource(st, name)?;
    // A generated key in the body means nothing (mass assignment).
    if let Some(k) = res.generated_column() {
        body.remove(k);
    }
    let emp = company(&res, auth, path_emp, &body);
    let body = Value::Object(body);
    authorize(
        auth,
        &res.program,
        &res.title,
        Perm::Create,
        &emps(emp, path_emp, vec![]),
        Some(&body),
    )?;
    let req = request(
        &auth.caller,
        WriteRequest {
            resource: res.name.clone(),
            emp,
            key: vec![],
            body_json: serde_json::to_vec(&body)?,
        },
    );
    let reply = call(st.up.resources(&res.schema)?.create(req)).await?;
    forget_principal(st, auth, &res).await?;
    Ok(serde_json::from_slice(&reply.row_json)?)
}

pub async fn update(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
    body: Map<String, Value>,
) -> Result<Value> {
    let res = resource(st, name)?;
    let emp = company(&res, auth, path_emp, &body);
    let body = Value::Object(body);
    authorize(
        auth,
        &res.program,
        &res.title,
        Perm::Update,
        &emps(emp, path_emp, key_companies(&res, &key)),
        Some(&body),
    )?;
    let req = request(
        &auth.caller,
        WriteRequest {
            resource: res.name.clone(),
            emp,
            key,
            body_json: serde_json::to_vec(&body)?,
        },
    );
    let reply = call(st.up.resources(&res.schema)?.update(req)).await?;
    forget_principal(st, auth, &res).await?;
    Ok(serde_json::from_slice(&reply.row_json)?)
}

pub async fn delete(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
) -> Result<()> {
    let res = resource(st, name)?;
    let emp = company(&res, auth, path_emp, &Map::new());
    authorize(
        auth,
        &res.program,
        &res.title,
        Perm::Delete,
        &emps(emp, path_emp, key_companies(&res, &key)),
        None,
    )?;
    let req = request(
        &auth.caller,
        KeyRequest {
            resource: res.name.clone(),
            emp,
            key,
        },
    );
    call(st.up.resources(&res.schema)?.delete(req)).await?;
    forget_principal(st, auth, &res).await
}

/// After a write that changes companies or users, the caller's next request
/// reloads their principal (other users' follow identity's event).
async fn forget_principal(st: &AppState, auth: &Auth, res: &Resource) -> Result<()> {
    if res.affects_principal {
        crate::auth::evict(st, auth.caller.client_id, auth.caller.user_id).await?;
    }
    Ok(())
}

pub async fn search(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    filter: String,
    limit: i32,
) -> Result<Vec<Value>> {
    let res = resource(st, name)?;
    let emp = company(&res, auth, path_emp, &Map::new());
    authorize(
        auth,
        &res.program,
        &res.title,
        read_perm(&res),
        &emps(emp, path_emp, vec![]),
        None,
    )?;
    let req = request(
        &auth.caller,
        SearchRequest {
            resource: res.name.clone(),
            emp,
            filter,
            limit,
        },
    );
    let reply = call(st.up.resources(&res.schema)?.search(req)).await?;
    Ok(serde_json::from_slice(&reply.rows_json)?)
}

/// A register's own call (declared with its descriptor).
pub async fn action(
    st: &AppState,
    auth: &Auth,
    name: &str,
    action: &str,
    params: std::collections::HashMap<String, String>,
    body: Value,
) -> Result<Value> {
    let res = resource(st, name)?;
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .ok_or_else(|| Error::NotFound(format!("Ação '{action}' não encontrada.")))?;
    let perm = match a.perm {
        erp_platform::resource::ActionPerm::View => read_perm(&res),
        erp_platform::resource::ActionPerm::Create => Perm::Create,
        erp_platform::resource::ActionPerm::Update => Perm::Update,
        erp_platform::resource::ActionPerm::Delete => Perm::Delete,
    };
    // Old screens send 'undefined' or 'null' for a company they do not have: that
    // is no company, and the register's call answers as it sees fit.
    let path_emp = match params.get("emp").map(|e| e.trim()) {
        None | Some("") | Some("undefined") | Some("null") => None,
        Some(e) => Some(
            e.parse::<i64>()
                .map_err(|_| Error::validation("Parâmetro emp inválido."))?,
        ),
    };
    let emp = match &body {
        Value::Object(m) => company(&res, auth, path_emp, m),
        _ => company(&res, auth, path_emp, &Map::new()),
    };
    authorize(
        auth,
        &res.program,
        &res.title,
        perm,
        &emps(emp, path_emp, vec![]),
        Some(&body),
    )?;
    if a.handler.is_none() {
        let emp = emp
            .or(path_emp)
            .ok_or_else(|| Error::validation(erp_platform::resource::params::NO_COMPANY))?;
        return crate::transitions::run(st, auth, &res.name, action, emp, &params).await;
    }
    let req = request(
        &auth.caller,
        ActionRequest {
            resource: res.name.clone(),
            action: action.into(),
            emp,
            params,
            body_json: serde_json::to_vec(&body)?,
        },
    );
    let reply = call(st.up.resources(&res.schema)?.action(req)).await?;
    Ok(serde_json::from_slice(&reply.row_json)?)
}
