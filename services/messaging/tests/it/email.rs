//! E-mail through a real SMTP server: Python's aiosmtpd, started by the test
//! with AUTH (PLAIN/LOGIN) and a handler that writes every message it receives,
//! read back with Python's own `email` parser: recipients, Bcc only in the
//! envelope, the UTF-8 subject, the HTML body and its text alternative, and the
//! attachments byte for byte.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};

use crate::*;

const SERVER: &str = r#"
import asyncio, base64, json, os, sys
from email import policy
from email.parser import BytesParser
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, out = int(sys.argv[1]), sys.argv[2]

class Handler:
    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        n = len([f for f in os.listdir(out) if f.endswith(".json")])
        with open(os.path.join(out, "%04d.eml" % n), "wb") as f:
            f.write(raw)
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        body = msg.get_body(preferencelist=("plain",))
        html = msg.get_body(preferencelist=("html",))
        summary = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "login": getattr(session.auth_data, "login", b"").decode(),
            "from": str(msg["From"]),
            "to": str(msg["To"]),
            "bcc_header": msg["Bcc"] is not None,
            "subject": str(msg["Subject"]),
            "text": body.get_content() if body else None,
            "html": html.get_content() if html else None,
            "attachments": [
                {"name": p.get_filename(), "type": p.get_content_type(),
                 "base64": base64.b64encode(p.get_payload(decode=True)).decode()}
                for p in msg.iter_attachments()
            ],
        }
        with open(os.path.join(out, "%04d.json" % n), "w") as f:
            json.dump(summary, f)
        return "250 Message accepted for delivery"

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"erp@demo.com.br" and auth_data.password == b"senha smtp"
    # handled=False: aiosmtpd answers 535 itself when the login is refused.
    return AuthResult(success=ok, handled=False, auth_data=auth_data)

controller = Controller(Handler(), hostname="127.0.0.1", port=port, authenticator=authenticator,
                        auth_required=True, auth_require_tls=False)
controller.start()
print("READY", flush=True)
sys.stdin.read()
controller.stop()
"#;

/// An aiosmtpd server on a free port, writing into its own folder; stopped
/// (and its folder removed) when dropped.
pub struct Smtpd {
    pub port: u16,
    dir: PathBuf,
    child: Child,
}

impl Smtpd {
    pub fn start() -> Smtpd {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let dir = std::env::temp_dir().join(format!("erp-smtpd-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).expect("dir");
        let mut child = Command::new("python3")
            .arg("-c")
            .arg(SERVER)
            .arg(port.to_string())
            .arg(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (pip install aiosmtpd)");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(out)
            .read_line(&mut line)
            .expect("server output");
        assert_eq!(line.trim(), "READY", "aiosmtpd did not start");
        Smtpd { port, dir, child }
    }

    pub fn messages(&self) -> Vec<(Value, Vec<u8>)> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        names.retain(|p| p.extension().is_some_and(|e| e == "json"));
        names.sort();
        names
            .into_iter()
            .map(|p| {
                let summary: Value =
                    serde_json::from_slice(&std::fs::read(&p).expect("json")).expect("summary");
                let raw = std::fs::read(p.with_extension("eml")).expect("eml");
                (summary, raw)
            })
            .collect()
    }
}

impl Drop for Smtpd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(Path::new(&self.dir));
    }
}

#[tokio::test]
async fn an_email_with_three_attachments_reaches_a_real_smtp_server_intact() {
    let smtpd = Smtpd::start();
    let db = db().await;
    let deps = deps();
    let c = client();
    configure(
        &db,
        &deps,
        c,
        "emailconfig",
        json!({"EMCF_HOST": "127.0.0.1", "EMCF_PORTA": smtpd.port, "EMCF_SEGURANCA": "nenhuma",
               "EMCF_USUARIO": "erp@demo.com.br", "EMCF_SENHA": "senha smtp",
               "EMCF_REMETENTE": "erp@demo.com.br", "EMCF_REMETENTE_NOME": "Oficina Demo Ltda."}),
    )
    .await;
    let (vendas, recebimentos, planilha) = report_files();
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let v = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "email",
        &[],
        json!({"MENS_USR_ID": 7, "MENS_EMP_ID": 1,
               "MENS_DESTINATARIO": "cliente@exemplo.com.br; financeiro@exemplo.com.br",
               "MENS_DESTINATARIO_OCULTO": "auditoria@demo.com.br",
               "MENS_ASSUNTO": "Relatórios de junho — ação nº 12",
               "MENS_DESCRICAO": "<p>Olá,</p><p>Seguem os relatórios de <b>junho</b>.</p>",
               "arquivos": [file("Vendas (junho).pdf", &vendas), file("recebimentos.pdf", &recebimentos), file("Vendas junho.xlsx", &planilha)]}),
    )
    .await
    .expect("queued");
    assert_eq!(v["msg"], "E-mail agendado com sucesso!");
    let id = id_of(&v);
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "E", "{r}");
    assert_eq!(r["mens_provedor"], "smtp");

    let got = smtpd.messages();
    assert_eq!(got.len(), 1);
    let (m, raw) = &got[0];
    assert_eq!(m["login"], "erp@demo.com.br", "authenticated");
    assert_eq!(m["mail_from"], "erp@demo.com.br");
    let mut rcpt: Vec<&str> = m["rcpt_tos"]
        .as_array()
        .expect("rcpt")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    rcpt.sort();
    assert_eq!(
        rcpt,
        vec![
            "auditoria@demo.com.br",
            "cliente@exemplo.com.br",
            "financeiro@exemplo.com.br"
        ]
    );
    // The dot in the name makes it a quoted string (RFC 5322).
    assert_eq!(m["from"], "\"Oficina Demo Ltda.\" <erp@demo.com.br>");
    assert_eq!(m["to"], "cliente@exemplo.com.br, financeiro@exemplo.com.br");
    assert_eq!(m["bcc_header"], false);
    let head = String::from_utf8_lossy(
        raw.split(|b| *b == b'\n')
            .take_while(|l| l.len() > 1)
            .flatten()
            .copied()
            .collect::<Vec<u8>>()
            .as_slice(),
    )
    .to_ascii_lowercase();
    assert!(!head.contains("bcc"), "no Bcc header");
    assert!(
        !String::from_utf8_lossy(raw).contains("auditoria@demo.com.br"),
        "the hidden recipient is nowhere in the message"
    );
    assert_eq!(m["subject"], "Relatórios de junho — ação nº 12");
    assert!(m["html"]
        .as_str()
        .is_some_and(|h| h.contains("<b>junho</b>")));
    let text = m["text"].as_str().map(|t| t.replace("\r\n", "\n"));
    assert_eq!(
        text.as_deref().map(str::trim),
        Some("Olá,\nSeguem os relatórios de junho.")
    );
    let att = m["attachments"].as_array().expect("attachments");
    let expect = [
        ("Vendas_junho.pdf", "application/pdf", &vendas),
        ("recebimentos.pdf", "application/pdf", &recebimentos),
        (
            "Vendas_junho.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            &planilha,
        ),
    ];
    assert_eq!(att.len(), 3);
    for (a, (name, kind, bytes)) in att.iter().zip(expect) {
        assert_eq!(a["name"], name);
        assert_eq!(a["type"], kind);
        assert_eq!(a["base64"], b64(bytes), "{name} byte for byte");
    }
}

#[tokio::test]
async fn a_refused_login_fails_the_email_and_no_server_keeps_it_queued() {
    let smtpd = Smtpd::start();
    let db = db().await;
    let deps = deps();
    let c = client();
    let queue_one = |subject: &'static str| {
        let (db, deps) = (db.clone(), deps.clone());
        async move {
            let v = call(&db, &deps, c, "whatsapp", "email", &[], json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "a@exemplo.com.br", "MENS_ASSUNTO": subject, "MENS_DESCRICAO": "x"}))
                .await
                .expect("queued");
            id_of(&v)
        }
    };
    // No company server and no ERP_SMTP_URL: it waits, with the reason.
    let waiting = queue_one("Sem servidor").await;
    let w = worker(&db, &deps, test_config(c));
    w.round(&erp_platform::shutdown::Shutdown::new())
        .await
        .expect("round");
    let r = row(&db, c, waiting).await;
    assert_eq!(
        (r["mens_status"].as_str(), r["mens_erro"].as_str()),
        (Some("N"), Some(erp_messaging::settings::NO_SMTP))
    );
    configure(
        &db,
        &deps,
        c,
        "emailconfig",
        json!({"EMCF_HOST": "127.0.0.1", "EMCF_PORTA": smtpd.port, "EMCF_SEGURANCA": "nenhuma",
               "EMCF_USUARIO": "erp@demo.com.br", "EMCF_SENHA": "senha errada", "EMCF_REMETENTE": "erp@demo.com.br"}),
    )
    .await;
    drain(&w, &db, c, Duration::from_secs(20)).await;
    let r = row(&db, c, waiting).await;
    assert_eq!(r["mens_status"], "F", "{r}");
    assert!(
        r["mens_erro"]
            .as_str()
            .is_some_and(|e| e.starts_with("O servidor de e-mail recusou a mensagem")),
        "{r}"
    );
    assert!(smtpd.messages().is_empty());
}
