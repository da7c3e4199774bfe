//! Identity service: clients (tenants), companies, users, sessions, programs,
//! permissions and menus.
//!
//! Login checks the password (argon2id) and returns the user's principal; the
//! gateway mints and verifies tokens. Companies, users, programs, generic
//! parameters and user subgroups are registers of the resource engine; menus,
//! favourites and grants are typed calls.
//!
//! Layout:
//! - `resources`: register descriptors (empresas, usuarios, programas, ...).
//! - `principal`: who a user is now (companies, privilege, programs).
//! - `password`: argon2id hashing.
//! - `hooks`: user and company behaviour around generic writes.
//! - `grpc`: `IdentityService`.
//! - `events`: facts published through the outbox.
//! - `seed`: demo data.

pub mod events;
pub mod grpc;
pub mod hooks;
pub mod password;
pub mod principal;
pub mod resources;
pub mod seed;

use std::sync::Arc;

use erp_platform::resource::grpc::ResourceGrpc;
use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "identity";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// Serves identity's gRPC on `listener` and runs its background work (outbox
/// relay, jobs).
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    let background =
        erp_platform::service::start_background(&ctx, SCHEMA, Vec::new(), Vec::new()).await?;
    let identity = grpc::IdentityGrpc {
        db: ctx.db.clone(),
        operator_client: ctx.cfg.operator_client_id,
        registry: registry.clone(),
    };
    let routes = tonic::service::Routes::new(ResourceGrpc::new(ctx.db.clone(), registry).server())
        .add_service(
            erp_proto::identity::v1::identity_service_server::IdentityServiceServer::new(identity),
        );
    erp_platform::service::serve_then_stop(&ctx, listener, routes, background).await
}
