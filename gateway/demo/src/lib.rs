//! `erp-demo`: the demo data `erp run --demo` and `erp seed-demo` load, and the
//! tests of the gateway start from: the demo client and its logins (identity's
//! seed), a sample row of every register with a screen, the documents a visitor
//! finds open (a quote, an order, a purchase, a CT-e and an MDF-e ready to issue),
//! and a year of history made through the documents' own calls.
//!
//! Layout:
//! - `registers`: the registers' rows and the open documents.
//! - `history`: a year of invoiced orders, service orders, purchases, receipts
//!   and payments, through the running services.

pub mod history;
pub mod registers;

use std::sync::Arc;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::{Error, Result};

pub use registers::{seed, seed_documents};

/// Migrates and loads the demo client, its users and the registers' rows
/// (`erp seed-demo`; `erp run --demo` before it starts).
pub async fn seed_demo(cfg: Arc<Config>) -> Result<()> {
    erp_gateway::roles::migrate(cfg.clone()).await?;
    let db = Db::connect(&cfg).await?;
    erp_identity::seed::seed(&db, cfg.operator_client_id).await?;
    let failed = seed(&cfg, erp_identity::seed::DEMO_CLIENT, 1).await?;
    if !failed.is_empty() {
        return Err(Error::internal(format!(
            "demo data not created for: {}",
            failed.join(", ")
        )));
    }
    Ok(())
}

/// The demo logins, printed with the URL when `erp run --demo` is up.
pub fn print_logins(url: &str) {
    println!();
    println!("  ERP {} em {url}", erp_platform::VERSION);
    println!("  Logins de demonstração (CPF/CNPJ do cliente, usuário, senha):");
    for l in erp_identity::seed::LOGINS.iter() {
        println!(
            "    {:<20} {:<10} {:<12} {}",
            l.cpfcnpj, l.login, l.password, l.note
        );
    }
    println!();
}
