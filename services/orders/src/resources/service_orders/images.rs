//! The service order's images: upload per position and delete.

use super::*;

pub(super) struct ImageUpload;

#[async_trait]
impl ActionHandler for ImageUpload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, body } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "NROS")?;
        let serie = params::param(p, "SERIE")?.to_string();
        let position = params::id_param(p, "position")?;
        if !(1..=99).contains(&position) {
            return Err(Error::validation("Posição da imagem inválida."));
        }
        let (name, original) = uploaded_file(&body)?;
        let doc = body
            .get("ORDS_COMP_DOC")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let key = [id.to_string(), serie.clone()];
        ops::ensure_open(tx, &*def_of(res)?, caller.client_id, Some(emp), &key).await?;
        let previous: Option<Option<String>> = sqlx::query_scalar(
            "SELECT arquivo FROM orders.ordemservicoimagem
             WHERE client_id = $1 AND emp_id = $2 AND nros = $3 AND serie = $4 AND posicao = $5 FOR UPDATE",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(position)
        .fetch_optional(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO orders.ordemservicoimagem (client_id, emp_id, nros, serie, posicao, arquivo, nome_original, ords_comp_doc, usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (client_id, emp_id, nros, serie, posicao) DO UPDATE
             SET arquivo = EXCLUDED.arquivo, nome_original = EXCLUDED.nome_original,
                 ords_comp_doc = coalesce(EXCLUDED.ords_comp_doc, ordemservicoimagem.ords_comp_doc),
                 usr_id = EXCLUDED.usr_id, dta_cad = now()",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(position)
        .bind(name)
        .bind(original)
        .bind(doc)
        .bind(caller.user_id)
        .execute(&mut **tx)
        .await?;
        let mut row = query::get(
            tx,
            res,
            caller,
            Some(emp),
            &[id.to_string(), serie, position.to_string()],
        )
        .await?;
        if let (Some(Some(old)), Value::Object(m)) = (previous, &mut row) {
            if old != name {
                m.insert("anterior".into(), Value::String(old));
            }
        }
        Ok(row)
    }
}

pub(super) struct ImageDelete;

#[async_trait]
impl ActionHandler for ImageDelete {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "NROS")?;
        let serie = params::param(p, "SERIE")?.to_string();
        let position = params::id_param(p, "position")?;
        let image = params::param(p, "image")?;
        let image = image.rsplit(['/', '\\']).next().unwrap_or(image);
        ops::ensure_open(
            tx,
            &*def_of(res)?,
            caller.client_id,
            Some(emp),
            &[id.to_string(), serie.clone()],
        )
        .await?;
        let gone: Option<Option<String>> = sqlx::query_scalar(
            "DELETE FROM orders.ordemservicoimagem
             WHERE client_id = $1 AND emp_id = $2 AND nros = $3 AND serie = $4 AND posicao = $5 AND arquivo = $6
             RETURNING arquivo",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(position)
        .bind(image)
        .fetch_optional(&mut **tx)
        .await?;
        match gone {
            Some(Some(name)) => {
                Ok(json!({"code": 200, "msg": "Imagem excluída.", "arquivo": name}))
            }
            _ => Err(Error::NotFound("Imagem não encontrada.".into())),
        }
    }
}
