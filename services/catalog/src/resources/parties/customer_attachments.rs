//! The calls of a customer's attachments (`clientesanexo`): uploading a file to a
//! customer and removing one by its file name.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{company, id_param, param};
use erp_platform::resource::{query, uploaded_file, ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use crate::resources::checks::text_of;
use crate::resources::rows::get_row;
use crate::resources::uploads::file_url;

/// What a customer attachment may be: images and PDF (the spec's default upload types
/// plus bmp, as for images).
pub(crate) const ATTACHMENT_TYPES: [&str; 4] = ["png", "jpeg", "bmp", "pdf"];

/// POST /clientesanexo/{id}/{emp} (multipart): a new attachment of customer {id};
/// `CLIA_DESCRICAO` defaults to the original file name.
pub(crate) struct AttachmentUpload;

#[async_trait]
impl ActionHandler for AttachmentUpload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let (emp, customer) = (company(emp)?, id_param(params, "id")?);
        let (name, original) = uploaded_file(&body)?;
        let description = body
            .as_object()
            .and_then(|m| text_of(m, "CLIA_DESCRICAO"))
            .or(original)
            .unwrap_or(name);
        let mut row = Map::new();
        row.insert("CLIA_CLI_ID".into(), Value::from(customer));
        row.insert(
            "CLIA_DESCRICAO".into(),
            Value::from(description.chars().take(150).collect::<String>()),
        );
        let created = query::create(tx, res, caller, Some(emp), &row).await?;
        let id = created
            .get("CLIA_ID")
            .and_then(Value::as_i64)
            .ok_or_else(|| Error::internal("attachment without id"))?;
        sqlx::query(
            "UPDATE catalog.clientesanexo SET clia_anexo = $4 WHERE client_id = $1 AND clia_fil_id = $2 AND clia_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        let mut row = get_row(tx, res, caller, Some(emp), id).await?;
        if let Value::Object(m) = &mut row {
            m.insert("url".into(), file_url(&body));
        }
        Ok(row)
    }
}

/// The file name of an attachment path. The legacy system kept attachments in a
/// `Clientes` folder and sends that prefix when removing one (data-and-calls §5).
pub(crate) fn attachment_file(path: &str) -> &str {
    let p = path.trim().trim_start_matches(['/', '\\']);
    let in_folder = p
        .get(..8)
        .is_some_and(|h| h.eq_ignore_ascii_case("clientes"));
    match (in_folder, p.get(8..9)) {
        (true, Some("/" | "\\")) => &p[9..],
        _ => p,
    }
}

/// DELETE /clientesanexo/{id}/{emp}/{anexo}: removes attachment {id} when {anexo}
/// names its file; answers the file name so the caller can remove the file.
pub(crate) struct AttachmentDelete;

#[async_trait]
impl ActionHandler for AttachmentDelete {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let (emp, id) = (company(emp)?, id_param(params, "id")?);
        let wanted = attachment_file(param(params, "anexo")?);
        let row = get_row(tx, res, caller, Some(emp), id).await?;
        let stored = row
            .get("CLIA_ANEXO")
            .and_then(Value::as_str)
            .map(attachment_file);
        if wanted.is_empty() || stored != Some(wanted) {
            return Err(Error::NotFound("Anexo não encontrado.".into()));
        }
        query::delete(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        Ok(json!({"code": 200, "msg": "Registro excluído com sucesso.", "arquivo": wanted}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachment_paths_lose_the_legacy_folder() {
        assert_eq!(attachment_file("Clientes/contrato.pdf"), "contrato.pdf");
        assert_eq!(attachment_file("/clientes\\foto.png"), "foto.png");
        assert_eq!(attachment_file("0190a.pdf"), "0190a.pdf");
        assert_eq!(attachment_file("ClientesVip.pdf"), "ClientesVip.pdf");
    }
}
