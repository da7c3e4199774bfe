//! The hook of a register whose rows only its own calls or other services' facts
//! write: every generic write is refused with the register's pt-BR text.

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::field::Op;
use super::hooks::Hooks;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::{Error, Result};

/// Refuses every generic write with `.0`.
pub struct ReadOnly(pub &'static str);

#[async_trait]
impl Hooks for ReadOnly {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Err(Error::validation(self.0))
    }

    // A delete reaches the table (or a view whose trigger does nothing) before any
    // hook runs; refusing here rolls its transaction back with the same text.
    async fn after_write(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _row: &Value,
    ) -> Result<()> {
        Err(Error::validation(self.0))
    }
}
