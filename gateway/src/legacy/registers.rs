//! The generic routes every register gets from its descriptor (data-and-calls.md
//! §7 "Common conventions"):
//!
//! company-scoped (`{emp}` in the path):
//!   POST /r/filtro, POST /r/{emp} (list), POST /r/registros[/{emp}] (count),
//!   POST /r (create), GET|PUT|DELETE /r/{key}/{emp}[/{more keys}],
//!   GET /r/pesquisar/{filter}/{emp}
//! not company-scoped:
//!   POST /r/filtro|filtros (list), POST /r/registros (count), POST /r (create),
//!   GET|PUT|DELETE /r/{key...}, POST /r/{key} (get), GET /r/pesquisar/{filter}

use axum::extract::Request;
use axum::http::Method;
use serde_json::json;

use super::{count_response, json_body, list_response, ok_json, Params, Routes};
use crate::auth::authenticate;
use crate::ops;
use crate::state::AppState;

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

fn key_of(params: &Params, key: &[String]) -> erp_platform::Result<Vec<String>> {
    key.iter()
        .map(|k| params.get(k).map(str::to_string))
        .collect()
}

fn opt_emp(params: &Params) -> erp_platform::Result<Option<i64>> {
    match params.get("emp") {
        Ok(_) => Ok(Some(params.i64("emp")?)),
        Err(_) => Ok(None),
    }
}

pub fn add_all(routes: &mut Routes, registry: &erp_platform::resource::Registry) {
    // Declared calls first: they win over a generic route of the same shape.
    for res in registry.all() {
        for a in &res.actions {
            add_action(routes, &res.name, a);
        }
    }
    for res in registry.all() {
        for p in &res.list_paths {
            add_filtered(routes, &res.name, &res.title, p, false);
        }
        for p in &res.count_paths {
            add_filtered(routes, &res.name, &res.title, p, true);
        }
    }
    for res in registry.all() {
        for root in std::iter::once(&res.name).chain(res.aliases.iter()) {
            add_resource(
                routes,
                root,
                &res.name,
                &res.key,
                res.company.is_some() || res.company_path,
                &res.title,
            );
        }
    }
}

fn add_resource(
    routes: &mut Routes,
    root: &str,
    name: &str,
    key: &[String],
    company: bool,
    title: &str,
) {
    let n = name.to_string();
    let list = {
        let n = n.clone();
        move |st: AppState, params: Params, req: Request| {
            let n = n.clone();
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                let emp = opt_emp(&params)?;
                let body = json_body(req).await?;
                list_response(ops::list(&st, &auth, &n, emp, body).await?)
            }
        }
    };
    let count = {
        let n = n.clone();
        move |st: AppState, params: Params, req: Request| {
            let n = n.clone();
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                let emp = opt_emp(&params)?;
                let body = json_body(req).await?;
                count_response(ops::count(&st, &auth, &n, emp, body).await?)
            }
        }
    };
    let create = {
        let n = n.clone();
        move |st: AppState, _params: Params, req: Request| {
            let n = n.clone();
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                let body = json_body(req).await?;
                ok_json(ops::create(&st, &auth, &n, None, body).await?)
            }
        }
    };
    let get = {
        let (n, key) = (n.clone(), key.to_vec());
        move |st: AppState, params: Params, req: Request| {
            let (n, key) = (n.clone(), key.clone());
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                ok_json(ops::get(&st, &auth, &n, opt_emp(&params)?, key_of(&params, &key)?).await?)
            }
        }
    };
    let update = {
        let (n, key) = (n.clone(), key.to_vec());
        move |st: AppState, params: Params, req: Request| {
            let (n, key) = (n.clone(), key.clone());
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                let emp = opt_emp(&params)?;
                let k = key_of(&params, &key)?;
                let body = json_body(req).await?;
                ok_json(ops::update(&st, &auth, &n, emp, k, body).await?)
            }
        }
    };
    let delete = {
        let (n, key) = (n.clone(), key.to_vec());
        move |st: AppState, params: Params, req: Request| {
            let (n, key) = (n.clone(), key.clone());
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                ops::delete(&st, &auth, &n, opt_emp(&params)?, key_of(&params, &key)?).await?;
                ok_json(json!({"code": 200, "msg": "Registro excluído com sucesso."}))
            }
        }
    };
    let search = {
        let n = n.clone();
        move |st: AppState, params: Params, req: Request| {
            let n = n.clone();
            async move {
                let auth = authenticate(&st, req.headers(), false).await?;
                let filter = params.get("filter")?.to_string();
                ok_json(ops::search(&st, &auth, &n, opt_emp(&params)?, filter, 0).await?)
            }
        }
    };

    let item = item_path(root, key, company);
    routes.add(
        Method::POST,
        &format!("/{root}/filtro"),
        &format!("{title}: listar"),
        false,
        list.clone(),
    );
    routes.add(
        Method::POST,
        &format!("/{root}/filtros"),
        &format!("{title}: listar"),
        false,
        list.clone(),
    );
    routes.add(
        Method::POST,
        &format!("/{root}/registros"),
        &format!("{title}: contar"),
        false,
        count.clone(),
    );
    routes.add(
        Method::POST,
        &format!("/{root}"),
        &format!("{title}: incluir"),
        false,
        create,
    );
    routes.add(
        Method::GET,
        &item,
        &format!("{title}: consultar"),
        false,
        get.clone(),
    );
    routes.add(
        Method::PUT,
        &item,
        &format!("{title}: alterar"),
        false,
        update,
    );
    routes.add(
        Method::DELETE,
        &item,
        &format!("{title}: excluir"),
        false,
        delete,
    );
    if company {
        routes.add(
            Method::POST,
            &format!("/{root}/{{emp}}"),
            &format!("{title}: listar"),
            false,
            list,
        );
        routes.add(
            Method::POST,
            &format!("/{root}/registros/{{emp}}"),
            &format!("{title}: contar"),
            false,
            count,
        );
        routes.add(
            Method::GET,
            &format!("/{root}/pesquisar/{{filter}}/{{emp}}"),
            &format!("{title}: pesquisar"),
            false,
            search,
        );
    } else {
        routes.add(
            Method::POST,
            &item,
            &format!("{title}: consultar"),
            false,
            get,
        );
        routes.add(
            Method::GET,
            &format!("/{root}/pesquisar/{{filter}}"),
            &format!("{title}: pesquisar"),
            false,
            search,
        );
    }
}

/// A list (or count) call whose path parameters are equality filters: the lines of
/// one document (`POST /pedidoproduto/{PEDI_PEDF_ID}/{emp}/{PEDI_PEDF_SERIE_ID}`).
fn add_filtered(routes: &mut Routes, name: &str, title: &str, path: &str, count: bool) {
    let names: Vec<String> = path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .filter(|s| *s != "emp")
        .map(String::from)
        .collect();
    let n = name.to_string();
    let handler = move |st: AppState, params: Params, req: Request| {
        let (n, names) = (n.clone(), names.clone());
        async move {
            let auth = authenticate(&st, req.headers(), false).await?;
            let emp = opt_emp(&params)?;
            let mut body = json_body(req).await?;
            for k in &names {
                body.insert(k.clone(), json!(params.get(k)?));
            }
            if count {
                count_response(ops::count(&st, &auth, &n, emp, body).await?)
            } else {
                list_response(ops::list(&st, &auth, &n, emp, body).await?)
            }
        }
    };
    let verb = if count { "contar" } else { "listar" };
    routes.add(
        Method::POST,
        path,
        &format!("{title}: {verb}"),
        false,
        handler,
    );
}

fn add_action(routes: &mut Routes, name: &str, a: &erp_platform::resource::Action) {
    let method = Method::from_bytes(a.method.as_bytes()).unwrap_or(Method::POST);
    let names: Vec<String> = a
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(String::from)
        .collect();
    let (n, action, upload) = (name.to_string(), a.name.clone(), a.upload.clone());
    let is_delete = method == Method::DELETE;
    let handler = move |st: AppState, params: Params, req: Request| {
        let (n, action, upload, names) = (n.clone(), action.clone(), upload.clone(), names.clone());
        async move {
            let auth = authenticate(&st, req.headers(), false).await?;
            let mut map = std::collections::HashMap::new();
            for k in &names {
                map.insert(k.clone(), params.get(k)?.to_string());
            }
            let body = match &upload {
                Some(types) => {
                    let emp = match map.get("emp") {
                        Some(e) => e.parse().map_err(|_| {
                            erp_platform::Error::validation("Parâmetro emp inválido.")
                        })?,
                        None => auth.caller.emp_id,
                    };
                    crate::access::check_companies(&auth, &[emp])?;
                    let allowed: Vec<&str> = types.iter().map(String::as_str).collect();
                    let stored = crate::uploads::receive(&st, &auth, emp, req, &allowed).await?;
                    let mut m = stored.fields;
                    m.insert("arquivo".into(), json!({"nome": stored.name, "original": stored.original, "tamanho": stored.size, "url": format!("/uploads/{emp}/{}", stored.name)}));
                    serde_json::Value::Object(m)
                }
                None => serde_json::Value::Object(json_body(req).await?),
            };
            let emp = map
                .get("emp")
                .and_then(|e| e.parse::<i64>().ok())
                .unwrap_or(auth.caller.emp_id);
            let out = ops::action(&st, &auth, &n, &action, map, body).await?;
            // A call that replaced or removed a stored file names it: the file goes.
            let replaced = ["anterior"]
                .into_iter()
                .chain(is_delete.then_some("arquivo"));
            for k in replaced {
                if let Some(old) = out.get(k).and_then(|v| v.as_str()) {
                    let file = old.rsplit(['/', '\\']).next().unwrap_or(old);
                    crate::uploads::remove(&st, &auth, emp, file).await;
                }
            }
            match out {
                serde_json::Value::Array(rows) => list_response(rows),
                other => ok_json(other),
            }
        }
    };
    let summary = if a.upload.is_some() {
        format!("{} (multipart: file)", a.summary)
    } else {
        a.summary.clone()
    };
    routes.add(method, &a.path, &summary, false, handler);
}
