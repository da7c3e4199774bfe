//! The checks of the MDF-e's registers on every generic write: states and
//! IBGE codes, the time of the trip, RNTRC and NCM digits, plates, the
//! driver's CPF, and the model of an unloaded document from its key. Every
//! refusal is a pt-BR message (400) and writes nothing.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::validators::Cpf;
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use crate::resources::taxes::codes::uf_code;

/// The text of `key` when the body carries it (trimmed; `None` when absent,
/// `Some("")` when cleared).
fn text(body: &Map<String, Value>, key: &str) -> Option<String> {
    match body.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Null => Some(String::new()),
        v => Some(v.to_string()),
    }
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// A state of the body, upper-cased; `required` refuses it blank.
fn uf(body: &mut Map<String, Value>, key: &str, what: &str) -> Result<()> {
    let Some(raw) = text(body, key) else {
        return Ok(());
    };
    if raw.is_empty() {
        return Ok(());
    }
    let up = raw.to_uppercase();
    if uf_code(&up).is_none() {
        return Err(Error::validation(format!("{what}: UF inválida '{raw}'.")));
    }
    body.insert(key.into(), Value::from(up));
    Ok(())
}

/// Digits only, of exactly `len` characters when present.
fn exact_digits(body: &mut Map<String, Value>, key: &str, len: usize, message: &str) -> Result<()> {
    let Some(raw) = text(body, key) else {
        return Ok(());
    };
    if raw.is_empty() {
        body.insert(key.into(), Value::Null);
        return Ok(());
    }
    let d = digits(&raw);
    if d.len() != len
        || d.len()
            != raw
                .chars()
                .filter(|c| !matches!(c, '.' | '-' | ' ' | '/'))
                .count()
    {
        return Err(Error::validation(message));
    }
    body.insert(key.into(), Value::from(d));
    Ok(())
}

/// The MDF-e header.
pub struct Header;

#[async_trait]
impl Hooks for Header {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        uf(body, "MDFE_UF_INI", "UF de carregamento")?;
        uf(body, "MDFE_UF_FIM", "UF de descarregamento")?;
        if let Some(h) = text(body, "MDFE_HORA_VIAGEM") {
            if h.is_empty() {
                body.insert("MDFE_HORA_VIAGEM".into(), Value::Null);
            } else if chrono::NaiveTime::parse_from_str(&h, "%H:%M").is_err() || h.len() != 5 {
                return Err(Error::validation(
                    "Hora do início da viagem inválida: use HH:MM (ex.: 08:30).",
                ));
            }
        }
        exact_digits(
            body,
            "MDFE_RNTRC",
            8,
            "RNTRC inválido: informe os 8 dígitos do registro na ANTT.",
        )?;
        exact_digits(
            body,
            "MDFE_PROD_NCM",
            8,
            "NCM do produto predominante inválido: informe 8 dígitos.",
        )?;
        exact_digits(
            body,
            "MDFE_CIOT",
            12,
            "CIOT inválido: informe os 12 dígitos do código da operação de transporte.",
        )?;
        Ok(())
    }
}

/// Origin and destination cities: a 7-digit IBGE code.
pub struct City(pub &'static str);

#[async_trait]
impl Hooks for City {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        exact_digits(
            body,
            &format!("{}_CID_IBGE", self.0),
            7,
            "Código IBGE do município inválido: informe os 7 dígitos.",
        )
    }
}

/// A path state.
pub struct PathState;

#[async_trait]
impl Hooks for PathState {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        uf(body, "MUFP_UF", "UF de percurso")
    }
}

/// A vehicle: the plate (old or Mercosul) without the dash, upper-cased.
pub struct Vehicle;

fn plate_ok(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() == 7
        && b[..3].iter().all(u8::is_ascii_uppercase)
        && b[3].is_ascii_digit()
        && (b[4].is_ascii_digit() || b[4].is_ascii_uppercase())
        && b[5..].iter().all(u8::is_ascii_digit)
}

#[async_trait]
impl Hooks for Vehicle {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(raw) = text(body, "VEIC_PLACA1") {
            let p: String = raw
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_uppercase();
            if !plate_ok(&p) {
                return Err(Error::validation(format!(
                    "Placa inválida '{raw}': use o formato ABC1234 ou ABC1D23."
                )));
            }
            body.insert("VEIC_PLACA1".into(), Value::from(p));
        }
        if let Some(raw) = text(body, "VEIC_RENAVAM") {
            let d = digits(&raw);
            if raw.is_empty() {
                body.insert("VEIC_RENAVAM".into(), Value::Null);
            } else if !(9..=11).contains(&d.len()) || d.len() != raw.len() {
                return Err(Error::validation(
                    "RENAVAM inválido: informe os 9 a 11 dígitos do documento do veículo.",
                ));
            } else {
                body.insert("VEIC_RENAVAM".into(), Value::from(d));
            }
        }
        uf(body, "VEIC_UF", "UF de licenciamento do veículo")
    }
}

/// A driver: a valid CPF, stored as its digits.
pub struct Driver;

#[async_trait]
impl Hooks for Driver {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(raw) = text(body, "MDMO_CPF") {
            let cpf = Cpf::parse(&raw)
                .map_err(|_| Error::validation(format!("CPF do motorista inválido: '{raw}'.")))?;
            body.insert("MDMO_CPF".into(), Value::from(cpf.as_str()));
        }
        Ok(())
    }
}

/// A contractor: the contract of continued services has its number and its
/// global value, or neither (a partial update is held by the table's check).
pub struct Contractor;

pub const HALF_CONTRACT: &str =
    "Informe o número e o valor global do contrato, ou nenhum dos dois.";

#[async_trait]
impl Hooks for Contractor {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let number = text(body, "MDCO_NRO_CONTRATO").filter(|n| !n.is_empty());
        let value = text(body, "MDCO_VLR_CONTRATO").filter(|v| !v.is_empty());
        if op == Op::Create && number.is_some() != value.is_some() {
            return Err(Error::validation(HALF_CONTRACT));
        }
        Ok(())
    }
}

/// A cargo insurance: the insurer's CNPJ, and the responsible's CPF/CNPJ when
/// it is the contractor (2).
pub struct Insurance;

#[async_trait]
impl Hooks for Insurance {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        exact_digits(
            body,
            "MSEG_SEGURADORA_CNPJ",
            14,
            "CNPJ da seguradora inválido: informe os 14 dígitos.",
        )?;
        let contractor = int(body, "MSEG_RESP") == Some(2);
        let doc = text(body, "MSEG_RESP_CPF_CNPJ").filter(|d| !d.is_empty());
        if op == Op::Create && contractor && doc.is_none() {
            return Err(Error::validation(
                "Informe o CPF/CNPJ do contratante responsável pelo seguro.",
            ));
        }
        Ok(())
    }
}

/// A freight payment: one due date when paid in instalments.
pub struct Payment;

#[async_trait]
impl Hooks for Payment {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let a_prazo = text(body, "MDPG_IND_PAG").is_some_and(|v| v == "1");
        let due = text(body, "MDPG_DTA_VCTO").is_some_and(|v| !v.is_empty());
        if op == Op::Create && a_prazo && !due {
            return Err(Error::validation(
                "Informe o vencimento do pagamento a prazo (MDPG_DTA_VCTO).",
            ));
        }
        Ok(())
    }
}

fn int(body: &Map<String, Value>, key: &str) -> Option<i64> {
    match body.get(key)? {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

/// The other row of the same MDF-e a row names (its city, its payment).
struct Sibling {
    /// The body's keys: the MDF-e and the named row.
    mdfe_key: &'static str,
    key: &'static str,
    /// Its table, column prefix and the column that names it to a person.
    table: &'static str,
    prefix: &'static str,
    label: &'static str,
    /// What it is called in messages: "o município de descarregamento".
    what: &'static str,
    /// Where the user adds one.
    register: &'static str,
    /// 404 when the one named is not there.
    missing: &'static str,
}

/// A new row that names no sibling takes the MDF-e's only one; with none or
/// several the message says what to add or lists the choices. A sibling named
/// must exist (in this client and company): 404 `missing` otherwise.
async fn sibling(
    tx: &mut Tx,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    body: &mut Map<String, Value>,
    s: &Sibling,
) -> Result<()> {
    let Some(mdfe) = int(body, s.mdfe_key) else {
        return Ok(());
    };
    let (client, emp) = (caller.client_id, emp.unwrap_or(caller.emp_id));
    let p = s.prefix;
    if let Some(named) = int(body, s.key) {
        let found: Option<i32> = sqlx::query_scalar(&format!(
            "SELECT 1 FROM fiscal.{table} WHERE client_id = $1 AND {p}_emp_id = $2
               AND {p}_mdfe_id = $3 AND {p}_id = $4",
            table = s.table,
        ))
        .bind(client)
        .bind(emp)
        .bind(mdfe)
        .bind(named)
        .fetch_optional(&mut **tx)
        .await?;
        return match found {
            Some(_) => Ok(()),
            None => Err(Error::NotFound(s.missing.into())),
        };
    }
    if op != Op::Create {
        return Ok(());
    }
    let choices: Vec<(i64, String)> = sqlx::query_as(&format!(
        "SELECT {p}_id, coalesce({label}, '') FROM fiscal.{table}
         WHERE client_id = $1 AND {p}_emp_id = $2 AND {p}_mdfe_id = $3 ORDER BY {p}_id LIMIT 21",
        table = s.table,
        label = s.label,
    ))
    .bind(client)
    .bind(emp)
    .bind(mdfe)
    .fetch_all(&mut **tx)
    .await?;
    match choices.as_slice() {
        [(only, _)] => {
            body.insert(s.key.into(), Value::from(*only));
            Ok(())
        }
        [] => Err(Error::validation(format!(
            "Inclua antes {} em {}.",
            s.what, s.register
        ))),
        several => Err(Error::validation(format!(
            "Informe {} (a sequência em {}): {}.",
            s.what,
            s.register,
            several
                .iter()
                .map(|(id, name)| format!("{id} - {name}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// A payment component: its payment must be one of the MDF-e's.
pub struct Component;

#[async_trait]
impl Hooks for Component {
    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let payment = Sibling {
            mdfe_key: "MDPC_MDFE_ID",
            key: "MDPC_MDPG_ID",
            table: "mdfe_pagamentos",
            prefix: "mdpg",
            label: "mdpg_nome",
            what: "o pagamento do componente",
            register: "Pagamentos do Frete",
            missing: PAYMENT_MISSING,
        };
        sibling(tx, op, caller, emp, body, &payment).await
    }
}

pub const PAYMENT_MISSING: &str = "Pagamento não encontrado neste MDF-e.";
pub const CITY_MISSING: &str = "Município de descarregamento não encontrado neste MDF-e.";

/// An NF-e or CT-e unloaded in a destination city: the model from its key,
/// and the city must be one of the MDF-e's.
pub struct UnloadedDocument;

#[async_trait]
impl Hooks for UnloadedDocument {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(raw) = text(body, "MDNC_CHAVE") {
            let key: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
            let model = key.get(20..22).unwrap_or_default();
            if key.len() == 44 && !matches!(model, "55" | "57") {
                return Err(Error::validation(
                    "A chave informada não é de NF-e (modelo 55) nem de CT-e (modelo 57).",
                ));
            }
            body.insert("MDNC_MODELO".into(), Value::from(model));
        }
        Ok(())
    }

    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let city = Sibling {
            mdfe_key: "MDNC_MDFE_ID",
            key: "MDNC_MCID_ID",
            table: "mdfe_cidades_destino",
            prefix: "mcid",
            label: "mcid_cidade",
            what: "o município de descarregamento",
            register: "Municípios de Descarregamento",
            missing: CITY_MISSING,
        };
        sibling(tx, op, caller, emp, body, &city).await
    }
}
