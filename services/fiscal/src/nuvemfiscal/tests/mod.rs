//! Tests of the Nuvem Fiscal client, its types and the fake server.

mod client;
mod config;
mod json;
mod order_request;
mod samples;
mod spec;
