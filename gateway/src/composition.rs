//! The composition root: the services this binary can run, and every register of
//! them (for the gateway's routes and metadata).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use erp_platform::config::Config;
use erp_platform::resource::Registry;
use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};

type BoxFut<T> = Pin<Box<dyn Future<Output = Result<T>> + Send>>;

/// A service the binary can run.
pub struct ServiceDef {
    pub name: &'static str,
    pub migrate: fn(Arc<Config>) -> BoxFut<()>,
    pub serve: fn(ServiceCtx, Listener) -> BoxFut<()>,
    pub registry: fn() -> std::result::Result<Registry, String>,
}

pub fn services() -> Vec<ServiceDef> {
    vec![
        ServiceDef {
            name: "identity",
            migrate: |cfg| Box::pin(async move { erp_identity::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_identity::serve(ctx, l)),
            registry: erp_identity::resources::registry,
        },
        ServiceDef {
            name: "catalog",
            migrate: |cfg| Box::pin(async move { erp_catalog::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_catalog::serve(ctx, l)),
            registry: erp_catalog::resources::registry,
        },
        ServiceDef {
            name: "finance",
            migrate: |cfg| Box::pin(async move { erp_finance::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_finance::serve(ctx, l)),
            registry: erp_finance::resources::registry,
        },
        ServiceDef {
            name: "stock",
            migrate: |cfg| Box::pin(async move { erp_stock::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_stock::serve(ctx, l)),
            registry: erp_stock::resources::registry,
        },
        ServiceDef {
            name: "fiscal",
            migrate: |cfg| Box::pin(async move { erp_fiscal::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_fiscal::serve(ctx, l)),
            registry: erp_fiscal::resources::registry,
        },
        ServiceDef {
            name: "orders",
            migrate: |cfg| Box::pin(async move { erp_orders::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_orders::serve(ctx, l)),
            registry: erp_orders::resources::registry,
        },
        ServiceDef {
            name: "reports",
            migrate: |cfg| Box::pin(async move { erp_reports::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_reports::serve(ctx, l)),
            registry: erp_reports::resources::registry,
        },
        ServiceDef {
            name: "messaging",
            migrate: |cfg| Box::pin(async move { erp_messaging::migrate(&cfg).await }),
            serve: |ctx, l| Box::pin(erp_messaging::serve(ctx, l)),
            registry: erp_messaging::resources::registry,
        },
    ]
}

/// Every register of every service, for the gateway's routes and metadata.
pub fn registry() -> Result<Registry> {
    let mut all = Registry::default();
    for s in services() {
        all.merge(&(s.registry)().map_err(Error::internal)?)
            .map_err(Error::internal)?;
    }
    Ok(all)
}
