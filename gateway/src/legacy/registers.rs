//! The routes every register gets from its descriptor (data-and-calls.md §7
//! "Common conventions"), resolved to one register call each and served by one
//! function ([`serve`]): the caller authenticated once (the `Auth` extractor), the
//! company parsed once, the body parsed once and forwarded as received.
//!
//! company-scoped (`{emp}` in the path):
//!   POST /r/filtro, POST /r/{emp} (list), POST /r/registros[/{emp}] (count),
//!   POST /r (create), GET|PUT|DELETE /r/{key}/{emp}[/{more keys}],
//!   GET /r/pesquisar/{filter}/{emp}
//! not company-scoped:
//!   POST /r/filtro|filtros (list), POST /r/registros (count), POST /r (create),
//!   GET|PUT|DELETE /r/{key...}, POST /r/{key} (get), GET /r/pesquisar/{filter}
//! plus each register's list and count paths (`/pedidoproduto/{id}/{emp}/{serie}`)
//! and its declared calls.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::Method;
use bytes::Bytes;
use erp_platform::resource::{Action, Registry};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use crate::auth::Auth;
use crate::register_calls::{self, Body};
use crate::reply::{body_bytes, count_response, json_bytes, list_response, ok_json, ApiResult};
use crate::routes::{Access, Params, Routes, Serves};
use crate::state::AppState;

/// What a register route does.
#[derive(Clone)]
enum Op {
    List,
    Count,
    /// A list (or count) whose path parameters are equality filters.
    ListBy(Arc<[String]>),
    CountBy(Arc<[String]>),
    Create,
    Get,
    Update,
    Delete,
    Search,
    Action {
        name: String,
        upload: Option<Vec<String>>,
        /// A form call: the most bytes of files it takes.
        form: Option<usize>,
    },
}

/// A register route resolved: which register, its key fields, what it does.
#[derive(Clone)]
struct Call {
    register: Arc<str>,
    key: Arc<[String]>,
    op: Op,
}

impl Call {
    fn key(&self, p: &Params) -> Result<Vec<String>> {
        self.key
            .iter()
            .map(|k| p.get(k).map(str::to_string))
            .collect()
    }
}

/// Serves every register route.
async fn serve(st: AppState, auth: Auth, p: Params, req: Request, call: Call) -> ApiResult {
    let name = &*call.register;
    let emp = p.opt_i64("emp")?;
    match &call.op {
        Op::List => {
            let body = Body::parse(body_bytes(req).await?)?;
            list_response(register_calls::list(&st, &auth, name, emp, body, false).await?)
        }
        Op::Count => {
            let body = Body::parse(body_bytes(req).await?)?;
            count_response(register_calls::count(&st, &auth, name, emp, body).await?)
        }
        Op::ListBy(fields) | Op::CountBy(fields) => {
            let filters = fields
                .iter()
                .map(|k| Ok((k.clone(), json!(p.get(k)?))))
                .collect::<Result<Vec<_>>>()?;
            let body = Body::parse(body_bytes(req).await?)?.with(filters)?;
            if matches!(call.op, Op::ListBy(_)) {
                list_response(register_calls::list(&st, &auth, name, emp, body, false).await?)
            } else {
                count_response(register_calls::count(&st, &auth, name, emp, body).await?)
            }
        }
        Op::Create => {
            let body = Body::parse(body_bytes(req).await?)?;
            json_bytes(register_calls::create(&st, &auth, name, None, body).await?)
        }
        Op::Get => json_bytes(register_calls::get(&st, &auth, name, emp, call.key(&p)?).await?),
        Op::Update => {
            let body = Body::parse(body_bytes(req).await?)?;
            json_bytes(register_calls::update(&st, &auth, name, emp, call.key(&p)?, body).await?)
        }
        Op::Delete => {
            register_calls::delete(&st, &auth, name, emp, call.key(&p)?).await?;
            ok_json(json!({"code": 200, "msg": "Registro excluído com sucesso."}))
        }
        Op::Search => {
            let filter = p.get("filter")?.to_string();
            json_bytes(register_calls::search(&st, &auth, name, emp, filter, 0).await?)
        }
        Op::Action { name: action, upload, form } => {
            let kind = match (upload, form) {
                (Some(types), _) => Payload::Upload(types),
                (None, Some(max)) => Payload::Form(*max),
                (None, None) => Payload::Json,
            };
            declared_call(&st, &auth, name, action, kind, p, req).await
        }
    }
}

/// What a declared call's request carries.
enum Payload<'a> {
    /// A JSON body, forwarded as received.
    Json,
    /// A multipart upload of one `file` of these types, stored by the gateway.
    Upload(&'a [String]),
    /// A multipart form whose files (at most this many bytes) reach the service.
    Form(usize),
}

/// A register's declared call: its path parameters by name (and the query
/// string's, which never override them) and its body as received or, for an
/// upload, the stored file and the form's fields, or, for a form call, the
/// form's fields and files.
async fn declared_call(
    st: &AppState,
    auth: &Auth,
    register: &str,
    action: &str,
    payload: Payload<'_>,
    p: Params,
    req: Request,
) -> ApiResult {
    let mut params: std::collections::HashMap<String, String> = p
        .pairs()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if let Some(q) = req.uri().query() {
        for (k, v) in form_urlencoded::parse(q.as_bytes()) {
            params
                .entry(k.into_owned())
                .or_insert_with(|| v.into_owned());
        }
    }
    // Where the call's stored files are: the path's company, else the caller's.
    let path_emp = params.get("emp").map(|e| e.trim().parse::<i64>());
    let emp = match &path_emp {
        Some(Ok(e)) => *e,
        _ => auth.caller.emp_id,
    };
    let body = match payload {
        Payload::Upload(types) => {
            if matches!(path_emp, Some(Err(_))) {
                return Err(Error::validation("Parâmetro emp inválido.").into());
            }
            crate::access::check_companies(auth, &[emp])?;
            let allowed: Vec<&str> = types.iter().map(String::as_str).collect();
            let stored = crate::uploads::receive(st, auth, emp, req, &allowed).await?;
            let mut m = stored.fields;
            m.insert("arquivo".into(), json!({"nome": stored.name, "original": stored.original, "tamanho": stored.size, "url": format!("/uploads/{emp}/{}", stored.name)}));
            Bytes::from(serde_json::to_vec(&Value::Object(m)).map_err(Error::from)?)
        }
        Payload::Form(max) => crate::uploads::form_body(req, max).await?,
        Payload::Json => body_bytes(req).await?,
    };
    let reply = register_calls::action(st, auth, register, action, params, body).await?;
    // A call that replaced or removed a stored file names it: the file goes.
    for old in &reply.discarded {
        crate::uploads::remove(st, auth, emp, old).await;
    }
    crate::reply::action_response(reply)
}

/// `/{K1}/{emp}/{K2}...`: the first key, the company, then the other keys.
fn item_path(root: &str, key: &[String], company: bool) -> String {
    let mut p = format!("/{root}/{{{}}}", key[0]);
    if company {
        p.push_str("/{emp}");
    }
    for k in &key[1..] {
        p.push_str(&format!("/{{{k}}}"));
    }
    p
}

/// The path parameter names of a path.
fn names(path: &str) -> Vec<String> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .filter(|s| *s != "emp")
        .map(String::from)
        .collect()
}

fn add(routes: &mut Routes, method: Method, path: &str, summary: &str, call: Call, op: &str) {
    let serves = Serves::Register { register: call.register.to_string(), op: op.to_string() };
    routes.add_serving(
        method,
        path,
        summary,
        Access::Token,
        serves,
        move |st, auth, p, req| serve(st, auth, p, req, call.clone()),
    );
}

fn action_method(a: &Action) -> Method {
    Method::from_bytes(a.method.as_bytes()).unwrap_or(Method::POST)
}

pub fn add_all(routes: &mut Routes, registry: &Registry) {
    let call = |res: &erp_platform::resource::Resource, op: Op| Call {
        register: Arc::from(res.name.as_str()),
        key: res.key.clone().into(),
        op,
    };
    // Declared calls first: they win over a generic route of the same shape.
    for res in registry.all() {
        for a in &res.actions {
            let method = action_method(a);
            let summary = if a.upload.is_some() {
                format!("{} (multipart: file)", a.summary)
            } else {
                a.summary.clone()
            };
            let op = Op::Action { name: a.name.clone(), upload: a.upload.clone(), form: a.form };
            add(routes, method, &a.path, &summary, call(res, op), &a.name);
        }
    }
    for res in registry.all() {
        for p in &res.list_paths {
            let op = Op::ListBy(names(p).into());
            add(
                routes,
                Method::POST,
                p,
                &format!("{}: listar", res.title),
                call(res, op),
                "list",
            );
        }
        for p in &res.count_paths {
            let op = Op::CountBy(names(p).into());
            add(
                routes,
                Method::POST,
                p,
                &format!("{}: contar", res.title),
                call(res, op),
                "count",
            );
        }
    }
    for res in registry.all() {
        let company = res.company.is_some() || res.company_path;
        for root in std::iter::once(&res.name).chain(res.aliases.iter()) {
            let t = &res.title;
            let item = item_path(root, &res.key, company);
            let mut r = |method: Method, path: String, verb: &str, op: Op, name: &str| {
                add(
                    routes,
                    method,
                    &path,
                    &format!("{t}: {verb}"),
                    call(res, op),
                    name,
                )
            };
            r(
                Method::POST,
                format!("/{root}/filtro"),
                "listar",
                Op::List,
                "list",
            );
            r(
                Method::POST,
                format!("/{root}/filtros"),
                "listar",
                Op::List,
                "list",
            );
            r(
                Method::POST,
                format!("/{root}/registros"),
                "contar",
                Op::Count,
                "count",
            );
            r(
                Method::POST,
                format!("/{root}"),
                "incluir",
                Op::Create,
                "create",
            );
            r(Method::GET, item.clone(), "consultar", Op::Get, "get");
            r(Method::PUT, item.clone(), "alterar", Op::Update, "update");
            r(
                Method::DELETE,
                item.clone(),
                "excluir",
                Op::Delete,
                "delete",
            );
            if company {
                r(
                    Method::POST,
                    format!("/{root}/{{emp}}"),
                    "listar",
                    Op::List,
                    "list",
                );
                r(
                    Method::POST,
                    format!("/{root}/registros/{{emp}}"),
                    "contar",
                    Op::Count,
                    "count",
                );
                r(
                    Method::GET,
                    format!("/{root}/pesquisar/{{filter}}/{{emp}}"),
                    "pesquisar",
                    Op::Search,
                    "search",
                );
            } else {
                r(Method::POST, item.clone(), "consultar", Op::Get, "get");
                r(
                    Method::GET,
                    format!("/{root}/pesquisar/{{filter}}"),
                    "pesquisar",
                    Op::Search,
                    "search",
                );
            }
        }
    }
}
