//! The stock ledger's facts: `erp.stock.movimento.registrado`
//! ([`StockMovement`]) keeps each movement once by the ledger's id
//! (`estoquemov`), adds it to the product's day (`estoquedia`) in the same
//! transaction only when it was new, and keeps the balance after the product's
//! latest movement (`estoquesaldo`, the highest id wins whatever the order).

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::stock::v1::MovimentoRegistrado;

use super::{date, dec, decode, opt, text};

pub struct StockMovement;

#[async_trait]
impl Effect for StockMovement {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: MovimentoRegistrado =
            decode(msg, client_id, |e: &MovimentoRegistrado| e.client_id)?;
        if ev.emp_id <= 0 || ev.product_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou produto."));
        }
        if ev.movement_id <= 0 || ev.moved_on.trim().is_empty() {
            // Written before the ledger's id and day travelled: it cannot be
            // kept once nor dated.
            tracing::warn!(
                client_id,
                emp = ev.emp_id,
                product = ev.product_id,
                "stock movement without id"
            );
            return Ok(());
        }
        let kind = match ev.kind.as_str() {
            k @ ("E" | "S") => k,
            other => {
                return Err(Error::validation(format!(
                    "Tipo de movimento inválido: '{other}'."
                )))
            }
        };
        let day = date("Data do movimento", &ev.moved_on)?;
        let qty = dec("Quantidade", &ev.quantity)?;
        let balance = dec("Saldo", &ev.balance_after)?;
        let avg = dec("Custo médio", &ev.average_cost_after)?;
        let new = sqlx::query(
            "INSERT INTO reports.estoquemov (client_id, emp_id, movi_id, prod_id, dta, tipo, qtde, custo_unit,
                 saldo_apos, custo_medio, origem, origem_id, loca_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT DO NOTHING",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.movement_id)
        .bind(ev.product_id)
        .bind(day)
        .bind(kind)
        .bind(qty)
        .bind(dec("Custo unitário", &ev.unit_cost)?)
        .bind(balance)
        .bind(avg)
        .bind(text(&ev.origin))
        .bind(text(&ev.origin_id))
        .bind(opt(ev.location_id))
        .execute(&mut **tx)
        .await?
        .rows_affected()
            == 1;
        if !new {
            return Ok(());
        }
        let (entries, exits) = if kind == "E" {
            (qty, rust_decimal::Decimal::ZERO)
        } else {
            (rust_decimal::Decimal::ZERO, qty)
        };
        sqlx::query(
            "INSERT INTO reports.estoquedia AS d (client_id, emp_id, prod_id, dta, entradas, saidas)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (client_id, emp_id, prod_id, dta) DO UPDATE
             SET entradas = d.entradas + EXCLUDED.entradas, saidas = d.saidas + EXCLUDED.saidas",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.product_id)
        .bind(day)
        .bind(entries)
        .bind(exits)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO reports.estoquesaldo AS s (client_id, emp_id, prod_id, movi_id, qtde, custo_medio)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (client_id, emp_id, prod_id) DO UPDATE
             SET movi_id = EXCLUDED.movi_id, qtde = EXCLUDED.qtde, custo_medio = EXCLUDED.custo_medio
             WHERE s.movi_id < EXCLUDED.movi_id",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.product_id)
        .bind(ev.movement_id)
        .bind(balance)
        .bind(avg)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
