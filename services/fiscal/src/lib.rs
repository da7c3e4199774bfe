//! Fiscal service: tax rules, operation natures, document numbering, and the
//! Nuvem Fiscal provider through which NF-e, CT-e and MDF-e are issued.
//!
//! Its registers are declared for the resource engine; the gRPC surface is the
//! generic `ResourceService`. It keeps copies of what an NF-e needs from other
//! services' facts (never reading their schemas) and publishes the NF-e facts
//! of billing orders through its outbox.
//!
//! Configuration: `NUVEMFISCAL_*` (the provider's credentials; without them the
//! provider's calls answer `nuvemfiscal::MISSING_CREDENTIALS`), `ERP_DATA_DIR`
//! (where the gateway leaves uploads) and `ERP_FISCAL_KEY`: 32 bytes in base64
//! (`openssl rand -base64 32`), the AES-256-GCM key that seals the companies'
//! A1 certificates, their passwords and the other fiscal secrets at rest.
//! Without it (development) a fixed key derived from a public label is used
//! and a warning is logged once, so production must set it; a value that is
//! not 32 bytes of base64 stops the service at start-up. Changing the key
//! makes the sealed values unreadable: they must be sent again.
//!
//! Layout:
//! - `resources`: register descriptors, one folder per group of registers:
//!   - `taxes/`: `tax_rules`, `operation_natures`, `numbering`, with the NF-e
//!     `codes`, the `cfop` field and `body` readers they share.
//!   - `company/`: `empresasservicos`, a company's fiscal services settings
//!     (environment, regime and series per document type, CSC, NFS-e access,
//!     A1 certificate) and the calls that hand them, the company and its logo
//!     to the Nuvem Fiscal (`settings`, `certificate`, `provider`,
//!     `registration`).
//! - `certificate`: reading an A1 certificate (PKCS#12 and X.509, pure Rust):
//!   validity, serial, holder, issuer, CNPJ/CPF; wrong password in pt-BR.
//! - `crypto`: the fiscal key (`ERP_FISCAL_KEY`) of the platform's `Sealer`,
//!   AES-256-GCM sealing of secrets bound to their row.
//! - `nuvemfiscal/`: the provider's client (OAuth2, retries, polling), the
//!   request and answer types from its OpenAPI description, and a fake server
//!   of the same API for demos and tests.
//! - `copies`: the copies of identity's companies, catalog's customers and
//!   products and finance's payment methods, from their `RecordChanged` facts.
//! - `facts`: the invoiced orders (`erp.orders.pedido.faturado`) the NF-e of
//!   billing orders is issued from.
//! - `resources/dfe/`: a fiscal document at the provider, what the NF-e of
//!   orders, the CT-e and the MDF-e share once their request is built: the
//!   series' next number under the numbering's row lock, the provider's id
//!   stored before polling (one request per emission), the wait for a final
//!   status with the files, the recovery of a lost answer, the consult, the
//!   cancel, the downloads and the answers with the rejection explained.
//! - `resources/order_nfe/`: `pedidofatxml`, the NF-e of billing orders: emit,
//!   preview, consult, cancel, correction letter, XML and DANFE, the
//!   accountant's list; its facts `NfeAutorizada`/`NfeCancelada` set the
//!   order's `PEDF_NFE_XML` in orders.
//! - `resources/cte/`, `resources/mdfe/`: the CT-e and the MDF-e, documents on
//!   the engine issued the same way.
//! - `resources/manifest/`: `manifestonfe`, the NF-e issued against the
//!   company (distribution by NSU, XML upload) and its manifestation.
//! - `nfe_xml`: what an NF-e XML and its access key say.
//! - `bin/fake-nuvemfiscal`: the fake provider on its own (demos, curl).
//! - `rejections/`: the SEFAZ rejection codes (cStat) explained in plain pt-BR
//!   (the common table, the CT-e's and the MDF-e's own readings),
//!   with the field to fix and the screen that holds it.

pub mod certificate;
pub mod copies;
pub mod crypto;
pub mod facts;
pub mod nfe_xml;
pub mod nuvemfiscal;
pub mod rejections;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::{ConsumerDef, ServiceCtx};
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use erp_proto::subjects;
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "fiscal";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// The consumers of fiscal's copies and of the invoiced orders.
pub fn consumers() -> Vec<ConsumerDef> {
    let def = |durable, filter, effect: Arc<dyn erp_platform::bus::Effect>| ConsumerDef {
        durable,
        filter,
        effect,
    };
    vec![
        def(
            "fiscal-pedido-faturado",
            subjects::PEDIDO_FATURADO,
            Arc::new(facts::InvoicedOrder),
        ),
        def(
            "fiscal-empresas",
            subjects::IDENTITY_EMPRESAS,
            Arc::new(copies::EMPRESAS),
        ),
        def(
            "fiscal-clientes",
            subjects::CATALOG_CLIENTES,
            Arc::new(copies::CLIENTES),
        ),
        def(
            "fiscal-produtos",
            subjects::CATALOG_PRODUTOS,
            Arc::new(copies::PRODUTOS),
        ),
        def(
            "fiscal-formas",
            subjects::FINANCE_FORMAS,
            Arc::new(copies::FORMAS),
        ),
    ]
}

/// Serves the registers and their calls, with the relay (the NF-e facts for
/// orders) and the consumers.
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let client = nuvemfiscal::NuvemFiscal::from_env()
        .map_err(|e| Error::internal(format!("Nuvem Fiscal: {e}")))?;
    // The emission's steps commit through a pool of their own: a call holds a
    // connection of the service's pool while it runs, and must not wait for
    // another of the same pool.
    let steps = erp_platform::db::Db::connect(&ctx.cfg).await?;
    let registry = Arc::new(
        resources::registry_in(client, &ctx.cfg.data_dir, Some(steps)).map_err(Error::internal)?,
    );
    erp_platform::service::serve_with_consumers(ctx, listener, SCHEMA, registry, consumers()).await
}
