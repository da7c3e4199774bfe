//! What finance keeps of other services' rows, from their `RecordChanged` facts:
//! a customer's name, document, city, situation and credit limit
//! (`CLI_LIMITE_CREDITO`), a supplier's name and document (catalog), a company's
//! name, document, address and reports' logo (identity). A deletion marks the
//! customer or supplier copy and removes the company's. The customer copy shares
//! its row with the customer's open balance (`credit`), which the receivables'
//! trigger keeps: a fact never touches it.
//!
//! Read here by the credit calls and by the receipts (who paid, who received,
//! where).

use async_trait::async_trait;
use erp_platform::bus::copies::{
    company_fact, decode_record as decode, row_document as document, row_id as id, row_text as text,
};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::Value;

/// A money value of a row (number or decimal string); none when blank.
fn money(row: &Value, k: &str) -> Result<Option<Decimal>> {
    match &row[k] {
        Value::Null => Ok(None),
        v => erp_platform::resource::values::parse_decimal(v)
            .map(|d| Some(crate::charges::money(d)))
            .ok_or_else(|| Error::validation(format!("Evento com {k} inválido."))),
    }
}

fn int(row: &Value, k: &str) -> Option<i32> {
    text(row, k).and_then(|s| s.parse().ok())
}

/// A stored document shown the Brazilian way ('123.456.789-09',
/// '12.345.678/0001-95'); anything else as it is.
pub fn format_document(doc: &str) -> String {
    CpfCnpj::parse(doc)
        .map(|d| d.to_string())
        .unwrap_or_else(|_| doc.trim().to_string())
}

/// `erp.catalog.cliente.*`: the customer's copy (its open balance untouched).
pub struct Customers;

#[async_trait]
impl Effect for Customers {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        let emp = match ev.emp_id {
            0 => id(&row, "CLI_EMP_ID")?,
            e => e,
        };
        sqlx::query(
            "INSERT INTO finance.clientes (client_id, emp_id, cli_id, descricao, documento, cidade, uf, situacao,
                 limite, excluido, copiado, endereco, numero, bairro, cep)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, true, $11, $12, $13, $14)
             ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, documento = EXCLUDED.documento, cidade = EXCLUDED.cidade,
                 uf = EXCLUDED.uf, situacao = EXCLUDED.situacao, limite = EXCLUDED.limite,
                 excluido = EXCLUDED.excluido, copiado = true, endereco = EXCLUDED.endereco,
                 numero = EXCLUDED.numero, bairro = EXCLUDED.bairro, cep = EXCLUDED.cep",
        )
        .bind(client_id)
        .bind(emp)
        .bind(id(&row, "CLI_ID")?)
        .bind(text(&row, "CLI_DESCRICAO").unwrap_or_default())
        .bind(document(&row, &["CLI_CGC", "CLI_CPF"]))
        .bind(text(&row, "CLI_CIDADE"))
        .bind(text(&row, "CLI_UF"))
        .bind(int(&row, "CLI_SITUACAO"))
        .bind(money(&row, "CLI_LIMITE_CREDITO")?)
        .bind(ev.op == "excluido")
        .bind(text(&row, "CLI_ENDERECO"))
        .bind(text(&row, "CLI_NUMERO"))
        .bind(text(&row, "CLI_BAIRRO"))
        .bind(text(&row, "CLI_CEP"))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// `erp.identity.empresa.*`: the company's name, document, address and logo.
pub struct Companies;

#[async_trait]
impl Effect for Companies {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let Some((emp, row)) = company_fact(tx, "finance", client_id, msg).await? else {
            return Ok(());
        };
        sqlx::query(
            "INSERT INTO finance.empresas (client_id, emp_id, descricao, fantasia, documento, endereco, numero,
                 bairro, cidade, uf, cep, logo)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (client_id, emp_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, fantasia = EXCLUDED.fantasia, documento = EXCLUDED.documento,
                 endereco = EXCLUDED.endereco, numero = EXCLUDED.numero, bairro = EXCLUDED.bairro,
                 cidade = EXCLUDED.cidade, uf = EXCLUDED.uf, cep = EXCLUDED.cep, logo = EXCLUDED.logo",
        )
        .bind(client_id)
        .bind(emp)
        .bind(text(&row, "EMP_DESCRICAO").unwrap_or_default())
        .bind(text(&row, "EMP_FANTASIA"))
        .bind(document(&row, &["EMP_CGC"]))
        .bind(text(&row, "EMP_ENDERECO"))
        .bind(text(&row, "EMP_NUMERO"))
        .bind(text(&row, "EMP_BAIRRO"))
        .bind(text(&row, "EMP_CIDADE"))
        .bind(text(&row, "EMP_UF"))
        .bind(text(&row, "EMP_CEP"))
        .bind(text(&row, "EMP_IMG_LOGO_REL").or_else(|| text(&row, "EMP_IMG_LOGO")))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// A person as a receipt names them: name and document (formatted, or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Party {
    pub name: String,
    pub document: String,
}

/// A company as finance knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Company {
    pub name: String,
    pub document: String,
    /// 'Rua Sinimbu, 1234 – Centro – Caxias do Sul/RS – CEP 95020-002'.
    pub address: String,
    pub city: String,
    /// Stored name of the reports' logo.
    pub logo: Option<String>,
}

type CompanyRow = (
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

type CompanyWithLogo = (
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn address(r: &CompanyRow) -> String {
    let (_, _, _, street, number, district, city, uf, cep) = r;
    let mut parts = Vec::new();
    match (street, number) {
        (Some(s), Some(n)) => parts.push(format!("{s}, {n}")),
        (Some(s), None) => parts.push(s.clone()),
        _ => {}
    }
    if let Some(d) = district {
        parts.push(d.clone());
    }
    match (city, uf) {
        (Some(c), Some(u)) => parts.push(format!("{c}/{u}")),
        (Some(c), None) => parts.push(c.clone()),
        (None, Some(u)) => parts.push(u.clone()),
        _ => {}
    }
    if let Some(c) = cep {
        let digits: String = c.chars().filter(char::is_ascii_digit).collect();
        parts.push(if digits.len() == 8 {
            format!("CEP {}-{}", &digits[..5], &digits[5..])
        } else {
            format!("CEP {c}")
        });
    }
    parts.join(" – ")
}

/// The company `emp` from identity's facts; none until its first fact arrived.
pub async fn company(tx: &mut Tx, client: i64, emp: i64) -> Result<Option<Company>> {
    let row: Option<(CompanyRow, Option<String>)> = sqlx::query_as::<_, CompanyWithLogo>(
        "SELECT descricao, fantasia, documento, endereco, numero, bairro, cidade, uf, cep, logo
         FROM finance.empresas WHERE client_id = $1 AND emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .map(|r| ((r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8), r.9));
    Ok(row.map(|(r, logo)| Company {
        name: r.0.clone(),
        document: r.2.as_deref().map(format_document).unwrap_or_default(),
        address: address(&r),
        city: r.6.clone().unwrap_or_default(),
        logo,
    }))
}

/// Customer `id` of company `emp` as catalog last described it.
pub async fn customer(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Option<Party>> {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT descricao, documento FROM finance.clientes
         WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND copiado",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|(name, doc)| Party {
        name: name.unwrap_or_default(),
        document: doc.as_deref().map(format_document).unwrap_or_default(),
    }))
}

/// Supplier `id` as catalog last described it.
pub async fn supplier(tx: &mut Tx, client: i64, id: i64) -> Result<Option<Party>> {
    let row: Option<(String, Option<String>)> = sqlx::query_as(
        "SELECT descricao, documento FROM finance.fornecedores WHERE client_id = $1 AND forn_id = $2",
    )
    .bind(client)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|(name, doc)| Party {
        name,
        document: doc.as_deref().map(format_document).unwrap_or_default(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_and_addresses_read_the_brazilian_way() {
        assert_eq!(format_document("12345678909"), "123.456.789-09");
        assert_eq!(format_document("11444777000161"), "11.444.777/0001-61");
        assert_eq!(format_document(" 123 "), "123");
        let row: CompanyRow = (
            "X".into(),
            None,
            None,
            Some("Rua Sinimbu".into()),
            Some("1234".into()),
            Some("Centro".into()),
            Some("Caxias do Sul".into()),
            Some("RS".into()),
            Some("95020002".into()),
        );
        assert_eq!(
            address(&row),
            "Rua Sinimbu, 1234 – Centro – Caxias do Sul/RS – CEP 95020-002"
        );
        let bare: CompanyRow = ("X".into(), None, None, None, None, None, None, None, None);
        assert_eq!(address(&bare), "");
    }
}
