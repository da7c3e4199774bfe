//! Cost centres and histories: groups of cost centres (`grupohistoricopadrao`,
//! screen /gruposhistoricopadrao), cost centres (`historicopadrao`, the legacy
//! "histórico padrão", screen /historicopadrao titled 'Centro de Custo', revenue or
//! expense, optionally in a group; `GET /historicopadrao/estrutura` gives the groups
//! with their cost centres as a tree) and the histories of bank movements
//! (`historico`, screen /historicos).
//!
//! Cost centres are company-scoped although the legacy field list names no
//! HISP_EMP_ID: they belong to a company's group (GRHP_EMP_ID), and the legacy paths
//! carry `{emp}`.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::param;
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Field, Kind, Resource,
};
use erp_platform::Result;
use serde_json::{json, Map, Value};

const SCHEMA: &str = crate::SCHEMA;

pub const COST_TYPES: [(&str, &str); 2] = [("R", "Receita"), ("D", "Despesa")];

pub const HISTORY_TYPES: [(&str, &str); 3] = [("C", "Crédito"), ("D", "Débito"), ("A", "Ambos")];

pub fn all() -> Vec<Resource> {
    vec![grupohistoricopadrao(), historicopadrao(), historico()]
}

pub fn grupohistoricopadrao() -> Resource {
    Resource::new(
        "grupohistoricopadrao",
        "Grupos de Centro de Custo",
        SCHEMA,
        "grupohistoricopadrao",
        "gruposhistoricopadrao",
    )
    .screen("/gruposhistoricopadrao")
    // The reports name the expenses' groups.
    .events("grupocentrocusto")
    .key(&["GRHP_ID"])
    .company("GRHP_EMP_ID")
    .label("GRHP_DESCRICAO")
    .order("GRHP_DESCRICAO")
    .action(
        "GET",
        "/grupohistoricopadrao/pesquisar/{GRHP_ID}/{emp}",
        "pesquisar",
        ActionPerm::View,
        "Grupos de Centro de Custo: pesquisar pelo código (ou pela descrição)",
        Arc::new(SearchGroup),
    )
    .sample(json!({"GRHP_DESCRICAO": "DESPESAS ADMINISTRATIVAS", "GRHP_TIPO": "D"}))
    .fields(vec![
        Field::id("GRHP_ID", "Código"),
        Field::int("GRHP_EMP_ID", "Empresa"),
        Field::text("GRHP_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(7),
        Field::options("GRHP_TIPO", "Tipo", DbType::Text, &COST_TYPES)
            .list()
            .width(3),
        Field::situation("GRHP_SITUACAO"),
    ])
}

pub fn historicopadrao() -> Resource {
    Resource::new(
        "historicopadrao",
        "Centro de Custo",
        SCHEMA,
        "historicopadrao",
        "historicopadrao",
    )
    .screen("/historicopadrao")
    // The reports name the expenses' cost centres.
    .events("centrocusto")
    .key(&["HISP_ID"])
    .company("HISP_EMP_ID")
    .label("HISP_DESCRICAO")
    .order("HISP_DESCRICAO")
    .action(
        "GET",
        "/historicopadrao/estrutura",
        "estrutura",
        ActionPerm::View,
        "Centro de Custo: grupos com seus centros de custo (árvore)",
        Arc::new(Structure),
    )
    .sample(json!({"HISP_DESCRICAO": "ALUGUEL", "HISP_TIPO": "D", "HISP_GRHP_ID": 1}))
    .fields(vec![
        Field::id("HISP_ID", "Código"),
        Field::int("HISP_EMP_ID", "Empresa"),
        Field::text("HISP_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::options("HISP_TIPO", "Tipo", DbType::Text, &COST_TYPES)
            .required()
            .list()
            .width(3),
        Field::reference(
            "HISP_GRHP_ID",
            "Grupo",
            "grupohistoricopadrao",
            Kind::Combobox,
        )
        .list()
        .width(6),
        Field::situation("HISP_SITUACAO"),
    ])
}

pub fn historico() -> Resource {
    Resource::new("historico", "Históricos", SCHEMA, "historico", "historicos")
        .company_path()
        .screen("/historicos")
        .key(&["HIST_ID"])
        .label("HIST_DESCRICAO")
        .order("HIST_DESCRICAO")
        .sample(json!({"HIST_DESCRICAO": "PAGAMENTO DE FORNECEDOR", "HIST_TIPO": "D"}))
        .fields(vec![
            Field::id("HIST_ID", "Código"),
            Field::text("HIST_DESCRICAO", "Descrição")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(7),
            Field::options("HIST_TIPO", "Tipo", DbType::Text, &HISTORY_TYPES)
                .required()
                .default("A".into())
                .list()
                .width(3),
            Field::situation("HIST_SITUACAO"),
        ])
}

fn all_rows() -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
    m
}

/// `GET /historicopadrao/estrutura`: every group of the company with its cost
/// centres under `children`, then the cost centres without a group under a last
/// node with GRHP_ID null ('SEM GRUPO').
struct Structure;

#[async_trait]
impl ActionHandler for Structure {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, .. } = call;
        let groups_res = grupohistoricopadrao();
        let groups = query::list(tx, &groups_res, caller, emp, &all_rows()).await?;
        let centres = query::list(tx, res, caller, emp, &all_rows()).await?;
        let mut children: HashMap<Option<i64>, Vec<Value>> = HashMap::new();
        for c in centres {
            let group = c.get("HISP_GRHP_ID").and_then(Value::as_i64);
            children.entry(group).or_default().push(c);
        }
        let mut tree: Vec<Value> = groups
            .into_iter()
            .map(|mut g| {
                let id = g.get("GRHP_ID").and_then(Value::as_i64);
                if let Value::Object(m) = &mut g {
                    m.insert(
                        "children".into(),
                        Value::Array(children.remove(&id).unwrap_or_default()),
                    );
                }
                g
            })
            .collect();
        if let Some(loose) = children.remove(&None) {
            tree.push(json!({
                "GRHP_ID": null, "GRHP_DESCRICAO": "SEM GRUPO", "GRHP_TIPO": null,
                "id": null, "text": "SEM GRUPO", "children": loose
            }));
        }
        Ok(Value::Array(tree))
    }
}

/// `GET /grupohistoricopadrao/pesquisar/{GRHP_ID}/{emp}`: the legacy call searches
/// by the group's code; text that is not a number searches the description like
/// the generic search of the same shape would.
struct SearchGroup;

#[async_trait]
impl ActionHandler for SearchGroup {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let raw = param(params, "GRHP_ID")?;
        let rows = match raw.parse::<i64>() {
            Ok(id) => {
                let mut filter = Map::new();
                filter.insert("GRHP_ID".into(), Value::from(id));
                query::list(tx, res, caller, emp, &filter).await?
            }
            Err(_) => query::search(tx, res, caller, emp, raw, 0).await?,
        };
        Ok(Value::Array(rows))
    }
}
