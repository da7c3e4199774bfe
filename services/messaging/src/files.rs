//! What a message may carry: a WhatsApp image or document checked by its bytes
//! against `MENS_TIPO` and the Cloud API's size limits, and e-mail attachment
//! names made safe (letters, digits, underscore and hyphen, the extension kept).

/// A message's type (`MENS_TIPO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 'T': text only.
    Text,
    /// 'I': an image with an optional caption.
    Image,
    /// 'D': a document with an optional caption.
    Document,
}

impl Kind {
    pub fn parse(code: &str) -> Option<Kind> {
        match code.trim().to_ascii_uppercase().as_str() {
            "" | "T" => Some(Kind::Text),
            "I" => Some(Kind::Image),
            "D" => Some(Kind::Document),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Kind::Text => "T",
            Kind::Image => "I",
            Kind::Document => "D",
        }
    }
}

/// Largest image the Cloud API takes (5 MB).
pub const MAX_IMAGE: usize = 5 * 1024 * 1024;
/// Largest document the queue takes (16 MB; the Cloud API allows up to 100 MB,
/// the gateway's calls carry less).
pub const MAX_DOCUMENT: usize = 16 * 1024 * 1024;
/// Largest e-mail: every attachment together (20 MB, under most servers' 25 MB
/// once encoded).
pub const MAX_EMAIL: usize = 20 * 1024 * 1024;

pub const NOT_IMAGE: &str = "O arquivo não é uma imagem PNG, JPEG ou WebP.";
pub const NOT_DOCUMENT: &str =
    "O arquivo não é um documento aceito (PDF, XML, planilha ou documento do Office, texto).";
pub const IMAGE_TOO_BIG: &str = "Imagem maior que o permitido (5 MB).";
pub const DOCUMENT_TOO_BIG: &str = "Documento maior que o permitido (16 MB).";
pub const FILE_NEEDED: &str = "Anexe o arquivo da mensagem (imagem ou documento).";
pub const TEXT_HAS_NO_FILE: &str =
    "Mensagem de texto não leva arquivo: use o tipo I (imagem) ou D (documento).";
pub const EMAIL_TOO_BIG: &str = "Anexos maiores que o permitido (20 MB no total).";

/// An attachment checked against its message's type: its content type from its
/// bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub mime: &'static str,
}

fn image_type(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Some("image/png"),
        [0xFF, 0xD8, 0xFF, ..] => Some("image/jpeg"),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some("image/webp"),
        _ => None,
    }
}

fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, e)| e.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// A document's content type from its bytes, the extension telling apart the
/// formats that share a container (a zip is an XLSX, a DOCX or a zip).
fn document_type(name: &str, bytes: &[u8]) -> Option<&'static str> {
    let ext = extension(name);
    if bytes.starts_with(b"%PDF-") {
        return Some("application/pdf");
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return Some(match ext.as_str() {
            "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "ods" => "application/vnd.oasis.opendocument.spreadsheet",
            "odt" => "application/vnd.oasis.opendocument.text",
            _ => "application/zip",
        });
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        return match ext.as_str() {
            "xls" => Some("application/vnd.ms-excel"),
            "doc" => Some("application/msword"),
            "ppt" => Some("application/vnd.ms-powerpoint"),
            _ => None,
        };
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(body).is_ok() && !body.contains(&0);
    if !text {
        return None;
    }
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    match (ext.as_str(), first) {
        ("xml", Some(b'<')) => Some("application/xml"),
        ("txt", _) => Some("text/plain"),
        ("csv", _) => Some("text/csv"),
        _ => None,
    }
}

/// Checks a WhatsApp message's file against its type: text takes none, an
/// image or a document needs one whose bytes are of an accepted format and
/// within the size limit.
pub fn check(kind: Kind, file: Option<(&str, &[u8])>) -> Result<Option<Checked>, &'static str> {
    match (kind, file) {
        (Kind::Text, None) => Ok(None),
        (Kind::Text, Some(_)) => Err(TEXT_HAS_NO_FILE),
        (_, None) => Err(FILE_NEEDED),
        (Kind::Image, Some((_, bytes))) => {
            let mime = image_type(bytes).ok_or(NOT_IMAGE)?;
            if bytes.len() > MAX_IMAGE {
                return Err(IMAGE_TOO_BIG);
            }
            Ok(Some(Checked { mime }))
        }
        (Kind::Document, Some((name, bytes))) => {
            let mime = document_type(name, bytes).ok_or(NOT_DOCUMENT)?;
            if bytes.len() > MAX_DOCUMENT {
                return Err(DOCUMENT_TOO_BIG);
            }
            Ok(Some(Checked { mime }))
        }
    }
}

/// An e-mail attachment's content type: what its bytes say it is, or a generic
/// one (e-mail carries any file).
pub fn mail_type(name: &str, bytes: &[u8]) -> &'static str {
    image_type(bytes)
        .or_else(|| document_type(name, bytes))
        .unwrap_or("application/octet-stream")
}

fn plain_letter(c: char) -> Option<char> {
    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
        return Some(c);
    }
    let base = match c {
        'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
        'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => 'A',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'É' | 'È' | 'Ê' | 'Ë' => 'E',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
        'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
        'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => 'O',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
        'ç' => 'c',
        'Ç' => 'C',
        'ñ' => 'n',
        'Ñ' => 'N',
        _ => return None,
    };
    Some(base)
}

/// An attachment's name as the e-mail carries it: letters (accents dropped),
/// digits, underscore and hyphen, anything else one underscore; the extension
/// kept (its letters and digits, lower case). Never empty, never a path.
pub fn safe_name(original: &str) -> String {
    // Only the last component of a path a browser may send (`C:\x\nota.pdf`).
    let name = original
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(original)
        .trim();
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, Some(e)),
        _ => (name, None),
    };
    let mut out = String::with_capacity(stem.len());
    for c in stem.chars() {
        match plain_letter(c) {
            Some(p) => out.push(p),
            None if !out.ends_with('_') => out.push('_'),
            None => {}
        }
    }
    let mut out: String = out.trim_matches('_').chars().take(100).collect();
    if out.is_empty() {
        out = "anexo".into();
    }
    let ext: String = ext
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(10)
        .collect::<String>()
        .to_ascii_lowercase();
    if ext.is_empty() {
        out
    } else {
        format!("{out}.{ext}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0];

    #[test]
    fn images_by_their_bytes() {
        assert_eq!(
            check(Kind::Image, Some(("a.png", PNG))),
            Ok(Some(Checked { mime: "image/png" }))
        );
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0];
        assert_eq!(
            check(Kind::Image, Some(("foto", &jpeg))).map(|c| c.map(|c| c.mime)),
            Ok(Some("image/jpeg"))
        );
        let webp = b"RIFF\x10\x00\x00\x00WEBPVP8 ";
        assert_eq!(
            check(Kind::Image, Some(("x.webp", webp))).map(|c| c.map(|c| c.mime)),
            Ok(Some("image/webp"))
        );
        // A PDF named .png is not an image; an image too big is refused.
        assert_eq!(
            check(Kind::Image, Some(("a.png", b"%PDF-1.7"))),
            Err(NOT_IMAGE)
        );
        let mut big = PNG.to_vec();
        big.resize(MAX_IMAGE + 1, 0);
        assert_eq!(
            check(Kind::Image, Some(("a.png", &big))),
            Err(IMAGE_TOO_BIG)
        );
    }

    #[test]
    fn documents_by_their_bytes_and_extension() {
        let mime =
            |n: &str, b: &[u8]| check(Kind::Document, Some((n, b))).map(|c| c.map(|c| c.mime));
        assert_eq!(mime("nota.pdf", b"%PDF-1.4\n"), Ok(Some("application/pdf")));
        assert_eq!(
            mime("qualquer.bin", b"%PDF-1.4\n"),
            Ok(Some("application/pdf"))
        );
        assert_eq!(
            mime("vendas.xlsx", b"PK\x03\x04rest"),
            Ok(Some(
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            ))
        );
        assert_eq!(
            mime("nfe.xml", b"\xEF\xBB\xBF <?xml version=\"1.0\"?><NFe/>"),
            Ok(Some("application/xml"))
        );
        assert_eq!(mime("nfe.xml", b"not xml"), Err(NOT_DOCUMENT));
        assert_eq!(mime("script.sh", b"#!/bin/sh"), Err(NOT_DOCUMENT));
        assert_eq!(mime("a.exe", b"MZ\x90\x00"), Err(NOT_DOCUMENT));
        assert_eq!(
            mime(
                "planilha.xls",
                &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
            ),
            Ok(Some("application/vnd.ms-excel"))
        );
        let mut big = b"%PDF-1.4".to_vec();
        big.resize(MAX_DOCUMENT + 1, b' ');
        assert_eq!(mime("a.pdf", &big), Err(DOCUMENT_TOO_BIG));
    }

    #[test]
    fn a_type_asks_for_a_file_and_text_takes_none() {
        assert_eq!(check(Kind::Text, None), Ok(None));
        assert_eq!(
            check(Kind::Text, Some(("a.png", PNG))),
            Err(TEXT_HAS_NO_FILE)
        );
        assert_eq!(check(Kind::Document, None), Err(FILE_NEEDED));
        assert_eq!(Kind::parse("i"), Some(Kind::Image));
        assert_eq!(Kind::parse(""), Some(Kind::Text));
        assert_eq!(Kind::parse("X"), None);
    }

    #[test]
    fn attachment_names_keep_letters_digits_underscore_hyphen_and_the_extension() {
        assert_eq!(
            safe_name("Relatório de vendas (março).PDF"),
            "Relatorio_de_vendas_marco.pdf"
        );
        assert_eq!(safe_name("nota-fiscal_123.xml"), "nota-fiscal_123.xml");
        assert_eq!(safe_name("C:\\Users\\Ana\\boleto 01.pdf"), "boleto_01.pdf");
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name("a\r\nBcc: x@y.z.pdf"), "a_Bcc_x_y_z.pdf");
        assert_eq!(safe_name("çÃO.tar.gz"), "cAO_tar.gz");
        assert_eq!(safe_name("???.pdf"), "anexo.pdf");
        assert_eq!(safe_name(""), "anexo");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name("planilha.x$l%s"), "planilha.xls");
        let long = safe_name(&format!("{}.pdf", "a".repeat(300)));
        assert_eq!(long.len(), 104);
        for n in ["a b.pdf", "ação.xlsx", "x\"y'z.doc"] {
            let s = safe_name(n);
            assert!(
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)),
                "{s}"
            );
        }
    }
}
