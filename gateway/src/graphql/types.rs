//! GraphQL types of the web client's contract (web/schema.graphql).

use async_graphql::{Enum, InputObject, SimpleObject};

use super::json::Json;
use serde::Deserialize;

#[derive(SimpleObject, Clone)]
pub struct Company {
    pub id: i64,
    pub name: String,
    pub tax_id: String,
    pub fantasy_name: Option<String>,
    pub logo_url: Option<String>,
}

#[derive(SimpleObject, Clone)]
pub struct User {
    pub id: i64,
    pub login: String,
    pub name: String,
    pub company_id: i64,
}

#[derive(SimpleObject, Clone)]
pub struct UserProgram {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub web_path: Option<String>,
    pub exe: Option<String>,
    pub icon: Option<String>,
    pub level1: String,
    pub level2: Option<String>,
    pub level3: Option<String>,
    pub order: i32,
    pub favorite: bool,
    pub can_view: bool,
    pub can_create: bool,
    pub can_update: bool,
    pub can_delete: bool,
}

#[derive(SimpleObject, Clone)]
pub struct MenuNode {
    pub label: String,
    pub icon: Option<String>,
    pub program: Option<UserProgram>,
    pub children: Vec<MenuNode>,
}

#[derive(SimpleObject, Clone)]
pub struct Session {
    pub client_id: i64,
    pub user: User,
    pub company: Company,
    pub companies: Vec<Company>,
    pub programs: Vec<UserProgram>,
    pub privileged: bool,
    pub server_version: String,
}

#[derive(SimpleObject)]
pub struct LoginResult {
    pub token: String,
    pub session: Session,
}

#[derive(InputObject)]
pub struct LoginInput {
    pub cpfcnpj: String,
    pub login: String,
    pub password: String,
    pub company_id: Option<i64>,
}

/// A notification of the bell.
#[derive(SimpleObject, Clone)]
pub struct Notification {
    pub id: String,
    pub message: String,
    pub created_at: String,
    /// What it is about: "mensagem" (a message not sent), "nfe" (an NF-e
    /// rejected), "boleto" (a slip paid), "versao" (a new version).
    pub kind: String,
    /// The screen it leads to, if any.
    pub link: Option<String>,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FieldKind {
    Text,
    Textarea,
    Email,
    Phones,
    Number,
    Money,
    Date,
    Combobox,
    Autocomplete,
    Chips,
    Checklist,
    AccessKey,
    Color,
    Upload,
    Gallery,
    Barcode,
    Situation,
    CpfCnpj,
    Cep,
    Password,
    Boolean,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct FieldOption {
    pub value: String,
    pub text: String,
}

#[derive(SimpleObject, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldMeta {
    pub name: String,
    pub label: String,
    pub kind: FieldKind,
    pub required: bool,
    pub editable: bool,
    pub length: Option<i32>,
    pub min: Option<String>,
    pub max: Option<String>,
    pub mask: Option<String>,
    pub searchable: bool,
    pub reference: Option<String>,
    pub options: Option<Vec<FieldOption>>,
    pub upload_types: Option<Vec<String>>,
    pub width: i32,
    pub in_list: bool,
    /// Whether the form shows it (false: served with the row, never a form
    /// field, e.g. a stored XML).
    pub in_form: bool,
    /// What a new record starts with.
    pub default_value: Option<Json>,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct FormGroup {
    pub title: Option<String>,
    pub framed: bool,
    pub width: i32,
    pub fields: Vec<String>,
}

#[derive(SimpleObject, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceMeta {
    pub name: String,
    pub path: String,
    pub title: String,
    pub program: String,
    pub key: Vec<String>,
    pub company_column: Option<String>,
    pub label_field: String,
    /// How many characters of the label a list shows (none: all).
    pub label_length: Option<i32>,
    pub default_order: String,
    pub fields: Vec<FieldMeta>,
    pub groups: Vec<FormGroup>,
    /// For a document's header: its lines, totals, status and layout.
    pub document: Option<DocumentMeta>,
    /// The schema of the register's rows in openapi.json's components
    /// (`contasreceber.row`): the web client's generated row type.
    pub row_schema: String,
    /// The register's calls shown as buttons on its screen.
    pub actions: Vec<ActionMeta>,
    /// Every call the register declares, with or without a button, and its schemas.
    pub calls: Vec<CallMeta>,
}

/// A declared call of a register: its name for `resourceAction` and its schemas.
#[derive(SimpleObject, Clone, Deserialize)]
pub struct CallMeta {
    pub name: String,
    /// The JSON Schemas of what the call takes (path parameters and body) and answers,
    /// `{input, output}`, as in `ActionMeta.schemas`.
    pub schemas: Json,
    pub method: String,
    pub path: String,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct DocumentStatus {
    pub field: String,
    /// Statuses in which the document accepts changes.
    pub open: Vec<String>,
    pub labels: Vec<StatusLabel>,
}

/// A status value, its text and the tone of its badge (`open`, `done`,
/// `cancelled`; none: neutral).
#[derive(SimpleObject, Clone, Deserialize)]
pub struct StatusLabel {
    pub value: String,
    pub text: String,
    pub tone: Option<String>,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct DocumentTotal {
    pub name: String,
    pub label: String,
}

/// One kind of line of a document and what each of its columns is.
#[derive(SimpleObject, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentLine {
    pub resource: String,
    /// `product` or `service`: which picker adds lines.
    pub kind: String,
    pub title: String,
    pub item_name: String,
    pub key: Vec<String>,
    /// The line's fields naming the header, in the header key's order.
    pub parent: Vec<String>,
    pub seq: Option<String>,
    pub item: Option<String>,
    pub desc: Option<String>,
    pub unit_name: Option<String>,
    pub qty: Option<String>,
    pub price: Option<String>,
    pub discount: Option<String>,
    pub total: Option<String>,
    pub cost: Option<String>,
    /// What the user edits in place: `qty`, `discount`, `price`.
    pub editable: Vec<String>,
    /// A boolean header field that, once true, locks these lines.
    pub locked_by: Option<String>,
}

#[derive(SimpleObject, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentMeta {
    pub key: Vec<String>,
    /// A date a new document starts with today in.
    pub date_field: Option<String>,
    pub breadcrumbs: Option<Vec<String>>,
    /// The item picker refuses quantities above the product's stock.
    pub block_stock: bool,
    pub status: Option<DocumentStatus>,
    pub totals: Vec<DocumentTotal>,
    pub lines: Vec<DocumentLine>,
    /// Other rows of the document (instalments, freight...), each a register
    /// shown as a table under the lines.
    #[serde(default)]
    pub children: Vec<DocumentChild>,
}

/// A register whose rows belong to the document without being lines.
#[derive(SimpleObject, Clone, Deserialize)]
pub struct DocumentChild {
    pub resource: String,
    pub title: String,
    /// The child's fields naming the header, in the header key's order.
    pub parent: Vec<String>,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct ActionConfirm {
    pub title: String,
    /// `{FIELD}` is replaced by the record's value.
    pub text: String,
    pub ok: String,
}

/// Where a value a button sends comes from: `field` (the record's), `user`, `const`.
#[derive(SimpleObject, Clone, Deserialize)]
pub struct ActionSource {
    pub from: String,
    pub value: Option<String>,
}

#[derive(SimpleObject, Clone, Deserialize)]
pub struct ActionValue {
    pub name: String,
    pub source: ActionSource,
}

#[derive(SimpleObject, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionMeta {
    /// The call's name for `resourceAction`.
    pub name: String,
    /// The JSON Schemas of what the call takes (path parameters and body) and
    /// answers, `{input, output}`; their references name openapi.json's component
    /// schemas, from which the web client's types are generated.
    pub schemas: Json,
    pub method: String,
    pub path: String,
    pub label: String,
    pub confirm: Option<ActionConfirm>,
    /// Statuses in which it is enabled (empty: any).
    pub open_when: Vec<String>,
    /// A boolean field that disables it when true.
    pub unless: Option<String>,
    /// Path parameters not named like a field of the record, the company or the user.
    pub params: Vec<ActionValue>,
    pub body: Vec<ActionValue>,
    /// A dialog to fill first (`surcharge`).
    pub dialog: Option<String>,
    pub dialog_title: Option<String>,
    /// The register whose edit screen the answer opens.
    pub opens: Option<String>,
    /// The screen's main call.
    pub primary: bool,
    /// The program permission the call needs: `view`, `create`, `update`, `delete`.
    pub permission: String,
    /// The call answers a file (XML, PDF) that the browser downloads.
    #[serde(default)]
    pub download: bool,
}

#[derive(InputObject, Default)]
pub struct ListInput {
    pub filter: Option<String>,
    pub order: Option<String>,
    pub page: Option<i32>,
    pub limit: Option<i32>,
    #[graphql(name = "where")]
    pub where_: Option<Json>,
}

#[derive(SimpleObject)]
pub struct ResourcePage {
    pub rows: Vec<Json>,
    pub total: i64,
}

fn company(c: &erp_proto::identity::v1::Company) -> Company {
    Company {
        id: c.id,
        name: c.name.clone(),
        tax_id: c.tax_id.clone(),
        fantasy_name: c.fantasy_name.clone(),
        logo_url: c.logo.as_ref().map(|l| format!("/uploads/{}/{l}", c.id)),
    }
}

pub fn program(p: &erp_proto::identity::v1::UserProgram) -> UserProgram {
    UserProgram {
        id: p.id,
        name: p.name.clone(),
        description: p.description.clone(),
        web_path: p.web_path.clone(),
        exe: p.exe.clone(),
        icon: p.icon.clone(),
        level1: p.level1.clone(),
        level2: p.level2.clone(),
        level3: p.level3.clone(),
        order: p.order,
        favorite: p.favorite,
        can_view: p.can_view,
        can_create: p.can_create,
        can_update: p.can_update,
        can_delete: p.can_delete,
    }
}

pub fn session(p: &erp_proto::identity::v1::Principal) -> Session {
    let user = p.user.clone().unwrap_or_default();
    Session {
        client_id: p.client_id,
        user: User {
            id: user.id,
            login: user.login,
            name: user.name,
            company_id: user.company_id,
        },
        company: p.company.as_ref().map(company).unwrap_or_else(|| Company {
            id: 0,
            name: String::new(),
            tax_id: String::new(),
            fantasy_name: None,
            logo_url: None,
        }),
        companies: p.companies.iter().map(company).collect(),
        programs: p.programs.iter().map(program).collect(),
        privileged: p.privileged,
        server_version: erp_platform::VERSION.into(),
    }
}

/// The side menu: level 1 groups, level 2 subgroups, programs as leaves, in menu
/// order; only programs the user may open.
pub fn menu(programs: &[erp_proto::identity::v1::UserProgram]) -> Vec<MenuNode> {
    let mut visible: Vec<&erp_proto::identity::v1::UserProgram> =
        programs.iter().filter(|p| p.can_view).collect();
    visible.sort_by_key(|p| (p.id, p.order));
    let mut roots: Vec<MenuNode> = Vec::new();
    for p in visible {
        let leaf = MenuNode {
            label: p.level3.clone().unwrap_or_else(|| p.description.clone()),
            icon: p.icon.clone(),
            program: Some(program(p)),
            children: vec![],
        };
        let root = match roots.iter_mut().position(|n| n.label == p.level1) {
            Some(i) => &mut roots[i],
            None => {
                roots.push(MenuNode {
                    label: p.level1.clone(),
                    icon: None,
                    program: None,
                    children: vec![],
                });
                let last = roots.len() - 1;
                &mut roots[last]
            }
        };
        match &p.level2 {
            None => root.children.push(leaf),
            Some(l2) => {
                let sub = match root
                    .children
                    .iter_mut()
                    .position(|n| n.program.is_none() && &n.label == l2)
                {
                    Some(i) => &mut root.children[i],
                    None => {
                        root.children.push(MenuNode {
                            label: l2.clone(),
                            icon: None,
                            program: None,
                            children: vec![],
                        });
                        let last = root.children.len() - 1;
                        &mut root.children[last]
                    }
                };
                sub.children.push(leaf);
            }
        }
    }
    for r in &mut roots {
        for c in &mut r.children {
            c.children
                .sort_by_key(|l| l.program.as_ref().map(|p| p.order).unwrap_or(0));
        }
    }
    roots
}

#[cfg(test)]
mod tests {
    use erp_proto::identity::v1::UserProgram as P;

    fn p(id: i64, l1: &str, l2: Option<&str>, name: &str, view: bool) -> P {
        P {
            id,
            name: name.into(),
            description: name.into(),
            level1: l1.into(),
            level2: l2.map(String::from),
            level3: Some(name.into()),
            order: id as i32,
            can_view: view,
            ..Default::default()
        }
    }

    #[test]
    fn menu_is_a_three_level_tree_of_visible_programs() {
        let progs = vec![
            p(
                101,
                "Cadastros",
                Some("Clientes e Fornecedores"),
                "Clientes",
                true,
            ),
            p(
                102,
                "Cadastros",
                Some("Clientes e Fornecedores"),
                "Fornecedores",
                false,
            ),
            p(121, "Cadastros", Some("Produtos"), "Produtos", true),
            p(201, "Vendas", None, "Pedidos", true),
        ];
        let m = super::menu(&progs);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].label, "Cadastros");
        assert_eq!(m[0].children.len(), 2);
        assert_eq!(m[0].children[0].children.len(), 1);
        assert_eq!(m[0].children[0].children[0].label, "Clientes");
        assert_eq!(
            m[1].children[0].program.as_ref().map(|p| p.name.as_str()),
            Some("Pedidos")
        );
    }
}
