//! The calls the three documents declare alike: the consult and the XML and
//! PDF downloads. Each register says how a call names its row ([`Locate`]:
//! the company and the id, from the path or the body).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::Result;
use serde_json::Value;

use super::files::{self, File};
use super::{emission, Ctx, Issued};
use crate::resources::company::provider::client;

/// The company and the id of the row a call is about.
pub type Locate = fn(&Call<'_>) -> Result<(i64, i64)>;

/// The consult: synchronises with the SEFAZ and waits for a final status; an
/// emission whose answer was lost is found by its reference first.
pub struct Consult {
    pub ctx: Arc<Ctx>,
    pub doc: &'static dyn Issued,
    pub locate: Locate,
}

#[async_trait]
impl ActionHandler for Consult {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let (emp, id) = (self.locate)(&call)?;
        let nf = client(&self.ctx.company)?;
        let db = self.ctx.db()?;
        emission::consult(tx, db, nf, self.doc, call.res, call.caller, emp, id).await
    }
}

/// A download: the stored file, fetched from the provider (and stored) when
/// it is not there yet.
pub struct Download {
    pub ctx: Arc<Ctx>,
    pub doc: &'static dyn Issued,
    pub file: File,
    pub locate: Locate,
}

#[async_trait]
impl ActionHandler for Download {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let (emp, id) = (self.locate)(&call)?;
        let kind = self.doc.kind();
        files::download(
            tx,
            &self.ctx.company,
            kind,
            self.file,
            call.caller.client_id,
            emp,
            id,
        )
        .await
    }
}
