//! The metadata the web client renders screens from: a register's fields, groups,
//! calls and, for a document header, its lines, totals and status.

use serde_json::{json, Value};

use super::action::ActionPerm;
use super::document::{DocumentDef, LineDef};
use super::field::{Kind, Role};
use super::model::Resource;

impl Resource {
    pub fn meta(&self) -> Value {
        let fields: Vec<Value> = self
            .fields
            .iter()
            .filter(|f| !self.is_company(&f.name))
            .map(|f| {
                serde_json::json!({
                    "name": f.name,
                    "label": f.label,
                    "kind": f.kind,
                    "required": f.required,
                    "editable": f.editable,
                    "length": f.length,
                    "min": f.min.map(|d| d.to_string()),
                    "max": f.max.map(|d| d.to_string()),
                    "mask": f.mask,
                    "searchable": f.searchable,
                    "reference": f.reference,
                    "options": if f.options.is_empty() { Value::Null } else {
                        f.options.iter().map(|(v, t)| serde_json::json!({"value": v, "text": t})).collect()
                    },
                    "uploadTypes": if f.upload_types.is_empty() { Value::Null } else { serde_json::json!(f.upload_types) },
                    "width": f.width,
                    "inList": f.in_list,
                    "inForm": f.in_form,
                    "defaultValue": f.default,
                })
            })
            .collect();
        let groups: Vec<Value> = if self.groups.is_empty() {
            vec![serde_json::json!({
                "title": Value::Null, "framed": false, "width": 12,
                "fields": self.fields.iter().filter(|f| !self.is_company(&f.name) && !f.write_only || f.kind == Kind::Password)
                    .map(|f| f.name.clone()).collect::<Vec<_>>(),
            })]
        } else {
            self.groups.iter().map(|g| serde_json::json!(g)).collect()
        };
        serde_json::json!({
            "name": self.name,
            "path": self.screen.clone().unwrap_or_default(),
            "title": self.title,
            "program": self.program,
            "key": self.key,
            "companyColumn": self.company,
            "companyInPath": self.company.is_some() || self.company_path,
            "labelField": self.label,
            "labelLength": self.label_len,
            "defaultOrder": self.default_order,
            "fields": fields,
            "groups": groups,
            "document": self.document.as_ref()
                .filter(|d| d.part == super::document::Part::Header)
                .map(|d| d.def.meta(self)),
            "rowSchema": format!("{}.row", self.name),
            "calls": self.actions.iter().map(|a| serde_json::json!({
                "name": a.name,
                "schemas": call_schemas(a),
                "method": a.method,
                "path": a.path,
            })).collect::<Vec<_>>(),
            "actions": self.actions.iter().flat_map(|a| a.buttons.iter().map(move |b| serde_json::json!({
                "name": a.name,
                "schemas": call_schemas(a),
                "method": a.method,
                "path": a.path,
                "label": b.label,
                "confirm": b.confirm.as_ref().map(|(t, x, o)| serde_json::json!({"title": t, "text": x, "ok": o})),
                "openWhen": b.open_when,
                "unless": b.unless,
                "params": b.params.iter().map(|(n, s)| serde_json::json!({"name": n, "source": s})).collect::<Vec<_>>(),
                "body": b.body.iter().map(|(n, s)| serde_json::json!({"name": n, "source": s})).collect::<Vec<_>>(),
                "dialog": b.dialog,
                "dialogTitle": b.dialog_title,
                "opens": b.opens,
                "primary": b.primary,
                "download": b.download,
                "permission": match a.perm {
                    ActionPerm::View => "view",
                    ActionPerm::Create => "create",
                    ActionPerm::Update => "update",
                    ActionPerm::Delete => "delete",
                },
            }))).collect::<Vec<_>>(),
        })
    }
}

/// A declared call's input and output JSON Schemas (references point into
/// openapi.json's `components/schemas`, the web client's generated types).
fn call_schemas(a: &super::action::Action) -> Value {
    let mut gen = super::call::schema_generator();
    let (input, output) = a.handler.schemas(&mut gen);
    serde_json::json!({"input": input, "output": output})
}

impl DocumentDef {
    /// What the web client renders a document screen from (the header's
    /// metadata carries it as `document`).
    pub fn meta(&self, header: &Resource) -> Value {
        let label = |name: &str| {
            header
                .field(name)
                .map(|f| f.label.clone())
                .unwrap_or_default()
        };
        let role = |l: &LineDef, r: Role| l.col(r).map(|c| c.name.clone());
        let editable = |l: &LineDef| -> Vec<&str> {
            l.lines
                .editable
                .iter()
                .filter_map(|r| match r {
                    Role::Quantity => Some("qty"),
                    Role::Discount => Some("discount"),
                    Role::UnitPrice => Some("price"),
                    _ => None,
                })
                .collect()
        };
        json!({
            "key": self.key.iter().map(|k| k.name.clone()).collect::<Vec<_>>(),
            "dateField": self.date_field,
            "breadcrumbs": if self.breadcrumbs.is_empty() { Value::Null } else { json!(self.breadcrumbs) },
            "blockStock": self.block_stock,
            "status": self.status.as_ref().map(|s| json!({
                "field": s.col.name,
                "open": s.open,
                "labels": s.labels.iter().map(|(v, t)| json!({
                    "value": v,
                    "text": t,
                    "tone": s.tones.iter().find(|(x, _)| x == v).map(|(_, tone)| tone.clone()),
                })).collect::<Vec<_>>(),
            })),
            // The header's amounts the engine keeps (totals) or a call sets (a
            // document-level surcharge), in the header's field order.
            "totals": header.fields.iter()
                .filter(|f| {
                    self.totals.iter().any(|(_, c)| c.name == f.name)
                        || self.extras.iter().any(|(_, c)| c.name == f.name)
                })
                .map(|f| json!({"name": f.name, "label": label(&f.name)}))
                .collect::<Vec<_>>(),
            // Other rows of the document (instalments, freight, apportionment),
            // each shown as a table of its register under the lines.
            "children": self.children.iter().map(|c| json!({
                "resource": c.resource,
                "title": c.title,
                "parent": c.parent.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "lines": self.lines.iter().map(|l| json!({
                "resource": l.resource,
                "kind": l.lines.kind,
                "title": l.lines.title,
                "itemName": l.lines.item_name,
                "key": l.key.iter().map(|k| k.name.clone()).collect::<Vec<_>>(),
                "parent": l.parent.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                "seq": l.seq,
                "item": role(l, Role::Item),
                "desc": role(l, Role::Description),
                "unitName": role(l, Role::UnitName),
                "qty": role(l, Role::Quantity),
                "price": role(l, Role::UnitPrice),
                "discount": role(l, Role::Discount),
                "total": role(l, Role::LineTotal),
                "cost": role(l, Role::UnitCost),
                "editable": editable(l),
                "lockedBy": l.locked_by.as_ref().map(|(c, _)| c.name.clone()),
            })).collect::<Vec<_>>(),
        })
    }
}
