//! The legacy REST surface: the paths of the spec's call catalogue, translated to
//! gRPC calls. Registers get their routes from their descriptors; typed calls
//! (login, menu, permissions, uploads, jobs) are listed in their modules.
//!
//! Layout:
//! - `registers`: the generic routes of every register and its declared calls.
//! - `identity`: login, logout, companies, menus, permissions, users.
//! - `jobs`: support operators run a scheduled job now (`POST /jobs/{service}/{job}`).
//! - `webhooks`: the WhatsApp providers' public webhooks, handed to messaging.

pub mod identity;
pub mod jobs;
pub mod registers;
pub mod webhooks;

use crate::routes::Routes;

/// Every legacy route: typed ones first (they win over a generic route of the same
/// shape), then the registers'.
pub fn add_all(routes: &mut Routes, registry: &erp_platform::resource::Registry) {
    identity::add(routes);
    jobs::add(routes);
    webhooks::add(routes);
    registers::add_all(routes, registry);
}
