//! A company's provider settings as the worker and the calls use them: the
//! WhatsApp provider (which, where, the secrets opened), its sending hours and
//! rate, and the SMTP server of its e-mail (the company's, or the instance
//! default `ERP_SMTP_URL`). The registers that write them are in
//! `resources::settings`.

use chrono::{DateTime, Duration as Span, NaiveTime, TimeZone, Utc};
use chrono_tz::America::Sao_Paulo;
use erp_platform::crypto::{KeySpec, Sealer};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use lettre::message::Mailbox;

use crate::mail::{Security, Smtp};
use crate::providers::{cloud::CloudApi, evolution::Evolution, Provider};

/// The key that seals the providers' secrets at rest.
pub static KEY: KeySpec = KeySpec {
    var: "ERP_MESSAGING_KEY",
    dev_label: "erp-messaging development key: never use in production",
    other_key: "Os tokens e senhas de WhatsApp e e-mail foram gravados com outra chave (ERP_MESSAGING_KEY): informe-os novamente nas configurações.",
};

pub const NO_WHATSAPP: &str = "Nenhum provedor de WhatsApp configurado para a empresa.";
pub const NO_SMTP: &str = "Nenhum servidor de e-mail (SMTP) configurado para a empresa.";

/// Where a sealed value of `column` lives (the associated data of its seal).
pub fn place(table: &str, client: i64, emp: i64, column: &str) -> String {
    format!("messaging.{table}:{client}:{emp}:{column}")
}

/// The hours in which messages go out, Brasília time; a window may cross
/// midnight (22:00–06:00). Equal ends: any time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hours {
    pub start: NaiveTime,
    pub end: NaiveTime,
}

impl Hours {
    pub fn parse_time(s: &str) -> Option<NaiveTime> {
        NaiveTime::parse_from_str(s.trim(), "%H:%M").ok()
    }

    fn open_at(&self, t: NaiveTime) -> bool {
        if self.start == self.end {
            true
        } else if self.start < self.end {
            t >= self.start && t < self.end
        } else {
            t >= self.start || t < self.end
        }
    }

    /// `None` while the window is open at `now`; else when it opens next.
    pub fn next_open(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let local = now.with_timezone(&Sao_Paulo);
        if self.open_at(local.time()) {
            return None;
        }
        let today = local.date_naive();
        for day in [today, today + Span::days(1)] {
            let at = day.and_time(self.start);
            // A start inside a daylight-saving gap (Brazil has none since 2019)
            // moves to the first valid instant after it.
            let Some(t) = Sao_Paulo.from_local_datetime(&at).earliest().or_else(|| {
                Sao_Paulo
                    .from_local_datetime(&(at + Span::hours(1)))
                    .earliest()
            }) else {
                continue;
            };
            let t = t.with_timezone(&Utc);
            if t > now {
                return Some(t);
            }
        }
        None
    }
}

/// Which WhatsApp provider a company uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderKind {
    Cloud,
    Evolution,
}

impl ProviderKind {
    pub fn code(self) -> &'static str {
        match self {
            ProviderKind::Cloud => "cloud",
            ProviderKind::Evolution => "evolution",
        }
    }
    pub fn parse(s: &str) -> Option<ProviderKind> {
        match s.trim() {
            "cloud" => Some(ProviderKind::Cloud),
            "evolution" => Some(ProviderKind::Evolution),
            _ => None,
        }
    }
}

/// A company's WhatsApp settings, secrets opened.
#[derive(Clone)]
pub struct Whatsapp {
    pub kind: ProviderKind,
    pub url: Option<String>,
    pub number_id: Option<String>,
    pub instance: Option<String>,
    pub token: String,
    pub app_secret: Option<String>,
    pub hours: Option<Hours>,
    pub per_minute: Option<i32>,
}

impl Whatsapp {
    /// The provider's client.
    pub fn provider(&self, http: &reqwest::Client) -> Result<Box<dyn Provider>> {
        match self.kind {
            ProviderKind::Cloud => Ok(Box::new(CloudApi::new(
                http.clone(),
                self.url.as_deref(),
                self.number_id.as_deref().unwrap_or_default(),
                &self.token,
            ))),
            ProviderKind::Evolution => Ok(Box::new(Evolution::new(
                http.clone(),
                self.url.as_deref().unwrap_or_default(),
                self.instance.as_deref().unwrap_or_default(),
                &self.token,
            ))),
        }
    }
}

#[derive(sqlx::FromRow)]
struct WhatsappRow {
    wcfg_provedor: String,
    wcfg_url: Option<String>,
    wcfg_numero_id: Option<String>,
    wcfg_instancia: Option<String>,
    wcfg_token: Option<String>,
    wcfg_app_secret: Option<String>,
    wcfg_hora_inicio: Option<String>,
    wcfg_hora_fim: Option<String>,
    wcfg_limite_minuto: Option<i32>,
}

fn open(
    sealer: &Sealer,
    table: &str,
    client: i64,
    emp: i64,
    column: &str,
    v: Option<String>,
) -> Result<Option<String>> {
    match v.filter(|s| !s.trim().is_empty()) {
        Some(s) => Ok(Some(
            sealer.open_text(&s, &place(table, client, emp, column))?,
        )),
        None => Ok(None),
    }
}

/// The company's WhatsApp settings, if it has usable ones (a provider and its
/// token).
pub async fn whatsapp(
    tx: &mut Tx,
    sealer: &Sealer,
    client: i64,
    emp: i64,
) -> Result<Option<Whatsapp>> {
    let row: Option<WhatsappRow> = sqlx::query_as(
        "SELECT wcfg_provedor, wcfg_url, wcfg_numero_id, wcfg_instancia, wcfg_token, wcfg_app_secret,
                wcfg_hora_inicio, wcfg_hora_fim, wcfg_limite_minuto
         FROM messaging.whatsapp_config WHERE client_id = $1 AND wcfg_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let Some(kind) = ProviderKind::parse(&r.wcfg_provedor) else {
        return Ok(None);
    };
    let t = "whatsapp_config";
    let Some(token) = open(sealer, t, client, emp, "WCFG_TOKEN", r.wcfg_token)? else {
        return Ok(None);
    };
    let hours = match (
        r.wcfg_hora_inicio.as_deref().and_then(Hours::parse_time),
        r.wcfg_hora_fim.as_deref().and_then(Hours::parse_time),
    ) {
        (Some(start), Some(end)) => Some(Hours { start, end }),
        _ => None,
    };
    Ok(Some(Whatsapp {
        kind,
        url: r.wcfg_url,
        number_id: r.wcfg_numero_id,
        instance: r.wcfg_instancia,
        token,
        app_secret: open(sealer, t, client, emp, "WCFG_APP_SECRET", r.wcfg_app_secret)?,
        hours,
        per_minute: r.wcfg_limite_minuto,
    }))
}

/// The company's Cloud API webhook secrets (app secret) or Evolution apikey,
/// for checking a webhook call.
pub async fn webhook_secret(
    tx: &mut Tx,
    sealer: &Sealer,
    client: i64,
    emp: i64,
) -> Result<Option<String>> {
    let Some(w) = whatsapp(tx, sealer, client, emp).await? else {
        return Ok(None);
    };
    Ok(match w.kind {
        ProviderKind::Cloud => w.app_secret,
        ProviderKind::Evolution => Some(w.token),
    })
}

/// The instance's default SMTP server (`ERP_SMTP_URL`, `ERP_SMTP_FROM`).
#[derive(Clone, Debug)]
pub struct DefaultSmtp {
    pub url: String,
    pub from: Mailbox,
}

impl DefaultSmtp {
    pub fn from_env() -> std::result::Result<Option<DefaultSmtp>, String> {
        let Some(url) = std::env::var("ERP_SMTP_URL")
            .ok()
            .filter(|u| !u.trim().is_empty())
        else {
            return Ok(None);
        };
        let from = std::env::var("ERP_SMTP_FROM")
            .unwrap_or_else(|_| "ERP <nao-responda@localhost>".into());
        let from: Mailbox = from
            .parse()
            .map_err(|_| format!("ERP_SMTP_FROM inválido: {from}"))?;
        Ok(Some(DefaultSmtp { url: url.trim().to_string(), from }))
    }
}

/// Where a company's e-mail goes out, and from whom.
#[derive(Clone, Debug)]
pub struct Mailer {
    pub smtp: Smtp,
    pub from: Mailbox,
}

#[derive(sqlx::FromRow)]
struct EmailRow {
    emcf_host: String,
    emcf_porta: i32,
    emcf_seguranca: String,
    emcf_usuario: Option<String>,
    emcf_senha: Option<String>,
    emcf_remetente: String,
    emcf_remetente_nome: Option<String>,
}

/// The company's SMTP server, else the instance default, else none.
pub async fn mailer(
    tx: &mut Tx,
    sealer: &Sealer,
    default: Option<&DefaultSmtp>,
    client: i64,
    emp: i64,
) -> Result<Option<Mailer>> {
    let row: Option<EmailRow> = sqlx::query_as(
        "SELECT emcf_host, emcf_porta, emcf_seguranca, emcf_usuario, emcf_senha, emcf_remetente, emcf_remetente_nome
         FROM messaging.email_config WHERE client_id = $1 AND emcf_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(r) = row else {
        return Ok(default.map(|d| Mailer { smtp: Smtp::Url(d.url.clone()), from: d.from.clone() }));
    };
    let from_addr = r.emcf_remetente.parse().map_err(|_| {
        Error::validation("E-mail do remetente inválido nas configurações de e-mail.")
    })?;
    let name = r.emcf_remetente_nome.filter(|n| !n.trim().is_empty());
    Ok(Some(Mailer {
        smtp: Smtp::Server {
            host: r.emcf_host,
            port: u16::try_from(r.emcf_porta).unwrap_or(587),
            security: Security::parse(&r.emcf_seguranca).unwrap_or(Security::StartTls),
            user: r.emcf_usuario,
            password: open(
                sealer,
                "email_config",
                client,
                emp,
                "EMCF_SENHA",
                r.emcf_senha,
            )?,
        },
        from: Mailbox::new(name, from_addr),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> NaiveTime {
        Hours::parse_time(s).expect("time")
    }

    /// A Brasília wall-clock time on 2026-06-10 (UTC-3) as UTC.
    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Sao_Paulo
            .with_ymd_and_hms(2026, 6, 10, h, m, 0)
            .single()
            .expect("time")
            .with_timezone(&Utc)
    }

    #[test]
    fn inside_the_window_messages_go_now_outside_at_the_next_start() {
        let h = Hours { start: t("08:00"), end: t("18:00") };
        assert_eq!(h.next_open(at(8, 0)), None);
        assert_eq!(h.next_open(at(17, 59)), None);
        assert_eq!(h.next_open(at(7, 59)), Some(at(8, 0)));
        // After the end: tomorrow's start.
        let next = h.next_open(at(18, 0)).expect("closed");
        assert_eq!(next, at(8, 0) + Span::days(1));
    }

    #[test]
    fn a_window_may_cross_midnight_and_equal_ends_mean_always() {
        let night = Hours { start: t("22:00"), end: t("06:00") };
        assert_eq!(night.next_open(at(23, 0)), None);
        assert_eq!(night.next_open(at(5, 0)), None);
        assert_eq!(night.next_open(at(12, 0)), Some(at(22, 0)));
        let always = Hours { start: t("00:00"), end: t("00:00") };
        assert_eq!(always.next_open(at(3, 0)), None);
        assert!(Hours::parse_time("25:00").is_none());
        assert!(Hours::parse_time("8h").is_none());
    }
}
