//! A company's provider settings: `whatsappconfig` (which WhatsApp provider,
//! where, its secrets, the sending hours and the rate per minute) and
//! `emailconfig` (the SMTP server). One row per company.
//!
//! Secrets (the Cloud API token, app secret and webhook verify token, the
//! Evolution apikey, the SMTP password) are write-only fields sealed before
//! they are stored (`erp_platform::crypto`, `ERP_MESSAGING_KEY`): no answer
//! carries them, and a blank one on an edit keeps the stored value.
//!
//! Saving WhatsApp settings writes the webhook route (`messaging.rotas`): the
//! phone number id or the instance, which must belong to no other company, and
//! the hash of the verify token; and wakes the company's messages that waited
//! for a provider.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Hooks, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use crate::mail;
use crate::queue::{self, Channel};
use crate::settings::{place, Hours, ProviderKind};
use crate::Deps;

const SCHEMA: &str = crate::SCHEMA;
const WHATSAPP_SECRETS: [&str; 3] = ["WCFG_TOKEN", "WCFG_APP_SECRET", "WCFG_VERIFY_TOKEN"];
const SECRET_MAX: usize = 512;
pub const TAKEN: &str =
    "Este número (ou instância) do WhatsApp já está configurado em outra empresa.";

fn secret(name: &str, label: &str) -> Field {
    // The stored text is the sealed value (longer than what is typed).
    Field::password(name, label).len(2048).width(6)
}

pub fn whatsappconfig(deps: Arc<Deps>) -> Resource {
    Resource::new(
        "whatsappconfig",
        "Configuração do WhatsApp",
        SCHEMA,
        "whatsapp_config",
        "whatsapp",
    )
    .key(&["WCFG_ID"])
    .company("WCFG_EMP_ID")
    .label("WCFG_INSTANCIA")
    .order("WCFG_ID")
    .fields(vec![
        Field::id("WCFG_ID", "Código").list(),
        Field::int("WCFG_EMP_ID", "Empresa").list(),
        Field::int("WCFG_USR_ID", "Usuário").server(),
        Field::options(
            "WCFG_PROVEDOR",
            "Provedor",
            DbType::Text,
            &[
                ("cloud", "WhatsApp Cloud API (oficial)"),
                ("evolution", "Evolution API"),
            ],
        )
        .required()
        .list()
        .width(4),
        Field::text("WCFG_URL", "Endereço da API").len(300).width(8),
        Field::text("WCFG_NUMERO_ID", "ID do número (Cloud API)")
            .len(50)
            .list()
            .width(4),
        Field::text("WCFG_INSTANCIA", "Instância (Evolution API)")
            .len(100)
            .searchable()
            .list()
            .width(4),
        secret("WCFG_TOKEN", "Token de acesso / apikey"),
        secret("WCFG_APP_SECRET", "Chave secreta do app (Cloud API)"),
        secret(
            "WCFG_VERIFY_TOKEN",
            "Token de verificação do webhook (Cloud API)",
        ),
        Field::text("WCFG_HORA_INICIO", "Enviar a partir de")
            .mask("##:##")
            .len(5)
            .width(3),
        Field::text("WCFG_HORA_FIM", "Enviar até")
            .mask("##:##")
            .len(5)
            .width(3),
        Field::int("WCFG_LIMITE_MINUTO", "Mensagens por minuto")
            .min("1")
            .max("1000")
            .width(3),
    ])
    .constraint(
        "whatsapp_config_empresa",
        "A empresa já tem configuração de WhatsApp.",
    )
    .hooks(Arc::new(WhatsappHooks(deps)))
    .sample(json!({
        "WCFG_PROVEDOR": "evolution",
        "WCFG_URL": "http://127.0.0.1:9",
        "WCFG_INSTANCIA": "amostra",
        "WCFG_TOKEN": "chave-da-amostra",
        "WCFG_HORA_INICIO": "08:00",
        "WCFG_HORA_FIM": "18:00",
        "WCFG_LIMITE_MINUTO": 20
    }))
}

pub fn emailconfig(deps: Arc<Deps>) -> Resource {
    Resource::new(
        "emailconfig",
        "Configuração de e-mail",
        SCHEMA,
        "email_config",
        "whatsapp",
    )
    .key(&["EMCF_ID"])
    .company("EMCF_EMP_ID")
    .label("EMCF_REMETENTE")
    .order("EMCF_ID")
    .fields(vec![
        Field::id("EMCF_ID", "Código").list(),
        Field::int("EMCF_EMP_ID", "Empresa").list(),
        Field::int("EMCF_USR_ID", "Usuário").server(),
        Field::text("EMCF_HOST", "Servidor SMTP")
            .len(255)
            .required()
            .list()
            .width(6),
        Field::int("EMCF_PORTA", "Porta")
            .min("1")
            .max("65535")
            .default(json!(587))
            .width(2),
        Field::options(
            "EMCF_SEGURANCA",
            "Segurança",
            DbType::Text,
            &[
                ("starttls", "STARTTLS"),
                ("tls", "TLS"),
                ("nenhuma", "Nenhuma"),
            ],
        )
        .default(json!("starttls"))
        .width(4),
        Field::text("EMCF_USUARIO", "Usuário SMTP")
            .len(255)
            .width(6),
        secret("EMCF_SENHA", "Senha SMTP"),
        Field::email("EMCF_REMETENTE", "E-mail do remetente")
            .required()
            .searchable()
            .list()
            .width(6),
        Field::text("EMCF_REMETENTE_NOME", "Nome do remetente")
            .len(100)
            .width(6),
    ])
    .constraint(
        "email_config_empresa",
        "A empresa já tem configuração de e-mail.",
    )
    .hooks(Arc::new(EmailHooks(deps)))
    .sample(json!({
        "EMCF_HOST": "smtp.exemplo.com.br",
        "EMCF_PORTA": 587,
        "EMCF_SEGURANCA": "starttls",
        "EMCF_USUARIO": "erp@exemplo.com.br",
        "EMCF_SENHA": "senha-da-amostra",
        "EMCF_REMETENTE": "erp@exemplo.com.br",
        "EMCF_REMETENTE_NOME": "ERP"
    }))
}

/// Seals a body's secrets for their row; a blank secret leaves the body (an
/// edit keeps the stored one).
fn seal(
    deps: &Deps,
    table: &str,
    client: i64,
    emp: i64,
    names: &[&str],
    body: &mut Map<String, Value>,
) -> Result<()> {
    for name in names {
        match body.get(*name) {
            Some(Value::String(plain)) if !plain.trim().is_empty() => {
                let plain = plain.trim();
                if plain.chars().count() > SECRET_MAX {
                    return Err(Error::validation(format!(
                        "Segredo longo demais ({name}): no máximo {SECRET_MAX} caracteres."
                    )));
                }
                let sealed = deps
                    .sealer
                    .seal_text(plain, &place(table, client, emp, name))?;
                body.insert((*name).into(), Value::from(sealed));
            }
            Some(_) => {
                body.remove(*name);
            }
            None => {}
        }
    }
    Ok(())
}

fn stamp(caller: &Caller, field: &str, body: &mut Map<String, Value>) {
    if caller.user_id > 0 {
        body.insert(field.into(), Value::from(caller.user_id));
    }
}

fn text<'a>(body: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    body.get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

struct WhatsappHooks(Arc<Deps>);

#[derive(sqlx::FromRow)]
struct Saved {
    wcfg_provedor: String,
    wcfg_url: Option<String>,
    wcfg_numero_id: Option<String>,
    wcfg_instancia: Option<String>,
    wcfg_token: Option<String>,
    wcfg_verify_token: Option<String>,
    wcfg_hora_inicio: Option<String>,
    wcfg_hora_fim: Option<String>,
}

#[async_trait]
impl Hooks for WhatsappHooks {
    async fn prepare(
        &self,
        _tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let emp = erp_platform::resource::params::company(emp)?;
        stamp(caller, "WCFG_USR_ID", body);
        for h in ["WCFG_HORA_INICIO", "WCFG_HORA_FIM"] {
            if let Some(t) = text(body, h) {
                let t = Hours::parse_time(t)
                    .ok_or_else(|| Error::validation("Horário inválido (use HH:MM)."))?;
                body.insert(h.into(), Value::from(t.format("%H:%M").to_string()));
            }
        }
        for u in ["WCFG_URL"] {
            if let Some(url) = text(body, u) {
                if !(url.starts_with("https://") || url.starts_with("http://")) {
                    return Err(Error::validation(
                        "Endereço da API inválido (http:// ou https://).",
                    ));
                }
            }
        }
        seal(
            &self.0,
            "whatsapp_config",
            caller.client_id,
            emp,
            &WHATSAPP_SECRETS,
            body,
        )
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = row
            .get("WCFG_EMP_ID")
            .and_then(Value::as_i64)
            .unwrap_or_default();
        let client = caller.client_id;
        sqlx::query("DELETE FROM messaging.rotas WHERE client_id = $1 AND emp_id = $2")
            .bind(client)
            .bind(emp)
            .execute(&mut **tx)
            .await?;
        if op == Op::Delete {
            return Ok(());
        }
        let s: Saved = sqlx::query_as(
            "SELECT wcfg_provedor, wcfg_url, wcfg_numero_id, wcfg_instancia, wcfg_token, wcfg_verify_token,
                    wcfg_hora_inicio, wcfg_hora_fim
             FROM messaging.whatsapp_config WHERE client_id = $1 AND wcfg_emp_id = $2",
        )
        .bind(client)
        .bind(emp)
        .fetch_one(&mut **tx)
        .await?;
        let kind = ProviderKind::parse(&s.wcfg_provedor)
            .ok_or_else(|| Error::validation("Provedor inválido."))?;
        if s.wcfg_token.as_deref().is_none_or(|t| t.trim().is_empty()) {
            return Err(Error::validation(
                "Informe o token de acesso (ou apikey) do provedor.",
            ));
        }
        if s.wcfg_hora_inicio.is_some() != s.wcfg_hora_fim.is_some() {
            return Err(Error::validation(
                "Informe o início e o fim do horário de envio.",
            ));
        }
        let present = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        let key = match kind {
            ProviderKind::Cloud => present(&s.wcfg_numero_id)
                .ok_or_else(|| Error::validation("Informe o ID do número (Cloud API)."))?,
            ProviderKind::Evolution => {
                if present(&s.wcfg_url).is_none() {
                    return Err(Error::validation("Informe o endereço da Evolution API."));
                }
                present(&s.wcfg_instancia)
                    .ok_or_else(|| Error::validation("Informe a instância da Evolution API."))?
            }
        };
        let verify_hash = match (kind, s.wcfg_verify_token.filter(|v| !v.trim().is_empty())) {
            (ProviderKind::Cloud, Some(sealed)) => {
                let plain = self.0.sealer.open_text(
                    &sealed,
                    &place("whatsapp_config", client, emp, "WCFG_VERIFY_TOKEN"),
                )?;
                Some(verify_hash(&plain))
            }
            _ => None,
        };
        sqlx::query(
            "INSERT INTO messaging.rotas (provedor, chave, client_id, emp_id, verify_hash)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(kind.code())
        .bind(&key)
        .bind(client)
        .bind(emp)
        .bind(verify_hash)
        .execute(&mut **tx)
        .await
        .map_err(|e| Error::from(e).on_constraint(&[("rotas_pkey", TAKEN)]))?;
        queue::wake_company(tx, client, emp, Channel::Whatsapp).await?;
        self.0.wake.notify_one();
        Ok(())
    }
}

/// How the route keeps a verify token (the GET handshake compares hashes).
pub fn verify_hash(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

struct EmailHooks(Arc<Deps>);

#[async_trait]
impl Hooks for EmailHooks {
    async fn prepare(
        &self,
        _tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let emp = erp_platform::resource::params::company(emp)?;
        stamp(caller, "EMCF_USR_ID", body);
        for (name, label) in [
            ("EMCF_HOST", "Servidor SMTP"),
            ("EMCF_USUARIO", "Usuário SMTP"),
            ("EMCF_REMETENTE", "E-mail do remetente"),
            ("EMCF_REMETENTE_NOME", "Nome do remetente"),
        ] {
            if let Some(v) = body.get(name).and_then(Value::as_str) {
                mail::one_line(label, v)?;
            }
        }
        if let Some(host) = text(body, "EMCF_HOST") {
            if host.contains(['/', ' ', ':']) {
                return Err(Error::validation(
                    "Servidor SMTP inválido: informe só o nome (smtp.exemplo.com.br).",
                ));
            }
        }
        seal(
            &self.0,
            "email_config",
            caller.client_id,
            emp,
            &["EMCF_SENHA"],
            body,
        )
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let emp = row
            .get("EMCF_EMP_ID")
            .and_then(Value::as_i64)
            .unwrap_or_default();
        queue::wake_company(tx, caller.client_id, emp, Channel::Email).await?;
        self.0.wake.notify_one();
        Ok(())
    }
}
