//! The CT-e (`cte` and its rows) against a fake Nuvem Fiscal started
//! in-process (over real HTTP; it reads every body with the spec's types):
//! the company and customers arrive as the facts the other services publish,
//! the CT-e and its notes are typed through the generic register calls, and
//! the declared calls issue it.

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use serde_json::{json, Value};

use super::create;
use super::env::{self, record};

mod emission;
mod events;
mod kinds;
mod schema;

pub const RES: &str = "cte";
/// An NF-e key the CT-e carries (its check digit is right).
pub const NFE_KEY: &str = "35250512345678000195550010000012341000012346";

/// The area's register in the shared environment.
pub struct CteRegister;

impl env::Register for CteRegister {
    const RES: &'static str = RES;
    const TAG: &'static str = "cte";
}

pub type Env = env::On<CteRegister>;

pub async fn env(with_provider: bool) -> Env {
    Env::new(with_provider).await
}

impl env::On<CteRegister> {
    /// `GET /cte/emitirnota/{id}/1/2`.
    pub async fn emit(&self, me: &Caller, id: i64) -> erp_platform::Result<Value> {
        let id = id.to_string();
        self.call(
            me,
            "emitir",
            &[("id", &id), ("emp", "1"), ("type", "2")],
            json!({}),
        )
        .await
    }

    /// A call on CT-e `id` of company 1 (`{id}/{emp}` paths).
    pub async fn on(
        &self,
        me: &Caller,
        action: &str,
        id: i64,
        body: Value,
    ) -> erp_platform::Result<Value> {
        let id = id.to_string();
        self.call(me, action, &[("id", &id), ("emp", "1")], body)
            .await
    }
}

/// Company 1 (regime normal, São Paulo), customers 7 (sender, São Paulo) and
/// 8 (recipient, Campinas), and the CT-e numbering of series 1 from 501.
pub async fn seed(db: &Db, c: i64) {
    use erp_fiscal::copies::{CLIENTES, EMPRESAS};
    record(db, c, &EMPRESAS, 1, json!({"EMP_ID": 1, "EMP_DESCRICAO": "TRANSPORTES TESTE LTDA",
        "EMP_CGC": "11.222.333/0001-81", "EMP_IE": "123.456.789.110", "EMP_REGIME": "LUCRO PRESUMIDO",
        "EMP_ENDERECO": "Rua A", "EMP_NUMERO": "10", "EMP_BAIRRO": "Centro", "EMP_CID_IBGE": 3550308,
        "EMP_CIDADE": "São Paulo", "EMP_UF": "sp", "EMP_CEP": "01001-000"})).await;
    record(db, c, &CLIENTES, 1, json!({"CLI_ID": 7, "CLI_TIPO_PESSOA": "J",
        "CLI_DESCRICAO": "REMETENTE TESTE LTDA", "CLI_CGC": "11.444.777/0001-61", "CLI_IND_IE": 1,
        "CLI_IE": "111.222.333.444", "CLI_ENDERECO": "Avenida Paulista", "CLI_NUMERO": "1000",
        "CLI_BAIRRO": "Bela Vista", "CLI_CID_IBGE": "3550308", "CLI_CIDADE": "São Paulo", "CLI_UF": "SP",
        "CLI_CEP": "01310-100"})).await;
    record(db, c, &CLIENTES, 1, json!({"CLI_ID": 8, "CLI_TIPO_PESSOA": "J",
        "CLI_DESCRICAO": "DESTINATARIO TESTE LTDA", "CLI_CGC": "45.997.418/0001-53",
        "CLI_ENDERECO": "Rua Barão de Jaguara", "CLI_NUMERO": "500", "CLI_BAIRRO": "Centro",
        "CLI_CID_IBGE": "3509502", "CLI_CIDADE": "Campinas", "CLI_UF": "SP", "CLI_CEP": "13015-000"})).await;
    create(
        db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "57", "NUM_SERIE": 1, "NUM_PROXIMO": 501}),
    )
    .await
    .expect("numbering");
}

/// A CT-e ready to be issued: São Paulo to Campinas, sender 7 and recipient 8
/// from the customer copy, 1500.75 of freight with ICMS at 12% (computed),
/// one NF-e carried; `extra` replaces header fields.
pub async fn typed(db: &Db, c: i64, extra: Value) -> i64 {
    let mut body = json!({
        "CTE_CFOP": "5.353", "CTE_NATUREZA": "PRESTAÇÃO DE SERVIÇO DE TRANSPORTE",
        "CTE_MUN_INI_IBGE": "3550308", "CTE_MUN_INI_NOME": "São Paulo", "CTE_MUN_INI_UF": "SP",
        "CTE_MUN_FIM_IBGE": "3509502", "CTE_MUN_FIM_NOME": "Campinas", "CTE_MUN_FIM_UF": "SP",
        "CTE_REM_CLI_ID": 7, "CTE_DEST_CLI_ID": 8, "CTE_TOMADOR": 0,
        "CTE_VLR_FRETE": "1500.75", "CTE_CST": "00", "CTE_ALIQ_ICMS": "12",
        "CTE_VLR_CARGA": "25000.00", "CTE_PRODUTO_PREDOMINANTE": "ELETRÔNICOS",
        "CTE_UNIDADE": "01", "CTE_TIPO_MEDIDA": "PESO BRUTO", "CTE_QTDE": "120.5", "CTE_RNTRC": "12345678",
        "CTE_OBS": "Entrega em horário comercial."
    });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let row = create(db, c, RES, body).await.expect("CT-e typed");
    let id = row["CTE_ID"].as_i64().expect("id");
    create(
        db,
        c,
        "ctenotas",
        json!({"CTEN_CTE_ID": id, "CTEN_CHAVE": NFE_KEY}),
    )
    .await
    .expect("note");
    create(
        db,
        c,
        "cteufpercursos",
        json!({"CUFP_CTE_ID": id, "CUFP_UF": "sp"}),
    )
    .await
    .expect("route");
    id
}

/// The next number of the CT-e numbering of company 1.
pub async fn next_number(db: &Db, c: i64) -> i64 {
    super::env::next_number(db, c, "57").await
}

/// CT-e `id` as the register answers it.
pub async fn get(db: &Db, me: &Caller, id: i64) -> erp_platform::Result<Value> {
    super::env::get(db, me, RES, id).await
}
