//! Documents: a header register and its line registers, declared once.
//!
//! A document is built from its registers' descriptors ([`Document::new`] with the
//! header, [`Document::line`] per kind of line): the fields say what each column
//! is (`Field::role`: quantity, unit price, discount, line total...; `Field::total`:
//! a header total), the document says which column is its status, which statuses
//! accept changes, and what is said when it is missing or issued. From that the
//! engine does the generic work on every write of the header or a line
//! ([`ops`]): a line's parent is locked and must be open, the line's net value is
//! computed and checked, the header's totals are recomputed in `Decimal` in the
//! same transaction, an issued document refuses changes and deletion, the creating
//! user is stamped; [`copy::duplicate`] copies a document with its lines. The
//! metadata ([`DocumentDef::meta`]) carries all of it to the web client, which
//! renders document screens from it.
//!
//! What is particular to a document stays in its service as hooks and calls (a
//! line's description and price from orders' copy of the catalog, landed cost,
//! instalments, the transitions that publish facts).
//!
//! Layout:
//! - `mod` (here): the declaration, resolved into a `DocumentDef` (its metadata in
//!   `meta`).
//! - `def`: the resolved definitions a `Resource` holds (`DocumentDef`, `LineDef`…).
//! - `arithmetic`: line and document arithmetic (pure).
//! - `ops`: locking, checks, totals and line values over a transaction (what the
//!   write path runs).
//! - `copy`: duplicating a document through the registers' create path.
//! - `read`: a document's lines read as structs (transitions over a whole document).

pub mod arithmetic;
pub mod copy;
pub mod def;
pub mod ops;
pub mod read;

use std::sync::Arc;

use super::field::{DbType, Role, Total};
use super::model::Resource;
pub use def::{
    ChildDef, Col, DocPart, DocumentDef, ItemInfo, ItemSource, LineDef, LineKind, Lines, Part,
    StatusDef,
};

/// A document being declared.
pub struct Document {
    header: Resource,
    lines: Vec<(Resource, Lines)>,
    children: Vec<(Resource, Vec<String>)>,
    status: Option<(String, Vec<String>, String)>,
    tones: Vec<(String, String)>,
    missing: String,
    date_field: Option<String>,
    breadcrumbs: Vec<String>,
    block_stock: bool,
    items: Option<Arc<dyn ItemSource>>,
}

impl Document {
    pub fn new(header: Resource) -> Document {
        let missing = format!("{} não encontrado.", header.title);
        Document {
            header,
            lines: Vec::new(),
            children: Vec::new(),
            status: None,
            tones: Vec::new(),
            missing,
            date_field: None,
            breadcrumbs: Vec::new(),
            block_stock: false,
            items: None,
        }
    }

    /// Where lines find their items' description, unit and price.
    pub fn items(mut self, source: Arc<dyn ItemSource>) -> Self {
        self.items = Some(source);
        self
    }

    /// The status field, the statuses that accept changes, and the message of a
    /// change refused because the document was issued.
    pub fn status(mut self, field: &str, open: &[&str], issued: &str) -> Self {
        self.status = Some((
            field.into(),
            open.iter().map(|s| s.to_string()).collect(),
            issued.into(),
        ));
        self
    }

    /// How the screen tints a status badge: (status value, tone), the tone one of
    /// `open`, `done`, `cancelled` (a status without one is neutral).
    pub fn tones(mut self, tones: &[(&str, &str)]) -> Self {
        self.tones = tones
            .iter()
            .map(|(v, t)| (v.to_string(), t.to_string()))
            .collect();
        self
    }

    /// The message of a document that does not exist.
    pub fn missing(mut self, msg: &str) -> Self {
        self.missing = msg.into();
        self
    }

    /// A date field a new document starts with today in.
    pub fn date(mut self, field: &str) -> Self {
        self.date_field = Some(field.into());
        self
    }

    pub fn breadcrumbs(mut self, items: &[&str]) -> Self {
        self.breadcrumbs = items.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The item picker refuses quantities above the product's stock.
    pub fn block_stock(mut self) -> Self {
        self.block_stock = true;
        self
    }

    pub fn line(mut self, res: Resource, lines: Lines) -> Self {
        self.lines.push((res, lines));
        self
    }

    /// Rows that belong to the document without being lines (a service order's
    /// sectors, readings, images): written only while the document is open.
    /// `parent`: the child's fields naming the header, in the header key's order.
    pub fn child(mut self, res: Resource, parent: &[&str]) -> Self {
        self.children
            .push((res, parent.iter().map(|s| s.to_string()).collect()));
        self
    }

    /// Resolves the document and returns its registers (header first) with their
    /// document part attached; refuses a declaration that does not hold together.
    pub fn build(self) -> std::result::Result<Vec<Resource>, String> {
        let h = &self.header;
        let who = &h.name;
        let field = |res: &Resource, name: &str| -> std::result::Result<Col, String> {
            res.field(name)
                .map(Col::of)
                .ok_or_else(|| format!("{}: {name} is not declared", res.name))
        };
        let key = h
            .key
            .iter()
            .map(|k| field(h, k))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let company = h.company.as_deref().map(|c| field(h, c)).transpose()?;
        let status = match &self.status {
            Some((f, open, issued)) => {
                let col = field(h, f)?;
                let labels = h.field(f).map(|f| f.options.clone()).unwrap_or_default();
                Some(StatusDef {
                    col,
                    open: open.clone(),
                    issued: issued.clone(),
                    labels,
                    tones: self.tones.clone(),
                })
            }
            None => {
                if !self.tones.is_empty() {
                    return Err(format!("{who}: tones without a status"));
                }
                None
            }
        };
        const TONES: [&str; 3] = ["open", "done", "cancelled"];
        if let Some((v, t)) = self
            .tones
            .iter()
            .find(|(_, t)| !TONES.contains(&t.as_str()))
        {
            return Err(format!("{who}: status {v} has an unknown tone {t}"));
        }
        let totals: Vec<(Total, Col)> = h
            .fields
            .iter()
            .filter_map(|f| f.total.map(|t| (t, Col::of(f))))
            .collect();
        let extras: Vec<(Role, Col)> = h
            .fields
            .iter()
            .filter_map(|f| match f.role {
                Some(r @ (Role::ExtraSurcharge | Role::ExtraDiscount)) => Some((r, Col::of(f))),
                _ => None,
            })
            .collect();
        let mut lines = Vec::new();
        for (res, decl) in &self.lines {
            if decl.parent.len() != key.len() {
                return Err(format!(
                    "{who}: line {} names {} parent fields for a key of {}",
                    res.name,
                    decl.parent.len(),
                    key.len()
                ));
            }
            let parent = decl
                .parent
                .iter()
                .map(|p| field(res, p))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let roles: Vec<(Role, Col)> = res
                .fields
                .iter()
                .filter_map(|f| f.role.map(|r| (r, Col::of(f))))
                .collect();
            let has = |r: Role| roles.iter().any(|(x, _)| *x == r);
            if !has(Role::Item) || !has(Role::Quantity) {
                return Err(format!(
                    "{who}: line {} needs an item and a quantity",
                    res.name
                ));
            }
            let priced = has(Role::UnitPrice) && has(Role::LineTotal);
            if !totals.is_empty() && !priced {
                return Err(format!(
                    "{who}: line {} of a document with totals needs a unit price and a line total",
                    res.name
                ));
            }
            lines.push(LineDef {
                resource: res.name.clone(),
                lines: decl.clone(),
                table: res.table.clone(),
                company: res.company.as_deref().map(|c| field(res, c)).transpose()?,
                parent,
                key: res
                    .key
                    .iter()
                    .map(|k| field(res, k))
                    .collect::<std::result::Result<Vec<_>, _>>()?,
                seq: res.seq_key.clone(),
                roles,
                locked_by: match &decl.locked_by {
                    Some((f, msg)) => {
                        let col = field(h, f)?;
                        if col.db != DbType::Bool {
                            return Err(format!("{who}: {f} locks lines but is not a boolean"));
                        }
                        Some((col, msg.clone()))
                    }
                    None => None,
                },
                plain: Arc::new(res.clone()),
            });
        }
        let mut children = Vec::new();
        for (res, parent) in &self.children {
            if parent.len() != key.len() {
                return Err(format!(
                    "{who}: child {} parent does not match the key",
                    res.name
                ));
            }
            children.push(ChildDef {
                resource: res.name.clone(),
                title: res.title.clone(),
                company: res.company.as_deref().map(|c| field(res, c)).transpose()?,
                parent: parent
                    .iter()
                    .map(|p| field(res, p))
                    .collect::<std::result::Result<Vec<_>, _>>()?,
            });
        }
        let status_name = self.status.as_ref().map(|s| s.0.clone());
        let copied = h
            .fields
            .iter()
            .filter(|f| {
                !f.read_only
                    && !h.is_key(&f.name)
                    && !h.is_company(&f.name)
                    && Some(&f.name) != status_name.as_ref()
                    && f.total.is_none()
                    && f.role.is_none()
                    && f.kind != super::field::Kind::Upload
            })
            .map(|f| f.name.clone())
            .collect();
        let def = Arc::new(DocumentDef {
            header: h.name.clone(),
            schema: h.schema.clone(),
            table: h.table.clone(),
            company,
            key,
            status,
            missing: self.missing.clone(),
            totals,
            extras,
            lines,
            children,
            date_field: self.date_field.clone(),
            breadcrumbs: self.breadcrumbs.clone(),
            block_stock: self.block_stock,
            copied,
            items: self.items.clone(),
        });
        let mut out = Vec::with_capacity(1 + self.lines.len() + self.children.len());
        let mut header = self.header;
        header.document = Some(DocPart { def: def.clone(), part: Part::Header });
        out.push(header);
        for (i, (mut res, _)) in self.lines.into_iter().enumerate() {
            res.document = Some(DocPart { def: def.clone(), part: Part::Line(i) });
            out.push(res);
        }
        for (i, (mut res, _)) in self.children.into_iter().enumerate() {
            res.document = Some(DocPart { def: def.clone(), part: Part::Child(i) });
            out.push(res);
        }
        Ok(out)
    }
}
