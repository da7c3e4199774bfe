//! The product register's hooks (`produtos`), over a typed view of the body: the
//! field rules of its codes (barcode check digit, NCM and CEST digits, see
//! `field_rules`) and, on an update, who changes the product and from where, for
//! the history the database writes of it (`history`).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Op, RecordHooks};
use erp_platform::Result;
use serde::{Deserialize, Serialize};

use super::field_rules;
use super::history::Origin;

/// What the hooks read and write of a product's body. Codes left out (or blank)
/// keep the client's value; `HIST_ORIGEM` is read only (no column).
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct ProductBody {
    #[serde(rename = "PROD_CBAR", default, skip_serializing_if = "Option::is_none")]
    pub barcode: Option<String>,
    #[serde(rename = "PROD_NCM", default, skip_serializing_if = "Option::is_none")]
    pub ncm: Option<String>,
    #[serde(rename = "PROD_CEST", default, skip_serializing_if = "Option::is_none")]
    pub cest: Option<String>,
    /// Where an update comes from, when its caller says so (`compra` from a
    /// purchase's price update, `importacao` from an import); anything else, or
    /// nothing, is the product screen (`cadastro`).
    #[serde(rename = "HIST_ORIGEM", default, skip_serializing)]
    pub origin: Option<String>,
}

/// The product register's hooks.
pub struct ProductHooks;

#[async_trait]
impl RecordHooks for ProductHooks {
    type Body = ProductBody;
    type Row = serde::de::IgnoredAny;

    async fn before_write(&self, _op: Op, _caller: &Caller, body: &mut ProductBody) -> Result<()> {
        if let Some(code) = &body.barcode {
            body.barcode = Some(field_rules::barcode(code)?);
        }
        if let Some(code) = &body.ncm {
            body.ncm = Some(field_rules::ncm(code)?);
        }
        if let Some(code) = &body.cest {
            body.cest = Some(field_rules::cest(code)?);
        }
        Ok(())
    }

    /// Before the engine's UPDATE, in its transaction: the user and the origin the
    /// history trigger records (transaction-local settings).
    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        _emp: Option<i64>,
        body: &mut ProductBody,
    ) -> Result<()> {
        if op != Op::Update {
            return Ok(());
        }
        // No user (a system caller) is recorded as none.
        let user = if caller.user_id > 0 {
            caller.user_id.to_string()
        } else {
            String::new()
        };
        let origin = Origin::from_hint(body.origin.as_deref());
        sqlx::query(
            "SELECT set_config('catalog.historico_usuario', $1, true), \
                    set_config('catalog.historico_origem', $2, true)",
        )
        .bind(user)
        .bind(origin.code())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
