//! (to be filled by the registers work)
//!
//! IMPORTANT FOR WHOEVER FILLS THIS FILE: the rules for this work (schema and RLS
//! conventions, `.sample(...)` on every resource, the table-driven test
//! `erp_platform::testing::exercise_registry`, the shared CARGO_TARGET_DIR, building
//! only this crate, not committing) are in /tmp/common_prompt.md — read it first,
//! and remove this note when you write the module.

use erp_platform::resource::Resource;

pub fn all() -> Vec<Resource> {
    Vec::new()
}
