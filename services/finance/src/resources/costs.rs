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

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Operation, Register, Row, RowOf};
use erp_platform::resource::{query, record, ActionPerm, DbType, Field, Kind, Resource};
use erp_platform::Result;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::Nothing;

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
    .call(
        "GET",
        "/grupohistoricopadrao/pesquisar/{GRHP_ID}/{emp}",
        "pesquisar",
        ActionPerm::View,
        "Grupos de Centro de Custo: pesquisar pelo código (ou pela descrição)",
        SearchGroup,
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
    .call(
        "GET",
        "/historicopadrao/estrutura",
        "estrutura",
        ActionPerm::View,
        "Centro de Custo: grupos com seus centros de custo (árvore)",
        Structure,
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

/// The groups' register, named in the structure's answer.
pub enum GroupRegister {}

impl Register for GroupRegister {
    const NAME: &'static str = "grupohistoricopadrao";
}

/// A node of the cost centres' structure.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum StructureNode {
    /// A group's row with its cost centres.
    Group {
        #[serde(flatten)]
        group: RowOf<GroupRegister>,
        children: Vec<Row>,
    },
    /// The cost centres without a group.
    Ungrouped(Ungrouped),
}

/// The last node: the cost centres without a group ('SEM GRUPO'; its group
/// fields null).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Ungrouped {
    #[serde(rename = "GRHP_ID")]
    pub id: Option<i64>,
    #[serde(rename = "GRHP_DESCRICAO")]
    pub description: String,
    #[serde(rename = "GRHP_TIPO")]
    pub kind: Option<String>,
    #[serde(rename = "id")]
    pub key: Option<i64>,
    pub text: String,
    pub children: Vec<Row>,
}

/// The group of a group's row or of a cost centre's.
#[derive(Deserialize)]
struct GroupOf {
    #[serde(rename = "GRHP_ID", alias = "HISP_GRHP_ID", default)]
    group: Option<i64>,
}

/// `GET /historicopadrao/estrutura`: every group of the company with its cost
/// centres under `children`, then the cost centres without a group under a last
/// node with GRHP_ID null ('SEM GRUPO').
struct Structure;

#[async_trait]
impl Operation for Structure {
    type In = Nothing;
    type Out = Vec<StructureNode>;
    async fn run(&self, cx: &mut Ctx<'_>, _: Nothing) -> Result<Vec<StructureNode>> {
        let groups_res = grupohistoricopadrao();
        let groups = query::list(cx.tx, &groups_res, cx.caller, cx.emp, &all_rows()).await?;
        let centres = query::list(cx.tx, cx.res, cx.caller, cx.emp, &all_rows()).await?;
        let mut children: HashMap<Option<i64>, Vec<Row>> = HashMap::new();
        for c in centres {
            let of: GroupOf = record::from_row(&c)?;
            children.entry(of.group).or_default().push(Row(c));
        }
        let mut tree = Vec::with_capacity(groups.len() + 1);
        for g in groups {
            let of: GroupOf = record::from_row(&g)?;
            tree.push(StructureNode::Group {
                children: children.remove(&of.group).unwrap_or_default(),
                group: RowOf::new(g),
            });
        }
        if let Some(loose) = children.remove(&None) {
            tree.push(StructureNode::Ungrouped(Ungrouped {
                id: None,
                description: "SEM GRUPO".into(),
                kind: None,
                key: None,
                text: "SEM GRUPO".into(),
                children: loose,
            }));
        }
        Ok(tree)
    }
}

/// `GET /grupohistoricopadrao/pesquisar/{GRHP_ID}/{emp}`: a group's code, or text
/// of its description.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SearchGroupIn {
    #[serde(rename = "GRHP_ID")]
    pub code: String,
}

/// `GET /grupohistoricopadrao/pesquisar/{GRHP_ID}/{emp}`: the legacy call searches
/// by the group's code; text that is not a number searches the description like
/// the generic search of the same shape would.
struct SearchGroup;

#[async_trait]
impl Operation for SearchGroup {
    type In = SearchGroupIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: SearchGroupIn) -> Result<Vec<Row>> {
        let raw = i.code.trim();
        let rows = match raw.parse::<i64>() {
            Ok(id) => {
                let mut filter = Map::new();
                filter.insert("GRHP_ID".into(), Value::from(id));
                query::list(cx.tx, cx.res, cx.caller, cx.emp, &filter).await?
            }
            Err(_) => query::search(cx.tx, cx.res, cx.caller, cx.emp, raw, 0).await?,
        };
        Ok(rows.into_iter().map(Row).collect())
    }
}
