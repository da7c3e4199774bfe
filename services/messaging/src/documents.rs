//! The documents a message carries by reference (`MENS_DOC_TIPO`, `MENS_DOC_ID`
//! and `MENS_DOC_REF`): when the screen sends no file, messaging asks the service
//! that owns the document for it, through that service's own declared call and
//! as the caller (`erp_platform::peer`), so the owner's tenancy, company guard
//! and checks apply as on its own screen and the bytes are what that screen
//! would download. The gateway's check of those calls' program, which a call
//! between services does not cross, is made first: the caller must be allowed
//! to consult the document's screen (identity's grants), or the message is
//! refused (403).
//!
//! `MENS_DOC_REF`, when sent, is a JSON object as text (anything else: 400
//! 'Referência do documento inválida.'); it is kept with the message
//! (`mens_doc_ref`, compact JSON). A kind that needs no reference ignores it.
//!
//! The kinds, the program whose consult they need, and the calls each one runs
//! (every call in the message's company, `emp`):
//! - `boleto`, a receivable title's id (`contasreceber`; program
//!   `contasareceber`): finance's `boletos.titulo` (`GET
//!   /boletos/titulo/{id}/{emp}`: the title's slip in collection, with its
//!   digitable line and Pix copy-and-paste code), then `boletos.pdf` (`POST
//!   /boletos/pdf` {EMP_ID, BOL_ID}) for that slip. The text gets the digitable
//!   line and the Pix code, when the slip has them. File `boleto_{id}.pdf`.
//! - `recibo`, a receivable title's id (program `contasareceber`): finance's
//!   `contasreceber.baixas` (`POST /contasreceber/baixas/{id}/{emp}`, the title's
//!   settlements, latest first) for the latest one not reversed that moved
//!   money, then `contasreceber.recibo` (`GET /contasreceber/recibo/{id}/{emp}`,
//!   whose `id` is the settlement's). File `recibo_{id}.pdf`.
//! - `nfe`, an order's NF-e (`PEXM_ID`; program `pedidos`): fiscal's
//!   `pedidofatxml.danfe` (`GET /pedidofatxml/danfe/{PEXM_ID}/{emp}`), and for
//!   e-mail also `pedidofatxml.xml` (`GET /pedidofatxml/xml/{PEXM_ID}/{emp}`).
//!   Files `danfe_{id}.pdf` and `nfe_{id}.xml`.
//! - `relatorio`, a report as its screen asks for it: no `MENS_DOC_ID` (ignored,
//!   not kept); `MENS_DOC_REF` = `{"relatorio": name, "FORMATO": "pdf"|"xlsx",
//!   ...the report's filters (DATA_INI, DATA_FIM, ...)}`, the name being the
//!   report's (`vendas`, `recebimentos`, …: lowercase letters, digits, `_`).
//!   Program `relatoriodevendas` (the reports' register `vendas`, which carries
//!   every report). The reports service's `vendas.relatorio_{name}` (`POST` the
//!   report's path) with the reference minus `relatorio`, `FORMATO` in lowercase
//!   and `EMP_ID` = the message's company (whatever the reference said). Only
//!   `pdf` and `xlsx` (a missing or other format: 400); a report the service
//!   does not have is its 404, a report without rows in the period a 404 'O
//!   relatório não tem dados para enviar.'. File `relatorio_{name}.pdf|xlsx`.
//! - `orcamento`, a quote (`ORCA_ID`; program `orcamentos`): orders'
//!   `orcamento.pdf` (`GET /orcamento/pdf/{ORCA_ID}/{emp}`). File
//!   `orcamento_{id}.pdf`.
//! - `pedido`, a billing order (`PEDF_ID`; `MENS_DOC_REF` `{"PEDF_SERIE": "1"}`,
//!   the series as text or number, letters and digits only; program `pedidos`):
//!   orders' `pedido.pdf` (`GET /pedido/pdf/{PEDF_ID}/{emp}/{PEDF_SERIE}`). File
//!   `pedido_{id}_{serie}.pdf`.
//!
//! Everything the message names is checked before any owner is asked; a refusal
//! (400, 403, the owner's own) queues nothing. Service orders are no kind: no
//! declared call produces one as a file.

use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::peer::{require_grant, Grant, PeerCalls};
use erp_platform::resource::call::Dec;
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::queue::{Channel, DocRecord};

pub const BAD_KIND: &str = "Tipo de documento inválido.";
pub const NO_ID: &str = "Nº do documento é obrigatório!";
pub const BAD_ID: &str = "Nº do documento inválido.";
pub const BAD_REF: &str = "Referência do documento inválida.";
pub const NO_REPORT: &str =
    "Relatório é obrigatório (MENS_DOC_REF com o nome do relatório em \"relatorio\").";
pub const BAD_REPORT: &str = "Relatório inválido.";
pub const BAD_FORMAT: &str = "Formato do relatório inválido: use pdf ou xlsx.";
pub const NO_SERIES: &str = "Série do pedido é obrigatória (MENS_DOC_REF com \"PEDF_SERIE\").";
pub const BAD_SERIES: &str = "Série do pedido inválida.";
pub const NO_ROWS: &str = "O relatório não tem dados para enviar.";

/// A document's kind (`MENS_DOC_TIPO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    Boleto,
    Recibo,
    Nfe,
    Relatorio,
    Orcamento,
    Pedido,
}

impl DocKind {
    pub fn parse(code: &str) -> Option<DocKind> {
        match code.trim().to_ascii_lowercase().as_str() {
            "boleto" => Some(DocKind::Boleto),
            "recibo" => Some(DocKind::Recibo),
            "nfe" => Some(DocKind::Nfe),
            "relatorio" => Some(DocKind::Relatorio),
            "orcamento" => Some(DocKind::Orcamento),
            "pedido" => Some(DocKind::Pedido),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            DocKind::Boleto => "boleto",
            DocKind::Recibo => "recibo",
            DocKind::Nfe => "nfe",
            DocKind::Relatorio => "relatorio",
            DocKind::Orcamento => "orcamento",
            DocKind::Pedido => "pedido",
        }
    }

    /// The program of the owner's register and its title: its calls need the
    /// caller's consult there.
    pub fn program(self) -> (&'static str, &'static str) {
        match self {
            DocKind::Boleto => ("contasareceber", "Boletos"),
            DocKind::Recibo => ("contasareceber", "Contas a Receber"),
            DocKind::Nfe => ("pedidos", "NF-e do Pedido"),
            // The reports' register (`vendas`) carries every report's call.
            DocKind::Relatorio => ("relatoriodevendas", "Relatórios"),
            DocKind::Orcamento => ("orcamentos", "Orçamentos"),
            DocKind::Pedido => ("pedidos", "Pedidos de Venda"),
        }
    }

    /// Whether the document is named by `MENS_DOC_ID` (a report is not).
    fn has_id(self) -> bool {
        self != DocKind::Relatorio
    }
}

/// A report's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Pdf,
    Xlsx,
}

impl ReportFormat {
    pub fn code(self) -> &'static str {
        match self {
            ReportFormat::Pdf => "pdf",
            ReportFormat::Xlsx => "xlsx",
        }
    }
}

/// A report as its reference names it: `relatorio`, `FORMATO`, and the rest
/// (the report's filters) as they were sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRef {
    pub name: String,
    pub format: ReportFormat,
    pub filters: Map<String, Value>,
}

/// A document named by its kind, its id in the owner's register and its
/// reference (`MENS_DOC_REF`), checked for its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    pub kind: DocKind,
    /// None for a report.
    pub id: Option<i64>,
    pub reference: Option<Map<String, Value>>,
}

/// `MENS_DOC_REF`: a JSON object as text (a blank is none).
fn reference(text: Option<&str>) -> std::result::Result<Option<Map<String, Value>>, &'static str> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(Some(m)),
        _ => Err(BAD_REF),
    }
}

impl Document {
    /// From `MENS_DOC_TIPO`, `MENS_DOC_ID` and `MENS_DOC_REF` (a blank kind: none;
    /// a reference that is not a JSON object is refused all the same).
    pub fn parse(
        kind: Option<&str>,
        id: Option<i64>,
        reference_text: Option<&str>,
    ) -> std::result::Result<Option<Document>, &'static str> {
        let reference = reference(reference_text)?;
        let Some(kind) = kind.map(str::trim).filter(|k| !k.is_empty()) else {
            return Ok(None);
        };
        let kind = DocKind::parse(kind).ok_or(BAD_KIND)?;
        let id = if kind.has_id() {
            let id = id.ok_or(NO_ID)?;
            if id <= 0 {
                return Err(BAD_ID);
            }
            Some(id)
        } else {
            None
        };
        let doc = Document { kind, id, reference };
        match kind {
            DocKind::Relatorio => {
                doc.report()?;
            }
            DocKind::Pedido => {
                doc.series()?;
            }
            _ => {}
        }
        Ok(Some(doc))
    }

    /// The id in the owner's register.
    fn id(&self) -> Result<i64> {
        self.id.ok_or_else(|| Error::validation(NO_ID))
    }

    /// A report's name, format and filters, from the reference.
    pub fn report(&self) -> std::result::Result<ReportRef, &'static str> {
        let mut filters = self.reference.clone().ok_or(NO_REPORT)?;
        let name = match filters.remove("relatorio") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_ascii_lowercase(),
            None | Some(Value::Null) | Some(Value::String(_)) => return Err(NO_REPORT),
            Some(_) => return Err(BAD_REPORT),
        };
        if name.len() > 60
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(BAD_REPORT);
        }
        let format = match filters
            .get("FORMATO")
            .and_then(Value::as_str)
            .map(|f| f.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("pdf") => ReportFormat::Pdf,
            Some("xlsx") => ReportFormat::Xlsx,
            _ => return Err(BAD_FORMAT),
        };
        filters.remove("FORMATO");
        Ok(ReportRef { name, format, filters })
    }

    /// An order's series (`PEDF_SERIE`, text or a whole number), from the
    /// reference.
    pub fn series(&self) -> std::result::Result<String, &'static str> {
        let series = match self.reference.as_ref().and_then(|r| r.get("PEDF_SERIE")) {
            None | Some(Value::Null) => return Err(NO_SERIES),
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(n)) if n.is_u64() => n.to_string(),
            Some(_) => return Err(BAD_SERIES),
        };
        if series.is_empty() {
            return Err(NO_SERIES);
        }
        if series.len() > 10 || !series.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(BAD_SERIES);
        }
        Ok(series)
    }

    /// As the queue records it (the reference as compact JSON).
    pub fn recorded(&self) -> DocRecord {
        DocRecord {
            kind: self.kind.code().to_string(),
            id: self.id,
            reference: self
                .reference
                .as_ref()
                .map(|r| Value::Object(r.clone()).to_string()),
        }
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
    pub async fn produce(&self, doc: &Document, channel: Channel) -> Result<Carried> {
        let (program, title) = doc.kind.program();
        require_grant(self.peers, self.caller, Grant::View, program, title).await?;
        match doc.kind {
            DocKind::Boleto => self.slip(doc.id()?).await,
            DocKind::Recibo => self.receipt(doc.id()?).await,
            DocKind::Nfe => self.nfe(doc.id()?, channel).await,
            DocKind::Relatorio => self.report(doc.report().map_err(Error::validation)?).await,
            DocKind::Orcamento => self.quote(doc.id()?).await,
            DocKind::Pedido => {
                let series = doc.series().map_err(Error::validation)?;
                self.order(doc.id()?, &series).await
            }
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

    async fn report(&self, r: ReportRef) -> Result<Carried> {
        let reports = self.service("reports", "relatórios");
        let mut body = r.filters;
        body.insert("FORMATO".into(), Value::from(r.format.code()));
        body.insert("EMP_ID".into(), Value::from(self.emp));
        let action = format!("relatorio_{}", r.name);
        let reply = reports
            .action(
                "vendas",
                &action,
                &[("emp", self.emp.to_string())],
                &Value::Object(body),
            )
            .await?;
        let file = match reply.file {
            Some(f) => f,
            // The report's empty answer: no rows in the period.
            None if reply.empty => return Err(Error::NotFound(NO_ROWS.into())),
            None => {
                return Err(Error::internal(format!(
                    "reports: vendas.{action} answered no file"
                )))
            }
        };
        Ok(Carried {
            files: vec![Produced {
                name: format!("{action}.{}", r.format.code()),
                bytes: file.bytes,
            }],
            lines: Vec::new(),
        })
    }

    async fn quote(&self, id: i64) -> Result<Carried> {
        let pdf = self
            .service("orders", "pedidos")
            .file("orcamento", "pdf", &self.params("ORCA_ID", id), &json!({}))
            .await?;
        Ok(Carried {
            files: vec![Produced { name: format!("orcamento_{id}.pdf"), bytes: pdf.bytes }],
            lines: Vec::new(),
        })
    }

    async fn order(&self, id: i64, series: &str) -> Result<Carried> {
        let params = [
            ("PEDF_ID", id.to_string()),
            ("emp", self.emp.to_string()),
            ("PEDF_SERIE", series.to_string()),
        ];
        let pdf = self
            .service("orders", "pedidos")
            .file("pedido", "pdf", &params, &json!({}))
            .await?;
        Ok(Carried {
            files: vec![Produced { name: format!("pedido_{id}_{series}.pdf"), bytes: pdf.bytes }],
            lines: Vec::new(),
        })
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
        assert_eq!(Document::parse(None, Some(5), None), Ok(None));
        assert_eq!(Document::parse(Some("  "), None, Some(" ")), Ok(None));
        assert_eq!(
            Document::parse(Some("NFe"), Some(456), None),
            Ok(Some(Document {
                kind: DocKind::Nfe,
                id: Some(456),
                reference: None
            }))
        );
        assert_eq!(
            Document::parse(Some(" boleto "), Some(1), None).map(|d| d.map(|d| d.recorded())),
            Ok(Some(DocRecord {
                kind: "boleto".into(),
                id: Some(1),
                reference: None
            }))
        );
        assert_eq!(
            Document::parse(Some("ordemservico"), Some(1), None),
            Err(BAD_KIND)
        );
        assert_eq!(Document::parse(Some("recibo"), None, None), Err(NO_ID));
        assert_eq!(Document::parse(Some("recibo"), Some(0), None), Err(BAD_ID));
        assert_eq!(Document::parse(Some("orcamento"), None, None), Err(NO_ID));
        let quote = Document::parse(Some("Orcamento"), Some(12), None).expect("quote");
        assert_eq!(
            quote.map(|d| (d.kind, d.id)),
            Some((DocKind::Orcamento, Some(12)))
        );
    }

    #[test]
    fn a_reference_is_a_json_object() {
        for bad in ["{", "[1]", "\"vendas\"", "1", "null"] {
            assert_eq!(
                Document::parse(Some("relatorio"), None, Some(bad)),
                Err(BAD_REF),
                "{bad}"
            );
            assert_eq!(
                Document::parse(None, None, Some(bad)),
                Err(BAD_REF),
                "{bad}"
            );
        }
        let d = Document::parse(Some("boleto"), Some(3), Some(r#" {"x": 1} "#))
            .expect("ref")
            .expect("doc");
        assert_eq!(d.recorded().reference.as_deref(), Some(r#"{"x":1}"#));
    }

    #[test]
    fn a_report_needs_its_name_and_pdf_or_xlsx() {
        let report = |r: &str| Document::parse(Some("relatorio"), None, Some(r));
        let d = report(
            r#"{"relatorio": " Vendas ", "FORMATO": "XLSX", "DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30", "CLI_ID": 5}"#,
        )
        .expect("report")
        .expect("doc");
        assert_eq!(d.id, None);
        let r = d.report().expect("report");
        assert_eq!((r.name.as_str(), r.format), ("vendas", ReportFormat::Xlsx));
        assert_eq!(
            Value::Object(r.filters),
            json!({"DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30", "CLI_ID": 5})
        );
        // MENS_DOC_ID means nothing to a report.
        let d = Document::parse(
            Some("relatorio"),
            Some(9),
            Some(r#"{"relatorio":"vendas","FORMATO":"pdf"}"#),
        )
        .expect("report")
        .expect("doc");
        assert_eq!(d.recorded().id, None);
        assert_eq!(
            report(r#"{"relatorio":"vendas","FORMATO":"json"}"#),
            Err(BAD_FORMAT)
        );
        assert_eq!(report(r#"{"relatorio":"vendas"}"#), Err(BAD_FORMAT));
        assert_eq!(report(r#"{"FORMATO":"pdf"}"#), Err(NO_REPORT));
        assert_eq!(
            report(r#"{"relatorio":" ","FORMATO":"pdf"}"#),
            Err(NO_REPORT)
        );
        assert_eq!(
            Document::parse(Some("relatorio"), None, None),
            Err(NO_REPORT)
        );
        assert_eq!(
            report(r#"{"relatorio":"../x","FORMATO":"pdf"}"#),
            Err(BAD_REPORT)
        );
        assert_eq!(
            report(r#"{"relatorio":5,"FORMATO":"pdf"}"#),
            Err(BAD_REPORT)
        );
    }

    #[test]
    fn an_order_needs_its_series() {
        let order = |r: Option<&str>| Document::parse(Some("pedido"), Some(10), r);
        let series = |r: &str| order(Some(r)).map(|d| d.map(|d| d.series()));
        assert_eq!(series(r#"{"PEDF_SERIE":" 1 "}"#), Ok(Some(Ok("1".into()))));
        assert_eq!(series(r#"{"PEDF_SERIE":2}"#), Ok(Some(Ok("2".into()))));
        assert_eq!(order(None), Err(NO_SERIES));
        assert_eq!(order(Some("{}")), Err(NO_SERIES));
        assert_eq!(order(Some(r#"{"PEDF_SERIE":""}"#)), Err(NO_SERIES));
        assert_eq!(order(Some(r#"{"PEDF_SERIE":"1/2"}"#)), Err(BAD_SERIES));
        assert_eq!(order(Some(r#"{"PEDF_SERIE":-1}"#)), Err(BAD_SERIES));
        assert_eq!(
            Document::parse(Some("pedido"), None, Some(r#"{"PEDF_SERIE":"1"}"#)),
            Err(NO_ID)
        );
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
