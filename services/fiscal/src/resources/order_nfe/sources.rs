//! What an order's NF-e is made of, read from fiscal's own tables: the
//! invoiced order and its product lines with the product copies, the company
//! (emitter) and its fiscal settings, the customer (recipient), the operation
//! nature and its tax rule, and the payment method. Every missing piece is a
//! pt-BR message naming the screen that holds it.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Company {
    pub descricao: Option<String>,
    pub fantasia: Option<String>,
    pub cnpj: Option<String>,
    pub ie: Option<String>,
    pub im: Option<String>,
    pub cnae: Option<String>,
    pub regime: Option<String>,
    pub endereco: Option<String>,
    pub numero: Option<String>,
    pub complemento: Option<String>,
    pub bairro: Option<String>,
    pub cid_ibge: Option<String>,
    pub cidade: Option<String>,
    pub uf: Option<String>,
    pub cep: Option<String>,
    pub fone: Option<String>,
}

/// The company's NF-e settings (`empresasservicos`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Settings {
    pub ambiente: i32,
    pub regime: Option<i32>,
    pub serie: Option<i32>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Customer {
    pub tipo_pessoa: Option<String>,
    pub descricao: Option<String>,
    pub cpf: Option<String>,
    pub cnpj: Option<String>,
    pub doc_estrangeiro: Option<String>,
    pub ind_ie: Option<i64>,
    pub ie: Option<String>,
    pub im: Option<String>,
    pub endereco: Option<String>,
    pub numero: Option<String>,
    pub complemento: Option<String>,
    pub bairro: Option<String>,
    pub cid_ibge: Option<String>,
    pub cidade: Option<String>,
    pub uf: Option<String>,
    pub cep: Option<String>,
    pub fone: Option<String>,
    pub email: Option<String>,
    pub email_nfe: Option<String>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Order {
    pub pedf_id: i64,
    pub serie: String,
    pub cli_id: i64,
    pub dta_emissao: chrono::NaiveDate,
    pub total: Decimal,
    pub frmp_id: Option<i64>,
}

/// A product line with what the product copy says of it.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Item {
    pub item: i64,
    pub prod_id: i64,
    pub qtde: Decimal,
    pub vlr_unit: Decimal,
    pub vlr_desconto: Decimal,
    pub vlr_acrescimo: Decimal,
    pub vlr_frete: Decimal,
    pub descricao: Option<String>,
    pub ncm: Option<String>,
    pub cest: Option<String>,
    pub unidade: Option<String>,
    pub origem: Option<i64>,
    pub gtin: Option<String>,
    /// The product copy is missing or removed.
    pub sem_cadastro: bool,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Nature {
    pub nato_id: i64,
    pub nato_descricao: String,
    pub nato_tipo: String,
    pub nato_finalidade: i32,
    pub nato_cfop_estadual: Option<String>,
    pub nato_cfop_interestadual: Option<String>,
    pub nato_cfop_exterior: Option<String>,
    pub nato_ticm_id: Option<i64>,
    pub nato_consumidor_final: bool,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct TaxRule {
    pub ticm_descricao: String,
    pub ticm_cst: Option<String>,
    pub ticm_csosn: Option<String>,
    pub ticm_cfop: Option<String>,
    pub ticm_perc_icms: Decimal,
    pub ticm_perc_reducao_bc: Decimal,
    pub ticm_perc_mva_st: Decimal,
    pub ticm_perc_icms_st: Decimal,
    pub ticm_perc_reducao_st: Decimal,
    pub ticm_perc_fcp: Decimal,
    pub ticm_cbenef: Option<String>,
    pub ticm_cst_ipi: Option<String>,
    pub ticm_perc_ipi: Decimal,
    pub ticm_cst_pis: Option<String>,
    pub ticm_perc_pis: Decimal,
    pub ticm_cst_cofins: Option<String>,
    pub ticm_perc_cofins: Decimal,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Payment {
    pub descricao: Option<String>,
    pub tipo: Option<String>,
}

/// Everything the request is built from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub company: Company,
    pub settings: Settings,
    pub customer: Customer,
    pub order: Order,
    pub items: Vec<Item>,
    pub nature: Nature,
    pub rule: TaxRule,
    pub payment: Option<Payment>,
}

pub const ORDER_NOT_FOUND: &str =
    "Pedido faturado não encontrado: a NF-e é emitida de um pedido já faturado.";
pub const NO_PRODUCTS: &str = "O pedido não tem produtos: os serviços são documentados pela NFS-e.";
const NO_COMPANY: &str =
    "Os dados da empresa ainda não chegaram ao fiscal: salve a empresa em Empresas e tente de novo.";
const NO_CUSTOMER: &str =
    "O cliente do pedido não está disponível no fiscal: salve-o em Clientes e tente de novo.";
const NO_NATURE: &str = "Cadastre uma natureza de operação de saída em Naturezas de Operação.";
const NATURE_NOT_FOUND: &str = "Natureza de operação não encontrada.";

/// The invoiced order, locked when `lock` (emission: one at a time per order).
pub async fn order(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
    lock: bool,
) -> Result<Order> {
    let sql = format!(
        "SELECT pedf_id, serie, cli_id, dta_emissao, total, frmp_id FROM fiscal.pedidos
         WHERE client_id = $1 AND emp_id = $2 AND pedf_id = $3 AND serie = $4{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(pedf_id)
        .bind(serie)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(ORDER_NOT_FOUND.into()))
}

/// The rest of the sources of `order`, with the operation nature `nature`
/// (else the company's first active exit nature).
pub async fn load(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    order: Order,
    nature: Option<i64>,
) -> Result<Sources> {
    let items: Vec<Item> = sqlx::query_as(
        "SELECT i.item, i.item_id AS prod_id, i.qtde, i.vlr_unit, i.vlr_desconto, i.vlr_acrescimo, i.vlr_frete,
                p.descricao, p.ncm, p.cest, p.unidade, p.origem, p.gtin,
                (p.prod_id IS NULL OR p.excluido) AS sem_cadastro
         FROM fiscal.pedidos_itens i
         LEFT JOIN fiscal.produtos p ON p.client_id = i.client_id AND p.emp_id = i.emp_id AND p.prod_id = i.item_id
         WHERE i.client_id = $1 AND i.emp_id = $2 AND i.pedf_id = $3 AND i.serie = $4 AND i.tipo = 'P'
         ORDER BY i.item",
    )
    .bind(client)
    .bind(emp)
    .bind(order.pedf_id)
    .bind(&order.serie)
    .fetch_all(&mut **tx)
    .await?;
    if items.is_empty() {
        return Err(Error::validation(NO_PRODUCTS));
    }
    let company = company(tx, client, emp).await?;
    let settings: Settings = sqlx::query_as(
        "SELECT emps_nfe_ambiente AS ambiente, emps_nfe_regime AS regime, emps_nfe_serie AS serie
         FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or(Settings { ambiente: 2, ..Settings::default() });
    let customer: Customer = sqlx::query_as(
        "SELECT tipo_pessoa, descricao, cpf, cnpj, doc_estrangeiro, ind_ie, ie, im, endereco, numero, complemento,
                bairro, cid_ibge, cidade, uf, cep, fone, email, email_nfe
         FROM fiscal.clientes WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(order.cli_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::validation(NO_CUSTOMER))?;
    let nature = operation_nature(tx, client, emp, nature).await?;
    let rule_id = nature.nato_ticm_id.ok_or_else(|| {
        Error::validation(format!(
            "A natureza de operação '{}' não tem tributação: informe-a em Naturezas de Operação.",
            nature.nato_descricao
        ))
    })?;
    let rule: TaxRule = sqlx::query_as(
        "SELECT ticm_descricao, ticm_cst, ticm_csosn, ticm_cfop, ticm_perc_icms, ticm_perc_reducao_bc,
                ticm_perc_mva_st, ticm_perc_icms_st, ticm_perc_reducao_st, ticm_perc_fcp, ticm_cbenef, ticm_cst_ipi,
                ticm_perc_ipi, ticm_cst_pis, ticm_perc_pis, ticm_cst_cofins, ticm_perc_cofins
         FROM fiscal.tributacao WHERE client_id = $1 AND ticm_emp_id = $2 AND ticm_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(rule_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::validation("Tributação da natureza de operação não encontrada."))?;
    let payment: Option<Payment> = match order.frmp_id {
        Some(id) => {
            sqlx::query_as(
                "SELECT descricao, tipo FROM fiscal.formaspagamento
                 WHERE client_id = $1 AND emp_id = 0 AND frmp_id = $2",
            )
            .bind(client)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?
        }
        None => None,
    };
    Ok(Sources { company, settings, customer, order, items, nature, rule, payment })
}

async fn operation_nature(tx: &mut Tx, client: i64, emp: i64, id: Option<i64>) -> Result<Nature> {
    const COLS: &str = "nato_id, nato_descricao, nato_tipo, nato_finalidade, nato_cfop_estadual, \
        nato_cfop_interestadual, nato_cfop_exterior, nato_ticm_id, nato_consumidor_final";
    let found: Option<Nature> = match id {
        Some(id) => {
            sqlx::query_as(&format!(
                "SELECT {COLS} FROM fiscal.natureza WHERE client_id = $1 AND nato_emp_id = $2 AND nato_id = $3"
            ))
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?
        }
        None => {
            sqlx::query_as(&format!(
                "SELECT {COLS} FROM fiscal.natureza
                 WHERE client_id = $1 AND nato_emp_id = $2 AND nato_tipo = 'S' AND nato_situacao = 1
                 ORDER BY nato_id LIMIT 1"
            ))
            .bind(client)
            .bind(emp)
            .fetch_optional(&mut **tx)
            .await?
        }
    };
    found.ok_or_else(|| {
        Error::validation(if id.is_some() {
            NATURE_NOT_FOUND
        } else {
            NO_NATURE
        })
    })
}

/// The company (emitter) as fiscal's copy has it.
pub async fn company(tx: &mut Tx, client: i64, emp: i64) -> Result<Company> {
    sqlx::query_as(
        "SELECT descricao, fantasia, cnpj, ie, im, cnae, regime, endereco, numero, complemento, bairro, cid_ibge,
                cidade, uf, cep, fone
         FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::validation(NO_COMPANY))
}
