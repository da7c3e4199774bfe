//! Fiscal's copies of other services' registers, from their
//! `erp.v1.RecordChanged` facts: what an NF-e needs of the company (emitter),
//! the customer (recipient), the products (items) and the payment methods
//! (`tPag`). One table-driven effect ([`Copy`]) per register: which field of
//! the row lands in which column of the copy, and how it is read. A removed
//! row stays, flagged `excluido`; an NF-e is not issued to or with one.

use async_trait::async_trait;
use erp_platform::bus::copies::{decode_record, row_document, row_id, row_text};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use serde_json::Value;

/// How a field of the row is read into the copy.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Trimmed text; blank is `NULL`.
    Text,
    /// Upper-case text (UF).
    Upper,
    /// An integer.
    Int,
    /// Only the digits (CEP, NCM, CEST, IBGE code, phone, IE).
    Digits,
    /// A CPF/CNPJ without its mask (the alphanumeric CNPJ keeps its letters).
    Document,
}

/// A copy: the table (in the `fiscal` schema), the row's company field (the
/// fact's company when it has one; `None` for registers of the whole client,
/// kept under company 0), the id and the copied columns. Companies are their
/// own id (`id: None`).
pub struct Copy {
    pub table: &'static str,
    pub emp_field: Option<&'static str>,
    pub id: Option<(&'static str, &'static str)>,
    pub columns: &'static [(&'static str, &'static str, Kind)],
}

pub const EMPRESAS: Copy = Copy {
    table: "empresas",
    emp_field: Some("EMP_ID"),
    id: None,
    columns: &[
        ("descricao", "EMP_DESCRICAO", Kind::Text),
        ("fantasia", "EMP_FANTASIA", Kind::Text),
        ("cnpj", "EMP_CGC", Kind::Document),
        ("ie", "EMP_IE", Kind::Text),
        ("im", "EMP_IM", Kind::Text),
        ("cnae", "EMP_CNAE", Kind::Digits),
        ("regime", "EMP_REGIME", Kind::Text),
        ("endereco", "EMP_ENDERECO", Kind::Text),
        ("numero", "EMP_NUMERO", Kind::Text),
        ("complemento", "EMP_COMPLEMENTO", Kind::Text),
        ("bairro", "EMP_BAIRRO", Kind::Text),
        ("cid_ibge", "EMP_CID_IBGE", Kind::Digits),
        ("cidade", "EMP_CIDADE", Kind::Text),
        ("uf", "EMP_UF", Kind::Upper),
        ("cep", "EMP_CEP", Kind::Digits),
        ("fone", "EMP_FONE", Kind::Digits),
        ("email", "EMP_EMAIL", Kind::Text),
    ],
};

pub const CLIENTES: Copy = Copy {
    table: "clientes",
    emp_field: Some("CLI_EMP_ID"),
    id: Some(("cli_id", "CLI_ID")),
    columns: &[
        ("tipo_pessoa", "CLI_TIPO_PESSOA", Kind::Upper),
        ("descricao", "CLI_DESCRICAO", Kind::Text),
        ("cpf", "CLI_CPF", Kind::Document),
        ("cnpj", "CLI_CGC", Kind::Document),
        ("doc_estrangeiro", "CLI_DOC_ESTRANGEIRO", Kind::Text),
        ("ind_ie", "CLI_IND_IE", Kind::Int),
        ("ie", "CLI_IE", Kind::Text),
        ("im", "CLI_IM", Kind::Text),
        ("endereco", "CLI_ENDERECO", Kind::Text),
        ("numero", "CLI_NUMERO", Kind::Text),
        ("complemento", "CLI_COMPLEMENTO", Kind::Text),
        ("bairro", "CLI_BAIRRO", Kind::Text),
        ("cid_ibge", "CLI_CID_IBGE", Kind::Digits),
        ("cidade", "CLI_CIDADE", Kind::Text),
        ("uf", "CLI_UF", Kind::Upper),
        ("cep", "CLI_CEP", Kind::Digits),
        ("fone", "CLI_FONE", Kind::Digits),
        ("email", "CLI_EMAIL", Kind::Text),
        ("email_nfe", "CLI_EMAIL_NFE", Kind::Text),
    ],
};

pub const PRODUTOS: Copy = Copy {
    table: "produtos",
    emp_field: Some("PROD_EMP_ID"),
    id: Some(("prod_id", "PROD_ID")),
    columns: &[
        ("descricao", "PROD_DESCRICAO", Kind::Text),
        ("ncm", "PROD_NCM", Kind::Digits),
        ("cest", "PROD_CEST", Kind::Digits),
        ("unidade", "UNID_ABREVIADA", Kind::Upper),
        ("origem", "PROD_ORIGEM", Kind::Int),
        ("gtin", "PROD_CBAR", Kind::Digits),
    ],
};

pub const FORMAS: Copy = Copy {
    table: "formaspagamento",
    emp_field: None,
    id: Some(("frmp_id", "FRMP_ID")),
    columns: &[
        ("descricao", "FRMP_DESCRICAO", Kind::Text),
        ("tipo", "FRMP_TIPO", Kind::Text),
    ],
};

fn int_of(row: &Value, k: &str) -> Option<i64> {
    match &row[k] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

fn digits_of(row: &Value, k: &str) -> Option<String> {
    row_text(row, k)
        .map(|s| s.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|s| !s.is_empty())
}

#[async_trait]
impl Effect for Copy {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode_record(msg)?;
        if ev.client_id != 0 && ev.client_id != client_id {
            return Err(Error::validation("Evento de outro cliente."));
        }
        let emp = match (self.emp_field, ev.emp_id) {
            (None, _) => 0,
            (Some(field), 0) => row_id(&row, field)?,
            (Some(_), e) => e,
        };
        let mut key_cols = vec!["client_id", "emp_id"];
        let mut ids = Vec::new();
        if let Some((col, field)) = self.id {
            key_cols.push(col);
            ids.push(row_id(&row, field)?);
        }
        let cols: Vec<&str> = self.columns.iter().map(|c| c.0).collect();
        let first = key_cols.len() + 2;
        let values: Vec<String> = (0..cols.len()).map(|i| format!("${}", i + first)).collect();
        let key_params: Vec<String> = (1..=key_cols.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "INSERT INTO fiscal.{t} ({keys}, excluido, {cols})
             VALUES ({key_params}, ${excl}, {values})
             ON CONFLICT ({keys}) DO UPDATE SET excluido = EXCLUDED.excluido, {sets}",
            t = self.table,
            keys = key_cols.join(", "),
            key_params = key_params.join(", "),
            excl = key_cols.len() + 1,
            cols = cols.join(", "),
            values = values.join(", "),
            sets = cols
                .iter()
                .map(|c| format!("{c} = EXCLUDED.{c}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let mut q = sqlx::query(&sql).bind(client_id).bind(emp);
        for id in ids {
            q = q.bind(id);
        }
        q = q.bind(ev.op == "excluido");
        for (_, field, kind) in self.columns {
            q = match kind {
                Kind::Text => q.bind(row_text(&row, field)),
                Kind::Upper => q.bind(row_text(&row, field).map(|s| s.to_uppercase())),
                Kind::Int => q.bind(int_of(&row, field)),
                Kind::Digits => q.bind(digits_of(&row, field)),
                Kind::Document => q.bind(row_document(&row, &[field])),
            };
        }
        q.execute(&mut **tx).await?;
        Ok(())
    }
}
