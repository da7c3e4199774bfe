//! The checks of the CT-e's registers on the generic writes: codes typed with
//! punctuation are kept as digits, states and IBGE codes are checked, and a
//! party picked from the customer copy fills what was left blank (`fill`,
//! also run before an emission).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use crate::resources::taxes::body::text;
use crate::resources::taxes::cfop::normalise_cfop;
use crate::resources::taxes::codes::is_uf;

/// Keeps the digits of `field`; refuses a value that is not `len` digits.
fn digits(body: &mut Map<String, Value>, field: &str, len: usize, message: &str) -> Result<()> {
    let Some(raw) = text(body, field).filter(|s| !s.is_empty()) else {
        return Ok(());
    };
    let d: String = raw.chars().filter(char::is_ascii_digit).collect();
    if d.len() != len {
        return Err(Error::validation(message));
    }
    body.insert(field.into(), Value::from(d));
    Ok(())
}

/// Upper case `field`, which must be a state (UF).
fn uf(body: &mut Map<String, Value>, field: &str, what: &str) -> Result<()> {
    let Some(raw) = text(body, field).filter(|s| !s.is_empty()) else {
        return Ok(());
    };
    let up = raw.to_uppercase();
    if !is_uf(&up) {
        return Err(Error::validation(format!("UF {what} inválida: {raw}.")));
    }
    body.insert(field.into(), Value::from(up));
    Ok(())
}

/// The header: CFOP, places, parties' codes and the RNTRC.
pub struct Header;

#[async_trait]
impl Hooks for Header {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        normalise_cfop(body, "CTE_CFOP", "CFOP")?;
        for (p, what) in [
            ("ENV", "de emissão"),
            ("INI", "de início"),
            ("FIM", "de término"),
        ] {
            digits(
                body,
                &format!("CTE_MUN_{p}_IBGE"),
                7,
                &format!("Município {what}: informe o código IBGE de 7 dígitos."),
            )?;
            uf(body, &format!("CTE_MUN_{p}_UF"), what)?;
        }
        for (p, what) in [
            ("REM", "do remetente"),
            ("DEST", "do destinatário"),
            ("TOMA", "do tomador"),
        ] {
            digits(
                body,
                &format!("CTE_{p}_MUN_IBGE"),
                7,
                &format!("Município {what}: informe o código IBGE de 7 dígitos."),
            )?;
            uf(body, &format!("CTE_{p}_UF"), what)?;
        }
        digits(
            body,
            "CTE_RNTRC",
            8,
            "RNTRC: informe os 8 dígitos do registro na ANTT.",
        )?;
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let (Some(emp), Some(id)) = (row["CTE_EMP_ID"].as_i64(), row["CTE_ID"].as_i64()) else {
            return Ok(());
        };
        fill(tx, caller.client_id, emp, id).await
    }
}

/// Fills what the CT-e left blank: each party picked from the customer copy
/// from it, the taker's CPF/CNPJ from the party that takes the service, and the
/// place of emission from the company.
pub async fn fill(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<()> {
    for p in ["rem", "dest", "exped", "receb", "toma"] {
        let doc = if p == "toma" {
            "cte_cnpjcpf = CASE WHEN t.cte_tomador = 4 THEN coalesce(nullif(t.cte_cnpjcpf, ''), c.cnpj, c.cpf) ELSE t.cte_cnpjcpf END".to_string()
        } else {
            format!("cte_{p}_cnpjcpf = coalesce(nullif(t.cte_{p}_cnpjcpf, ''), c.cnpj, c.cpf)")
        };
        let sql = format!(
            "UPDATE fiscal.cte t SET {doc},
                 cte_{p}_nome = coalesce(nullif(t.cte_{p}_nome, ''), left(c.descricao, 60)),
                 cte_{p}_ie = coalesce(nullif(t.cte_{p}_ie, ''), c.ie),
                 cte_{p}_endereco = coalesce(nullif(t.cte_{p}_endereco, ''), c.endereco),
                 cte_{p}_numero = coalesce(nullif(t.cte_{p}_numero, ''), c.numero),
                 cte_{p}_bairro = coalesce(nullif(t.cte_{p}_bairro, ''), c.bairro),
                 cte_{p}_mun_ibge = coalesce(nullif(t.cte_{p}_mun_ibge, ''), c.cid_ibge),
                 cte_{p}_municipio = coalesce(nullif(t.cte_{p}_municipio, ''), c.cidade),
                 cte_{p}_uf = coalesce(nullif(t.cte_{p}_uf, ''), c.uf),
                 cte_{p}_cep = coalesce(nullif(t.cte_{p}_cep, ''), c.cep)
             FROM fiscal.clientes c
             WHERE t.client_id = $1 AND t.cte_emp_id = $2 AND t.cte_id = $3
               AND c.client_id = t.client_id AND c.emp_id = t.cte_emp_id AND c.cli_id = t.cte_{p}_cli_id
               AND NOT c.excluido"
        );
        sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(
        "UPDATE fiscal.cte t SET
             cte_cnpjcpf = CASE t.cte_tomador WHEN 0 THEN t.cte_rem_cnpjcpf WHEN 1 THEN t.cte_exped_cnpjcpf
                                              WHEN 2 THEN t.cte_receb_cnpjcpf WHEN 3 THEN t.cte_dest_cnpjcpf
                                              ELSE t.cte_cnpjcpf END,
             cte_mun_env_ibge = coalesce(nullif(t.cte_mun_env_ibge, ''), e.cid_ibge),
             cte_mun_env_nome = coalesce(nullif(t.cte_mun_env_nome, ''), e.cidade),
             cte_mun_env_uf = coalesce(nullif(t.cte_mun_env_uf, ''), upper(e.uf))
         FROM (SELECT 1) one
         LEFT JOIN fiscal.empresas e ON e.client_id = $1 AND e.emp_id = $2 AND NOT e.excluido
         WHERE t.client_id = $1 AND t.cte_emp_id = $2 AND t.cte_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A state of the route.
pub struct RouteState;

#[async_trait]
impl Hooks for RouteState {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        uf(body, "CUFP_UF", "do percurso")
    }
}

/// A new vehicle: the chassis in capitals, 17 characters.
pub struct NewVehicle;

#[async_trait]
impl Hooks for NewVehicle {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(raw) = text(body, "CTVN_CHASSI").filter(|s| !s.is_empty()) {
            let chassi: String = raw
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_uppercase();
            if chassi.len() != 17 {
                return Err(Error::validation(
                    "Chassi: informe os 17 caracteres do chassi do veículo.",
                ));
            }
            body.insert("CTVN_CHASSI".into(), Value::from(chassi));
        }
        Ok(())
    }
}

/// The correction letters are written by the correction-letter call.
pub struct LettersByCallOnly;

#[async_trait]
impl Hooks for LettersByCallOnly {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Err(Error::validation(
            "A carta de correção é registrada pela chamada Carta de Correção do CT-e autorizado, não incluída nem alterada à mão.",
        ))
    }
}
