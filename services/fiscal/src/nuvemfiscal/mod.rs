//! Client of the Nuvem Fiscal API (<https://nuvemfiscal.com.br>), the provider
//! through which the product issues NF-e, CT-e and MDF-e, and a fake server of
//! the same API for demos and tests.
//!
//! The types and paths follow the provider's OpenAPI description, v2.58 (a
//! copy is in `tests/fixtures/`, and a test checks our bodies and paths
//! against it). Configuration comes from the environment
//! ([`Config::from_env`]: `NUVEMFISCAL_CLIENT_ID`, `NUVEMFISCAL_CLIENT_SECRET`,
//! `NUVEMFISCAL_BASE_URL`, `NUVEMFISCAL_AUTH_URL`, `NUVEMFISCAL_SCOPE`,
//! `NUVEMFISCAL_TIMEOUT_SECS`); without credentials there is no client and
//! callers answer [`MISSING_CREDENTIALS`].
//!
//! Decisions:
//! - money and quantities are `Decimal` and go out as JSON numbers with
//!   their exact digits ([`number`]), never through `f64`;
//! - an emission is never re-sent after the server answered it, even with a
//!   5xx: the document may exist. The error says so
//!   ([`Error::outcome_unknown`]) and the caller lists by `referencia`
//!   (`listar_nfe`) before emitting again. Idempotency (choosing the
//!   `referencia`, storing the id) is the caller's job;
//! - there are no webhooks: `aguardar_nfe` polls until a final status.
//!
//! Layout:
//! - `config`: `Config`, `Retry` and the waits between tries.
//! - `client`: `NuvemFiscal` and the one `send` with the
//!   retry rules; `auth`: the OAuth2 token and its cache.
//! - `documents`: NF-e, CT-e and MDF-e operations; `companies`: companies,
//!   settings, certificate, logo; `distribution`: the NF-e issued against
//!   the company and the recipient's manifestation; `polling`: `aguardar_*`.
//! - `types/`: request and answer bodies from the spec's schemas; `number`:
//!   `Decimal` as a JSON number; `paths`: the endpoints used.
//! - `error`: `Error`, `MISSING_CREDENTIALS`.
//! - `fake/` (feature `fake`, and the crate's tests): an axum server of the same
//!   endpoints, state in memory, with knobs to inject failures and counters to
//!   assert on.

pub mod auth;
pub mod client;
pub mod companies;
pub mod config;
pub mod distribution;
pub mod documents;
pub mod error;
#[cfg(any(test, feature = "fake"))]
pub mod fake;
pub mod number;
pub mod paths;
pub mod polling;
pub mod types;

#[cfg(test)]
mod tests;

pub use client::NuvemFiscal;
pub use config::{Config, Retry, AUTH_URL, DEFAULT_SCOPE, PRODUCTION_URL, SANDBOX_URL};
pub use error::{Error, Result, MISSING_CREDENTIALS};
