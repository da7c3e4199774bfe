//! openapi.json for the legacy REST paths, generated from the route table so it
//! always lists exactly what the gateway serves.

use serde_json::{json, Map, Value};

use crate::routes::Spec;

pub fn build(specs: &[Spec]) -> Value {
    let mut paths = Map::new();
    for s in specs {
        let params: Vec<Value> = s
            .path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')))
            .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
            .collect();
        let mut op = json!({
            "summary": s.summary,
            "parameters": params,
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {"schema": {}}}},
                "204": {"description": "Lista vazia"},
                "400": {"$ref": "#/components/responses/Erro"},
                "401": {"$ref": "#/components/responses/Erro"},
                "403": {"$ref": "#/components/responses/Erro"},
                "404": {"$ref": "#/components/responses/Erro"},
                "408": {"$ref": "#/components/responses/Erro"},
                "409": {"$ref": "#/components/responses/Erro"},
                "500": {"$ref": "#/components/responses/Erro"}
            }
        });
        if matches!(s.method.as_str(), "POST" | "PUT" | "PATCH") {
            let content = if s.summary.contains("multipart") {
                json!({"multipart/form-data": {"schema": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}}}})
            } else {
                json!({"application/json": {"schema": {"type": "object"}}})
            };
            op["requestBody"] = json!({"required": false, "content": content});
        }
        if s.public {
            op["security"] = json!([]);
        }
        let entry = paths.entry(s.path.clone()).or_insert_with(|| json!({}));
        entry[s.method.as_str().to_ascii_lowercase()] = op;
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "ERP - API legada", "version": erp_platform::VERSION,
                 "description": "Chamadas REST legadas. Erros: {code, msg}. Lista vazia: 204."},
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
            "responses": {"Erro": {"description": "Erro", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"code": {"type": "integer"}, "msg": {"type": "string"}}}}}}}
        },
        "security": [{"bearer": []}],
        "paths": paths,
    })
}
