//! What a CT-e is read from: its header and rows, the company and its CT-e
//! settings (`Sources`), its parties filled from the customer copies first.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use crate::resources::order_nfe::sources::{self, Company};

/// The header as stored (`fiscal.cte`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Header {
    pub cte_id: i64,
    pub cte_tipo_cte: i32,
    pub cte_tipo_servico: i32,
    pub cte_ambiente: i32,
    pub cte_cfop: Option<String>,
    pub cte_natureza: Option<String>,
    pub cte_tomador: i32,
    pub cte_cnpjcpf: Option<String>,
    pub cte_mun_env_ibge: Option<String>,
    pub cte_mun_env_nome: Option<String>,
    pub cte_mun_env_uf: Option<String>,
    pub cte_mun_ini_ibge: Option<String>,
    pub cte_mun_ini_nome: Option<String>,
    pub cte_mun_ini_uf: Option<String>,
    pub cte_mun_fim_ibge: Option<String>,
    pub cte_mun_fim_nome: Option<String>,
    pub cte_mun_fim_uf: Option<String>,
    pub cte_rem_cnpjcpf: Option<String>,
    pub cte_rem_nome: Option<String>,
    pub cte_rem_ie: Option<String>,
    pub cte_rem_endereco: Option<String>,
    pub cte_rem_numero: Option<String>,
    pub cte_rem_bairro: Option<String>,
    pub cte_rem_mun_ibge: Option<String>,
    pub cte_rem_municipio: Option<String>,
    pub cte_rem_uf: Option<String>,
    pub cte_rem_cep: Option<String>,
    pub cte_dest_cnpjcpf: Option<String>,
    pub cte_dest_nome: Option<String>,
    pub cte_dest_ie: Option<String>,
    pub cte_dest_endereco: Option<String>,
    pub cte_dest_numero: Option<String>,
    pub cte_dest_bairro: Option<String>,
    pub cte_dest_mun_ibge: Option<String>,
    pub cte_dest_municipio: Option<String>,
    pub cte_dest_uf: Option<String>,
    pub cte_dest_cep: Option<String>,
    pub cte_exped_cnpjcpf: Option<String>,
    pub cte_exped_nome: Option<String>,
    pub cte_exped_ie: Option<String>,
    pub cte_exped_endereco: Option<String>,
    pub cte_exped_numero: Option<String>,
    pub cte_exped_bairro: Option<String>,
    pub cte_exped_mun_ibge: Option<String>,
    pub cte_exped_municipio: Option<String>,
    pub cte_exped_uf: Option<String>,
    pub cte_exped_cep: Option<String>,
    pub cte_receb_cnpjcpf: Option<String>,
    pub cte_receb_nome: Option<String>,
    pub cte_receb_ie: Option<String>,
    pub cte_receb_endereco: Option<String>,
    pub cte_receb_numero: Option<String>,
    pub cte_receb_bairro: Option<String>,
    pub cte_receb_mun_ibge: Option<String>,
    pub cte_receb_municipio: Option<String>,
    pub cte_receb_uf: Option<String>,
    pub cte_receb_cep: Option<String>,
    pub cte_toma_nome: Option<String>,
    pub cte_toma_ie: Option<String>,
    pub cte_toma_endereco: Option<String>,
    pub cte_toma_numero: Option<String>,
    pub cte_toma_bairro: Option<String>,
    pub cte_toma_mun_ibge: Option<String>,
    pub cte_toma_municipio: Option<String>,
    pub cte_toma_uf: Option<String>,
    pub cte_toma_cep: Option<String>,
    pub cte_vlr_frete: Decimal,
    pub cte_vlr_receber: Option<Decimal>,
    pub cte_cst: String,
    pub cte_perc_red_bc: Decimal,
    pub cte_vlr_bc_icms: Option<Decimal>,
    pub cte_aliq_icms: Decimal,
    pub cte_vlr_icms: Option<Decimal>,
    pub cte_vlr_carga: Option<Decimal>,
    pub cte_produto_predominante: Option<String>,
    pub cte_outras_caracteristicas: Option<String>,
    pub cte_unidade: String,
    pub cte_tipo_medida: Option<String>,
    pub cte_qtde: Option<Decimal>,
    pub cte_rntrc: Option<String>,
    pub cte_obs: Option<String>,
    pub cte_chave_ref: Option<String>,
    pub cte_altera_toma: bool,
}

/// An NF-e the CT-e carries.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Note {
    pub cten_chave: String,
    pub cten_pin: Option<String>,
    pub cten_dta_prevista: Option<NaiveDate>,
}

/// A new vehicle carried.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Vehicle {
    pub ctvn_chassi: String,
    pub ctvn_cor: String,
    pub ctvn_desc_cor: String,
    pub ctvn_modelo: String,
    pub ctvn_vlr_unit: Decimal,
    pub ctvn_vlr_frete: Decimal,
}

/// The company's CT-e settings (`empresasservicos`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Settings {
    pub regime: Option<i32>,
    pub serie: Option<i32>,
}

/// Everything the request is built from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub header: Header,
    pub notes: Vec<Note>,
    pub route: Vec<String>,
    pub vehicles: Vec<Vehicle>,
    pub company: Company,
    pub settings: Settings,
}

const HEADER_COLS: &str = "cte_id, cte_tipo_cte, cte_tipo_servico, cte_ambiente, cte_cfop, cte_natureza, cte_tomador,
    cte_cnpjcpf, cte_mun_env_ibge, cte_mun_env_nome, cte_mun_env_uf, cte_mun_ini_ibge, cte_mun_ini_nome,
    cte_mun_ini_uf, cte_mun_fim_ibge, cte_mun_fim_nome, cte_mun_fim_uf, cte_rem_cnpjcpf, cte_rem_nome, cte_rem_ie,
    cte_rem_endereco, cte_rem_numero, cte_rem_bairro, cte_rem_mun_ibge, cte_rem_municipio, cte_rem_uf, cte_rem_cep,
    cte_dest_cnpjcpf, cte_dest_nome, cte_dest_ie, cte_dest_endereco, cte_dest_numero, cte_dest_bairro,
    cte_dest_mun_ibge, cte_dest_municipio, cte_dest_uf, cte_dest_cep, cte_toma_nome, cte_toma_ie, cte_toma_endereco,
    cte_toma_numero, cte_toma_bairro, cte_toma_mun_ibge, cte_toma_municipio, cte_toma_uf, cte_toma_cep,
    cte_vlr_frete, cte_vlr_receber, cte_cst, cte_perc_red_bc, cte_vlr_bc_icms, cte_aliq_icms, cte_vlr_icms,
    cte_vlr_carga, cte_produto_predominante, cte_outras_caracteristicas, cte_unidade, cte_tipo_medida, cte_qtde,
    cte_rntrc, cte_obs, cte_chave_ref, cte_altera_toma, cte_exped_cnpjcpf, cte_exped_nome, cte_exped_ie,
    cte_exped_endereco, cte_exped_numero, cte_exped_bairro, cte_exped_mun_ibge, cte_exped_municipio, cte_exped_uf,
    cte_exped_cep, cte_receb_cnpjcpf, cte_receb_nome, cte_receb_ie, cte_receb_endereco, cte_receb_numero,
    cte_receb_bairro, cte_receb_mun_ibge, cte_receb_municipio, cte_receb_uf, cte_receb_cep";

/// The sources of CT-e `id` (its parties filled from the copies first).
pub async fn load(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Sources> {
    super::hooks::fill(tx, client, emp, id).await?;
    let header: Header = sqlx::query_as(&format!(
        "SELECT {HEADER_COLS} FROM fiscal.cte WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3"
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(super::MISSING.into()))?;
    let notes: Vec<Note> = sqlx::query_as(
        "SELECT cten_chave, cten_pin, cten_dta_prevista FROM fiscal.cte_notas
         WHERE client_id = $1 AND cten_emp_id = $2 AND cten_cte_id = $3 ORDER BY cten_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let route: Vec<String> = sqlx::query_scalar(
        "SELECT cufp_uf FROM fiscal.cte_uf_percursos
         WHERE client_id = $1 AND cufp_emp_id = $2 AND cufp_cte_id = $3 ORDER BY cufp_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let vehicles: Vec<Vehicle> = sqlx::query_as(
        "SELECT ctvn_chassi, ctvn_cor, ctvn_desc_cor, ctvn_modelo, ctvn_vlr_unit, ctvn_vlr_frete
         FROM fiscal.cte_veiculos_novos
         WHERE client_id = $1 AND ctvn_emp_id = $2 AND ctvn_cte_id = $3 ORDER BY ctvn_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let company = sources::company(tx, client, emp).await?;
    let settings: Settings = sqlx::query_as(
        "SELECT emps_cte_regime AS regime, emps_cte_serie AS serie
         FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or_default();
    Ok(Sources { header, notes, route, vehicles, company, settings })
}
