//! The dashboard (`POST /dasboard/{nome}`, body `EMP_ID`, `DATA_INI`, `DATA_FIM`):
//! `{dados: [{ROTULO, VALOR}], TOTAL}` of the period's sales by product group
//! (`vendasgrupo`), subgroup (`vendassubgrupo`) and payment method
//! (`formaspagamentos`); of the titles due in the period, what was received or
//! paid and what is open, overdue or not (`contasreceber`, `contaspagar`); the
//! payments of the period by cost centre (`despesacentrocusto`) and by cost
//! centre group (`despesagrupocentrocusto`): the part of each payable its
//! settlements took, reversed ones left out; the services of the service orders
//! finished in the period by sector (`vendassetor`).

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

/// The rows of a `SELECT label, sum(…) … WHERE client = $1 AND company = $2 AND
/// day BETWEEN $3 AND $4`.
async fn labelled_sums(
    tx: &mut Tx,
    sql: &str,
    client: i64,
    emp: i64,
    p: &crate::engine::Params,
) -> Result<Vec<(String, Decimal)>> {
    let rows = sqlx::query(sql)
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
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
                labelled_sums(
                    tx,
                    "SELECT coalesce(f.descricao, 'Sem forma de pagamento'), sum(v.total)
                     FROM reports.vendasformadia v
                     LEFT JOIN reports.formaspagamento f ON f.client_id = v.client_id AND f.emp_id = 0
                          AND f.frmp_id = v.frmp_id
                     WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
                     GROUP BY 1 ORDER BY 2 DESC, 1",
                    client,
                    emp,
                    &p,
                )
                .await?
            }
            "contasreceber" | "contaspagar" => {
                let (side, done) = if name == "contasreceber" {
                    ("R", "Recebido")
                } else {
                    ("P", "Pago")
                };
                let rows = sqlx::query(
                    "SELECT coalesce(sum(t.pago), 0),
                            coalesce(sum(t.saldo) FILTER (WHERE t.dta_vcto < (now() AT TIME ZONE 'America/Sao_Paulo')::date), 0),
                            coalesce(sum(t.saldo) FILTER (WHERE t.dta_vcto >= (now() AT TIME ZONE 'America/Sao_Paulo')::date), 0)
                     FROM reports.titulos t
                     WHERE t.client_id = $1 AND t.emp_id = $2 AND t.tipo = $3 AND t.dta_vcto BETWEEN $4 AND $5
                       AND t.situacao <> 'C'",
                )
                .bind(client)
                .bind(emp)
                .bind(side)
                .bind(p.from)
                .bind(p.to)
                .fetch_one(&mut **tx)
                .await?;
                vec![
                    (done.to_string(), rows.try_get(0)?),
                    ("Vencido".to_string(), rows.try_get(1)?),
                    ("A vencer".to_string(), rows.try_get(2)?),
                ]
            }
            "despesacentrocusto" | "despesagrupocentrocusto" => {
                let label = if name == "despesacentrocusto" {
                    "coalesce(h.descricao, CASE WHEN t.hisp_id IS NULL THEN 'Sem centro de custo' ELSE 'Centro de custo ' || t.hisp_id END)"
                } else {
                    "coalesce(g.descricao, CASE WHEN h.grhp_id IS NULL THEN 'Sem grupo' ELSE 'Grupo ' || h.grhp_id END)"
                };
                labelled_sums(
                    tx,
                    &format!(
                    "SELECT {label}, sum(b.valor)
                     FROM reports.baixas b
                     JOIN reports.titulos t ON t.client_id = b.client_id AND t.emp_id = b.emp_id AND t.tipo = b.tipo
                          AND t.tit_id = b.tit_id
                     LEFT JOIN reports.centroscusto h ON h.client_id = t.client_id AND h.emp_id = t.emp_id
                          AND h.hisp_id = t.hisp_id
                     LEFT JOIN reports.gruposcentrocusto g ON g.client_id = h.client_id AND g.emp_id = h.emp_id
                          AND g.grhp_id = h.grhp_id
                     WHERE b.client_id = $1 AND b.emp_id = $2 AND b.tipo = 'P' AND b.dta BETWEEN $3 AND $4
                       AND NOT b.estornada
                     GROUP BY 1 ORDER BY 2 DESC, 1"
                ),
                    client,
                    emp,
                    &p,
                )
                .await?
            }
            "vendassetor" => {
                labelled_sums(
                    tx,
                    "SELECT coalesce(s.descricao, CASE WHEN i.sets_id IS NULL THEN 'Sem setor' ELSE 'Setor ' || i.sets_id END),
                            sum(i.total)
                     FROM reports.ordensservicoitens i
                     LEFT JOIN reports.setores s ON s.client_id = i.client_id AND s.emp_id = i.emp_id
                          AND s.sets_id = i.sets_id
                     WHERE i.client_id = $1 AND i.emp_id = $2 AND i.tipo = 'S' AND i.dta_saida BETWEEN $3 AND $4
                     GROUP BY 1 ORDER BY 2 DESC, 1",
                    client,
                    emp,
                    &p,
                )
                .await?
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
