//! `erp reports-rebuild`: empties the read model and the service's inbox and
//! deletes its durable consumers, so that the service, started again, replays the
//! retained stream into empty tables (see the crate's doc). Run it with the
//! reports service stopped; with `NATS_URL` unset (the in-process bus of
//! `erp run`) there is no retained stream across restarts, and only the tables
//! are emptied.

use erp_platform::config::Config;
use erp_platform::{Error, Result};
use sqlx::{Connection, Executor};

/// The tables of the read model.
pub const TABLES: [&str; 34] = [
    "condicionaisitens",
    "condicionais",
    "vendasnfe",
    "ordensservicoitens",
    "ordensservico",
    "veiculos",
    "setores",
    "titulos",
    "baixas",
    "movbancario",
    "compras",
    "estoquemov",
    "estoquedia",
    "estoquesaldo",
    "fornecedores",
    "bancos",
    "centroscusto",
    "gruposcentrocusto",
    "vendasdia",
    "vendasitemdia",
    "vendasdecendio",
    "vendasmes",
    "vendasformadia",
    "vendasitens",
    "vendas",
    "produtos",
    "servicos",
    "grupos",
    "subgrupos",
    "clientes",
    "colaboradores",
    "formaspagamento",
    "empresas",
    "usuarios",
];

/// What a rebuild did.
#[derive(Debug, Default)]
pub struct Rebuilt {
    pub inbox_rows: u64,
    pub consumers_deleted: usize,
}

pub async fn run(cfg: &Config) -> Result<Rebuilt> {
    crate::migrate(cfg).await?;
    let mut conn = sqlx::PgConnection::connect_with(&erp_platform::db::owner_options(cfg)?).await?;
    let mut tx = conn.begin().await?;
    let tables: Vec<String> = TABLES
        .iter()
        .map(|t| format!("{}.{t}", crate::SCHEMA))
        .collect();
    tx.execute(format!("TRUNCATE {}", tables.join(", ")).as_str())
        .await?;
    let durables: Vec<&str> = crate::consumers().iter().map(|c| c.durable).collect();
    let inbox_rows = sqlx::query("DELETE FROM reports.inbox WHERE consumer = ANY($1)")
        .bind(&durables)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    let consumers_deleted = match &cfg.nats_url {
        Some(url) => erp_platform::bus::nats::NatsBus::connect(url)
            .await?
            .delete_consumers(&durables)
            .await
            .map_err(|e| Error::Unavailable(format!("NATS: {e}")))?,
        None => 0,
    };
    Ok(Rebuilt { inbox_rows, consumers_deleted })
}
