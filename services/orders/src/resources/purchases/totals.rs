//! The purchase header's totals that the engine's generic totals leave out:
//! the components summed from the items (insurance, other costs, IPI, ST, ICMS
//! base and value, the difference from typed totals) and the invoice total
//! (typed or computed), read by the header's hooks and by the transitions.

use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;

/// The header's totals of each addition (insurance, other expenses, IPI, ST) and of
/// the ICMS base and value, summed from the items; and, when the totals were typed,
/// how far the typed invoice total is from the items'. Runs after the engine
/// recomputed its own totals.
pub(super) async fn header_components(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    purchase: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE orders.compras c SET comp_vlr_seguro = s.seguro, comp_vlr_outras = s.outras,
                comp_vlr_ipi = s.ipi, comp_vlr_st = s.st, comp_vlr_bc_icms = s.bc, comp_vlr_icms = s.icms,
                comp_vlr_diferenca = CASE WHEN c.comp_totalizador_manual
                    THEN coalesce(c.comp_man_total, c.comp_vlr_total) - c.comp_vlr_total ELSE 0 END
         FROM (SELECT coalesce(sum(cmpp_vlr_seguro), 0) AS seguro, coalesce(sum(cmpp_vlr_outras), 0) AS outras,
                      coalesce(sum(cmpp_vlr_ipi), 0) AS ipi, coalesce(sum(cmpp_vlr_st), 0) AS st,
                      coalesce(sum(cmpp_vlr_bc_icms), 0) AS bc, coalesce(sum(cmpp_vlr_icms), 0) AS icms
               FROM orders.compra_produtos
               WHERE client_id = $1 AND cmpp_emp_id = $2 AND cmpp_comp_id = $3) s
         WHERE c.client_id = $1 AND c.comp_emp_id = $2 AND c.comp_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(purchase)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The invoice total of a purchase (0 when it does not exist).
pub(super) async fn invoice_total(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Decimal> {
    Ok(sqlx::query_scalar(
        "SELECT CASE WHEN comp_totalizador_manual THEN coalesce(comp_man_total, comp_vlr_total)
                     ELSE comp_vlr_total END
         FROM orders.compras WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or_default())
}
