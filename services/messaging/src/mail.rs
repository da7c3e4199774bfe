//! E-mail: the recipients and headers a message may have (every address valid,
//! no line break in any header value: no header injection), the body as HTML
//! with a plain-text alternative, the attachments under safe names, and the
//! SMTP transport (`lettre`, tokio, rustls, STARTTLS or implicit TLS, AUTH) from
//! the company's settings or the instance default `ERP_SMTP_URL`.

use std::time::Duration;

use erp_platform::validators::Email;
use erp_platform::{Error, Result};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::files::safe_name;
use crate::providers::SendError;

pub const INVALID_EMAIL: &str = "E-mail inválido.";
pub const NO_RECIPIENT: &str = "Adicione pelo menos um destinatário!";
pub const NO_SUBJECT: &str = "Adicione um assunto!";

/// A header value must stay on one line: a CR or LF would let a value add
/// headers of its own (`Bcc:`), so it is refused, never cleaned.
pub fn one_line(label: &str, value: &str) -> Result<()> {
    if value.contains(['\r', '\n']) {
        return Err(Error::validation(format!(
            "O campo {label} não pode ter quebra de linha."
        )));
    }
    Ok(())
}

/// A list of addresses as the screen sends it: separated by `;` (or `,`),
/// blanks ignored, each one valid ('E-mail inválido.').
pub fn addresses(label: &str, list: &str) -> Result<Vec<Address>> {
    one_line(label, list)?;
    let mut out: Vec<Address> = Vec::new();
    for part in list
        .split([';', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let email = Email::parse(part).map_err(|_| Error::validation(INVALID_EMAIL))?;
        let addr: Address = email
            .as_str()
            .parse()
            .map_err(|_| Error::validation(INVALID_EMAIL))?;
        if !out.contains(&addr) {
            out.push(addr);
        }
    }
    Ok(out)
}

/// The body as HTML and as plain text. A description with tags is HTML (its text
/// is the tags taken out); plain text becomes HTML with its characters escaped
/// and its line breaks kept.
pub fn bodies(description: &str) -> (String, String) {
    if looks_html(description) {
        (description.to_string(), html_text(description))
    } else {
        let escaped = escape(description).replace('\n', "<br>\n");
        (
            format!("<!DOCTYPE html><html><body>{escaped}</body></html>"),
            description.to_string(),
        )
    }
}

/// A description with tags is HTML.
fn looks_html(description: &str) -> bool {
    description.contains('<')
        && description.contains('>')
        && [
            "<p", "<br", "<div", "<b>", "<strong", "<table", "<html", "<a ", "<span", "<ul", "<i>",
        ]
        .iter()
        .any(|t| description.to_ascii_lowercase().contains(t))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace("\r\n", "\n")
}

/// The description with `lines` after it: a paragraph of an HTML description
/// (the lines escaped), or lines after a blank one of a plain one.
pub fn with_lines(description: &str, lines: &[String]) -> String {
    if lines.is_empty() || !looks_html(description) {
        return crate::documents::with_lines(description, lines);
    }
    let added: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    format!("{description}<p>{}</p>", added.join("<br>"))
}

/// The text of an HTML body: tags out (block ends and `<br>` as line breaks),
/// the common entities decoded.
fn html_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut tag = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => {
                in_tag = true;
                tag.clear();
            }
            (true, '>') => {
                in_tag = false;
                let name = tag
                    .trim_start_matches('/')
                    .split(|c: char| c.is_whitespace() || c == '/')
                    .next()
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                if matches!(
                    name.as_str(),
                    "br" | "p" | "div" | "tr" | "li" | "h1" | "h2" | "h3"
                ) && !out.ends_with('\n')
                {
                    out.push('\n');
                }
            }
            (true, c) => tag.push(c),
            (false, c) => out.push(c),
        }
    }
    let text = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// A file an e-mail carries.
#[derive(Clone, Debug)]
pub struct MailFile {
    /// Already made safe (`files::safe_name`).
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// An e-mail ready to build.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: Mailbox,
    pub to: Vec<Address>,
    /// Delivered (in the envelope) but never in the headers.
    pub bcc: Vec<Address>,
    pub subject: String,
    pub description: String,
    pub files: Vec<MailFile>,
}

/// The message, MIME: `multipart/mixed` of the `multipart/alternative` body
/// (plain text, then HTML) and the attachments. The subject and names may be
/// UTF-8 (encoded words). Bcc goes only to the envelope.
pub fn build(m: &Mail) -> Result<Message> {
    one_line("Assunto", &m.subject)?;
    let mut b = Message::builder()
        .from(m.from.clone())
        .subject(m.subject.clone())
        .date_now();
    for to in &m.to {
        b = b.to(Mailbox::new(None, to.clone()));
    }
    for bcc in &m.bcc {
        b = b.bcc(Mailbox::new(None, bcc.clone()));
    }
    let (html, text) = bodies(&m.description);
    let mut mixed = MultiPart::mixed().multipart(MultiPart::alternative_plain_html(text, html));
    for f in &m.files {
        let kind = ContentType::parse(&f.mime).unwrap_or_else(|_| {
            ContentType::parse("application/octet-stream").unwrap_or(ContentType::TEXT_PLAIN)
        });
        let part: SinglePart = Attachment::new(safe_name(&f.name)).body(f.bytes.clone(), kind);
        mixed = mixed.singlepart(part);
    }
    b.multipart(mixed)
        .map_err(|e| Error::validation(format!("E-mail inválido: {e}")))
}

/// How the connection to the SMTP server is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// STARTTLS required (submission, port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
    /// None (a relay on the same network; tests).
    Plain,
}

impl Security {
    pub fn parse(s: &str) -> Option<Security> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "starttls" => Some(Security::StartTls),
            "tls" | "ssl" => Some(Security::Tls),
            "nenhuma" | "none" | "plain" => Some(Security::Plain),
            _ => None,
        }
    }
}

/// Where and how to send.
#[derive(Clone, Debug)]
pub enum Smtp {
    /// A company's settings.
    Server {
        host: String,
        port: u16,
        security: Security,
        user: Option<String>,
        password: Option<String>,
    },
    /// `ERP_SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS when the server
    /// offers it; `?tls=required` to insist), `smtps://…:465` (TLS).
    Url(String),
}

fn transport(
    s: &Smtp,
    timeout: Duration,
) -> std::result::Result<AsyncSmtpTransport<Tokio1Executor>, SendError> {
    let bad = |e: lettre::transport::smtp::Error| {
        SendError::fail(format!("Configuração de SMTP inválida: {e}"))
    };
    let builder = match s {
        Smtp::Url(url) => AsyncSmtpTransport::<Tokio1Executor>::from_url(url).map_err(bad)?,
        Smtp::Server { host, port, security, user, password } => {
            let b = match security {
                Security::StartTls => {
                    AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host).map_err(bad)?
                }
                Security::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host).map_err(bad)?,
                Security::Plain => {
                    AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.clone())
                }
            };
            let b = b.port(*port);
            match user.as_deref().filter(|u| !u.is_empty()) {
                Some(u) => b.credentials(Credentials::new(
                    u.to_string(),
                    password.clone().unwrap_or_default(),
                )),
                None => b,
            }
        }
    };
    Ok(builder.timeout(Some(timeout)).build())
}

/// Sends `m` through `smtp`; a 4xx answer or a lost connection may succeed
/// later, a 5xx will not. `timeout` bounds the connection, and four times it
/// the whole exchange (lettre's own timeout covers only connecting, and a
/// server that stops answering must not hold a worker).
pub async fn send(
    smtp: &Smtp,
    m: &Message,
    timeout: Duration,
) -> std::result::Result<String, SendError> {
    let t = transport(smtp, timeout)?;
    let Ok(sent) = tokio::time::timeout(timeout * 4, t.send(m.clone())).await else {
        return Err(SendError::retry(
            "O servidor de e-mail não respondeu a tempo.",
        ));
    };
    match sent {
        Ok(resp) => Ok(resp.message().collect::<Vec<_>>().join(" ")),
        Err(e) if e.is_permanent() => Err(SendError::fail(format!(
            "O servidor de e-mail recusou a mensagem: {e}"
        ))),
        Err(e) if e.is_timeout() => Err(SendError::retry(
            "O servidor de e-mail não respondeu a tempo.",
        )),
        Err(e) if e.is_transient() => Err(SendError::retry(format!(
            "O servidor de e-mail pediu para tentar mais tarde: {e}"
        ))),
        Err(e) => Err(SendError::retry(format!(
            "Falha ao falar com o servidor de e-mail: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipients_are_split_checked_and_deduplicated() {
        let a =
            addresses("Destinatário", "a@x.com.br; b@y.com ;;a@x.com.br,c@z.io").expect("valid");
        let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
        assert_eq!(a, vec!["a@x.com.br", "b@y.com", "c@z.io"]);
        assert_eq!(
            addresses("Destinatário", "a@x.com; nao-e-email")
                .err()
                .map(|e| e.public_message()),
            Some(INVALID_EMAIL.into())
        );
        assert!(addresses("Destinatário", "").expect("blank").is_empty());
    }

    #[test]
    fn a_line_break_in_any_header_value_is_refused() {
        for bad in ["a@x.com\r\nBcc: spy@evil.com", "a@x.com\nX: y", "a@x.com\r"] {
            assert_eq!(
                addresses("Destinatário", bad)
                    .err()
                    .map(|e| e.public_message()),
                Some("O campo Destinatário não pode ter quebra de linha.".into()),
                "{bad:?}"
            );
        }
        assert!(one_line("Assunto", "Pedido 12\r\nBcc: x@y.z").is_err());
        assert!(one_line("Assunto", "Pedido 12 — São Paulo").is_ok());
        let m = Mail {
            from: "ERP <erp@x.com>".parse().expect("from"),
            to: vec!["a@x.com".parse().expect("to")],
            bcc: vec![],
            subject: "Oi\nBcc: spy@evil.com".into(),
            description: "x".into(),
            files: vec![],
        };
        assert!(build(&m).is_err());
    }

    #[test]
    fn plain_text_and_html_bodies() {
        let (html, text) = bodies("Olá <cliente>\nSegue & anexo");
        assert_eq!(text, "Olá <cliente>\nSegue & anexo");
        assert!(html.contains("Olá &lt;cliente&gt;<br>\nSegue &amp; anexo"));
        let (html, text) = bodies("<p>Olá <b>Ana</b></p><p>Total: R$&nbsp;10,00</p>");
        assert!(html.starts_with("<p>"));
        assert_eq!(text, "Olá Ana\nTotal: R$ 10,00");
    }

    #[test]
    fn a_documents_lines_follow_a_plain_or_an_html_body() {
        let lines = vec![
            "Linha digitável: 1 2".to_string(),
            "Pix copia e cola: 0002<x>&".to_string(),
        ];
        assert_eq!(
            with_lines("Segue o boleto.", &lines),
            "Segue o boleto.\n\nLinha digitável: 1 2\nPix copia e cola: 0002<x>&"
        );
        let html = with_lines("<p>Segue o <b>boleto</b>.</p>", &lines);
        assert_eq!(
            html,
            "<p>Segue o <b>boleto</b>.</p><p>Linha digitável: 1 2<br>Pix copia e cola: 0002&lt;x&gt;&amp;</p>"
        );
        let (_, text) = bodies(&html);
        assert_eq!(
            text,
            "Segue o boleto.\nLinha digitável: 1 2\nPix copia e cola: 0002<x>&"
        );
    }

    #[test]
    fn bcc_never_reaches_the_headers_and_names_are_safe() {
        let m = Mail {
            from: "Empresa Demo <erp@x.com>".parse().expect("from"),
            to: vec!["a@x.com".parse().expect("to")],
            bcc: vec!["oculto@y.com".parse().expect("bcc")],
            subject: "Orçamento nº 12 — ação".into(),
            description: "Segue.".into(),
            files: vec![MailFile {
                name: "Orçamento 12.pdf".into(),
                mime: "application/pdf".into(),
                bytes: b"%PDF-1.4".to_vec(),
            }],
        };
        let msg = build(&m).expect("built");
        let raw = String::from_utf8_lossy(&msg.formatted()).to_string();
        let head = raw
            .split("\r\n\r\n")
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        assert!(!head.contains("bcc"), "{head}");
        assert!(!raw.contains("oculto@y.com"));
        assert!(raw.contains("Orcamento_12.pdf"));
        let to: Vec<String> = msg.envelope().to().iter().map(|a| a.to_string()).collect();
        assert_eq!(to, vec!["a@x.com", "oculto@y.com"]);
        // The UTF-8 subject travels as encoded words.
        assert!(head.contains("subject: =?utf-8?"), "{head}");
    }
}
