//! Documents as the engine resolved them from their declaration (see `document`):
//! the columns its SQL uses, all taken from the registers' fields.

use std::sync::Arc;

use serde::Serialize;

use crate::resource::field::{DbType, Field, Role, Total};
use crate::resource::model::Resource;

/// Which copy of the catalog a line's item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LineKind {
    Product,
    Service,
}

/// How one kind of line belongs to its document.
#[derive(Clone, Debug)]
pub struct Lines {
    pub kind: LineKind,
    /// 'Produtos', 'Serviços'.
    pub title: String,
    /// 'produto' ('Adicionar produto').
    pub item_name: String,
    /// The line's fields naming the header, in the header key's order.
    pub parent: Vec<String>,
    /// What the user edits in place on a line.
    pub editable: Vec<Role>,
    /// A boolean header field that, once true, locks these lines, and what a write
    /// is answered then (a service order's parts after they left stock).
    pub locked_by: Option<(String, String)>,
}

impl Lines {
    pub fn new(kind: LineKind, title: &str, item_name: &str, parent: &[&str]) -> Lines {
        Lines {
            kind,
            title: title.into(),
            item_name: item_name.into(),
            parent: parent.iter().map(|s| s.to_string()).collect(),
            editable: Vec::new(),
            locked_by: None,
        }
    }
    pub fn products(parent: &[&str]) -> Lines {
        Lines::new(LineKind::Product, "Produtos", "produto", parent)
    }
    pub fn services(parent: &[&str]) -> Lines {
        Lines::new(LineKind::Service, "Serviços", "serviço", parent)
    }
    pub fn title(mut self, title: &str, item_name: &str) -> Self {
        self.title = title.into();
        self.item_name = item_name.into();
        self
    }
    pub fn editable(mut self, roles: &[Role]) -> Self {
        self.editable = roles.to_vec();
        self
    }
    /// Once the header's boolean `field` is true, these lines refuse every write
    /// with `msg`.
    pub fn locked_by(mut self, field: &str, msg: &str) -> Self {
        self.locked_by = Some((field.into(), msg.into()));
        self
    }
}

/// What a line's item is, for the fields a line leaves out.
#[derive(Clone, Debug, Default)]
pub struct ItemInfo {
    pub description: String,
    pub unit_name: Option<String>,
    pub price: Option<rust_decimal::Decimal>,
}

/// Where a document's lines find their items (the service's copy of the
/// catalog): a line created without description, unit or price takes them from
/// here.
#[async_trait::async_trait]
pub trait ItemSource: Send + Sync {
    async fn item(
        &self,
        tx: &mut crate::db::Tx,
        kind: LineKind,
        client: i64,
        emp: i64,
        id: i64,
    ) -> crate::Result<Option<ItemInfo>>;
}

/// A column of a table as the engine's SQL needs it.
#[derive(Clone, Debug)]
pub struct Col {
    pub name: String,
    pub column: String,
    pub db: DbType,
}

impl Col {
    pub(crate) fn of(f: &Field) -> Col {
        Col { name: f.name.clone(), column: f.column.clone(), db: f.db }
    }

    /// The bind cast of a key value travelling as text.
    pub fn cast(&self) -> &'static str {
        match self.db {
            DbType::Int => "bigint",
            _ => "text",
        }
    }
}

#[derive(Clone, Debug)]
pub struct StatusDef {
    pub col: Col,
    pub open: Vec<String>,
    /// 'Pedido já faturado não pode ser alterado.'
    pub issued: String,
    pub labels: Vec<(String, String)>,
    /// Badge tone by status value.
    pub tones: Vec<(String, String)>,
}

#[derive(Clone)]
pub struct LineDef {
    pub resource: String,
    pub lines: Lines,
    pub table: String,
    pub company: Option<Col>,
    /// The line's columns naming the header, in the header key's order.
    pub parent: Vec<Col>,
    pub key: Vec<Col>,
    pub seq: Option<String>,
    pub roles: Vec<(Role, Col)>,
    /// The header's boolean column that locks these lines, and the message.
    pub locked_by: Option<(Col, String)>,
    /// The line register without its document part: what duplication writes
    /// through before the engine recomputes the copy.
    pub plain: Arc<Resource>,
}

impl LineDef {
    pub fn col(&self, role: Role) -> Option<&Col> {
        self.roles.iter().find(|(r, _)| *r == role).map(|(_, c)| c)
    }
}

/// A document resolved from its declaration: the columns the engine's SQL uses,
/// all taken from the registers' fields.
pub struct DocumentDef {
    pub header: String,
    pub schema: String,
    pub table: String,
    pub company: Option<Col>,
    pub key: Vec<Col>,
    pub status: Option<StatusDef>,
    /// 'Pedido não encontrado.'
    pub missing: String,
    pub totals: Vec<(Total, Col)>,
    pub extras: Vec<(Role, Col)>,
    pub lines: Vec<LineDef>,
    pub children: Vec<ChildDef>,
    pub date_field: Option<String>,
    pub breadcrumbs: Vec<String>,
    pub block_stock: bool,
    /// Header fields copied by duplication (what a user typed: not keys, status,
    /// totals, stamps or other server-kept columns).
    pub copied: Vec<String>,
    pub items: Option<Arc<dyn ItemSource>>,
}

/// Which part of its document a register is.
#[derive(Clone)]
pub struct DocPart {
    pub def: Arc<DocumentDef>,
    pub part: Part,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Header,
    Line(usize),
    Child(usize),
}

/// A row of the document that is not a line.
#[derive(Clone, Debug)]
pub struct ChildDef {
    pub resource: String,
    /// The child register's title ('Pagamentos', 'Fretes'): the heading of its
    /// table on the document screen.
    pub title: String,
    pub company: Option<Col>,
    pub parent: Vec<Col>,
}

impl DocumentDef {
    pub fn is_open(&self, status: &str) -> bool {
        self.status
            .as_ref()
            .is_none_or(|s| s.open.iter().any(|o| o == status))
    }
}
