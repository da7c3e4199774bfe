//! The reports' copies of other services' registers, from their
//! `erp.v1.RecordChanged` facts: one table-driven effect ([`Copy`]) per register
//! (which columns of the row land in which columns of the copy). A removed row
//! stays, flagged `excluido`, so old sales keep their names.

use async_trait::async_trait;
use erp_platform::bus::copies::{decode_record, row_id, row_text};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::Value;
use std::str::FromStr;

/// What a column of the copy holds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Text,
    Int,
    Decimal,
}

/// A copy: the table (in the `reports` schema), the row's company field (the
/// fact's company when it has one; `None` for registers shared by the client's
/// companies, kept under company 0), the id and the copied columns.
pub struct Copy {
    pub table: &'static str,
    pub emp_field: Option<&'static str>,
    pub id: (&'static str, &'static str),
    pub columns: &'static [(&'static str, &'static str, Kind)],
}

pub const PRODUTOS: Copy = Copy {
    table: "produtos",
    emp_field: Some("PROD_EMP_ID"),
    id: ("prod_id", "PROD_ID"),
    columns: &[
        ("descricao", "PROD_DESCRICAO", Kind::Text),
        ("grup_id", "PROD_GRUP_ID", Kind::Int),
        ("gsub_id", "PROD_GSUB_ID", Kind::Int),
        ("custo", "PROD_CUSTO", Kind::Decimal),
        ("referencia", "PROD_REFERENCIA", Kind::Text),
        // The unit's abbreviation, which the product's fact carries beside its id.
        ("unidade", "UNID_ABREVIADA", Kind::Text),
        ("preco", "PROD_VALOR", Kind::Decimal),
        ("estoque_min", "PROD_ESTOQUE_MIN", Kind::Decimal),
    ],
};

pub const SERVICOS: Copy = Copy {
    table: "servicos",
    emp_field: Some("SERV_EMP_ID"),
    id: ("serv_id", "SERV_ID"),
    columns: &[("descricao", "SERV_DESCRICAO", Kind::Text)],
};

/// Groups and payment methods are the client's (their registers have the
/// company in the path only).
pub const GRUPOS: Copy = Copy {
    table: "grupos",
    emp_field: None,
    id: ("grup_id", "GRUP_ID"),
    columns: &[("descricao", "GRUP_DESCRICAO", Kind::Text)],
};

pub const SUBGRUPOS: Copy = Copy {
    table: "subgrupos",
    emp_field: Some("GSUB_EMP_ID"),
    id: ("gsub_id", "GSUB_ID"),
    columns: &[
        ("descricao", "GSUB_DESCRICAO", Kind::Text),
        ("grup_id", "GSUB_GRUP_ID", Kind::Int),
    ],
};

pub const CLIENTES: Copy = Copy {
    table: "clientes",
    emp_field: Some("CLI_EMP_ID"),
    id: ("cli_id", "CLI_ID"),
    columns: &[
        ("descricao", "CLI_DESCRICAO", Kind::Text),
        ("cidade", "CLI_CIDADE", Kind::Text),
        ("uf", "CLI_UF", Kind::Text),
        ("cola_id", "CLI_COLA_ID", Kind::Int),
        ("cpf", "CLI_CPF", Kind::Text),
        ("cgc", "CLI_CGC", Kind::Text),
        ("fone", "CLI_FONE", Kind::Text),
        ("situacao", "CLI_SITUACAO", Kind::Text),
    ],
};

pub const COLABORADORES: Copy = Copy {
    table: "colaboradores",
    emp_field: Some("COLA_EMP_ID"),
    id: ("cola_id", "COLA_ID"),
    columns: &[
        ("nome", "COLA_NOME", Kind::Text),
        ("perc_comissao", "COLA_PERC_COMISSAO", Kind::Decimal),
    ],
};

pub const FORMAS: Copy = Copy {
    table: "formaspagamento",
    emp_field: None,
    id: ("frmp_id", "FRMP_ID"),
    columns: &[("descricao", "FRMP_DESCRICAO", Kind::Text)],
};

pub const EMPRESAS: Copy = Copy {
    table: "empresas",
    emp_field: Some("EMP_ID"),
    id: ("empresa_id", "EMP_ID"),
    columns: &[
        ("descricao", "EMP_DESCRICAO", Kind::Text),
        ("logo", "EMP_IMG_LOGO_REL", Kind::Text),
    ],
};

/// Suppliers are the client's (their register has no company column).
pub const FORNECEDORES: Copy = Copy {
    table: "fornecedores",
    emp_field: None,
    id: ("forn_id", "FORN_ID"),
    columns: &[
        ("descricao", "FORN_DESCRICAO", Kind::Text),
        ("fantasia", "FORN_FANTASIA", Kind::Text),
        ("documento", "FORN_CGC", Kind::Text),
        ("cidade", "FORN_CIDADE", Kind::Text),
        ("uf", "FORN_UF", Kind::Text),
        ("fone", "FORN_FONE", Kind::Text),
    ],
};

/// Finance's bank accounts (the opening balance of the movement report).
pub const BANCOS: Copy = Copy {
    table: "bancos",
    emp_field: Some("BCO_EMP_ID"),
    id: ("bco_id", "BCO_ID"),
    columns: &[
        ("descricao", "BCO_DESCRICAO", Kind::Text),
        ("saldo_inicial", "BCO_SALDO_INICIAL", Kind::Decimal),
    ],
};

/// Finance's cost centres (`historicopadrao`) and their groups.
pub const CENTROS: Copy = Copy {
    table: "centroscusto",
    emp_field: Some("HISP_EMP_ID"),
    id: ("hisp_id", "HISP_ID"),
    columns: &[
        ("descricao", "HISP_DESCRICAO", Kind::Text),
        ("tipo", "HISP_TIPO", Kind::Text),
        ("grhp_id", "HISP_GRHP_ID", Kind::Int),
    ],
};

pub const GRUPOS_CENTRO: Copy = Copy {
    table: "gruposcentrocusto",
    emp_field: Some("GRHP_EMP_ID"),
    id: ("grhp_id", "GRHP_ID"),
    columns: &[("descricao", "GRHP_DESCRICAO", Kind::Text)],
};

/// Catalog's vehicles and service sectors (the service orders' reports).
pub const VEICULOS: Copy = Copy {
    table: "veiculos",
    emp_field: Some("VEIC_EMP_ID"),
    id: ("veic_id", "VEIC_ID"),
    columns: &[
        ("placa", "VEIC_PLACA1", Kind::Text),
        ("cli_id", "VEIC_CLI_ID", Kind::Int),
        ("ano_modelo", "VEIC_ANO_MODELO", Kind::Int),
        ("cor", "VEIC_COR", Kind::Text),
    ],
};

pub const SETORES: Copy = Copy {
    table: "setores",
    emp_field: Some("SETS_EMP_ID"),
    id: ("sets_id", "SETS_ID"),
    columns: &[("descricao", "SETS_DESCRICAO", Kind::Text)],
};

/// Users are the client's: the copy keeps the company the fact names; reports
/// look a user up by id alone.
pub const USUARIOS: Copy = Copy {
    table: "usuarios",
    emp_field: Some("USR_EMP_ID"),
    id: ("usr_id", "USR_ID"),
    columns: &[
        ("nome", "USR_NOME", Kind::Text),
        ("usuario", "USR_USUARIO", Kind::Text),
    ],
};

fn int_of(row: &Value, k: &str) -> Option<i64> {
    match &row[k] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

fn decimal_of(row: &Value, k: &str) -> Result<Option<Decimal>> {
    match &row[k] {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) => Decimal::from_str(s.trim())
            .map(Some)
            .map_err(|_| Error::validation(format!("Evento com {k} inválido."))),
        v => Decimal::from_str(&v.to_string())
            .map(Some)
            .map_err(|_| Error::validation(format!("Evento com {k} inválido."))),
    }
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
        let id = row_id(&row, self.id.1)?;
        let cols: Vec<&str> = self.columns.iter().map(|c| c.0).collect();
        let values: Vec<String> = (0..cols.len()).map(|i| format!("${}", i + 5)).collect();
        let sql = format!(
            "INSERT INTO reports.{t} (client_id, emp_id, {idc}, excluido, {cols})
             VALUES ($1, $2, $3, $4, {values})
             ON CONFLICT (client_id, emp_id, {idc}) DO UPDATE SET excluido = EXCLUDED.excluido, {sets}",
            t = self.table,
            idc = self.id.0,
            cols = cols.join(", "),
            values = values.join(", "),
            sets = cols
                .iter()
                .map(|c| format!("{c} = EXCLUDED.{c}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let deleted = ev.op == "excluido";
        let mut q = sqlx::query(&sql)
            .bind(client_id)
            .bind(emp)
            .bind(id)
            .bind(deleted);
        for (_, field, kind) in self.columns {
            q = match kind {
                Kind::Text => q.bind(row_text(&row, field)),
                Kind::Int => q.bind(int_of(&row, field)),
                Kind::Decimal => q.bind(decimal_of(&row, field)?),
            };
        }
        // A removal carries the row as it was: the names stay, flagged.
        q.execute(&mut **tx).await?;
        Ok(())
    }
}
