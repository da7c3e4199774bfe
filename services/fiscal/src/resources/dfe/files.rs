//! The XML and PDF of a document: the stored file, fetched from the provider
//! (and stored) when it is not there yet, answered as a file to download
//! (`{chave}-cte.xml`, `{chave}-dacte.pdf`).

use erp_platform::db::Tx;
use erp_platform::resource::file_reply;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::{store, Kind};
use crate::resources::company::provider::{client, provider_message};
use crate::resources::company::Ctx;

/// Which file a download call answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum File {
    Xml,
    /// The DANFE, DACTE or DAMDFE.
    Pdf,
}

/// File `file` of row `id` (locked while it is fetched and stored).
pub async fn download(
    tx: &mut Tx,
    company: &Ctx,
    kind: &Kind,
    file: File,
    client_id: i64,
    emp: i64,
    id: i64,
) -> Result<Value> {
    let pdf_col = kind.col("pdf");
    let (col, as_text) = match file {
        File::Xml => (kind.xml, kind.xml_is_text),
        File::Pdf => (pdf_col.as_str(), false),
    };
    let read = if as_text {
        format!("convert_to({col}, 'UTF8')")
    } else {
        col.to_string()
    };
    let p = kind.prefix;
    let (stored, status, chave, provider_id): (
        Option<Vec<u8>>,
        String,
        Option<String>,
        Option<String>,
    ) = sqlx::query_as(&format!(
        "SELECT {read}, {p}_situacao, {p}_chave, {provider} FROM {table}
         WHERE client_id = $1 AND {p}_emp_id = $2 AND {p}_id = $3 FOR UPDATE",
        provider = kind.provider_id,
        table = kind.table,
    ))
    .bind(client_id)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(kind.missing.into()))?;
    let bytes = match (stored, provider_id) {
        (Some(b), _) => b,
        (None, Some(n)) if kind.with_files().contains(&status.as_str()) => {
            let nf = client(company)?;
            let fetched = match file {
                File::Xml => nf.baixar_xml(kind.paths, &n).await,
                File::Pdf => nf.baixar_pdf(kind.paths, &n).await,
            }
            .map_err(|e| Error::Unavailable(provider_message(&e)))?;
            store::write_file(tx, kind, client_id, emp, id, col, as_text, fetched.clone()).await?;
            fetched
        }
        _ => {
            let states: Vec<String> = kind.with_files().iter().map(|s| kind.agree(s)).collect();
            let states = match states.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} ou {last}", rest.join(", ")),
                None => String::new(),
            };
            return Err(Error::Conflict(format!(
                "Os arquivos existem apenas para {} {states}.",
                kind.name
            )));
        }
    };
    let name = chave.unwrap_or_else(|| id.to_string());
    Ok(match file {
        File::Xml => file_reply(
            "application/xml",
            &format!("{name}-{}.xml", kind.file_tag),
            &bytes,
        ),
        File::Pdf => file_reply(
            "application/pdf",
            &format!("{name}-{}.pdf", kind.pdf_name.to_lowercase()),
            &bytes,
        ),
    })
}
