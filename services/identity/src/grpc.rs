//! `identity.v1.IdentityService`: thin handlers over the domain modules.

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry};
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::identity_service_server::IdentityService;
use erp_proto::identity::v1::*;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use tonic::{Request, Response, Status};

use crate::{events, password, principal};

pub const BAD_LOGIN: &str = "Usuário ou senha inválidos.";

#[derive(Clone)]
pub struct IdentityGrpc {
    pub db: Db,
    pub operator_client: i64,
    pub registry: Arc<Registry>,
}

fn reply(v: Value) -> std::result::Result<Response<JsonReply>, Status> {
    Ok(Response::new(JsonReply {
        json: serde_json::to_vec(&v).map_err(Error::from)?,
    }))
}

fn object(bytes: &[u8]) -> Result<Map<String, Value>> {
    match serde_json::from_slice::<Value>(if bytes.is_empty() { b"{}" } else { bytes })? {
        Value::Object(m) => Ok(m),
        _ => Err(Error::validation(
            "O corpo da requisição deve ser um objeto JSON.",
        )),
    }
}

/// A 0/1 flag from a body (numbers, "S"/"N", booleans).
fn flag(body: &Map<String, Value>, key: &str) -> Result<Option<i32>> {
    Ok(match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(i32::from(*b)),
        Some(Value::Number(n)) if n.as_i64() == Some(0) || n.as_i64() == Some(1) => {
            n.as_i64().map(|v| v as i32)
        }
        Some(Value::String(s)) => match s.trim().to_ascii_uppercase().as_str() {
            "1" | "S" | "T" | "TRUE" => Some(1),
            "0" | "N" | "F" | "FALSE" => Some(0),
            _ => return Err(Error::validation(format!("Valor inválido para {key}."))),
        },
        Some(_) => return Err(Error::validation(format!("Valor inválido para {key}."))),
    })
}

pub fn program_row(p: &UserProgram, user_id: i64) -> Value {
    let b = |v: bool| i64::from(v);
    json!({
        "PROG_ID": p.id, "PROG_NOME": p.name, "PROG_DESCRICAO": p.description,
        "PROG_DIR_WEB": p.web_path, "PROG_EXE": p.exe, "PROG_IMG_WEB": p.icon,
        "PROG_NIVEL1": p.level1, "PROG_NIVEL2": p.level2, "PROG_NIVEL3": p.level3, "PROG_ORDEM": p.order,
        "PRGU_PROG_ID": p.id, "PRGU_USUARIO": user_id, "PRGU_FAVORITO": b(p.favorite),
        "PRGU_CONSULTA": b(p.can_view), "PRGU_INCLUSAO": b(p.can_create),
        "PRGU_ALTERACAO": b(p.can_update), "PRGU_EXCLUSAO": b(p.can_delete),
    })
}

impl IdentityGrpc {
    async fn login(&self, r: LoginRequest) -> Result<Principal> {
        let bad = || Error::Unauthenticated(BAD_LOGIN.into());
        let doc = CpfCnpj::parse(&r.cpfcnpj).map_err(|_| bad())?;
        let mut tx = self.db.begin().await?;
        let client: Option<i64> = sqlx::query_scalar(
            "SELECT client_id FROM identity.clientes_conta WHERE cpfcnpj = $1 AND ativo",
        )
        .bind(doc.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        tx.rollback().await?;
        let Some(client_id) = client else {
            password::verify(r.password, None).await?;
            return Err(bad());
        };
        let mut tx = self.db.begin_tenant(client_id).await?;
        let user: Option<(i64, String)> = sqlx::query_as(
            "SELECT usr_id, usr_senha_hash FROM identity.usuarios WHERE client_id = $1 AND lower(usr_usuario) = lower($2)",
        )
        .bind(client_id)
        .bind(r.login.trim())
        .fetch_optional(&mut *tx)
        .await?;
        let (user_id, hash) = match user {
            Some((id, h)) => (id, Some(h)),
            None => (0, None),
        };
        if !password::verify(r.password, hash).await? {
            return Err(bad());
        }
        let p = principal::load(
            &mut tx,
            self.operator_client,
            client_id,
            user_id,
            r.company_id,
        )
        .await?;
        tx.commit().await?;
        if !p.active {
            return Err(Error::Forbidden("Usuário desativado.".into()));
        }
        Ok(p)
    }

    async fn set_grant(
        &self,
        caller: &Caller,
        user_id: i64,
        program_id: i64,
        body: &Map<String, Value>,
    ) -> Result<Value> {
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let exists: Option<i64> = sqlx::query_scalar(
            "SELECT usr_id FROM identity.usuarios WHERE client_id = $1 AND usr_id = $2",
        )
        .bind(caller.client_id)
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Err(Error::NotFound("Usuário não encontrado.".into()));
        }
        let program: Option<i32> =
            sqlx::query_scalar("SELECT prog_id FROM identity.programas WHERE prog_id = $1")
                .bind(program_id)
                .fetch_optional(&mut *tx)
                .await?;
        if program.is_none() {
            return Err(Error::NotFound("Programa não encontrado.".into()));
        }
        let row: (i32, i32, i32, i32, i32) = sqlx::query_as(
            "INSERT INTO identity.programas_usuario
                (client_id, prgu_usuario, prgu_prog_id, prgu_consulta, prgu_inclusao, prgu_alteracao, prgu_exclusao, prgu_favorito)
             VALUES ($1, $2, $3, coalesce($4, 1), coalesce($5, 0), coalesce($6, 0), coalesce($7, 0), coalesce($8, 0))
             ON CONFLICT (client_id, prgu_usuario, prgu_prog_id) DO UPDATE SET
                prgu_consulta = coalesce($4, programas_usuario.prgu_consulta),
                prgu_inclusao = coalesce($5, programas_usuario.prgu_inclusao),
                prgu_alteracao = coalesce($6, programas_usuario.prgu_alteracao),
                prgu_exclusao = coalesce($7, programas_usuario.prgu_exclusao),
                prgu_favorito = coalesce($8, programas_usuario.prgu_favorito)
             RETURNING prgu_consulta, prgu_inclusao, prgu_alteracao, prgu_exclusao, prgu_favorito",
        )
        .bind(caller.client_id)
        .bind(user_id)
        .bind(program_id)
        .bind(flag(body, "PRGU_CONSULTA")?)
        .bind(flag(body, "PRGU_INCLUSAO")?)
        .bind(flag(body, "PRGU_ALTERACAO")?)
        .bind(flag(body, "PRGU_EXCLUSAO")?)
        .bind(flag(body, "PRGU_FAVORITO")?)
        .fetch_one(&mut *tx)
        .await?;
        events::user_changed(&mut tx, caller.client_id, user_id).await?;
        tx.commit().await?;
        Ok(json!({
            "PRGU_USUARIO": user_id, "PRGU_PROG_ID": program_id, "PRGU_CONSULTA": row.0,
            "PRGU_INCLUSAO": row.1, "PRGU_ALTERACAO": row.2, "PRGU_EXCLUSAO": row.3, "PRGU_FAVORITO": row.4,
        }))
    }
}

#[tonic::async_trait]
impl IdentityService for IdentityGrpc {
    async fn login(
        &self,
        req: Request<LoginRequest>,
    ) -> std::result::Result<Response<Principal>, Status> {
        Ok(Response::new(
            IdentityGrpc::login(self, req.into_inner()).await?,
        ))
    }

    async fn get_principal(
        &self,
        req: Request<PrincipalRequest>,
    ) -> std::result::Result<Response<Principal>, Status> {
        let r = req.into_inner();
        let mut tx = self.db.begin_tenant(r.client_id).await?;
        let p = principal::load(
            &mut tx,
            self.operator_client,
            r.client_id,
            r.user_id,
            Some(r.company_id),
        )
        .await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(p))
    }

    async fn get_company(
        &self,
        req: Request<CompanyRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let res = self
            .registry
            .get("empresas")
            .cloned()
            .ok_or_else(|| Error::internal("empresas"))?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let row = query::get(
            &mut tx,
            &res,
            &caller,
            None,
            &[req.get_ref().emp.to_string()],
        )
        .await?;
        tx.commit().await.map_err(Error::from)?;
        reply(row)
    }

    async fn user_programs(
        &self,
        req: Request<UserRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let user_id = req.get_ref().user_id;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        // Their own menu follows their privileges; someone else's shows their grants.
        let company = if user_id == caller.user_id {
            Some(caller.emp_id)
        } else {
            None
        };
        let p = principal::load(
            &mut tx,
            self.operator_client,
            caller.client_id,
            user_id,
            company,
        )
        .await;
        let p = match p {
            Err(Error::Unauthenticated(_)) => {
                return Err(Error::NotFound("Usuário não encontrado.".into()).into())
            }
            other => other?,
        };
        tx.commit().await.map_err(Error::from)?;
        reply(Value::Array(
            p.programs
                .iter()
                .map(|pr| program_row(pr, user_id))
                .collect(),
        ))
    }

    async fn toggle_favorite(
        &self,
        req: Request<FavoriteRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        if r.user_id != caller.user_id {
            return Err(Error::forbidden().into());
        }
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let known: Option<i32> =
            sqlx::query_scalar("SELECT prog_id FROM identity.programas WHERE prog_id = $1")
                .bind(r.program_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(Error::from)?;
        if known.is_none() {
            return Err(Error::NotFound("Programa não encontrado.".into()).into());
        }
        // Privileged users see every program without a grant row: the toggle creates it.
        let fav: i32 = sqlx::query_scalar(
            "INSERT INTO identity.programas_usuario (client_id, prgu_usuario, prgu_prog_id, prgu_consulta, prgu_favorito)
             VALUES ($1, $2, $3, 1, 1)
             ON CONFLICT (client_id, prgu_usuario, prgu_prog_id)
             DO UPDATE SET prgu_favorito = 1 - programas_usuario.prgu_favorito
             RETURNING prgu_favorito",
        )
        .bind(caller.client_id)
        .bind(r.user_id)
        .bind(r.program_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(Error::from)?;
        events::user_changed(&mut tx, caller.client_id, r.user_id).await?;
        tx.commit().await.map_err(Error::from)?;
        reply(
            json!({"PRGU_PROG_ID": r.program_id, "PRGU_USUARIO": r.user_id, "PRGU_FAVORITO": fav}),
        )
    }

    async fn programs_for_registration(
        &self,
        req: Request<Empty>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let res = self
            .registry
            .get("programas")
            .cloned()
            .ok_or_else(|| Error::internal("programas"))?;
        let mut tx = self.db.begin().await?;
        let mut body = Map::new();
        body.insert(
            "ORDENACAO".into(),
            Value::from("PROG_NIVEL1, PROG_NIVEL2, PROG_ORDEM"),
        );
        body.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
        let rows = query::list(&mut tx, &res, &caller, None, &body).await?;
        tx.commit().await.map_err(Error::from)?;
        reply(Value::Array(rows))
    }

    async fn grant_program(
        &self,
        req: Request<GrantRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let body = object(&r.body_json)?;
        let (user, prog) = match r.key {
            Some(k) => (k.user_id, k.program_id),
            None => {
                let get = |k: &str| {
                    body.get(k)
                        .and_then(|v| v.as_i64().or_else(|| v.as_str()?.trim().parse().ok()))
                };
                (
                    get("PRGU_USUARIO")
                        .ok_or_else(|| Error::validation("Usuário é obrigatório!"))?,
                    get("PRGU_PROG_ID")
                        .ok_or_else(|| Error::validation("Programa é obrigatório!"))?,
                )
            }
        };
        reply(self.set_grant(&caller, user, prog, &body).await?)
    }

    async fn revoke_program(
        &self,
        req: Request<GrantKey>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let k = req.into_inner();
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let n = sqlx::query(
            "DELETE FROM identity.programas_usuario WHERE client_id = $1 AND prgu_usuario = $2 AND prgu_prog_id = $3",
        )
        .bind(caller.client_id)
        .bind(k.user_id)
        .bind(k.program_id)
        .execute(&mut *tx)
        .await
        .map_err(Error::from)?
        .rows_affected();
        if n == 0 {
            return Err(Error::not_found().into());
        }
        events::user_changed(&mut tx, caller.client_id, k.user_id).await?;
        tx.commit().await.map_err(Error::from)?;
        reply(json!({"msg": "Permissão removida."}))
    }

    async fn update_user_self(
        &self,
        req: Request<UserSelfRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        if r.user_id != caller.user_id {
            return Err(Error::forbidden().into());
        }
        let mut body = object(&r.body_json)?;
        let new_password = body
            .get("USR_SENHA")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        if !new_password.is_empty() {
            let current = body
                .get("USR_SENHA_ATUAL")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let hash: Option<String> = sqlx::query_scalar(
                "SELECT usr_senha_hash FROM identity.usuarios WHERE client_id = $1 AND usr_id = $2",
            )
            .bind(caller.client_id)
            .bind(r.user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(Error::from)?;
            if !password::verify(current, hash).await? {
                return Err(Error::validation("Senha atual incorreta.").into());
            }
        }
        // Only the user's own contact data and password; companies and situation are
        // an administrator's, through /usuarios.
        body.retain(|k, _| {
            matches!(
                k.as_str(),
                "USR_NOME" | "USR_EMAIL" | "USR_FONE" | "USR_SENHA"
            )
        });
        let res = self
            .registry
            .get("usuarios")
            .cloned()
            .ok_or_else(|| Error::internal("usuarios"))?;
        let row = query::update(
            &mut tx,
            &res,
            &caller,
            Some(r.emp),
            &[r.user_id.to_string()],
            &body,
        )
        .await;
        let row = match row {
            // The user's default company may differ from the one in the path.
            Err(Error::NotFound(_)) => {
                let emp: i64 = sqlx::query_scalar(
                    "SELECT usr_emp_id FROM identity.usuarios WHERE client_id = $1 AND usr_id = $2",
                )
                .bind(caller.client_id)
                .bind(r.user_id)
                .fetch_one(&mut *tx)
                .await
                .map_err(Error::from)?;
                query::update(
                    &mut tx,
                    &res,
                    &caller,
                    Some(emp),
                    &[r.user_id.to_string()],
                    &body,
                )
                .await?
            }
            other => other?,
        };
        tx.commit().await.map_err(Error::from)?;
        reply(row)
    }

    async fn validate_user(
        &self,
        req: Request<ValidateUserRequest>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let body = object(&req.get_ref().body_json)?;
        let login = body
            .get("USR_USUARIO")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_string();
        let pass = body
            .get("USR_SENHA")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if login.is_empty() {
            return Err(Error::validation("Usuário é obrigatório!").into());
        }
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let user: Option<(i64, String, String, i32)> = sqlx::query_as(
            "SELECT usr_id, usr_nome, usr_senha_hash, usr_situacao FROM identity.usuarios
             WHERE client_id = $1 AND lower(usr_usuario) = lower($2)",
        )
        .bind(caller.client_id)
        .bind(&login)
        .fetch_optional(&mut *tx)
        .await
        .map_err(Error::from)?;
        tx.commit().await.map_err(Error::from)?;
        let ok = password::verify(pass, user.as_ref().map(|u| u.2.clone())).await?;
        match user {
            Some((id, name, _, 1)) if ok => {
                reply(json!({"valido": true, "USR_ID": id, "USR_NOME": name}))
            }
            _ => reply(json!({"valido": false, "msg": BAD_LOGIN})),
        }
    }

    async fn set_company_logo(
        &self,
        req: Request<CompanyLogo>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let column = if r.kind == "1" {
            "EMP_IMG_LOGO"
        } else {
            "EMP_IMG_LOGO_REL"
        };
        let res = self
            .registry
            .get("empresas")
            .cloned()
            .ok_or_else(|| Error::internal("empresas"))?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let previous = query::get(&mut tx, &res, &caller, None, &[r.emp.to_string()]).await?;
        let sql = format!(
            "UPDATE identity.empresas SET {} = $3 WHERE client_id = $1 AND emp_id = $2",
            column.to_ascii_lowercase()
        );
        sqlx::query(&sql)
            .bind(caller.client_id)
            .bind(r.emp)
            .bind(&r.file_name)
            .execute(&mut *tx)
            .await
            .map_err(Error::from)?;
        tx.commit().await.map_err(Error::from)?;
        reply(json!({"EMP_ID": r.emp, column: r.file_name, "anterior": previous.get(column)}))
    }

    async fn delete_company_logo(
        &self,
        req: Request<CompanyLogoKey>,
    ) -> std::result::Result<Response<JsonReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let n = sqlx::query(
            "UPDATE identity.empresas SET
                emp_img_logo = CASE WHEN emp_img_logo = $3 THEN NULL ELSE emp_img_logo END,
                emp_img_logo_rel = CASE WHEN emp_img_logo_rel = $3 THEN NULL ELSE emp_img_logo_rel END
             WHERE client_id = $1 AND emp_id = $2 AND $3 IN (coalesce(emp_img_logo, ''), coalesce(emp_img_logo_rel, ''))",
        )
        .bind(caller.client_id)
        .bind(r.emp)
        .bind(&r.file_name)
        .execute(&mut *tx)
        .await
        .map_err(Error::from)?
        .rows_affected();
        tx.commit().await.map_err(Error::from)?;
        if n == 0 {
            return Err(Error::NotFound("Imagem não encontrada.".into()).into());
        }
        reply(json!({"msg": "Imagem removida."}))
    }
}
