//! The MDF-e (`mdfe` and its rows) against a fake Nuvem Fiscal started
//! in-process (over real HTTP; it reads every body with the provider's
//! types): the company arrives as identity's fact, the numbering and the
//! MDF-e through their generic calls.

use erp_platform::grpc::Caller;
use serde_json::{json, Value};

use super::order_nfe::{env, record, Env};
use super::{create, CTX};
use erp_platform::db::Db;

mod calls;
mod emission;

/// A valid NF-e key (model 55) and a CT-e key (model 57) with check digits.
pub const NFE_KEY: &str = "35261111222333000181550010000012341000012345";
pub const CTE_KEY: &str = "35261111222333000181570010000000771000000770";

/// Runs declared call `action` of register `res` in a tenant transaction,
/// committed when it succeeds.
pub async fn call(
    env: &Env,
    me: &Caller,
    res: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    env.call_on(me, res, action, params, body).await
}

/// A call on MDF-e `id` (`{MDFE_ID}/{emp}` paths).
pub async fn on(
    env: &Env,
    me: &Caller,
    action: &str,
    id: i64,
    body: Value,
) -> erp_platform::Result<Value> {
    let id = id.to_string();
    call(
        env,
        me,
        "mdfe",
        action,
        &[("MDFE_ID", &id), ("emp", "1")],
        body,
    )
    .await
}

pub async fn emit(env: &Env, me: &Caller, id: i64) -> erp_platform::Result<Value> {
    on(env, me, "emitirnota", id, json!({})).await
}

pub fn status(v: &Value) -> &str {
    v["MDFE_SITUACAO"].as_str().unwrap_or_default()
}

/// Company 1 (São Paulo) and the MDF-e numbering of series 1 from 7.
pub async fn seed(db: &Db, c: i64) {
    use erp_fiscal::copies::EMPRESAS;
    record(db, c, &EMPRESAS, 1, json!({"EMP_ID": 1, "EMP_DESCRICAO": "TRANSPORTES TESTE LTDA",
        "EMP_CGC": "11.222.333/0001-81", "EMP_IE": "123.456.789.110", "EMP_REGIME": "SIMPLES NACIONAL",
        "EMP_ENDERECO": "Rua A", "EMP_NUMERO": "10", "EMP_BAIRRO": "Centro", "EMP_CID_IBGE": 3550308,
        "EMP_CIDADE": "São Paulo", "EMP_UF": "sp", "EMP_CEP": "01001-000"})).await;
    create(
        db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "58", "NUM_SERIE": 1, "NUM_PROXIMO": 7}),
    )
    .await
    .expect("numbering");
}

/// An open MDF-e header of company 1 (own load, SP to MG); `ncm` is the
/// predominant product's (the fake rejects 00000000).
pub async fn header(db: &Db, c: i64, ncm: &str) -> i64 {
    let h = create(
        db,
        c,
        "mdfe",
        json!({"MDFE_TP_EMIT": 2, "MDFE_UF_INI": "sp", "MDFE_UF_FIM": "MG",
        "MDFE_DTA_VIAGEM": "2026-12-16", "MDFE_HORA_VIAGEM": "08:30", "MDFE_RNTRC": "12345678",
        "MDFE_VLR_CARGA": "25000.00", "MDFE_C_UNID": "01", "MDFE_Q_CARGA": "1200.5",
        "MDFE_PROD_TP_CARGA": "05", "MDFE_PROD_DESCRICAO": "PARAFUSOS", "MDFE_PROD_NCM": ncm,
        "MDFE_OBS": "Entrega agendada"}),
    )
    .await
    .expect("header");
    assert_eq!(h["MDFE_SITUACAO"], "aberto", "{h}");
    assert_eq!(h["MDFE_UF_INI"], "SP");
    h["MDFE_ID"].as_i64().expect("id")
}

/// A row of MDF-e `id`.
pub async fn add(db: &Db, c: i64, res: &str, id: i64, prefix: &str, mut row: Value) -> Value {
    row[format!("{prefix}_MDFE_ID")] = json!(id);
    create(db, c, res, row)
        .await
        .unwrap_or_else(|e| panic!("{res}: {}", e.public_message()))
}

/// A complete MDF-e: origin, destination with an NF-e, path state, truck and
/// trailer, driver, seal, contractor with its contract, the cargo insurance,
/// payment with its component, toll, and the trip's CIOT.
pub async fn complete(db: &Db, c: i64, ncm: &str) -> i64 {
    let id = header(db, c, ncm).await;
    add(
        db,
        c,
        "mdfecidadeorigem",
        id,
        "MCIO",
        json!({"MCIO_CID_IBGE": "3550308", "MCIO_CIDADE": "São Paulo"}),
    )
    .await;
    let city = add(
        db,
        c,
        "mdfecidadedestino",
        id,
        "MCID",
        json!({"MCID_CID_IBGE": "3106200", "MCID_CIDADE": "Belo Horizonte"}),
    )
    .await;
    let doc = add(
        db,
        c,
        "mdfenotascidadedestino",
        id,
        "MDNC",
        json!({"MDNC_MCID_ID": city["MCID_ID"], "MDNC_CHAVE": NFE_KEY}),
    )
    .await;
    assert_eq!(doc["MDNC_MODELO"], "55", "{doc}");
    add(
        db,
        c,
        "mdfeufpercurso",
        id,
        "MUFP",
        json!({"MUFP_UF": "rj"}),
    )
    .await;
    let truck = add(
        db,
        c,
        "mdfeveiculo",
        id,
        "VEIC",
        json!({"VEIC_TIPO": "T", "VEIC_PLACA1": "abc-1d23",
        "VEIC_RENAVAM": "12345678901", "VEIC_TARA": 8000, "VEIC_CAP_KG": 15000, "VEIC_TP_ROD": "03",
        "VEIC_TP_CAR": "02", "VEIC_UF": "SP"}),
    )
    .await;
    assert_eq!(truck["VEIC_PLACA1"], "ABC1D23");
    add(
        db,
        c,
        "mdfeveiculo",
        id,
        "VEIC",
        json!({"VEIC_TIPO": "R", "VEIC_PLACA1": "XYZ9876",
        "VEIC_TARA": 5000, "VEIC_CAP_KG": 25000, "VEIC_TP_CAR": "01", "VEIC_UF": "SP"}),
    )
    .await;
    let driver = add(
        db,
        c,
        "mdfemotorista",
        id,
        "MDMO",
        json!({"MDMO_NOME": "JOSE DA SILVA", "MDMO_CPF": "529.982.247-25"}),
    )
    .await;
    assert_eq!(driver["MDMO_CPF"], "52998224725");
    add(
        db,
        c,
        "mdfelacres",
        id,
        "LACRE",
        json!({"LACRE_NUMERO": "LC-000123"}),
    )
    .await;
    add(
        db,
        c,
        "mdfecontratante",
        id,
        "MDCO",
        json!({"MDCO_NOME": "INDUSTRIA CONTRATANTE LTDA", "MDCO_CPF_CNPJ": "11.444.777/0001-61",
        "MDCO_NRO_CONTRATO": "CT-2026/015", "MDCO_VLR_CONTRATO": "120000.00"}),
    )
    .await;
    let insurance = add(
        db,
        c,
        "mdfeseguro",
        id,
        "MSEG",
        json!({"MSEG_RESP": 2, "MSEG_RESP_CPF_CNPJ": "11.444.777/0001-61",
        "MSEG_SEGURADORA": "SEGURADORA TESTE SA", "MSEG_SEGURADORA_CNPJ": "11.222.333/0001-81",
        "MSEG_APOLICE": "AP-778899", "MSEG_AVERBACOES": "000123, 000124"}),
    )
    .await;
    assert_eq!(insurance["MSEG_SEGURADORA_CNPJ"], "11222333000181");
    crate::write(
        db,
        c,
        "mdfe",
        Some(id),
        json!({"MDFE_CIOT": "1234 5678 9012", "MDFE_CIOT_CPF_CNPJ": "11.444.777/0001-61"}),
    )
    .await
    .expect("the trip's CIOT");
    let pay = add(
        db,
        c,
        "mdfepagamentos",
        id,
        "MDPG",
        json!({"MDPG_NOME": "INDUSTRIA CONTRATANTE LTDA",
        "MDPG_CPF_CNPJ": "11444777000161", "MDPG_VLR_CONTRATO": "1500.00", "MDPG_IND_PAG": 1,
        "MDPG_DTA_VCTO": "2026-12-30", "MDPG_PIX": "financeiro@example.com"}),
    )
    .await;
    add(
        db,
        c,
        "mdfecomponentes",
        id,
        "MDPC",
        json!({"MDPC_MDPG_ID": pay["MDPG_ID"], "MDPC_TIPO": "04",
        "MDPC_VLR_COMP": "1500.00", "MDPC_DESCRICAO": "Frete peso"}),
    )
    .await;
    add(
        db,
        c,
        "mdfevalepedagio",
        id,
        "MDVP",
        json!({"MDVP_CNPJ_FORN": "11.222.333/0001-81",
        "MDVP_N_COMPRA": "998877", "MDVP_VALOR": "35.40"}),
    )
    .await;
    id
}

/// The next number of the MDF-e numbering of company 1.
pub async fn next_number(db: &Db, c: i64) -> i64 {
    super::env::next_number(db, c, "58").await
}

/// The generic get of MDF-e `id` as `me`.
pub async fn get(db: &Db, me: &Caller, id: i64) -> erp_platform::Result<Value> {
    super::env::get(db, me, "mdfe", id).await
}

pub async fn env_with(provider: bool) -> Env {
    let _ = &CTX;
    env(provider).await
}
