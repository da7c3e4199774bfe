//! How a company works with products: the decimal places of quantities and prices,
//! the default unit, and the optional parts it uses (`GET /produtos/config/{emp}`).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::Result;
use serde_json::{json, Value};

use super::path_company::path_company;

/// Decimal places of quantities and of prices (data-and-calls §9).
pub const QTY_SCALE: u32 = 4;
pub const PRICE_SCALE: u32 = 2;
/// The unit a new product starts with.
pub const DEFAULT_UNIT: &str = "UN";

/// GET /produtos/config/{emp}: how the company works with products. The optional
/// parts (grid, raw material, painting, ...) count as in use once the company has
/// registered any of them, so the product screen shows only the tabs it needs.
pub struct ProductSettings;

#[async_trait]
impl ActionHandler for ProductSettings {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = path_company(params, emp)?;
        let row: (Option<i64>, bool, bool, bool, bool, bool, bool, bool, bool) = sqlx::query_as(
            "SELECT
               (SELECT unid_id FROM catalog.unidade
                 WHERE client_id = $1 AND unid_emp_id = $2 AND unid_abreviada = $3 AND unid_situacao = 1
                 ORDER BY unid_id LIMIT 1),
               EXISTS (SELECT 1 FROM catalog.produtosgrade WHERE client_id = $1 AND prgr_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.tamanho WHERE client_id = $1 AND tam_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.cor WHERE client_id = $1),
               EXISTS (SELECT 1 FROM catalog.materiaprima WHERE client_id = $1 AND matp_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtopintura WHERE client_id = $1 AND prpt_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtoscbar WHERE client_id = $1 AND prcb_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtosfornecedor WHERE client_id = $1 AND prfr_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtosespeciais WHERE client_id = $1 AND pres_emp_id = $2)",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(DEFAULT_UNIT)
        .fetch_one(&mut **tx)
        .await?;
        Ok(json!({
            "EMP_ID": emp,
            "CASAS_DECIMAIS_QUANTIDADE": QTY_SCALE,
            "CASAS_DECIMAIS_VALOR": PRICE_SCALE,
            "UNIDADE_PADRAO": DEFAULT_UNIT,
            "UNID_ID_PADRAO": row.0,
            "USA_GRADE": row.1,
            "USA_TAMANHO": row.2,
            "USA_COR": row.3,
            "USA_MATERIA_PRIMA": row.4,
            "USA_PINTURA": row.5,
            "USA_CODIGOS_BARRAS": row.6,
            "USA_FORNECEDORES": row.7,
            "USA_PRECO_ESPECIAL": row.8,
        }))
    }
}
