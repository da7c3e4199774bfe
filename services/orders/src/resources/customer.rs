//! A document keeps its customer's name (and city) as they were when it was
//! written: taken from orders' copy of the catalog whenever the header names its
//! customer, trimmed. An issued document refuses writes (the engine), so it keeps
//! the name it was issued with.
//!
//! Each header declares the view of its body the copy reads and writes
//! ([`CustomerBody`], made by `customer_body!`: the customer column, and the name
//! and city columns, declared `.server()` so clients cannot set them); a header
//! with no other hook declares [`CustomerCopy`], one with more calls
//! [`copy_customer`] from its own `prepare`.

use std::marker::PhantomData;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{params, Op, RecordHooks};
use erp_platform::{Error, Result};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Serialize;

/// What a header's customer copy reads and writes of a body.
pub trait CustomerBody: DeserializeOwned + Serialize + Send + Sync + 'static {
    /// The customer the body names, if it names one.
    fn customer(&self) -> Option<i64>;
    /// Writes the customer's name and city (a header without a city column
    /// keeps only the name).
    fn copy(&mut self, name: String, city: Option<String>);
}

/// A header body's view for the customer copy: `customer_body!(View, "X_CLI_ID",
/// "X_CLI_DESC")`, or with the city column as a fourth argument.
macro_rules! customer_body {
    ($view:ident, $customer:literal, $name:literal) => {
        /// The customer columns of the header's body (see `customer`).
        #[derive(serde::Deserialize, serde::Serialize)]
        pub struct $view {
            #[serde(rename = $customer, default, skip_serializing)]
            customer: Option<i64>,
            #[serde(rename = $name, skip_deserializing, skip_serializing_if = "Option::is_none")]
            name: Option<String>,
        }

        impl $crate::resources::customer::CustomerBody for $view {
            fn customer(&self) -> Option<i64> {
                self.customer
            }
            fn copy(&mut self, name: String, _city: Option<String>) {
                self.name = Some(name);
            }
        }
    };
    ($view:ident, $customer:literal, $name:literal, $city:literal) => {
        /// The customer columns of the header's body (see `customer`).
        #[derive(serde::Deserialize, serde::Serialize)]
        pub struct $view {
            #[serde(rename = $customer, default, skip_serializing)]
            customer: Option<i64>,
            #[serde(rename = $name, skip_deserializing, skip_serializing_if = "Option::is_none")]
            name: Option<String>,
            /// Written as null when the customer has no city.
            #[serde(rename = $city, skip_deserializing, skip_serializing_if = "Option::is_none")]
            city: Option<Option<String>>,
        }

        impl $crate::resources::customer::CustomerBody for $view {
            fn customer(&self) -> Option<i64> {
                self.customer
            }
            fn copy(&mut self, name: String, city: Option<String>) {
                self.name = Some(name);
                self.city = Some(city);
            }
        }
    };
}
pub(crate) use customer_body;

/// Copies the customer's name (and city) into the body when it names its customer.
pub async fn copy_customer<B: CustomerBody>(
    tx: &mut Tx,
    caller: &Caller,
    emp: Option<i64>,
    body: &mut B,
) -> Result<()> {
    let Some(id) = body.customer() else {
        return Ok(());
    };
    let (name, city) = crate::copies::customer(tx, caller.client_id, params::company(emp)?, id)
        .await?
        .ok_or_else(|| Error::validation("Cliente não encontrado."))?;
    body.copy(name, city);
    Ok(())
}

/// The hooks of a header that only copies its customer.
pub struct CustomerCopy<B>(PhantomData<fn() -> B>);

impl<B> CustomerCopy<B> {
    pub fn new() -> Self {
        CustomerCopy(PhantomData)
    }
}

impl<B> Default for CustomerCopy<B> {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait]
impl<B: CustomerBody> RecordHooks for CustomerCopy<B> {
    type Body = B;
    type Row = IgnoredAny;

    async fn prepare(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut B,
    ) -> Result<()> {
        copy_customer(tx, caller, emp, body).await
    }
}
