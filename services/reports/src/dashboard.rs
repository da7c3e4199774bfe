//! The dashboard (`POST /dasboard/{nome}`, body `EMP_ID`, `DATA_INI`, `DATA_FIM`):
//! `{dados: [{ROTULO, VALOR}], TOTAL}` of the period's sales by product group
//! (`vendasgrupo`), subgroup (`vendassubgrupo`) and payment method
//! (`formaspagamentos`). The other names of the spec (receivables, payables,
//! expenses per cost centre, sales per service sector) answer 404 until the read
//! model has those facts.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, param};
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use sqlx::Row;

use crate::engine::num;
use crate::sales::{totals_by, BY_GROUP, BY_SUBGROUP};

pub struct Dashboard;

fn answer(items: Vec<(String, Decimal)>) -> Value {
    let total: Decimal = items.iter().map(|(_, v)| *v).sum();
    json!({
        "dados": items.into_iter().map(|(l, v)| json!({"ROTULO": l, "VALOR": num(v)})).collect::<Vec<_>>(),
        "TOTAL": num(total),
    })
}

#[async_trait]
impl ActionHandler for Dashboard {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let name = param(call.params, "nome")?.to_string();
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let p = crate::engine::period(&body_map(call.body))?;
        let items = match name.as_str() {
            "vendasgrupo" | "vendassubgrupo" => {
                let dim = if name == "vendasgrupo" {
                    BY_GROUP
                } else {
                    BY_SUBGROUP
                };
                totals_by(tx, client, emp, &p, dim)
                    .await?
                    .into_iter()
                    .map(|(_, l, _, v)| (l, v))
                    .collect()
            }
            "formaspagamentos" => {
                let rows = sqlx::query(
                    "SELECT coalesce(f.descricao, 'Sem forma de pagamento'), sum(v.total)
                     FROM reports.vendas v
                     LEFT JOIN reports.formaspagamento f ON f.client_id = v.client_id AND f.emp_id = 0
                          AND f.frmp_id = v.frmp_id
                     WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
                     GROUP BY 1 ORDER BY 2 DESC, 1",
                )
                .bind(client)
                .bind(emp)
                .bind(p.from)
                .bind(p.to)
                .fetch_all(&mut **tx)
                .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<Result<Vec<_>>>()?
            }
            other => {
                return Err(Error::NotFound(format!(
                    "Indicador '{other}' não disponível no dashboard."
                )))
            }
        };
        Ok(answer(items))
    }
}
