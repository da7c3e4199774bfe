//! Declared calls: a register's operations beyond list/count/get/create/update/
//! delete (a transition, an upload, a computation, an export), each one typed
//! function owned by its service.
//!
//! A call takes one `In` (its path parameters and body together, the legacy field
//! names as serde renames) and answers one `Out`, both with a JSON Schema. The
//! engine parses `In` once, at the service's edge ([`input`]), with the pt-BR
//! messages of the contract, and runs the call in the tenant transaction; the
//! gateway routes, authenticates, checks the company of the path and the
//! permission, and forwards the bytes; openapi.json documents the call from the
//! same schemas.
//!
//! Declaring one, the whole of it:
//!
//! ```ignore
//! use erp_platform::resource::call::{Ctx, Date, Done, Operation};
//!
//! #[derive(Deserialize, JsonSchema)]
//! pub struct CloseIn {
//!     /// The trip (path `{id}`).
//!     pub id: i64,
//!     #[serde(rename = "AGNV_DTA_RETORNO")]
//!     #[schemars(title = "Data de retorno")]
//!     pub returned: Date,
//! }
//!
//! pub struct Close;
//!
//! #[async_trait]
//! impl Operation for Close {
//!     type In = CloseIn;
//!     type Out = Done;
//!     async fn run(&self, cx: &mut Ctx<'_>, i: CloseIn) -> Result<Done> {
//!         let emp = cx.emp()?;
//!         sqlx::query("UPDATE … WHERE client_id = $1 AND emp_id = $2 AND id = $3")
//!             .bind(cx.client()).bind(emp).bind(i.id)
//!             .execute(&mut **cx.tx).await?;
//!         Ok(Done::ok("Viagem encerrada."))
//!     }
//! }
//!
//! // on the register's descriptor:
//! Resource::new(…).call(Method::Put, "/agdoviagem/encerrar/{id}/{emp}", "encerrar",
//!     ActionPerm::Update, "Encerra a viagem", Close)
//! ```
//!
//! Layout:
//! - `input`: the deserializer of path parameters and body, and its messages.
//! - `types`: `Dec`, `Money`, `Date`, `Upload`, `FormFile`, `File`, `Answer`, `Row`,
//!   `Done`.

pub mod input;
pub mod types;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::model::Resource;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::{Error, Result};

pub use types::{
    Answer, Date, Dec, Done, File, FormFile, Money, Nothing, Register, Row, RowOf, Upload,
};

/// What a running call has: its transaction, its register, who calls and the
/// company of the request.
pub struct Ctx<'a> {
    pub tx: &'a mut Tx,
    pub res: &'a Resource,
    pub caller: &'a Caller,
    /// The company: the path's `{emp}`, else the body's company column or
    /// `EMP_ID`, else the caller's current one (registers kept per company only).
    pub emp: Option<i64>,
    /// The caller's companies, when the call came through the gateway (none: a
    /// trusted in-process caller, such as a test or a demo seed).
    companies: Option<Vec<i64>>,
    discarded: Vec<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(tx: &'a mut Tx, res: &'a Resource, caller: &'a Caller, emp: Option<i64>) -> Self {
        Ctx { tx, res, caller, emp, companies: None, discarded: Vec::new() }
    }

    /// The call came from a caller whose companies are these.
    pub fn for_companies(mut self, companies: Vec<i64>) -> Self {
        self.companies = Some(companies);
        self
    }

    /// Whether the caller may work in company `emp` (a call that reaches into
    /// other companies than its own, such as a replication, asks for each).
    pub fn may_use_company(&self, emp: i64) -> bool {
        self.companies.as_ref().is_none_or(|c| c.contains(&emp))
    }

    /// The call's company, which it requires ('emp_id não informado.').
    pub fn emp(&self) -> Result<i64> {
        super::params::company(self.emp)
    }

    pub fn client(&self) -> i64 {
        self.caller.client_id
    }

    pub fn user(&self) -> i64 {
        self.caller.user_id
    }

    /// A stored file this call replaced or removed: the gateway deletes it once the
    /// call's transaction committed.
    pub fn discard_file(&mut self, name: impl Into<String>) {
        self.discarded.push(name.into());
    }
}

/// A register's own operation.
#[async_trait]
pub trait Operation: Send + Sync + 'static {
    type In: DeserializeOwned + JsonSchema + Send;
    type Out: Output;
    async fn run(&self, cx: &mut Ctx<'_>, input: Self::In) -> Result<Self::Out>;
}

/// What a call answers, as the gateway sends it.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The JSON answer (empty for a file).
    pub json: Vec<u8>,
    /// An empty list: the legacy 204.
    pub empty: bool,
    pub file: Option<File>,
    /// Stored files to delete once committed.
    pub discarded: Vec<String>,
}

/// An answer type: any serializable type with a schema, a [`File`], or an
/// [`Answer`] of either.
pub trait Output: Send + 'static {
    fn schema(gen: &mut SchemaGenerator) -> Schema;
    fn into_reply(self) -> Result<Reply>;
}

impl<T: Serialize + JsonSchema + Send + 'static> Output for T {
    fn schema(gen: &mut SchemaGenerator) -> Schema {
        gen.subschema_for::<T>()
    }
    fn into_reply(self) -> Result<Reply> {
        let json = serde_json::to_vec(&self)?;
        Ok(Reply { empty: json == b"[]", json, ..Reply::default() })
    }
}

fn file_schema() -> Schema {
    schemars::json_schema!({"type": "string", "format": "binary", "x-file": true})
}

impl Output for File {
    fn schema(_: &mut SchemaGenerator) -> Schema {
        file_schema()
    }
    fn into_reply(self) -> Result<Reply> {
        Ok(Reply { file: Some(self), ..Reply::default() })
    }
}

impl<T: Serialize + JsonSchema + Send + 'static> Output for Answer<T> {
    fn schema(gen: &mut SchemaGenerator) -> Schema {
        let data = gen.subschema_for::<T>();
        schemars::json_schema!({"anyOf": [data, file_schema()]})
    }
    fn into_reply(self) -> Result<Reply> {
        match self {
            Answer::Data(d) => d.into_reply(),
            Answer::File(f) => f.into_reply(),
        }
    }
}

/// The schema settings of every declared call (OpenAPI 3.0, definitions under
/// `#/components/schemas/`).
pub fn schema_generator() -> SchemaGenerator {
    SchemaSettings::openapi3().into_generator()
}

/// A call as the engine keeps it (its types erased).
#[async_trait]
pub trait Handler: Send + Sync {
    async fn run(
        &self,
        cx: &mut Ctx<'_>,
        params: &HashMap<String, String>,
        body: &Value,
    ) -> Result<Reply>;
    /// The schemas of `In` and `Out` in `gen` (definitions go to its components).
    fn schemas(&self, gen: &mut SchemaGenerator) -> (Schema, Schema);
}

/// The engine's adapter of an [`Operation`].
pub struct Typed<O: Operation> {
    op: O,
    /// `In`'s schema alone, for the field titles of refusal messages.
    input: OnceLock<Value>,
}

impl<O: Operation> Typed<O> {
    pub fn handler(op: O) -> Arc<dyn Handler> {
        Arc::new(Typed { op, input: OnceLock::new() })
    }

    fn input_schema(&self) -> &Value {
        self.input.get_or_init(|| {
            let root = schema_generator().into_root_schema_for::<O::In>();
            serde_json::to_value(root).unwrap_or(Value::Null)
        })
    }
}

#[async_trait]
impl<O: Operation> Handler for Typed<O> {
    async fn run(
        &self,
        cx: &mut Ctx<'_>,
        params: &HashMap<String, String>,
        body: &Value,
    ) -> Result<Reply> {
        let input = input::parse::<O::In>(params, body, self.input_schema())?;
        let out = self.op.run(cx, input).await?;
        let mut reply = out.into_reply()?;
        reply.discarded = std::mem::take(&mut cx.discarded);
        Ok(reply)
    }

    fn schemas(&self, gen: &mut SchemaGenerator) -> (Schema, Schema) {
        (gen.subschema_for::<O::In>(), O::Out::schema(gen))
    }
}

/// The company of a declared call (see [`Ctx::emp`]); `path` is the route's
/// `{emp}` as sent (old screens send 'undefined' or 'null' for none).
pub fn company_of(
    res: &Resource,
    caller: &Caller,
    path: Option<&str>,
    body: &Value,
) -> Result<Option<i64>> {
    let path = match path.map(str::trim) {
        None | Some("") | Some("undefined") | Some("null") => None,
        Some(e) => Some(
            e.parse::<i64>()
                .map_err(|_| Error::validation("Parâmetro emp inválido."))?,
        ),
    };
    let Some(col) = res.company.as_deref() else {
        return Ok(None);
    };
    let int = |v: &Value| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    };
    Ok(path
        .or_else(|| body.get(col).and_then(int))
        .or_else(|| body.get("EMP_ID").and_then(int))
        .or(Some(caller.emp_id)))
}

/// Companies named in a body: `EMP_ID` and every `*_EMP_ID`, at any depth (the
/// tenant guard of a declared call's body, run where the body is parsed).
pub fn body_companies(body: &Value, out: &mut Vec<i64>) -> Result<()> {
    fn walk(v: &Value, depth: usize, out: &mut Vec<i64>) -> Result<()> {
        if depth > 4 {
            return Ok(());
        }
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let upper = k.to_ascii_uppercase();
                    if upper == "EMP_ID" || upper.ends_with("_EMP_ID") {
                        match v {
                            Value::Null => {}
                            Value::String(s) if s.trim().is_empty() => {}
                            _ => out.push(
                                v.as_i64()
                                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                                    .ok_or_else(|| {
                                        Error::validation(format!("Valor inválido para {k}."))
                                    })?,
                            ),
                        }
                    } else {
                        walk(v, depth + 1, out)?;
                    }
                }
            }
            Value::Array(a) => {
                for v in a {
                    walk(v, depth + 1, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
    walk(body, 0, out)
}

/// Every company the body names must be one of `allowed` (the caller's).
pub fn check_body_companies(body: &Value, allowed: &[i64]) -> Result<()> {
    let mut named = Vec::new();
    body_companies(body, &mut named)?;
    match named.into_iter().find(|e| !allowed.contains(e)) {
        Some(e) => Err(Error::Forbidden(format!("Acesso negado à empresa {e}."))),
        None => Ok(()),
    }
}
