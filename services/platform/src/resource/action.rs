//! A register's declared calls as its descriptor holds them: path, permission,
//! upload types, the buttons that offer it on screen, and the handler that runs
//! it (a typed [`Operation`](super::call::Operation), see `call`).

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;

use super::call::{Ctx, Handler};
use super::model::Resource;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::Result;

/// Which permission of the owning program an action needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionPerm {
    View,
    Create,
    Update,
    Delete,
}

/// A register's own call: runs in a tenant transaction of the owning service.
#[async_trait]
pub trait ActionHandler: Send + Sync {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value>;
}

/// One call of a declared action: the register it is declared on, who calls, the
/// company of the request, the path parameters by name and the JSON body (for
/// uploads, `{"arquivo": {"nome", "original", "tamanho"}}` plus the form's other
/// fields).
pub struct Call<'a> {
    pub res: &'a Resource,
    pub caller: &'a Caller,
    pub emp: Option<i64>,
    pub params: &'a HashMap<String, String>,
    pub body: Value,
}

/// The stored and original names of the file an upload call received (the gateway
/// puts them in the body as `arquivo`).
pub fn uploaded_file(body: &Value) -> Result<(&str, Option<&str>)> {
    let file = body.get("arquivo");
    let name = file
        .and_then(|f| f.get("nome"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| crate::Error::validation("Arquivo é obrigatório!"))?;
    Ok((
        name,
        file.and_then(|f| f.get("original")).and_then(Value::as_str),
    ))
}

/// The key under which a declared call answers a file instead of JSON: the gateway
/// sends its bytes with the content type and a download name (see [`file_reply`]).
pub const FILE_REPLY: &str = "$arquivo";

/// A declared call's answer that is a file (a PDF, a spreadsheet): the gateway
/// answers the bytes themselves with `Content-Type` and
/// `Content-Disposition: inline; filename="…"`.
pub fn file_reply(content_type: &str, name: &str, bytes: &[u8]) -> Value {
    use base64::Engine;
    serde_json::json!({FILE_REPLY: {
        "tipo": content_type,
        "nome": name,
        "base64": base64::engine::general_purpose::STANDARD.encode(bytes),
    }})
}

/// Where a value a button sends comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "from", content = "value")]
pub enum Source {
    /// A field of the record on screen.
    Field(String),
    /// The signed-in user's id.
    User,
    /// A fixed value.
    Const(String),
}

/// How a declared call shows on its register's screen (a document's transition or
/// conversion), for the web client to render from the metadata.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Button {
    pub label: String,
    /// Asked before running: title, text (`{FIELD}` is replaced by the record's
    /// value), the OK button's text.
    pub confirm: Option<(String, String, String)>,
    /// Status values in which it is enabled (empty: any).
    pub open_when: Vec<String>,
    /// A boolean field that disables it when true (the requisition already made).
    pub unless: Option<String>,
    /// Path parameters that are not a field of the record with the same name, the
    /// company (`emp`) or the user (`user`, `userId`).
    pub params: Vec<(String, Source)>,
    /// The body, when the call takes one.
    pub body: Vec<(String, Source)>,
    /// A dialog to fill before running (`surcharge`: value or percentage).
    pub dialog: Option<String>,
    /// The register whose edit screen the answer opens (the answer carries its key);
    /// none: stay and reload.
    pub opens: Option<String>,
    /// The screen's main call (drawn as the primary button).
    pub primary: bool,
    /// The dialog's title, when it has one.
    pub dialog_title: Option<String>,
    /// The call answers a file (XML, PDF) that the browser downloads.
    pub download: bool,
}

impl Button {
    pub fn new(label: &str) -> Button {
        Button { label: label.into(), ..Default::default() }
    }
    pub fn confirm(mut self, title: &str, text: &str, ok: &str) -> Self {
        self.confirm = Some((title.into(), text.into(), ok.into()));
        self
    }
    pub fn open_when(mut self, status: &[&str]) -> Self {
        self.open_when = status.iter().map(|s| s.to_string()).collect();
        self
    }
    pub fn unless(mut self, field: &str) -> Self {
        self.unless = Some(field.into());
        self
    }
    pub fn param(mut self, name: &str, from: Source) -> Self {
        self.params.push((name.into(), from));
        self
    }
    pub fn body(mut self, name: &str, from: Source) -> Self {
        self.body.push((name.into(), from));
        self
    }
    /// A dialog of `kind` titled `title` asked before running.
    pub fn dialog(mut self, kind: &str, title: &str) -> Self {
        self.dialog = Some(kind.into());
        self.dialog_title = Some(title.into());
        self
    }
    pub fn primary(mut self) -> Self {
        self.primary = true;
        self
    }
    pub fn opens(mut self, resource: &str) -> Self {
        self.opens = Some(resource.into());
        self
    }
    /// The answer is a file to download, not a record to show.
    pub fn download(mut self) -> Self {
        self.download = true;
        self
    }
}

#[derive(Clone)]
pub struct Action {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    pub method: &'static str,
    /// Legacy path with `{name}` parameters; `{emp}` is the company (guarded).
    pub path: String,
    pub name: String,
    pub perm: ActionPerm,
    /// Multipart upload: the allowed types of its `file` part.
    pub upload: Option<Vec<String>>,
    /// Multipart form whose files reach the call whole (`Resource::form_call`):
    /// the most bytes of files it takes.
    pub form: Option<usize>,
    pub summary: String,
    /// What runs it in the owning service.
    pub handler: Arc<dyn Handler>,
    /// Shown as buttons on the register's screen (one call may be offered
    /// several ways: the NF-e manifest's four events are one call).
    pub buttons: Vec<Button>,
}

impl Action {
    /// Runs the call in `tx` as the service's edge does, without the gateway (tests
    /// and in-process callers): the answer as JSON, a file as
    /// `{"$arquivo": {tipo, nome, base64}}`.
    pub async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let mut cx = Ctx::new(tx, res, caller, emp);
        let reply = self.handler.run(&mut cx, params, &body).await?;
        match reply.file {
            Some(f) => Ok(file_reply(&f.content_type, &f.name, &f.bytes)),
            None => Ok(serde_json::from_slice(&reply.json)?),
        }
    }
}

/// A call still written against the untyped [`ActionHandler`] (its body a JSON
/// value, its answer a JSON value), run by the engine as a typed one whose input
/// and output are any object.
pub(crate) struct Untyped {
    pub handler: Arc<dyn ActionHandler>,
    /// A DELETE: the stored file the answer names (`arquivo`) is removed.
    pub delete: bool,
}

#[async_trait]
impl Handler for Untyped {
    async fn run(
        &self,
        cx: &mut Ctx<'_>,
        params: &HashMap<String, String>,
        body: &Value,
    ) -> Result<super::call::Reply> {
        let call = Call { res: cx.res, caller: cx.caller, emp: cx.emp, params, body: body.clone() };
        let out = self.handler.run(cx.tx, call).await?;
        let mut reply = super::call::Reply::default();
        if let Some(f) = out.get(FILE_REPLY) {
            use base64::Engine;
            let text = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or_default();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(text("base64"))
                .map_err(crate::Error::internal)?;
            reply.file = Some(super::call::File::new(text("tipo"), text("nome"), bytes));
            return Ok(reply);
        }
        let removed = out.get("arquivo").filter(|_| self.delete);
        for old in out
            .get("anterior")
            .into_iter()
            .chain(removed)
            .filter_map(Value::as_str)
        {
            let file = old.rsplit(['/', '\\']).next().unwrap_or(old);
            reply.discarded.push(file.to_string());
        }
        reply.empty = matches!(&out, Value::Array(a) if a.is_empty());
        reply.json = serde_json::to_vec(&out)?;
        Ok(reply)
    }

    fn schemas(
        &self,
        _gen: &mut schemars::SchemaGenerator,
    ) -> (schemars::Schema, schemars::Schema) {
        (
            schemars::json_schema!({"type": "object"}),
            schemars::json_schema!({}),
        )
    }
}
