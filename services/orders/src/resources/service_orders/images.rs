//! The service order's images: upload per position and delete.

use super::*;

/// `PUT /ordemservico/uploads/{NROS}/{emp}/{SERIE}/{position}` (multipart: file,
/// ORDS_COMP_DOC).
#[derive(Deserialize, JsonSchema)]
pub struct ImageUploadIn {
    #[serde(rename = "NROS")]
    pub id: i64,
    #[serde(rename = "SERIE")]
    pub serie: String,
    /// 1 to 99.
    pub position: i64,
    #[serde(rename = "arquivo")]
    #[schemars(extend("x-missing" = "Arquivo é obrigatório!", "x-invalid" = "Arquivo é obrigatório!"))]
    pub file: Upload,
    /// The image's description (kept when left out).
    #[serde(rename = "ORDS_COMP_DOC", default)]
    pub description: Option<String>,
}

/// What an upload answers: the image's row and, when it replaced another file, the
/// replaced one's name (the gateway deletes it after the commit).
#[derive(Serialize, JsonSchema)]
pub struct Uploaded {
    #[serde(flatten)]
    pub row: Row,
    #[serde(rename = "anterior", skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
}

pub(super) struct ImageUpload;

#[async_trait]
impl Operation for ImageUpload {
    type In = ImageUploadIn;
    type Out = Uploaded;
    async fn run(&self, cx: &mut Ctx<'_>, i: ImageUploadIn) -> Result<Uploaded> {
        let emp = cx.emp()?;
        let (id, serie, position) = (i.id, i.serie, i.position);
        if !(1..=99).contains(&position) {
            return Err(Error::validation("Posição da imagem inválida."));
        }
        let name = i.file.nome.as_str();
        if name.is_empty() {
            return Err(Error::validation("Arquivo é obrigatório!"));
        }
        let doc = i
            .description
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let key = [id.to_string(), serie.clone()];
        let client = cx.client();
        ops::ensure_open(cx.tx, &*def_of(cx.res)?, client, Some(emp), &key).await?;
        let previous: Option<Option<String>> = sqlx::query_scalar(
            "SELECT arquivo FROM orders.ordemservicoimagem
             WHERE client_id = $1 AND emp_id = $2 AND nros = $3 AND serie = $4 AND posicao = $5 FOR UPDATE",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(position)
        .fetch_optional(&mut **cx.tx)
        .await?;
        sqlx::query(
            "INSERT INTO orders.ordemservicoimagem (client_id, emp_id, nros, serie, posicao, arquivo, nome_original, ords_comp_doc, usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (client_id, emp_id, nros, serie, posicao) DO UPDATE
             SET arquivo = EXCLUDED.arquivo, nome_original = EXCLUDED.nome_original,
                 ords_comp_doc = coalesce(EXCLUDED.ords_comp_doc, ordemservicoimagem.ords_comp_doc),
                 usr_id = EXCLUDED.usr_id, dta_cad = now()",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(position)
        .bind(name)
        .bind(&i.file.original)
        .bind(doc)
        .bind(cx.user())
        .execute(&mut **cx.tx)
        .await?;
        let row = query::get(
            cx.tx,
            cx.res,
            cx.caller,
            Some(emp),
            &[id.to_string(), serie, position.to_string()],
        )
        .await?;
        let previous = previous.flatten().filter(|old| old != name);
        if let Some(old) = &previous {
            cx.discard_file(stored_name(old));
        }
        Ok(Uploaded { row: Row(row), previous })
    }
}

/// A stored file's name without the folders a legacy row may carry.
fn stored_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// `DELETE /ordemservico/uploads/{NROS}/{emp}/{SERIE}/{position}/{image}`.
#[derive(Deserialize, JsonSchema)]
pub struct ImageDeleteIn {
    #[serde(rename = "NROS")]
    pub id: i64,
    #[serde(rename = "SERIE")]
    pub serie: String,
    pub position: i64,
    /// The stored file's name.
    pub image: String,
}

/// What deleting an image answers: the removed file's name (the gateway deletes
/// it after the commit).
#[derive(Serialize, JsonSchema)]
pub struct ImageDeleted {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "arquivo")]
    pub file: String,
}

pub(super) struct ImageDelete;

#[async_trait]
impl Operation for ImageDelete {
    type In = ImageDeleteIn;
    type Out = ImageDeleted;
    async fn run(&self, cx: &mut Ctx<'_>, i: ImageDeleteIn) -> Result<ImageDeleted> {
        let emp = cx.emp()?;
        let image = stored_name(i.image.trim());
        if image.is_empty() {
            return Err(Error::validation("Parâmetro image não informado."));
        }
        let client = cx.client();
        ops::ensure_open(
            cx.tx,
            &*def_of(cx.res)?,
            client,
            Some(emp),
            &[i.id.to_string(), i.serie.clone()],
        )
        .await?;
        let gone: Option<Option<String>> = sqlx::query_scalar(
            "DELETE FROM orders.ordemservicoimagem
             WHERE client_id = $1 AND emp_id = $2 AND nros = $3 AND serie = $4 AND posicao = $5 AND arquivo = $6
             RETURNING arquivo",
        )
        .bind(client)
        .bind(emp)
        .bind(i.id)
        .bind(&i.serie)
        .bind(i.position)
        .bind(image)
        .fetch_optional(&mut **cx.tx)
        .await?;
        match gone {
            Some(Some(name)) => {
                cx.discard_file(stored_name(&name));
                Ok(ImageDeleted { code: 200, msg: "Imagem excluída.".into(), file: name })
            }
            _ => Err(Error::NotFound("Imagem não encontrada.".into())),
        }
    }
}
