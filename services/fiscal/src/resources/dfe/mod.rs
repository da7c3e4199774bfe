//! A fiscal document at the provider (a DF-e: the NF-e of an order, a CT-e,
//! an MDF-e), each kept in a table of its own with the same provider-side
//! columns: what the three share once their request is built.
//!
//! Each register names its [`Kind`] (table, column prefix, the column of the
//! provider's id and of the XML, the provider's paths, its name in messages,
//! its rejection table) and implements [`Issued`] (its row as the calls
//! answer it, and what settling writes besides: the NF-e's facts for orders).
//!
//! Layout: here `Ctx`, `Kind`, `Issued` and `Doc` (the provider-side columns
//! of a row); `calls`: the consult and the downloads, declared alike by the
//! three; `numbering`: the series' next number, taken under the numbering
//! row's lock; `store`: the id stored before anything waits, a refusal, the
//! SEFAZ's answer settled, the answer of a call; `emission`: sending once,
//! waiting for a final status with the files, the recovery of a lost answer
//! and the consult; `events`: cancel (and the checks of every event);
//! `files`: the XML and PDF downloads; `text`: the texts of a request's
//! fields (blank, required, digits, IE).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use crate::nuvemfiscal::paths::DocPaths;
use crate::nuvemfiscal::types::{Dfe, DfeStatus};
use crate::rejections::Explanation;

pub mod calls;
pub mod emission;
pub mod events;
pub mod files;
pub mod numbering;
pub mod store;
pub mod text;

/// What the calls of the documents share: the provider's client (through
/// the company's context) and the service's pool, which an emission commits
/// its steps in.
pub struct Ctx {
    pub company: Arc<super::company::Ctx>,
    /// `None` where the registry only describes the calls (the gateway).
    pub db: Option<Db>,
}

impl Ctx {
    pub(crate) fn db(&self) -> Result<&Db> {
        self.db
            .as_ref()
            .ok_or_else(|| Error::internal("fiscal documents: registry without a database"))
    }
}

/// What tells one kind of document from another.
pub struct Kind {
    /// `fiscal.cte`.
    pub table: &'static str,
    /// The columns' prefix (`cte`): `{p}_id`, `{p}_emp_id`, `{p}_situacao`,
    /// `{p}_ambiente`, `{p}_tentativa`, `{p}_referencia`, `{p}_numero`,
    /// `{p}_chave`, `{p}_protocolo`, `{p}_cstat`, `{p}_motivo`,
    /// `{p}_explicacao`, `{p}_dta_autorizacao`, `{p}_pdf` and the cancel's
    /// `{p}_cancel_justificativa`, `{p}_cancel_protocolo`,
    /// `{p}_dta_cancelamento`.
    pub prefix: &'static str,
    /// The document's own series (the NF-e's row also holds its order's).
    pub serie: &'static str,
    /// The provider's id.
    pub provider_id: &'static str,
    /// The XML, and whether the column is text (else bytea).
    pub xml: &'static str,
    pub xml_is_text: bool,
    /// `CT-e`, and whether it is feminine (`a NF-e`).
    pub name: &'static str,
    pub feminine: bool,
    /// The printed document: `DACTE`.
    pub pdf_name: &'static str,
    /// Ends the downloaded XML's name: `{chave}-cte.xml`.
    pub file_tag: &'static str,
    pub paths: &'static DocPaths,
    /// The SEFAZ codes explained.
    pub explain: fn(&str, &str) -> Explanation,
    /// Closed by an event of its own (the MDF-e): `encerrado` is a status of
    /// its own, and the files of a closed or cancelled one are fetched too.
    pub closes: bool,
    /// Its "not found".
    pub missing: &'static str,
}

impl Kind {
    /// One of its columns: `cte_situacao`.
    pub fn col(&self, name: &str) -> String {
        format!("{}_{name}", self.prefix)
    }

    /// A field of its row as the calls answer it: `CTE_SITUACAO`.
    pub fn field(&self, name: &str) -> String {
        format!("{}_{}", self.prefix, name).to_uppercase()
    }

    /// `o CT-e`, `a NF-e`.
    pub fn the(&self) -> String {
        format!("{} {}", if self.feminine { "a" } else { "o" }, self.name)
    }

    /// `do CT-e`, `da NF-e`.
    pub fn of_the(&self) -> String {
        format!("d{}", self.the())
    }

    /// `um CT-e`, `uma NF-e`.
    pub fn one(&self) -> String {
        format!("{} {}", if self.feminine { "uma" } else { "um" }, self.name)
    }

    /// A masculine word (`autorizado`) agreeing with the document.
    pub fn agree(&self, word: &str) -> String {
        match (self.feminine, word.strip_suffix('o')) {
            (true, Some(stem)) => format!("{stem}a"),
            _ => word.to_string(),
        }
    }

    /// `consulte-o`, `consulte-a`.
    pub fn consult_it(&self) -> &'static str {
        if self.feminine {
            "consulte-a"
        } else {
            "consulte-o"
        }
    }

    /// The statuses whose files exist at the provider.
    pub fn with_files(&self) -> &'static [&'static str] {
        if self.closes {
            &["autorizado", "cancelado", "encerrado"]
        } else {
            &["autorizado", "cancelado"]
        }
    }

    /// Whether the files are fetched when the provider answers `status`.
    pub fn fetches_files(&self, status: DfeStatus) -> bool {
        match status {
            DfeStatus::Autorizado => true,
            DfeStatus::Encerrado | DfeStatus::Cancelado => self.closes,
            _ => false,
        }
    }

    /// `{p}_id, {p}_emp_id, ...` read as a [`Doc`].
    fn doc_cols(&self) -> String {
        let p = self.prefix;
        format!(
            "{p}_id AS id, {p}_emp_id AS emp, {p}_situacao AS situacao, {p}_ambiente AS ambiente, \
             {serie} AS serie, {p}_numero AS numero, {p}_tentativa AS tentativa, \
             {p}_referencia AS referencia, {provider} AS provider_id, {p}_chave AS chave",
            serie = self.serie,
            provider = self.provider_id,
        )
    }
}

/// The provider-side columns of a row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Doc {
    pub id: i64,
    pub emp: i64,
    pub situacao: String,
    pub ambiente: Option<i32>,
    pub serie: Option<i32>,
    pub numero: Option<i64>,
    pub tentativa: i32,
    pub referencia: Option<String>,
    pub provider_id: Option<String>,
    pub chave: Option<String>,
}

/// What a register of issued documents adds to its [`Kind`].
#[async_trait]
pub trait Issued: Send + Sync {
    fn kind(&self) -> &'static Kind;

    /// The row as the calls answer it.
    async fn row(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: i64,
        id: i64,
    ) -> Result<Value>;

    /// What settling the SEFAZ's answer writes besides, in its transaction
    /// (`moved_to`: the status the answer moved the row to, as stored —
    /// "autorizado", "rejeitado"... —; none when the row had it already).
    async fn settled(
        &self,
        _tx: &mut Tx,
        _client: i64,
        _emp: i64,
        _id: i64,
        _dfe: &Dfe,
        _moved_to: Option<&str>,
    ) -> Result<()> {
        Ok(())
    }

    /// What a registered cancel writes besides, in its transaction.
    async fn cancelled(&self, _tx: &mut Tx, _client: i64, _emp: i64, _id: i64) -> Result<()> {
        Ok(())
    }
}

/// The register's row through the generic get, its "not found" the kind's.
pub async fn generic_row(
    tx: &mut Tx,
    kind: &Kind,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
) -> Result<Value> {
    erp_platform::resource::query::get(tx, res, caller, Some(emp), &[id.to_string()])
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(kind.missing.into()),
            other => other,
        })
}

/// The CNPJ of company `emp` (its copy), digits only: whom the provider
/// knows the documents by.
pub async fn company_cnpj(tx: &mut Tx, client: i64, emp: i64) -> Result<String> {
    let cnpj: Option<String> =
        sqlx::query_scalar("SELECT cnpj FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2")
            .bind(client)
            .bind(emp)
            .fetch_optional(&mut **tx)
            .await?
            .flatten();
    let cnpj = cnpj.ok_or_else(|| Error::validation("Informe o CNPJ da empresa em Empresas."))?;
    Ok(cnpj.chars().filter(char::is_ascii_alphanumeric).collect())
}
