//! Register-specific behaviour around the generic writes: [`RecordHooks`] over
//! typed views of the body and the written row (what a register declares), and
//! [`Hooks`], the engine's form of them over the body's JSON map.

use async_trait::async_trait;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::call::input::Lenient;
use super::field::Op;
use super::record;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::Result;

/// The engine's form of a register's hooks, over the body's JSON map (what
/// [`RecordHooks`] become; a register declares those).
#[async_trait]
pub trait Hooks: Send + Sync {
    /// Runs after the body was parsed, before validation (hash a password, derive a
    /// column).
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Ok(())
    }
    /// Runs in the transaction after `before_write`, before validation: fills what
    /// comes from other tables (a line's description and price from a copy).
    async fn prepare(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _emp: Option<i64>,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Ok(())
    }
    /// Runs in the same transaction after the row was written.
    async fn after_write(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _row: &Value,
    ) -> Result<()> {
        Ok(())
    }
}

/// A register's behaviour around the generic writes, over typed views: `Body` is
/// what the hook reads and writes of a body (the columns it needs, by their
/// legacy names as serde renames; an `Option` left `None` with
/// `skip_serializing_if` leaves the client's value as it was), `Row` what it
/// reads of the written row. Declared with [`Resource::record_hooks`].
///
/// [`Resource::record_hooks`]: super::model::Resource::record_hooks
#[async_trait]
pub trait RecordHooks: Send + Sync + 'static {
    type Body: DeserializeOwned + Serialize + Send + Sync;
    type Row: DeserializeOwned + Send + Sync;

    /// Before validation, outside the transaction (hash a password, derive a column).
    async fn before_write(&self, _op: Op, _caller: &Caller, _body: &mut Self::Body) -> Result<()> {
        Ok(())
    }
    /// In the transaction, before validation: what comes from other tables.
    async fn prepare(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _emp: Option<i64>,
        _body: &mut Self::Body,
    ) -> Result<()> {
        Ok(())
    }
    /// In the same transaction, after the row was written.
    async fn after_write(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _row: &Self::Row,
    ) -> Result<()> {
        Ok(())
    }
}

/// The engine's adapter of [`RecordHooks`]: reads the view from the body, runs
/// the hook, writes the view back.
pub(crate) struct Typed<H>(pub H);

/// A body read as a hook's view: a value the view cannot read is refused naming
/// the field ('Valor inválido para o campo X.').
fn view<T: DeserializeOwned>(body: &Map<String, Value>) -> Result<T> {
    let v = Value::Object(body.clone());
    serde_path_to_error::deserialize(Lenient(&v)).map_err(|e| {
        let field = e
            .path()
            .iter()
            .find_map(|s| match s {
                serde_path_to_error::Segment::Map { key } => Some(key.clone()),
                _ => None,
            })
            .unwrap_or_default();
        crate::Error::validation(format!("Valor inválido para o campo {field}."))
    })
}

#[async_trait]
impl<H: RecordHooks> Hooks for Typed<H> {
    async fn before_write(
        &self,
        op: Op,
        caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let mut b: H::Body = view(body)?;
        self.0.before_write(op, caller, &mut b).await?;
        record::into_map(&b, body)
    }

    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let mut b: H::Body = view(body)?;
        self.0.prepare(tx, op, caller, emp, &mut b).await?;
        record::into_map(&b, body)
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let r: H::Row = record::from_row(row)?;
        self.0.after_write(tx, op, caller, &r).await
    }
}
