//! openapi.json for the legacy REST paths, generated from the route table (so it
//! lists exactly what the gateway serves) and, for every register route, from the
//! register's descriptor: the row a register answers, what a create or update
//! takes (types, required fields, lengths, limits, enumerations), the list and
//! count bodies, the `{code, msg}` error, the 204 of an empty list and the bearer
//! scheme. An external system can generate its client from it.

use erp_platform::resource::{Action, DbType, Field, Registry, Resource};
use serde_json::{json, Map, Value};

use crate::routes::{Serves, Spec};

const ERROR_STATUSES: [&str; 10] = [
    "400", "401", "403", "404", "408", "409", "413", "429", "500", "503",
];

/// A value as a row carries it (any column may be null).
fn row_schema_of(f: &Field) -> Value {
    let mut s = match f.db {
        DbType::Int => json!({"type": "integer", "format": "int64"}),
        DbType::Decimal => json!({"type": "number"}),
        DbType::Text => json!({"type": "string"}),
        DbType::Date => json!({"type": "string", "format": "date"}),
        DbType::Timestamp => json!({"type": "string", "format": "date-time"}),
        DbType::Bool => json!({"type": "boolean"}),
        DbType::Json => json!({}),
    };
    if f.db != DbType::Json {
        s["nullable"] = json!(true);
    }
    s["description"] = json!(f.label);
    s
}

/// A value as a create or update takes it: the declared limits, the options of
/// an enumeration; decimals as numbers or decimal strings.
fn input_schema_of(f: &Field) -> Value {
    let mut s = match f.db {
        DbType::Int => json!({"type": "integer", "format": "int64"}),
        DbType::Decimal => {
            let mut n = json!({"type": "number"});
            if let Some(min) = f.min {
                n["minimum"] = json!(min.to_string().parse::<f64>().unwrap_or(0.0));
            }
            if let Some(max) = f.max {
                n["maximum"] = json!(max.to_string().parse::<f64>().unwrap_or(0.0));
            }
            n
        }
        DbType::Text => {
            let mut t = json!({"type": "string"});
            if let Some(n) = f.length {
                t["maxLength"] = json!(n);
            }
            if let Some(n) = f.min_length {
                t["minLength"] = json!(n);
            }
            if !f.options.is_empty() {
                t["enum"] = json!(f.options.iter().map(|(v, _)| v).collect::<Vec<_>>());
            }
            t
        }
        DbType::Date => json!({"type": "string", "format": "date"}),
        DbType::Timestamp => json!({"type": "string", "format": "date-time"}),
        DbType::Bool => json!({"type": "boolean"}),
        DbType::Json => json!({}),
    };
    if f.db == DbType::Int {
        if let Some(min) = f.min.and_then(|m| m.to_string().parse::<i64>().ok()) {
            s["minimum"] = json!(min);
        }
        if let Some(max) = f.max.and_then(|m| m.to_string().parse::<i64>().ok()) {
            s["maximum"] = json!(max);
        }
    }
    if f.db != DbType::Json && !f.required {
        s["nullable"] = json!(true);
    }
    s["description"] = json!(f.label);
    s
}

/// Fields a body may set: not read-only, not server-kept, not the generated key.
fn writable(res: &Resource) -> impl Iterator<Item = &Field> {
    res.fields.iter().filter(move |f| {
        !f.read_only && !f.server && res.generated_column() != Some(f.name.as_str())
    })
}

/// The component schemas of one register: its row, its create and update bodies.
fn register_schemas(res: &Resource, out: &mut Map<String, Value>) {
    let props: Map<String, Value> = res
        .fields
        .iter()
        .filter(|f| !f.write_only)
        .map(|f| (f.name.clone(), row_schema_of(f)))
        .collect();
    out.insert(
        format!("{}.row", res.name),
        json!({"type": "object", "title": res.title, "properties": props}),
    );
    let input: Map<String, Value> = writable(res)
        .map(|f| (f.name.clone(), input_schema_of(f)))
        .collect();
    let required: Vec<&str> = writable(res)
        .filter(|f| f.required && f.default.is_none() && !res.is_company(&f.name))
        .map(|f| f.name.as_str())
        .collect();
    let mut create = json!({"type": "object", "title": format!("{}: incluir", res.title), "properties": input.clone()});
    if !required.is_empty() {
        create["required"] = json!(required);
    }
    out.insert(format!("{}.create", res.name), create);
    out.insert(
        format!("{}.update", res.name),
        json!({"type": "object", "title": format!("{}: alterar", res.title), "properties": input}),
    );
}

fn schema_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn json_content(schema: Value) -> Value {
    json!({"application/json": {"schema": schema}})
}

/// What a register route takes and answers, by its operation.
fn register_op(res: &Resource, op: &str, method: &str) -> (Option<Value>, Value, bool) {
    let row = schema_ref(&format!("{}.row", res.name));
    match op {
        "list" => (
            Some(schema_ref("ListBody")),
            json!({"type": "array", "items": row}),
            true,
        ),
        "count" => (Some(schema_ref("ListBody")), schema_ref("Count"), false),
        "create" => (
            Some(schema_ref(&format!("{}.create", res.name))),
            row,
            false,
        ),
        "update" => (
            Some(schema_ref(&format!("{}.update", res.name))),
            row,
            false,
        ),
        "get" if method == "POST" => (Some(json!({"type": "object"})), row, false),
        "get" => (None, row, false),
        "delete" => (None, schema_ref("Message"), false),
        "search" => (None, json!({"type": "array", "items": row}), true),
        _ => (
            matches!(method, "POST" | "PUT" | "PATCH").then(|| json!({"type": "object"})),
            json!({}),
            false,
        ),
    }
}

/// A path parameter's schema: the company and integer keys are integers.
fn param_schema(res: Option<&Resource>, name: &str) -> Value {
    let int = name == "emp"
        || res
            .and_then(|r| r.field(name))
            .is_some_and(|f| f.db == DbType::Int);
    if int {
        json!({"type": "integer", "format": "int64"})
    } else {
        json!({"type": "string"})
    }
}

/// A declared call as openapi.json documents it, from its `In` and `Out` types.
struct Declared {
    /// The body's schema (`In` without the path parameters), when it takes one.
    body: Option<Value>,
    /// Path parameters' schemas by name (from `In`).
    params: Map<String, Value>,
    /// The answer's schema (JSON), when the call answers JSON.
    json: Option<Value>,
    /// The call may answer a file.
    file: bool,
    /// The call answers a list (204 when empty).
    list: bool,
}

/// `{"$ref": "#/components/schemas/X"}` resolved against the generated definitions.
fn resolve<'a>(v: &'a Value, defs: &'a Map<String, Value>) -> &'a Value {
    let mut cur = v;
    for _ in 0..8 {
        match cur.get("$ref").and_then(Value::as_str) {
            Some(r) => match defs.get(r.rsplit('/').next().unwrap_or(r)) {
                Some(d) => cur = d,
                None => return cur,
            },
            None => return cur,
        }
    }
    cur
}

/// Replaces the engine's markers in a generated schema: a register's row
/// (`x-row`: the call's register, or the one named) by a reference to its row
/// schema, a file (`x-file`) by binary content.
fn replace_markers(v: &mut Value, register: &str) {
    match v {
        Value::Object(m) => {
            if let Some(row) = m.get("x-row").cloned() {
                let name = row.as_str().unwrap_or(register).to_string();
                *v = if name.is_empty() {
                    json!({"type": "object"})
                } else {
                    schema_ref(&format!("{name}.row"))
                };
                return;
            }
            for (_, x) in m.iter_mut() {
                replace_markers(x, register);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| replace_markers(x, register)),
        _ => {}
    }
}

fn has_file(v: &Value, defs: &Map<String, Value>) -> bool {
    let v = resolve(v, defs);
    v.get("x-file") == Some(&Value::Bool(true))
        || v.get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| has_file(x, defs)))
}

/// The data part of an answer that may be a file (`Answer<T>`: `anyOf [T, file]`).
fn without_file(v: &Value, defs: &Map<String, Value>) -> Option<Value> {
    let r = resolve(v, defs);
    if r.get("x-file") == Some(&Value::Bool(true)) {
        return None;
    }
    match r.get("anyOf").and_then(Value::as_array) {
        Some(a) if a.iter().any(|x| has_file(x, defs)) => {
            a.iter().find(|x| !has_file(x, defs)).cloned()
        }
        _ => Some(v.clone()),
    }
}

/// A form call's multipart body: its input's text fields as they are, its
/// files (`arquivos`) as repeated binary `file` parts.
fn form_schema(mut body: Value) -> Value {
    if let Some(props) = body.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove("arquivos");
        props.insert(
            "file".into(),
            json!({"type": "array", "items": {"type": "string", "format": "binary"}}),
        );
    }
    if let Some(req) = body.get_mut("required").and_then(Value::as_array_mut) {
        req.retain(|r| r != "arquivos");
    }
    body
}

fn declared(
    res: &Resource,
    action: &Action,
    gen: &mut schemars::SchemaGenerator,
    defs: &Map<String, Value>,
    path_params: &[&str],
) -> Declared {
    let (input, output) = action.handler.schemas(gen);
    let input = serde_json::to_value(input).unwrap_or_default();
    let output = serde_json::to_value(output).unwrap_or_default();
    let mut params = Map::new();
    let mut body = resolve(&input, defs).clone();
    if let Some(props) = body.get_mut("properties").and_then(Value::as_object_mut) {
        for p in path_params {
            if let Some(s) = props.remove(*p) {
                params.insert(p.to_string(), s);
            }
        }
    }
    if let Some(req) = body.get_mut("required").and_then(Value::as_array_mut) {
        req.retain(|r| !r.as_str().is_some_and(|r| path_params.contains(&r)));
        if req.is_empty() {
            body.as_object_mut().map(|m| m.remove("required"));
        }
    }
    let takes_body = !matches!(action.method, "GET" | "DELETE")
        || body
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
    let file = has_file(&output, defs);
    let mut json = without_file(&output, defs);
    if let Some(j) = json.as_mut() {
        replace_markers(j, &res.name);
    }
    let list = json
        .as_ref()
        .is_some_and(|j| resolve(j, defs).get("type") == Some(&json!("array")));
    Declared { body: takes_body.then_some(body), params, json, file, list }
}

pub fn build(specs: &[Spec], registry: &Registry) -> Value {
    let mut paths = Map::new();
    let mut schemas = Map::new();
    for res in registry.all() {
        register_schemas(res, &mut schemas);
    }
    // The declared calls' types: their definitions go to the components.
    let mut gen = erp_platform::resource::call::schema_generator();
    let calls: Vec<(usize, Action)> = specs
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match &s.serves {
            Serves::Register { register, op } => registry
                .get(register)
                .and_then(|r| r.actions.iter().find(|a| &a.name == op).cloned())
                .map(|a| (i, a)),
            Serves::Other => None,
        })
        .collect();
    for (_, a) in &calls {
        a.handler.schemas(&mut gen);
    }
    let mut defs: Map<String, Value> = gen
        .definitions()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    // A shared definition cannot say which register "the call's row" is: there a
    // row is any object; a row of a named register is that register's row.
    for d in defs.values_mut() {
        replace_markers(d, "");
    }
    for (i, s) in specs.iter().enumerate() {
        let method = s.method.as_str();
        let res = match &s.serves {
            Serves::Register { register, .. } => registry.get(register).map(|r| &**r),
            Serves::Other => None,
        };
        let names: Vec<&str> = s
            .path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')))
            .collect();
        let call = calls
            .iter()
            .find(|(j, _)| *j == i)
            .and_then(|(_, a)| res.map(|r| declared(r, a, &mut gen, &defs, &names)));
        let params: Vec<Value> = names
            .iter()
            .map(|name| {
                let schema = call
                    .as_ref()
                    .and_then(|c| c.params.get(*name))
                    .cloned()
                    .unwrap_or_else(|| param_schema(res, name));
                json!({"name": name, "in": "path", "required": true, "schema": schema})
            })
            .collect();
        let form = calls.iter().any(|(j, a)| *j == i && a.form.is_some());
        let upload = s.summary.contains("multipart") && !form;
        let mut content_ok = None;
        let (body, ok, empty) = match (&s.serves, res, &call) {
            (_, _, Some(c)) => {
                let mut content = Map::new();
                if let Some(j) = &c.json {
                    content.insert("application/json".into(), json!({"schema": j}));
                }
                if c.file {
                    content.insert(
                        "application/octet-stream".into(),
                        json!({"schema": {"type": "string", "format": "binary"}}),
                    );
                }
                content_ok = Some(Value::Object(content));
                (c.body.clone().filter(|_| !upload), json!({}), c.list)
            }
            (Serves::Register { op, .. }, Some(r), None) if !upload => register_op(r, op, method),
            _ => (
                matches!(method, "POST" | "PUT" | "PATCH").then(|| json!({"type": "object"})),
                json!({}),
                true,
            ),
        };
        let mut responses = Map::new();
        let ok_content = content_ok.unwrap_or_else(|| json_content(ok));
        responses.insert(
            "200".into(),
            json!({"description": "OK", "content": ok_content}),
        );
        if empty {
            responses.insert("204".into(), json!({"description": "Lista vazia"}));
        }
        for code in ERROR_STATUSES {
            responses.insert(code.into(), json!({"$ref": "#/components/responses/Erro"}));
        }
        let mut op = json!({
            "summary": s.summary,
            "parameters": params,
            "responses": responses,
        });
        if upload {
            op["requestBody"] = json!({"required": true, "content": {"multipart/form-data": {"schema": {
                "type": "object", "required": ["file"],
                "properties": {"file": {"type": "string", "format": "binary"}}}}}});
        } else if form {
            op["requestBody"] = json!({"required": true, "content": {"multipart/form-data": {
                "schema": form_schema(body.unwrap_or_else(|| json!({"type": "object"})))}}});
        } else if let Some(schema) = body {
            op["requestBody"] = json!({"required": false, "content": json_content(schema)});
        }
        if s.public {
            op["security"] = json!([]);
        }
        let entry = paths.entry(s.path.clone()).or_insert_with(|| json!({}));
        entry[method.to_ascii_lowercase()] = op;
    }
    for (k, v) in defs {
        schemas.entry(k).or_insert(v);
    }
    schemas.insert(
        "Error".into(),
        json!({"type": "object", "required": ["code", "msg"], "properties": {
            "code": {"type": "integer", "description": "O status HTTP"},
            "msg": {"type": "string", "description": "A mensagem ao usuário"}}}),
    );
    schemas.insert(
        "Message".into(),
        json!({"type": "object", "required": ["code", "msg"], "properties": {
            "code": {"type": "integer"}, "msg": {"type": "string"}}}),
    );
    schemas.insert(
        "Count".into(),
        json!({"type": "array", "items": {"type": "object", "required": ["TOT_REGISTROS"],
            "properties": {"TOT_REGISTROS": {"type": "integer", "minimum": 0}}}}),
    );
    schemas.insert(
        "ListBody".into(),
        json!({"type": "object", "description": "Filtros por campo (igualdade), mais:", "properties": {
            "FILTRO": {"type": "string", "description": "Texto procurado nos campos pesquisáveis"},
            "ORDENACAO": {"type": "string", "description": "Campo e direção: 'CLI_DESCRICAO DESC'"},
            "LIMIT": {"type": "integer", "minimum": 1, "description": "Linhas por página"},
            "PAGINATION": {"type": "integer", "minimum": 0, "description": "Página, a partir de 0"}}}),
    );
    json!({
        "openapi": "3.0.3",
        "info": {"title": "ERP - API legada", "version": erp_platform::VERSION,
                 "description": "Chamadas REST legadas. Erros: {code, msg} com o status HTTP em code. Lista vazia: 204. Datas yyyy-MM-dd; valores decimais exatos."},
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
            "responses": {"Erro": {"description": "Erro", "content": json_content(schema_ref("Error"))}},
            "schemas": schemas,
        },
        "security": [{"bearer": []}],
        "paths": paths,
    })
}

/// The schemas of openapi.json alone (registers' rows and bodies, declared
/// calls' inputs and answers) and, under `x-calls`, which schemas each declared
/// call takes and answers (`{register: {call: {input, output, list}}}`): what the
/// web client's types are generated from (`web/api-schemas.json`, `make schema`).
pub fn schemas_document(full: &Value, registry: &Registry) -> Value {
    json!({
        "openapi": full["openapi"],
        "info": full["info"],
        "paths": {},
        "components": {"schemas": full["components"]["schemas"]},
        "x-calls": call_names(registry),
    })
}

/// A schema's component name (`{"$ref": ".../X"}` → `X`; a register row marker →
/// `<register>.row`), and whether it is a list of it.
fn schema_name(v: &Value, register: &str) -> Option<(String, bool)> {
    if let Some(items) = v
        .get("items")
        .filter(|_| v.get("type") == Some(&json!("array")))
    {
        return schema_name(items, register).map(|(n, _)| (n, true));
    }
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        return Some((r.rsplit('/').next().unwrap_or(r).to_string(), false));
    }
    match v.get("x-row") {
        Some(Value::Bool(true)) => Some((format!("{register}.row"), false)),
        Some(Value::String(r)) => Some((format!("{r}.row"), false)),
        _ => None,
    }
}

fn call_names(registry: &Registry) -> Value {
    let mut gen = erp_platform::resource::call::schema_generator();
    let mut out = Map::new();
    for res in registry.all() {
        let mut calls = Map::new();
        for a in &res.actions {
            let (input, output) = a.handler.schemas(&mut gen);
            let input = serde_json::to_value(input).unwrap_or_default();
            let output = serde_json::to_value(output).unwrap_or_default();
            let Some((input, _)) = schema_name(&input, &res.name) else {
                continue;
            };
            let output = schema_name(&output, &res.name);
            calls.insert(
                a.name.clone(),
                json!({
                    "input": input,
                    "output": output.as_ref().map(|(n, _)| n.clone()),
                    "list": output.is_some_and(|(_, l)| l),
                }),
            );
        }
        if !calls.is_empty() {
            out.insert(res.name.clone(), Value::Object(calls));
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    /// web/api-schemas.json is what the web client generates its row and call
    /// types from: it must be the schemas the gateway documents (`make schema`
    /// regenerates it).
    #[test]
    fn the_web_clients_api_schemas_are_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/api-schemas.json");
        let file: serde_json::Value = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default();
        let registry = crate::composition::registry().expect("registry");
        let current = super::schemas_document(&crate::app::openapi(&registry), &registry);
        assert!(
            file == current,
            "web/api-schemas.json is stale: run `make schema`"
        );
    }

    /// Two different types with one name would be told apart by the generator's
    /// `2` suffix, in an order that depends on the registry (so the web's names would
    /// drift): every call type's schema name is its own (`#[schemars(rename)]` where
    /// two crates pick the same word).
    #[test]
    fn no_two_types_share_a_schema_name() {
        let registry = crate::composition::registry().expect("registry");
        let doc = crate::app::openapi(&registry);
        let schemas = doc["components"]["schemas"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert!(schemas.len() > 100, "{} schemas", schemas.len());
        let clashes: Vec<&String> = schemas
            .keys()
            .filter(|name| {
                let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
                stem.len() < name.len() && schemas.contains_key(stem)
            })
            .collect();
        assert!(clashes.is_empty(), "schema names taken twice: {clashes:?}");
    }
}
