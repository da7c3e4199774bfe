//! `erp-platform`: the shared library every ERP service and the gateway build on.
//!
//! It holds what must behave the same in every role: configuration from the
//! environment, PostgreSQL access (per-request tenant transactions for writes,
//! read connections kept per client for register reads) and per-service migrations, the event bus (NATS JetStream or in-process) with a
//! transactional outbox and an idempotent inbox, the cache (Redis or in-process),
//! the one error type and its mappings, telemetry, and the resource engine that
//! turns register descriptors into list/count/get/create/update/delete/search.
//!
//! Layout:
//! - `config`: `Config::from_env` and the documented defaults.
//! - `error`: `Error`, its gRPC status mapping and constraint messages.
//! - `db`: pools, bootstrap (app role, helper function), migrations, tenant tx;
//!   `db::reads`, the read connections (one statement per list, count or search).
//! - `bus`: the `Bus` trait, `NatsBus`, `MemoryBus`, outbox relay, inbox, and
//!   `bus::copies` (reading other services' register facts into local copies).
//! - `cache`: the `Cache` trait, `RedisCache`, `MemoryCache`.
//! - `crypto`: `Sealer`, AES-256-GCM sealing of secrets at rest, bound to their
//!   row, under the key a service names (`KeySpec`).
//! - `telemetry`: tracing, OTLP export, Prometheus metrics, trace propagation.
//! - `grpc`: request context carried in gRPC metadata.
//! - `resource`: the register engine (descriptors, SQL, gRPC service).
//! - `peer`: another service's declared calls, asked as the caller (`PeerCalls`).
//! - `validators`: CPF, CNPJ, access key, phone, CEP, e-mail, colour, dates.
//! - `service`: what a service needs to run (`ServiceCtx`, with `Peers`: gRPC links
//!   to the other services), `serve_grpc`, and its admin HTTP.
//! - `testing` (behind the `testing` feature, for tests only): fresh databases,
//!   the per-binary test set-up `TestCtx` and service URLs for integration tests.
//! - `shutdown`: draining a role at SIGTERM (requests answered, the batch in
//!   progress finished, the outbox flushed) within a grace.
//! - `transport`: how a client reaches a service (`GrpcLink`): a tonic channel over
//!   TCP, or straight to the service's routes in the same process (`erp run`).

pub mod bus;
pub mod cache;
pub mod config;
pub mod crypto;
pub mod db;
pub mod error;
pub mod grpc;
pub mod peer;
pub mod resource;
pub mod service;
pub mod shutdown;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;
pub mod transport;
pub mod validators;

pub use error::{Error, Result};

/// Companies whose users are support operators, when they belong to the operator client.
pub const PRIVILEGED_COMPANIES: [i64; 3] = [130, 9999, 9998];

/// The client version the legacy contract announces.
pub const VERSION: &str = "4.0.2";
