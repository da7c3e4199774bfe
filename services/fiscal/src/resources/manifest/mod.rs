//! The NF-e manifest (`manifestonfe`, spec data-and-calls §7 "Manifest"): the
//! NF-e issued against the company, fetched from the Ambiente Nacional through
//! the Nuvem Fiscal's distribution (or uploaded as XML), and what the company
//! says of each (manifestação do destinatário). Listed by date, newest first.
//!
//! Calls (besides the generic list, count and get):
//! - `POST /manifestonfe/distribuicao/{emp}`: asks for the documents after
//!   the company's last NSU, until there is nothing newer; a new NF-e becomes
//!   a row (summary), a whole one fills its row's XML; with the company's
//!   automatic ciência (`EMPS_DIST_CIENCIA_AUT`) a new NF-e gets its ciência;
//! - `POST /manifestonfe/manifestar/nfe` {MAN_ID, TIPO_EVENTO (210210 ciência,
//!   210200 confirmação, 210220 desconhecimento, 210240 operação não
//!   realizada), JUSTIFICATIVA}: registers the event at the SEFAZ; a ciência
//!   or confirmação fetches the whole NF-e;
//! - `POST /manifestonfe/download/doc` {MAN_ID}: the NF-e's XML (the whole
//!   one once available);
//! - `POST /manifestonfe/updatefornecedor` {MAN_ID, FOR_ID, COMP_ID?}: the
//!   supplier the NF-e is from and, once imported, the purchase it became;
//! - `POST /manifestonfe` (multipart `file`: an NF-e XML): an NF-e received
//!   outside the distribution (e-mail, the supplier's portal).
//!
//! Rows are written by these calls only: the generic create and update are
//! refused (the generic delete removes a row, e.g. an upload made by mistake).
//!
//! Layout: here the descriptor and its buttons; `calls`: the calls;
//! `events`: the manifestation sent and recorded; `store`: the company's
//! settings and the rows (an NF-e XML is read by `crate::nfe_xml`).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{
    ActionPerm, Button, DbType, Document, Field, Hooks, Op, Resource, Source,
};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

mod calls;
mod events;
mod store;

pub const NAME: &str = "manifestonfe";
const SCHEMA: &str = crate::SCHEMA;

pub use super::company::Ctx;

/// `MAN_SITUACAO`: what the company said of the NF-e.
pub const STATUSES: [(&str, &str); 5] = [
    ("P", "Sem manifestação"),
    ("C", "Ciência da operação"),
    ("F", "Operação confirmada"),
    ("D", "Operação desconhecida"),
    ("N", "Operação não realizada"),
];

/// `MAN_MANIFESTACAO`: the last manifestation event sent, by its name.
pub const EVENTS: [(&str, &str); 4] = [
    ("210210", "Ciência da Operação"),
    ("210200", "Confirmação da Operação"),
    ("210220", "Desconhecimento da Operação"),
    ("210240", "Operação não Realizada"),
];

const ORIGINS: [(&str, &str); 2] = [
    ("DISTRIBUICAO", "Distribuição (SEFAZ)"),
    ("UPLOAD", "XML enviado"),
];

pub fn all(ctx: Arc<Ctx>) -> Vec<Resource> {
    match Document::new(manifestonfe(ctx))
        .status("MAN_SITUACAO", &[], CALLS_ONLY)
        .tones(&[
            ("P", "open"),
            ("C", "open"),
            ("F", "done"),
            ("D", "cancelled"),
            ("N", "cancelled"),
        ])
        .missing("NF-e do manifesto não encontrada.")
        .date("MAN_DATA")
        .breadcrumbs(&["Início", "Fiscal", "Manifesto de NF-e"])
        .build()
    {
        Ok(resources) => resources,
        // The declaration is static: a mistake in it fails every test at once.
        Err(e) => panic!("manifestonfe: {e}"),
    }
}

const CALLS_ONLY: &str =
    "As NF-e do manifesto vêm da SEFAZ (Buscar NF-e) ou de um XML enviado; não são incluídas nem alteradas à mão.";

fn fields() -> Vec<Field> {
    vec![
        Field::id("MAN_ID", "Código"),
        Field::int("MAN_EMP_ID", "Empresa"),
        Field::date("MAN_DATA", "Emissão").read_only().list(),
        Field::int("MAN_NUMERO", "Número")
            .read_only()
            .list()
            .width(2),
        Field::int("MAN_SERIE", "Série").read_only().list().width(1),
        Field::cpf_cnpj("MAN_EMIT_CNPJ", "CNPJ do Emitente")
            .read_only()
            .list(),
        Field::text("MAN_EMIT_NOME", "Emitente")
            .read_only()
            .searchable()
            .list()
            .width(6),
        Field::text("MAN_EMIT_IE", "IE do Emitente").read_only(),
        Field::money("MAN_VALOR", "Valor").read_only().list(),
        Field::options("MAN_SITUACAO", "Situação", DbType::Text, &STATUSES)
            .read_only()
            .list()
            .width(3),
        Field::access_key("MAN_CHAVE", "Chave de Acesso")
            .read_only()
            .searchable(),
        Field::text("MAN_PROTOCOLO", "Protocolo de Autorização").read_only(),
        Field::int("MAN_NSU", "NSU").read_only(),
        Field::options("MAN_ORIGEM", "Origem", DbType::Text, &ORIGINS).read_only(),
        Field::boolean("MAN_COMPLETA", "XML completo")
            .read_only()
            .list()
            .width(2),
        Field::options("MAN_MANIFESTACAO", "Último evento", DbType::Text, &EVENTS).read_only(),
        Field::text("MAN_MANIF_PROTOCOLO", "Protocolo da Manifestação").read_only(),
        Field::timestamp("MAN_MANIF_DATA", "Manifestada em"),
        Field::textarea("MAN_JUSTIFICATIVA", "Justificativa").read_only(),
        Field::reference(
            "MAN_FOR_ID",
            "Fornecedor",
            "fornecedores",
            erp_platform::resource::Kind::Autocomplete,
        )
        .read_only()
        .width(6),
        Field::int("MAN_COMP_ID", "Compra").read_only().width(2),
        Field::timestamp("MAN_DTA_CAD", "Recebida em"),
        Field::int("MAN_USR_ID", "Usuário").server(),
    ]
}

fn manifest_button(label: &str, code: &str, open_when: &[&str]) -> Button {
    Button::new(label)
        .open_when(open_when)
        .body("MAN_ID", Source::Field("MAN_ID".into()))
        .body("TIPO_EVENTO", Source::Const(code.into()))
}

fn manifestonfe(ctx: Arc<Ctx>) -> Resource {
    Resource::new(NAME, "Manifesto de NF-e", SCHEMA, "manifestonfe", "manifestonfe")
        .screen("/manifestonfe")
        .key(&["MAN_ID"])
        .company("MAN_EMP_ID")
        .label("MAN_EMIT_NOME")
        .order("MAN_DATA DESC, MAN_ID DESC")
        .hooks(Arc::new(CallsOnly))
        // No sample: a row is an NF-e the SEFAZ distributed.
        .fields(fields())
        .upload_action(
            "POST",
            "/manifestonfe",
            "uploads",
            &["xml"],
            "Manifesto de NF-e: incluir uma NF-e recebida fora da distribuição (arquivo XML)",
            Arc::new(calls::Upload(ctx.clone())),
        )
        .action(
            "POST",
            "/manifestonfe/distribuicao/{emp}",
            "distribuicao",
            ActionPerm::Create,
            "Manifesto de NF-e: buscar na SEFAZ as NF-e emitidas contra a empresa (desde o último NSU)",
            Arc::new(calls::Distribute(ctx.clone())),
        )
        .action(
            "POST",
            "/manifestonfe/manifestar/nfe",
            "manifestar",
            ActionPerm::Update,
            "Manifesto de NF-e: manifestar (MAN_ID, TIPO_EVENTO 210210 ciência, 210200 confirmação, 210220 desconhecimento, 210240 não realizada, JUSTIFICATIVA)",
            Arc::new(calls::Manifest(ctx.clone())),
        )
        .button(manifest_button("Ciência da Operação", "210210", &["P"]).primary())
        .button(manifest_button("Confirmar Operação", "210200", &["P", "C"]).confirm(
            "Confirmar operação",
            "Confirmar que a NF-e {MAN_NUMERO} de {MAN_EMIT_NOME} foi recebida como emitida? A confirmação é definitiva.",
            "Confirmar",
        ))
        .button(
            manifest_button("Desconhecer", "210220", &["P", "C"])
                .dialog("justificativa", "Desconhecimento da operação"),
        )
        .button(
            manifest_button("Operação não Realizada", "210240", &["P", "C"])
                .dialog("justificativa", "Operação não realizada"),
        )
        .action(
            "POST",
            "/manifestonfe/download/doc",
            "download",
            ActionPerm::View,
            "Manifesto de NF-e: baixar o XML da NF-e (MAN_ID)",
            Arc::new(calls::Download(ctx.clone())),
        )
        .button(
            Button::new("Baixar XML")
                .body("MAN_ID", Source::Field("MAN_ID".into()))
                .download(),
        )
        .action(
            "POST",
            "/manifestonfe/updatefornecedor",
            "updatefornecedor",
            ActionPerm::Update,
            "Manifesto de NF-e: o fornecedor da NF-e e, depois de importada, a compra (MAN_ID, FOR_ID, COMP_ID opcional)",
            Arc::new(calls::Supplier),
        )
}

/// The generic create and update would write an NF-e the SEFAZ never sent.
struct CallsOnly;

#[async_trait]
impl Hooks for CallsOnly {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        match op {
            Op::Delete => Ok(()),
            _ => Err(Error::validation(CALLS_ONLY)),
        }
    }
}
