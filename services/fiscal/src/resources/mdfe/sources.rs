//! What an MDF-e is made of, read from fiscal's own tables: the header and
//! its rows, the company (emitter, `crate::copies`) and its MDF-e settings
//! (`empresasservicos`).

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use crate::resources::order_nfe::sources::Company;

const NO_COMPANY: &str = "Empresa não encontrada no fiscal: confira o cadastro em Empresas.";

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Head {
    pub mdfe_id: i64,
    pub mdfe_tp_emit: i32,
    pub mdfe_tp_transp: Option<i32>,
    pub mdfe_modal: i32,
    pub mdfe_uf_ini: String,
    pub mdfe_uf_fim: String,
    pub mdfe_dta_viagem: Option<NaiveDate>,
    pub mdfe_hora_viagem: Option<String>,
    pub mdfe_rntrc: Option<String>,
    pub mdfe_vlr_carga: Decimal,
    pub mdfe_c_unid: String,
    pub mdfe_q_carga: Decimal,
    pub mdfe_prod_tp_carga: Option<String>,
    pub mdfe_prod_descricao: Option<String>,
    pub mdfe_prod_ncm: Option<String>,
    pub mdfe_prod_ean: Option<String>,
    pub mdfe_obs: Option<String>,
    pub mdfe_obs_fisco: Option<String>,
    pub mdfe_ciot: Option<String>,
    pub mdfe_ciot_cpf_cnpj: Option<String>,
}

pub const HEAD_COLS: &str = "mdfe_id, mdfe_tp_emit, mdfe_tp_transp, mdfe_modal, mdfe_uf_ini, mdfe_uf_fim, \
    mdfe_dta_viagem, mdfe_hora_viagem, mdfe_rntrc, mdfe_vlr_carga, mdfe_c_unid, mdfe_q_carga, \
    mdfe_prod_tp_carga, mdfe_prod_descricao, mdfe_prod_ncm, mdfe_prod_ean, mdfe_obs, mdfe_obs_fisco, \
    mdfe_ciot, mdfe_ciot_cpf_cnpj";

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct City {
    pub id: i64,
    pub ibge: String,
    pub cidade: String,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct UnloadedDoc {
    pub mcid_id: i64,
    pub modelo: String,
    pub chave: String,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Vehicle {
    pub tipo: String,
    pub placa: String,
    pub renavam: Option<String>,
    pub tara: i32,
    pub cap_kg: Option<i32>,
    pub cap_m3: Option<i32>,
    pub tp_rod: Option<String>,
    pub tp_car: String,
    pub uf: Option<String>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Person {
    pub nome: String,
    pub doc: String,
}

/// A contractor, with its contract when the service is continued.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Contractor {
    pub nome: String,
    pub doc: String,
    pub nro_contrato: Option<String>,
    pub vlr_contrato: Option<Decimal>,
}

/// The cargo insurance: who is responsible (1 the emitter, 2 the
/// contractor), the insurer, the policy and its averbações.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Insurance {
    pub resp: i32,
    pub resp_doc: Option<String>,
    pub seguradora: String,
    pub seguradora_cnpj: String,
    pub apolice: Option<String>,
    pub averbacoes: Option<String>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Payment {
    pub id: i64,
    pub nome: String,
    pub doc: String,
    pub vlr_contrato: Decimal,
    pub ind_pag: i32,
    pub dta_vcto: Option<NaiveDate>,
    pub vlr_adiant: Option<Decimal>,
    pub banco: Option<String>,
    pub agencia: Option<String>,
    pub pix: Option<String>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Component {
    pub mdpg_id: i64,
    pub tipo: String,
    pub valor: Decimal,
    pub descricao: Option<String>,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Toll {
    pub cnpj_forn: String,
    pub cpf_cnpj_pag: Option<String>,
    pub n_compra: Option<String>,
    pub valor: Decimal,
}

/// The company's MDF-e settings (`empresasservicos`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Settings {
    pub ambiente: i32,
    pub serie: Option<i32>,
}

/// Everything the request is built from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub head: Head,
    pub company: Company,
    pub settings: Settings,
    pub origins: Vec<City>,
    pub destinations: Vec<City>,
    pub documents: Vec<UnloadedDoc>,
    pub path_states: Vec<String>,
    pub vehicles: Vec<Vehicle>,
    pub drivers: Vec<Person>,
    pub seals: Vec<String>,
    pub contractors: Vec<Contractor>,
    pub insurances: Vec<Insurance>,
    pub payments: Vec<Payment>,
    pub components: Vec<Component>,
    pub tolls: Vec<Toll>,
}

async fn rows<T>(tx: &mut Tx, sql: &str, client: i64, emp: i64, id: i64) -> Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    Ok(sqlx::query_as(sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_all(&mut **tx)
        .await?)
}

/// The destination cities of an MDF-e without any document.
pub async fn cities_without_documents(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Vec<City>> {
    rows(
        tx,
        "SELECT c.mcid_id AS id, c.mcid_cid_ibge AS ibge, c.mcid_cidade AS cidade
         FROM fiscal.mdfe_cidades_destino c
         WHERE c.client_id = $1 AND c.mcid_emp_id = $2 AND c.mcid_mdfe_id = $3
           AND NOT EXISTS (SELECT 1 FROM fiscal.mdfe_notas_cidade_destino n
                           WHERE n.client_id = c.client_id AND n.mdnc_emp_id = c.mcid_emp_id
                             AND n.mdnc_mdfe_id = c.mcid_mdfe_id AND n.mdnc_mcid_id = c.mcid_id)
         ORDER BY c.mcid_id",
        client,
        emp,
        id,
    )
    .await
}

/// The rest of the sources of the header `head`.
pub async fn load(tx: &mut Tx, client: i64, emp: i64, head: Head) -> Result<Sources> {
    let id = head.mdfe_id;
    let company: Company = sqlx::query_as(
        "SELECT descricao, fantasia, cnpj, ie, im, cnae, regime, endereco, numero, complemento, bairro, cid_ibge,
                cidade, uf, cep, fone
         FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::validation(NO_COMPANY))?;
    let settings: Settings = sqlx::query_as(
        "SELECT emps_mdfe_ambiente AS ambiente, emps_mdfe_serie AS serie
         FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or(Settings { ambiente: 2, serie: None });
    let origins = rows(
        tx,
        "SELECT mcio_id AS id, mcio_cid_ibge AS ibge, mcio_cidade AS cidade FROM fiscal.mdfe_cidades_origem
         WHERE client_id = $1 AND mcio_emp_id = $2 AND mcio_mdfe_id = $3 ORDER BY mcio_id",
        client,
        emp,
        id,
    )
    .await?;
    let destinations = rows(
        tx,
        "SELECT mcid_id AS id, mcid_cid_ibge AS ibge, mcid_cidade AS cidade FROM fiscal.mdfe_cidades_destino
         WHERE client_id = $1 AND mcid_emp_id = $2 AND mcid_mdfe_id = $3 ORDER BY mcid_id",
        client,
        emp,
        id,
    )
    .await?;
    let documents = rows(
        tx,
        "SELECT mdnc_mcid_id AS mcid_id, mdnc_modelo AS modelo, mdnc_chave AS chave
         FROM fiscal.mdfe_notas_cidade_destino
         WHERE client_id = $1 AND mdnc_emp_id = $2 AND mdnc_mdfe_id = $3 ORDER BY mdnc_id",
        client,
        emp,
        id,
    )
    .await?;
    let path_states: Vec<(String,)> = rows(
        tx,
        "SELECT mufp_uf FROM fiscal.mdfe_uf_percurso
         WHERE client_id = $1 AND mufp_emp_id = $2 AND mufp_mdfe_id = $3 ORDER BY mufp_id",
        client,
        emp,
        id,
    )
    .await?;
    let vehicles = rows(
        tx,
        "SELECT veic_tipo AS tipo, veic_placa1 AS placa, veic_renavam AS renavam, veic_tara AS tara,
                veic_cap_kg AS cap_kg, veic_cap_m3 AS cap_m3, veic_tp_rod AS tp_rod, veic_tp_car AS tp_car,
                veic_uf AS uf
         FROM fiscal.mdfe_veiculos
         WHERE client_id = $1 AND veic_emp_id = $2 AND veic_mdfe_id = $3 ORDER BY veic_tipo DESC, veic_id",
        client,
        emp,
        id,
    )
    .await?;
    let drivers = rows(
        tx,
        "SELECT mdmo_nome AS nome, mdmo_cpf AS doc FROM fiscal.mdfe_motoristas
         WHERE client_id = $1 AND mdmo_emp_id = $2 AND mdmo_mdfe_id = $3 ORDER BY mdmo_id",
        client,
        emp,
        id,
    )
    .await?;
    let seals: Vec<(String,)> = rows(
        tx,
        "SELECT lacre_numero FROM fiscal.mdfe_lacres
         WHERE client_id = $1 AND lacre_emp_id = $2 AND lacre_mdfe_id = $3 ORDER BY lacre_id",
        client,
        emp,
        id,
    )
    .await?;
    let contractors = rows(
        tx,
        "SELECT mdco_nome AS nome, mdco_cpf_cnpj AS doc, mdco_nro_contrato AS nro_contrato,
                mdco_vlr_contrato AS vlr_contrato
         FROM fiscal.mdfe_contratantes
         WHERE client_id = $1 AND mdco_emp_id = $2 AND mdco_mdfe_id = $3 ORDER BY mdco_id",
        client,
        emp,
        id,
    )
    .await?;
    let insurances = rows(
        tx,
        "SELECT mseg_resp AS resp, mseg_resp_cpf_cnpj AS resp_doc, mseg_seguradora AS seguradora,
                mseg_seguradora_cnpj AS seguradora_cnpj, mseg_apolice AS apolice, mseg_averbacoes AS averbacoes
         FROM fiscal.mdfe_seguros
         WHERE client_id = $1 AND mseg_emp_id = $2 AND mseg_mdfe_id = $3 ORDER BY mseg_id",
        client,
        emp,
        id,
    )
    .await?;
    let payments = rows(
        tx,
        "SELECT mdpg_id AS id, mdpg_nome AS nome, mdpg_cpf_cnpj AS doc, mdpg_vlr_contrato AS vlr_contrato,
                mdpg_ind_pag AS ind_pag, mdpg_dta_vcto AS dta_vcto, mdpg_vlr_adiant AS vlr_adiant,
                mdpg_banco AS banco, mdpg_agencia AS agencia, mdpg_pix AS pix
         FROM fiscal.mdfe_pagamentos
         WHERE client_id = $1 AND mdpg_emp_id = $2 AND mdpg_mdfe_id = $3 ORDER BY mdpg_id",
        client,
        emp,
        id,
    )
    .await?;
    let components = rows(
        tx,
        "SELECT mdpc_mdpg_id AS mdpg_id, mdpc_tipo AS tipo, mdpc_vlr_comp AS valor, mdpc_descricao AS descricao
         FROM fiscal.mdfe_componentes
         WHERE client_id = $1 AND mdpc_emp_id = $2 AND mdpc_mdfe_id = $3 ORDER BY mdpc_id",
        client,
        emp,
        id,
    )
    .await?;
    let tolls = rows(
        tx,
        "SELECT mdvp_cnpj_forn AS cnpj_forn, mdvp_cpf_cnpj_pag AS cpf_cnpj_pag, mdvp_n_compra AS n_compra,
                mdvp_valor AS valor
         FROM fiscal.mdfe_vale_pedagio
         WHERE client_id = $1 AND mdvp_emp_id = $2 AND mdvp_mdfe_id = $3 ORDER BY mdvp_id",
        client,
        emp,
        id,
    )
    .await?;
    Ok(Sources {
        head,
        company,
        settings,
        origins,
        destinations,
        documents,
        path_states: path_states.into_iter().map(|r| r.0).collect(),
        vehicles,
        drivers,
        seals: seals.into_iter().map(|r| r.0).collect(),
        contractors,
        insurances,
        payments,
        components,
        tolls,
    })
}
