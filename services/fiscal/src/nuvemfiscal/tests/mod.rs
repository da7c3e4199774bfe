//! Tests of the Nuvem Fiscal client, its types and the fake server.

mod client;
mod config;
mod json;
mod mdfe_request;
mod order_request;
mod samples;
mod spec;
