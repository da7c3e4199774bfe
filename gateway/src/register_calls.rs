//! Register operations as both front doors (legacy REST and GraphQL) use them:
//! resolve the register, work out the company once, run the guard and the
//! permission check, call the owning service.
//!
//! A body is parsed once ([`Body`]): the gateway reads the object for the guard and
//! the company, and forwards the bytes it received to the service unchanged. Rows
//! come back as the service serialized them ([`Rows`]) and go to a REST caller as
//! they are; only GraphQL, which nests them in its answer, parses them.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use erp_platform::resource::{ActionPerm, Resource};
use erp_platform::{Error, Result};
use erp_proto::erp::v1::{
    ActionReply, ActionRequest, KeyRequest, ListRequest, SearchRequest, WriteRequest,
};
use serde_json::{Map, Value};

use crate::access::{authorize, Perm};
use crate::auth::Auth;
use crate::reply::Rows;
use crate::state::AppState;
use crate::upstream::{call, request};

/// A JSON object body, parsed once, with the bytes it came as.
#[derive(Clone, Debug)]
pub struct Body {
    /// Always an object (kept as a `Value` so the guard reads it without a copy).
    value: Value,
    raw: Bytes,
}

impl Body {
    /// `{}` when empty; anything but an object is refused.
    pub fn parse(raw: Bytes) -> Result<Body> {
        if raw.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body::empty());
        }
        match serde_json::from_slice::<Value>(&raw)? {
            value @ Value::Object(_) => Ok(Body { value, raw }),
            _ => Err(Error::validation(
                "O corpo da requisição deve ser um objeto JSON.",
            )),
        }
    }

    pub fn empty() -> Body {
        Body { value: Value::Object(Map::new()), raw: Bytes::from_static(b"{}") }
    }

    pub fn from_map(map: Map<String, Value>) -> Result<Body> {
        let value = Value::Object(map);
        let raw = Bytes::from(serde_json::to_vec(&value)?);
        Ok(Body { value, raw })
    }

    pub fn map(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        self.value.as_object().unwrap_or(&EMPTY)
    }

    /// The body with more keys (a list path's parameters): serialized again.
    pub fn with(self, extra: impl IntoIterator<Item = (String, Value)>) -> Result<Body> {
        let mut map = match self.value {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        map.extend(extra);
        Body::from_map(map)
    }
}

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
/// column or EMP_ID, else the user's current company. Registers that are not per
/// company have none. Computed here only: the service takes it as given.
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

/// A register call resolved: the register, its company, the guard and the
/// permission checked.
struct Resolved {
    res: Arc<Resource>,
    emp: Option<i64>,
}

fn resolve(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Option<&Value>,
    perm: impl FnOnce(&Resource) -> Perm,
    key: &[String],
) -> Result<Resolved> {
    let res = resource(st, name)?;
    let empty = Map::new();
    let map = body.and_then(Value::as_object).unwrap_or(&empty);
    let emp = company(&res, auth, path_emp, map);
    let emps: Vec<i64> = emp
        .into_iter()
        .chain(path_emp)
        .chain(key_companies(&res, key))
        .collect();
    authorize(auth, &res.program, &res.title, perm(&res), &emps, body)?;
    Ok(Resolved { res, emp })
}

/// A list (and its total, when asked): one call, one transaction in the service.
pub async fn list(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Body,
    with_total: bool,
) -> Result<Rows> {
    let r = resolve(st, auth, name, path_emp, Some(&body.value), read_perm, &[])?;
    let msg = ListRequest {
        resource: r.res.name.clone(),
        emp: r.emp,
        filter_json: body.raw.clone(),
        with_total,
    };
    let reply = call(
        st.up
            .resources(&r.res.schema)?
            .list(request(&auth.caller, msg)),
    )
    .await?;
    Ok(Rows { json: reply.rows_json, total: reply.total })
}

pub async fn count(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Body,
) -> Result<i64> {
    let r = resolve(st, auth, name, path_emp, Some(&body.value), read_perm, &[])?;
    let msg = ListRequest {
        resource: r.res.name.clone(),
        emp: r.emp,
        filter_json: body.raw.clone(),
        with_total: false,
    };
    Ok(call(
        st.up
            .resources(&r.res.schema)?
            .count(request(&auth.caller, msg)),
    )
    .await?
    .total)
}

pub async fn get(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
) -> Result<Bytes> {
    let r = resolve(st, auth, name, path_emp, None, read_perm, &key)?;
    let msg = KeyRequest { resource: r.res.name.clone(), emp: r.emp, key };
    let reply = call(
        st.up
            .resources(&r.res.schema)?
            .get(request(&auth.caller, msg)),
    )
    .await?;
    Ok(Bytes::from(reply.row_json))
}

pub async fn create(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    body: Body,
) -> Result<Bytes> {
    // A generated key in the body means nothing: the service never writes it.
    write(st, auth, name, path_emp, Vec::new(), body, Perm::Create).await
}

pub async fn update(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
    body: Body,
) -> Result<Bytes> {
    write(st, auth, name, path_emp, key, body, Perm::Update).await
}

/// A create (`Perm::Create`, no key) or an update of the row at `key`.
async fn write(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
    body: Body,
    perm: Perm,
) -> Result<Bytes> {
    let r = resolve(st, auth, name, path_emp, Some(&body.value), |_| perm, &key)?;
    let msg = WriteRequest {
        resource: r.res.name.clone(),
        emp: r.emp,
        key,
        body_json: body.raw.to_vec(),
    };
    let mut client = st.up.resources(&r.res.schema)?;
    let req = request(&auth.caller, msg);
    let reply = match perm {
        Perm::Create => call(client.create(req)).await?,
        _ => call(client.update(req)).await?,
    };
    forget_principal(st, auth, &r.res).await?;
    Ok(Bytes::from(reply.row_json))
}

pub async fn delete(
    st: &AppState,
    auth: &Auth,
    name: &str,
    path_emp: Option<i64>,
    key: Vec<String>,
) -> Result<()> {
    let r = resolve(st, auth, name, path_emp, None, |_| Perm::Delete, &key)?;
    let msg = KeyRequest { resource: r.res.name.clone(), emp: r.emp, key };
    call(
        st.up
            .resources(&r.res.schema)?
            .delete(request(&auth.caller, msg)),
    )
    .await?;
    forget_principal(st, auth, &r.res).await
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
) -> Result<Bytes> {
    let r = resolve(st, auth, name, path_emp, None, read_perm, &[])?;
    let msg = SearchRequest { resource: r.res.name.clone(), emp: r.emp, filter, limit };
    let reply = call(
        st.up
            .resources(&r.res.schema)?
            .search(request(&auth.caller, msg)),
    )
    .await?;
    Ok(reply.rows_json)
}

/// The company parameter of a declared call: old screens send 'undefined' or
/// 'null' for a company they do not have, which is no company.
fn path_company(params: &HashMap<String, String>) -> Result<Option<i64>> {
    match params.get("emp").map(|e| e.trim()) {
        None | Some("") | Some("undefined") | Some("null") => Ok(None),
        Some(e) => e
            .parse::<i64>()
            .map(Some)
            .map_err(|_| Error::validation("Parâmetro emp inválido.")),
    }
}

/// A register's own call (declared with its descriptor and served by its
/// service): the company of the path and the permission are checked here, the
/// body goes to the service as it came (the service parses it once, into the
/// call's input, and checks the companies it names against the caller's).
pub async fn action(
    st: &AppState,
    auth: &Auth,
    name: &str,
    action: &str,
    params: HashMap<String, String>,
    body: Bytes,
) -> Result<ActionReply> {
    let res = resource(st, name)?;
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .ok_or_else(|| Error::NotFound(format!("Ação '{action}' não encontrada.")))?;
    let perm = match a.perm {
        // A register no program guards answers each caller their own rows (the
        // bell's notifications): its calls are every signed-in user's.
        _ if res.program.is_empty() => Perm::None,
        ActionPerm::View => read_perm(&res),
        ActionPerm::Create => Perm::Create,
        ActionPerm::Update => Perm::Update,
        ActionPerm::Delete => Perm::Delete,
    };
    let path_emp = path_company(&params)?;
    authorize(
        auth,
        &res.program,
        &res.title,
        perm,
        &path_emp.into_iter().collect::<Vec<_>>(),
        None,
    )?;
    let req = request(
        &auth.caller,
        ActionRequest {
            resource: res.name.clone(),
            action: action.into(),
            params,
            body_json: body,
            companies: auth.companies().collect(),
        },
    );
    call(st.up.resources(&res.schema)?.action(req)).await
}
