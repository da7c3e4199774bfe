//! `sqlx::migrate!` embeds `migrations/` when the crate compiles, and Cargo
//! reruns the macro only when a file it knows of changes: a new migration alone
//! would leave the binary and the tests migrating to the last build's list (the
//! build script sqlx recommends).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
