//! The resource engine. A register is declared once as a [`Resource`] (legacy path
//! root, table, key, company column, fields with their rules, default order,
//! owning program); from it the engine provides list, count, get, create, update,
//! delete and search with the legacy conventions, the gRPC `ResourceService`, and
//! the metadata the web client renders screens from.
//!
//! Only declared columns ever reach SQL; every value is a bound parameter.
//!
//! Layout:
//! - `model`: `Resource`, `Field`, kinds and builders.
//! - `values`: JSON <-> typed SQL values, field validation with the pt-BR messages.
//! - `query`: the operations over one tenant transaction.
//! - `grpc`: `ResourceService` over a `Registry`.

pub mod grpc;
pub mod model;
pub mod query;
pub mod values;

pub use model::{
    uploaded_file, Action, ActionHandler, ActionPerm, DbType, Field, Group, Hooks, Kind, Op,
    Registry, Resource,
};
