//! Fields a stock document has already posted to the ledger: an edit cannot change
//! them (delete the document and post it again; the legacy screens send the whole
//! row back on an edit, so the fields are dropped, not refused).
//!
//! A register declares them with its typed hooks ([`RecordHooks`]) through
//! [`PostedHooks::posted_hooks`]. Dropping a key from an edit's body is the one step
//! a typed view cannot take (the engine writes the view back over the body, it
//! never takes a key out), so [`Posted`] does it over the body's map and hands the
//! rest to the engine's own adapter of the typed hooks.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op, RecordHooks, Resource};
use erp_platform::Result;
use serde_json::{Map, Value};

/// Declares a register's typed hooks with the fields an edit keeps as posted.
pub trait PostedHooks {
    fn posted_hooks<H: RecordHooks>(self, fields: &'static [&'static str], hooks: H) -> Self;
}

impl PostedHooks for Resource {
    fn posted_hooks<H: RecordHooks>(self, fields: &'static [&'static str], hooks: H) -> Resource {
        // The engine's adapter of the typed hooks, as `record_hooks` declares it,
        // behind the step that drops the posted fields.
        let mut res = self.record_hooks(hooks);
        match res.hooks.take() {
            Some(typed) => res.hooks(Arc::new(Posted { fields, typed })),
            None => res,
        }
    }
}

/// Typed hooks behind the drop of an edit's posted fields.
struct Posted {
    fields: &'static [&'static str],
    typed: Arc<dyn Hooks>,
}

#[async_trait]
impl Hooks for Posted {
    async fn before_write(
        &self,
        op: Op,
        caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if op == Op::Update {
            body.retain(|k, _| !self.fields.contains(&k.as_str()));
        }
        self.typed.before_write(op, caller, body).await
    }

    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        self.typed.prepare(tx, op, caller, emp, body).await
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        self.typed.after_write(tx, op, caller, row).await
    }
}
