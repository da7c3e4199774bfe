//! What the screens read of settlements: a title's settlements.

use erp_platform::db::Tx;
use erp_platform::Result;
use serde_json::Value;

use super::Side;

/// The settlements of a title, newest first, as rows for the screens.
pub async fn settlements_of(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    title: i64,
) -> Result<Vec<Value>> {
    let rows: Vec<Value> = sqlx::query_scalar(
        "SELECT json_build_object(
             'BAIX_ID', x.baix_id, 'BAIX_TIT_ID', x.baix_tit_id, 'BAIX_DTA', x.baix_dta, 'BAIX_VALOR', x.baix_valor,
             'BAIX_JUROS', x.baix_juros, 'BAIX_MULTA', x.baix_multa, 'BAIX_DESCONTO', x.baix_desconto,
             'BAIX_TOTAL', x.baix_total, 'BAIX_BCO_ID', x.baix_bco_id, 'BCO_DESCRICAO', b.bco_descricao,
             'BAIX_FRMP_ID', x.baix_frmp_id, 'FRMP_DESCRICAO', f.frmp_descricao, 'BAIX_OBS', x.baix_obs,
             'BAIX_USR_ID', x.baix_usr_id, 'BAIX_ESTORNADA', x.baix_estornada,
             'BAIX_DTA_ESTORNO', x.baix_dta_estorno)
         FROM finance.baixas x
         LEFT JOIN finance.banco b ON b.client_id = x.client_id AND b.bco_emp_id = x.baix_emp_id AND b.bco_id = x.baix_bco_id
         LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
         WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_tipo = $3 AND x.baix_tit_id = $4
         ORDER BY x.baix_dta DESC, x.baix_id DESC",
    )
    .bind(client)
    .bind(emp)
    .bind(side.code())
    .bind(title)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows)
}
