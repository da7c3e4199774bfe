//! Conditional sales' facts: `erp.orders.condicional.situacao`
//! ([`ConditionalState`]) is the whole state of a conditional after a change;
//! it replaces the kept one (`condicionais`, `condicionaisitens`) unless the
//! kept one is newer (a redelivered or late state changes nothing).

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::CondicionalSituacao;

use super::{date, dec, decode, opt, text};

pub struct ConditionalState;

#[async_trait]
impl Effect for ConditionalState {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: CondicionalSituacao =
            decode(msg, client_id, |e: &CondicionalSituacao| e.client_id)?;
        if ev.emp_id <= 0 || ev.cond_id <= 0 || !matches!(ev.status.as_str(), "A" | "F" | "X") {
            return Err(Error::validation(
                "Evento sem empresa, condicional ou situação.",
            ));
        }
        let day = |what: &str, s: &str| -> Result<Option<chrono::NaiveDate>> {
            if s.trim().is_empty() {
                Ok(None)
            } else {
                date(what, s).map(Some)
            }
        };
        let left = day("Data de saída", &ev.left_on)?;
        let back = day("Data de retorno", &ev.return_on)?;
        let kept = sqlx::query(
            "INSERT INTO reports.condicionais AS c (client_id, emp_id, cond_id, cli_id, cli_nome, dta_saida,
                 dta_retorno, situacao, versao)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (client_id, emp_id, cond_id) DO UPDATE
             SET cli_id = EXCLUDED.cli_id, cli_nome = EXCLUDED.cli_nome, dta_saida = EXCLUDED.dta_saida,
                 dta_retorno = EXCLUDED.dta_retorno, situacao = EXCLUDED.situacao, versao = EXCLUDED.versao
             WHERE c.versao < EXCLUDED.versao",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.cond_id)
        .bind(opt(ev.customer_id))
        .bind(text(&ev.customer_name))
        .bind(left)
        .bind(back)
        .bind(&ev.status)
        .bind(ev.version)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if kept == 0 {
            return Ok(());
        }
        sqlx::query(
            "DELETE FROM reports.condicionaisitens WHERE client_id = $1 AND emp_id = $2 AND cond_id = $3",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.cond_id)
        .execute(&mut **tx)
        .await?;
        for l in &ev.lines {
            sqlx::query(
                "INSERT INTO reports.condicionaisitens (client_id, emp_id, cond_id, item, prod_id, descricao, qtde,
                     devolvida, vlr_unit)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(client_id)
            .bind(ev.emp_id)
            .bind(ev.cond_id)
            .bind(l.item)
            .bind(l.product_id)
            .bind(text(&l.description))
            .bind(dec("Quantidade", &l.quantity)?)
            .bind(dec("Quantidade devolvida", &l.returned)?)
            .bind(dec("Valor unitário", &l.unit_price)?)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }
}
