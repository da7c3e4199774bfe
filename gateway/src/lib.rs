//! The gateway and the roles of the `erp` binary (which is the `erp` crate, with
//! the demo data in `erp-demo`).
//!
//! The gateway is the only door: it verifies tokens, applies the tenant guard and
//! per-program permissions, serves the legacy REST paths (translated to gRPC calls
//! of the services), GraphQL for the web client, the built web client, uploads,
//! health, metrics and openapi.json. `erp run` starts it with every service in one
//! process and reaches them through gRPC over in-memory connections (the same
//! clients, servers and layers as over TCP in microservices mode).
//!
//! Layout:
//! - `app`: the axum router (static web, health, metrics, GraphQL, legacy REST).
//! - `token`: JWT minting and verification.
//! - `auth`, `session`: the authenticated caller (an extractor), principals, login
//!   and logout.
//! - `state`: what every handler shares (`AppState`) and the decoded principals.
//! - `access`: the tenant guard and the permission check.
//! - `register_calls`: register calls as both front doors (REST and GraphQL) make
//!   them: the register resolved, the company worked out once, guard and
//!   permission, the owning service called.
//! - `routes`, `reply`: the route table (path parameters, what each route
//!   serves) and how the legacy API answers.
//! - `legacy`: the legacy REST routes (registers, identity, jobs run by hand).
//! - `graphql`: the schema of the web client.
//! - `uploads`: multipart uploads and /uploads.
//! - `upstream`: gRPC clients, deadline and metadata.
//! - `composition`: the services this binary runs and all their registers.
//! - `roles`: `run`, `gateway`, `serve`, `migrate`, `jobs`.
//! - `openapi`: openapi.json from the route table.

pub mod access;
pub mod app;
pub mod auth;
pub mod composition;
pub mod graphql;
pub mod legacy;
pub mod openapi;
pub mod register_calls;
pub mod reply;
pub mod roles;
pub mod routes;
pub mod session;
pub mod state;
pub mod token;
pub mod uploads;
pub mod upstream;
