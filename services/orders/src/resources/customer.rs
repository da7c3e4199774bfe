//! A document keeps its customer's name (and city) as they were when it was
//! written: taken from orders' copy of the catalog whenever the header names its
//! customer, trimmed. An issued document refuses writes (the engine), so it keeps
//! the name it was issued with.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{params, Hooks, Op};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

/// The header's customer field and the fields its name and city are copied to
/// (declared `.server()`: clients cannot set them).
pub struct CustomerCopy {
    pub customer: &'static str,
    pub name: &'static str,
    pub city: Option<&'static str>,
}

#[async_trait]
impl Hooks for CustomerCopy {
    async fn prepare(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let id = match body.get(self.customer) {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Number(n)) => n.as_i64(),
            Some(Value::String(s)) => s.trim().parse().ok(),
            Some(_) => None,
        }
        .ok_or_else(|| Error::validation("Cliente inválido."))?;
        let (name, city) = crate::copies::customer(tx, caller.client_id, params::company(emp)?, id)
            .await?
            .ok_or_else(|| Error::validation("Cliente não encontrado."))?;
        body.insert(self.name.into(), Value::String(name));
        if let Some(c) = self.city {
            body.insert(c.into(), city.map(Value::String).unwrap_or(Value::Null));
        }
        Ok(())
    }
}
