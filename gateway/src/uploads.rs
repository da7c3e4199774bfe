//! Uploaded files: multipart parsing with a size limit, the type checked by
//! extension and magic bytes against the field's allowed types, a storage name the
//! server generates, and serving under /uploads/{emp}/{file} only to the owning
//! client (files live in `<data dir>/uploads/<client>/<emp>/`).

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use erp_platform::{Error, Result};

use crate::access::check_companies;
use crate::auth::Auth;
use crate::reply::ApiResult;
use crate::routes::Params;
use crate::state::AppState;

pub const MAX_UPLOAD: usize = 10 * 1024 * 1024;
pub const TYPE_MSG: &str = "Permitidos apenas imagens e PDF!";

/// Allowed types of image fields (the spec's insert-images type).
pub const IMAGES: &[&str] = &["png", "jpeg", "bmp"];

pub struct Stored {
    pub name: String,
    pub original: String,
    pub size: usize,
    /// The form's other (text) fields.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// Detects the type from the first bytes; the declared extension must agree.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0x89, b'P', b'N', b'G', ..] => Some("png"),
        [0xFF, 0xD8, 0xFF, ..] => Some("jpeg"),
        [b'B', b'M', ..] => Some("bmp"),
        [b'%', b'P', b'D', b'F', ..] => Some("pdf"),
        _ => None,
    }
}

fn extension_type(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some("png"),
        "jpg" | "jpeg" => Some("jpeg"),
        "bmp" => Some("bmp"),
        "pdf" => Some("pdf"),
        _ => None,
    }
}

/// Certificates and keys: PEM text or DER (an ASN.1 SEQUENCE), by extension.
fn certificate_type(file_name: &str, bytes: &[u8]) -> Option<&'static str> {
    let ext = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
    let kind = match ext.as_str() {
        "crt" => "crt",
        "cer" => "cer",
        "pem" => "pem",
        "key" => "key",
        "pfx" | "p12" => "pfx",
        _ => return None,
    };
    let pem = bytes.starts_with(b"-----BEGIN ");
    let der = bytes.first() == Some(&0x30) && bytes.len() > 4;
    match kind {
        "pfx" => der.then_some(kind),
        _ => (pem || der).then_some(kind),
    }
}

/// An XML file (an NF-e): the `.xml` extension and text that starts with `<`
/// (after a BOM and blanks). Its content is the owning service's to check.
fn xml_type(file_name: &str, bytes: &[u8]) -> Option<Result<&'static str>> {
    let ext = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
    if ext != "xml" {
        return None;
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    Some(match body.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'<') => Ok("xml"),
        _ => Err(Error::validation(XML_MSG)),
    })
}

pub const XML_MSG: &str = "O arquivo não é um XML.";
pub const OFX_MSG: &str = "O arquivo não é um extrato OFX.";
pub const CNAB_MSG: &str =
    "O arquivo não é um arquivo CNAB (registros de 240 ou 400 posições, extensão .ret ou .txt).";

/// Bank files the finance calls read: an OFX statement (`.ofx`, with its `OFX`
/// header or element near the top) or a CNAB file (`.ret`/`.txt`/`.rem`: text
/// whose first record, the header, starts with a digit and is at most 400
/// positions; a record cut short by an editor or a mail client keeps its
/// meaning, and finance completes it with the blanks it lost and says so).
/// Their content is finance's to parse.
fn bank_file_type(file_name: &str, bytes: &[u8], allowed: &[&str]) -> Option<Result<&'static str>> {
    let ext = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())?;
    if allowed.contains(&"ofx") && ext == "ofx" {
        let head = &bytes[..bytes.len().min(2048)];
        let found = head.windows(3).any(|w| w.eq_ignore_ascii_case(b"OFX"));
        return Some(if found {
            Ok("ofx")
        } else {
            Err(Error::validation(OFX_MSG))
        });
    }
    if allowed.contains(&"cnab") && matches!(ext.as_str(), "ret" | "txt" | "rem" | "cnab") {
        let first = bytes.split(|b| *b == b'\n').next().unwrap_or(bytes);
        let first = first.strip_suffix(b"\r").unwrap_or(first);
        let len = String::from_utf8_lossy(first).chars().count();
        let text = !bytes
            .iter()
            .any(|b| *b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x1a));
        // A header record: CNAB 240 starts with the bank's code, 400 with its
        // record type 0.
        let header = first.first().is_some_and(u8::is_ascii_digit);
        return Some(if text && header && (3..=400).contains(&len) {
            Ok("cnab")
        } else {
            Err(Error::validation(CNAB_MSG))
        });
    }
    None
}

pub fn check_type(file_name: &str, bytes: &[u8], allowed: &[&str]) -> Result<&'static str> {
    if allowed.contains(&"xml") {
        return xml_type(file_name, bytes).unwrap_or_else(|| Err(Error::validation(XML_MSG)));
    }
    if let Some(kind) = bank_file_type(file_name, bytes, allowed) {
        return kind;
    }
    if allowed.contains(&"ofx") {
        return Err(Error::validation(OFX_MSG));
    }
    if allowed.contains(&"cnab") {
        return Err(Error::validation(CNAB_MSG));
    }
    if let Some(kind) = certificate_type(file_name, bytes) {
        return if allowed.contains(&kind) {
            Ok(kind)
        } else {
            Err(Error::validation(TYPE_MSG))
        };
    }
    let kind = sniff(bytes).ok_or_else(|| Error::validation(TYPE_MSG))?;
    if extension_type(file_name) != Some(kind) || !allowed.contains(&kind) {
        return Err(Error::validation(TYPE_MSG));
    }
    Ok(kind)
}

fn dir(st: &AppState, auth: &Auth, emp: i64) -> std::path::PathBuf {
    st.uploads
        .join(auth.caller.client_id.to_string())
        .join(emp.to_string())
}

/// Reads the `file` part of a multipart request and stores it.
pub async fn receive(
    st: &AppState,
    auth: &Auth,
    emp: i64,
    req: Request,
    allowed: &[&str],
) -> Result<Stored> {
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|_| Error::validation("Envie o arquivo como multipart/form-data."))?;
    let mut fields = serde_json::Map::new();
    let mut stored = None;
    while let Some(field) = mp
        .next_field()
        .await
        .map_err(|_| Error::validation("Arquivo inválido."))?
    {
        let part = field.name().unwrap_or_default().to_string();
        if part != "file" {
            if field.file_name().is_none() && !part.is_empty() {
                let text = field
                    .text()
                    .await
                    .map_err(|_| Error::validation("Formulário inválido."))?;
                fields.insert(part, serde_json::Value::from(text));
            }
            continue;
        }
        if stored.is_some() {
            continue;
        }
        let original = field.file_name().unwrap_or("arquivo").to_string();
        let bytes = field
            .bytes()
            .await
            .map_err(|_| Error::validation("Arquivo maior que o permitido (10 MB)."))?;
        if bytes.len() > MAX_UPLOAD {
            return Err(Error::validation("Arquivo maior que o permitido (10 MB)."));
        }
        let kind = check_type(&original, &bytes, allowed)?;
        let ext = if kind == "jpeg" { "jpg" } else { kind };
        let name = format!("{}.{ext}", uuid::Uuid::now_v7().simple());
        let d = dir(st, auth, emp);
        tokio::fs::create_dir_all(&d)
            .await
            .map_err(Error::internal)?;
        tokio::fs::write(d.join(&name), &bytes)
            .await
            .map_err(Error::internal)?;
        stored = Some((name, original, bytes.len()));
    }
    match stored {
        Some((name, original, size)) => Ok(Stored { name, original, size, fields }),
        None => Err(Error::validation("Arquivo é obrigatório!")),
    }
}

/// The body a form call (`Resource::form_call`) hands its service: the form's
/// text fields by name (a repeated field keeps its last value) and every file
/// part, in order, in `arquivos` as `FormFile`s (name, declared type, bytes as
/// base64). At most `max_bytes` of files together; what the files must be is the
/// owning service's to check, by their bytes.
pub async fn form_body(req: Request, max_bytes: usize) -> Result<bytes::Bytes> {
    use base64::Engine;
    let too_big = || {
        Error::validation(format!(
            "Anexos maiores que o permitido ({} MB no total).",
            max_bytes / (1024 * 1024)
        ))
    };
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|_| Error::validation("Envie o formulário como multipart/form-data."))?;
    let mut fields = serde_json::Map::new();
    let mut files = Vec::new();
    let mut total = 0usize;
    while let Some(field) = mp
        .next_field()
        .await
        .map_err(|_| Error::validation("Formulário inválido."))?
    {
        let part = field.name().unwrap_or_default().to_string();
        match field.file_name().map(str::to_string) {
            Some(original) => {
                let tipo = field.content_type().map(str::to_string);
                let bytes = field.bytes().await.map_err(|_| too_big())?;
                total += bytes.len();
                if total > max_bytes {
                    return Err(too_big());
                }
                let nome = if original.trim().is_empty() {
                    "arquivo".to_string()
                } else {
                    original
                };
                files.push(serde_json::json!({
                    "nome": nome,
                    "tipo": tipo,
                    "conteudo": base64::engine::general_purpose::STANDARD.encode(&bytes),
                }));
            }
            None if !part.is_empty() => {
                let text = field
                    .text()
                    .await
                    .map_err(|_| Error::validation("Formulário inválido."))?;
                fields.insert(part, serde_json::Value::from(text));
            }
            None => {}
        }
    }
    fields.insert("arquivos".into(), serde_json::Value::Array(files));
    Ok(bytes::Bytes::from(serde_json::to_vec(
        &serde_json::Value::Object(fields),
    )?))
}

fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() < 200
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
        && !name.starts_with('.')
}

pub async fn remove(st: &AppState, auth: &Auth, emp: i64, name: &str) {
    if safe_name(name) {
        if let Err(e) = tokio::fs::remove_file(dir(st, auth, emp).join(name)).await {
            tracing::debug!(error = %e, "upload not removed");
        }
    }
}

/// GET /uploads/{emp}/{file}: bearer token or the session cookie.
pub async fn serve(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    let emp = p.i64("emp")?;
    check_companies(&auth, &[emp])?;
    let name = p.get("file")?;
    if !safe_name(name) {
        return Err(Error::not_found().into());
    }
    let bytes = tokio::fs::read(dir(&st, &auth, emp).join(name))
        .await
        .map_err(|_| Error::NotFound("Arquivo não encontrado.".into()))?;
    let mime = match sniff(&bytes) {
        Some("png") => "image/png",
        Some("jpeg") => "image/jpeg",
        Some("bmp") => "image/bmp",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    };
    let resp: Response = (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "private, max-age=3600"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        Body::from(bytes),
    )
        .into_response();
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_needs_magic_bytes_and_matching_extension() {
        let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A];
        assert_eq!(check_type("logo.PNG", &png, IMAGES).ok(), Some("png"));
        assert!(check_type("logo.jpg", &png, IMAGES).is_err());
        assert!(check_type("doc.pdf", b"%PDF-1.7", IMAGES).is_err());
        assert!(check_type("x.png", b"<script>", IMAGES).is_err());
        assert_eq!(
            check_type("doc.pdf", b"%PDF-1.7", &["pdf"]).ok(),
            Some("pdf")
        );
        let certs = ["pdf", "crt", "cer", "pem", "key", "pfx"];
        assert_eq!(
            check_type("a.pem", b"-----BEGIN CERTIFICATE-----", &certs).ok(),
            Some("pem")
        );
        assert_eq!(
            check_type("a.pfx", &[0x30, 0x82, 0x0a, 0x01, 0x02], &certs).ok(),
            Some("pfx")
        );
        assert!(check_type("a.pfx", b"-----BEGIN", &certs).is_err());
        assert!(check_type("a.pem", b"-----BEGIN CERTIFICATE-----", IMAGES).is_err());
        assert_eq!(
            check_type(
                "nfe.XML",
                b"\xEF\xBB\xBF  <?xml version=\"1.0\"?>",
                &["xml"]
            )
            .ok(),
            Some("xml")
        );
        let not_xml = |name: &str, bytes: &[u8]| {
            check_type(name, bytes, &["xml"])
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(not_xml("nfe.xml", &png), Some(XML_MSG.into()));
        assert_eq!(not_xml("nfe.pdf", b"%PDF-1.7"), Some(XML_MSG.into()));
        assert!(check_type("nfe.xml", b"<NFe/>", IMAGES).is_err());
    }

    #[test]
    fn cnab_files_cut_short_pass_to_finance_and_other_files_do_not() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../services/finance/tests/fixtures/cnab");
        for name in [
            "brcobranca_CNAB240SICOOB.RET",
            "brcobranca_CNAB240.RET",
            "brcobranca_CNAB400ITAU.RET",
        ] {
            let bytes = std::fs::read(fixtures.join(name)).expect("fixture");
            assert_eq!(
                check_type(name, &bytes, &["cnab"]).ok(),
                Some("cnab"),
                "{name}"
            );
        }
        let cnab = |name: &str, bytes: &[u8]| check_type(name, bytes, &["cnab"]).is_ok();
        assert!(!cnab("extrato.ret", b"%PDF-1.7\x00\x01"));
        assert!(!cnab("notas.txt", b"Relatorio de vendas"));
        assert!(!cnab("longo.ret", "0".repeat(401).as_bytes()));
        assert!(!cnab("retorno.pdf", "0".repeat(400).as_bytes()));
    }

    #[test]
    fn stored_names_cannot_escape_the_folder() {
        assert!(safe_name("0190a.png"));
        assert!(!safe_name("../x.png"));
        assert!(!safe_name(".hidden"));
        assert!(!safe_name("a/b.png"));
    }
}
