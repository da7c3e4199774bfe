//! The documents a message carries by reference (`MENS_DOC_TIPO` and
//! `MENS_DOC_ID`): when the screen sends no file, messaging asks the service that
//! owns the document for it, through that service's own declared call and as the
//! caller (`erp_platform::peer`), so the owner's tenancy, company guard and
//! checks apply as on its own screen and the bytes are what that screen would
//! download. The gateway's check of those calls' program, which a call between
//! services does not cross, is made first: the caller must be allowed to consult
//! the document's screen (identity's grants), or the message is refused (403).
//!
//! The kinds, the program whose consult they need, and the calls each one runs:
//! - `boleto`, a receivable title's id (`contasreceber`; program
//!   `contasareceber`): finance's `boletos.titulo` (`GET
//!   /boletos/titulo/{id}/{emp}`: the title's slip in collection, with its
//!   digitable line and Pix copy-and-paste code), then `boletos.pdf` (`POST
//!   /boletos/pdf` {EMP_ID, BOL_ID}) for that slip. The text gets the digitable
//!   line and the Pix code, when the slip has them.
//! - `recibo`, a receivable title's id (program `contasareceber`): finance's
//!   `contasreceber.baixas` (`POST /contasreceber/baixas/{id}/{emp}`, the title's
//!   settlements, latest first) for the latest one not reversed that moved
//!   money, then `contasreceber.recibo` (`GET /contasreceber/recibo/{id}/{emp}`,
//!   whose `id` is the settlement's).
//! - `nfe`, an order's NF-e (`PEXM_ID`; program `pedidos`): fiscal's
//!   `pedidofatxml.danfe` (`GET /pedidofatxml/danfe/{PEXM_ID}/{emp}`), and for
//!   e-mail also `pedidofatxml.xml` (`GET /pedidofatxml/xml/{PEXM_ID}/{emp}`).
//!
//! Quotes, billing orders and service orders are no kind: no declared call
//! produces one of them as a file.

use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::peer::{require_grant, Grant, PeerCalls};
use erp_platform::resource::call::Dec;
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use serde::Deserialize;
use serde_json::json;

use crate::queue::Channel;

pub const BAD_KIND: &str = "Tipo de documento inválido.";
pub const NO_ID: &str = "Nº do documento é obrigatório!";
pub const BAD_ID: &str = "Nº do documento inválido.";

/// A document's kind (`MENS_DOC_TIPO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    Boleto,
    Recibo,
    Nfe,
}

impl DocKind {
    pub fn parse(code: &str) -> Option<DocKind> {
        match code.trim().to_ascii_lowercase().as_str() {
            "boleto" => Some(DocKind::Boleto),
            "recibo" => Some(DocKind::Recibo),
            "nfe" => Some(DocKind::Nfe),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            DocKind::Boleto => "boleto",
            DocKind::Recibo => "recibo",
            DocKind::Nfe => "nfe",
        }
    }

    /// The program of the owner's register and its title: its calls need the
    /// caller's consult there.
    pub fn program(self) -> (&'static str, &'static str) {
        match self {
            DocKind::Boleto => ("contasareceber", "Boletos"),
            DocKind::Recibo => ("contasareceber", "Contas a Receber"),
            DocKind::Nfe => ("pedidos", "NF-e do Pedido"),
        }
    }
}

/// A document named by its kind and its id in the owner's register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Document {
    pub kind: DocKind,
    pub id: i64,
}

impl Document {
    /// From `MENS_DOC_TIPO` and `MENS_DOC_ID` (a blank kind: none).
    pub fn parse(
        kind: Option<&str>,
        id: Option<i64>,
    ) -> std::result::Result<Option<Document>, &'static str> {
        let Some(kind) = kind.map(str::trim).filter(|k| !k.is_empty()) else {
            return Ok(None);
        };
        let kind = DocKind::parse(kind).ok_or(BAD_KIND)?;
        let id = id.ok_or(NO_ID)?;
        if id <= 0 {
            return Err(BAD_ID);
        }
        Ok(Some(Document { kind, id }))
    }

    /// As the queue records it.
    pub fn recorded(self) -> (String, i64) {
        (self.kind.code().to_string(), self.id)
    }
}

/// A file the owner produced, named for the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Produced {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What a document brings to a message: its files, and lines for its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    pub files: Vec<Produced>,
    pub lines: Vec<String>,
}

/// Who asks the owners, and how long each call may take.
pub struct Owners<'a> {
    pub peers: &'a Peers,
    pub caller: &'a Caller,
    /// The message's company: the one the owner's calls work in.
    pub emp: i64,
    pub timeout: Duration,
}

impl Owners<'_> {
    fn service(&self, name: &str, area: &str) -> PeerCalls {
        PeerCalls::of(self.peers, name, self.caller)
            .area(area)
            .companies(vec![self.emp])
            .timeout(self.timeout)
    }

    /// A call's path parameters: the record's (`id`, `PEXM_ID`) and `emp`.
    fn params(&self, name: &'static str, id: i64) -> [(&'static str, String); 2] {
        [(name, id.to_string()), ("emp", self.emp.to_string())]
    }

    /// Produces `doc` for a message of `channel` (an e-mail takes an NF-e's XML
    /// beside its DANFE).
    pub async fn produce(&self, doc: Document, channel: Channel) -> Result<Carried> {
        let (program, title) = doc.kind.program();
        require_grant(self.peers, self.caller, Grant::View, program, title).await?;
        match doc.kind {
            DocKind::Boleto => self.slip(doc.id).await,
            DocKind::Recibo => self.receipt(doc.id).await,
            DocKind::Nfe => self.nfe(doc.id, channel).await,
        }
    }

    async fn slip(&self, title: i64) -> Result<Carried> {
        #[derive(Deserialize)]
        struct Slip {
            #[serde(rename = "BOL_ID")]
            id: i64,
            #[serde(rename = "BOL_LINHA_DIGITAVEL", default)]
            line: Option<String>,
            #[serde(rename = "BOL_PIX_COPIA_COLA", default)]
            pix: Option<String>,
        }
        let finance = self.service("finance", "finanças");
        let slip: Option<Slip> = finance
            .json("boletos", "titulo", &self.params("id", title), &json!({}))
            .await?;
        let slip = slip.ok_or_else(|| {
            Error::NotFound(format!("O título {title} não tem boleto em cobrança."))
        })?;
        let pdf = finance
            .file(
                "boletos",
                "pdf",
                &[("emp", self.emp.to_string())],
                &json!({"EMP_ID": self.emp, "BOL_ID": slip.id}),
            )
            .await?;
        let given = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let mut lines = Vec::new();
        if let Some(line) = given(slip.line) {
            lines.push(format!("Linha digitável: {line}"));
        }
        if let Some(pix) = given(slip.pix) {
            lines.push(format!("Pix copia e cola: {pix}"));
        }
        Ok(Carried {
            files: vec![Produced { name: format!("boleto_{title}.pdf"), bytes: pdf.bytes }],
            lines,
        })
    }

    async fn receipt(&self, title: i64) -> Result<Carried> {
        #[derive(Deserialize)]
        struct Settlement {
            #[serde(rename = "BAIX_ID")]
            id: i64,
            #[serde(rename = "BAIX_ESTORNADA", default)]
            reversed: bool,
            #[serde(rename = "BAIX_TOTAL", default)]
            total: Option<Dec>,
        }
        let finance = self.service("finance", "finanças");
        let settlements: Vec<Settlement> = finance
            .json(
                "contasreceber",
                "baixas",
                &self.params("id", title),
                &json!({}),
            )
            .await?;
        // Latest first: the receipt a customer asks for is the last payment's.
        let settlement = settlements
            .into_iter()
            .find(|s| {
                !s.reversed
                    && s.total
                        .map(Dec::get)
                        .is_some_and(|t| t.is_sign_positive() && !t.is_zero())
            })
            .ok_or_else(|| {
                Error::Conflict(format!(
                    "O título {title} não tem baixa com recibo (nenhuma baixa que movimentou valor e não foi estornada)."
                ))
            })?;
        let pdf = finance
            .file(
                "contasreceber",
                "recibo",
                &self.params("id", settlement.id),
                &json!({}),
            )
            .await?;
        Ok(Carried {
            files: vec![Produced { name: format!("recibo_{title}.pdf"), bytes: pdf.bytes }],
            lines: Vec::new(),
        })
    }

    async fn nfe(&self, id: i64, channel: Channel) -> Result<Carried> {
        let fiscal = self.service("fiscal", "documentos fiscais");
        let params = self.params("PEXM_ID", id);
        let danfe = fiscal
            .file("pedidofatxml", "danfe", &params, &json!({}))
            .await?;
        let mut files = vec![Produced { name: format!("danfe_{id}.pdf"), bytes: danfe.bytes }];
        if channel == Channel::Email {
            let xml = fiscal
                .file("pedidofatxml", "xml", &params, &json!({}))
                .await?;
            files.push(Produced { name: format!("nfe_{id}.xml"), bytes: xml.bytes });
        }
        Ok(Carried { files, lines: Vec::new() })
    }
}

/// `text` with a document's `lines` after it (a blank line between).
pub fn with_lines(text: &str, lines: &[String]) -> String {
    if lines.is_empty() {
        return text.to_string();
    }
    let added = lines.join("\n");
    if text.trim().is_empty() {
        added
    } else {
        format!("{}\n\n{added}", text.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_ids_are_read_or_refused() {
        assert_eq!(Document::parse(None, Some(5)), Ok(None));
        assert_eq!(Document::parse(Some("  "), None), Ok(None));
        assert_eq!(
            Document::parse(Some("NFe"), Some(456)),
            Ok(Some(Document { kind: DocKind::Nfe, id: 456 }))
        );
        assert_eq!(
            Document::parse(Some(" boleto "), Some(1)).map(|d| d.map(Document::recorded)),
            Ok(Some(("boleto".to_string(), 1)))
        );
        assert_eq!(Document::parse(Some("orcamento"), Some(1)), Err(BAD_KIND));
        assert_eq!(Document::parse(Some("recibo"), None), Err(NO_ID));
        assert_eq!(Document::parse(Some("recibo"), Some(0)), Err(BAD_ID));
    }

    #[test]
    fn a_documents_lines_follow_the_text() {
        let lines = vec![
            "Linha digitável: 1".to_string(),
            "Pix copia e cola: 2".to_string(),
        ];
        assert_eq!(
            with_lines("Segue o boleto.\n", &lines),
            "Segue o boleto.\n\nLinha digitável: 1\nPix copia e cola: 2"
        );
        assert_eq!(
            with_lines("", &lines),
            "Linha digitável: 1\nPix copia e cola: 2"
        );
        assert_eq!(with_lines("Só o texto", &[]), "Só o texto");
    }
}
