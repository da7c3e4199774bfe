//! Register-specific behaviour around the generic writes.

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::field::Op;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::Result;

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
