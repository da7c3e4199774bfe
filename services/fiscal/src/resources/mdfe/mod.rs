//! The MDF-e (Manifesto Eletrônico de Documentos Fiscais, model 58, road
//! modal; spec data-and-calls "MDF-e"), declared once on the engine as a
//! document: the header `mdfe` (MDFE_*) and, as rows of the document, the
//! contractors (`mdfecontratante`, MDCO_*), freight payments
//! (`mdfepagamentos`, MDPG_*) and their components (`mdfecomponentes`,
//! MDPC_*), origin cities (`mdfecidadeorigem`, MCIO_*), destination cities
//! (`mdfecidadedestino`, MCID_*) and the NF-e/CT-e unloaded in each
//! (`mdfenotascidadedestino`, MDNC_*), path states (`mdfeufpercurso`,
//! MUFP_*), toll vouchers (`mdfevalepedagio`, MDVP_*), vehicles
//! (`mdfeveiculo`, VEIC_*), drivers (`mdfemotorista`, MDMO_*) and seals
//! (`mdfelacres`, LACRE_*). Issued through the Nuvem Fiscal.
//!
//! The header and its rows accept changes while the MDF-e is `aberto`, or
//! after a rejection or a refusal by the provider (`rejeitado`, `erro`); an
//! issued one refuses edits and deletion (the engine's status, and a
//! database trigger for every path).
//!
//! Calls (besides the generic list, filtro, registros, create, update and
//! delete of every register):
//! - `GET /mdfenumerosequencial/{emp}`: the series and next number the next
//!   emission takes (`numeracao`, model 58);
//! - `GET /mdfe/emitirnota/{MDFE_ID}/{emp}`: validates, numbers, sends, stores
//!   the provider's id and waits for the SEFAZ (`emission`); a rejection
//!   answers its `cStat`, `xMotivo` and the plain explanation;
//! - `GET /mdfe/consultar/{MDFE_ID}/{emp}`: synchronise and wait;
//! - `POST /mdfe/cancelar/{MDFE_ID}/{emp}` {JUSTIFICATIVA} (15 to 255);
//! - `POST /mdfe/encerramento/{emp}` {MDFE_ID, DATA_ENCERRAMENTO, UF,
//!   CODIGO_MUNICIPIO}: closes an authorised MDF-e (`encerrado`);
//! - `POST /mdfe/xml/{MDFE_ID}/{emp}`, `POST /mdfe/damdfe/{MDFE_ID}/{emp}`;
//! - `POST /mdfeduplicar/{MDFE_ID}/{emp}`: a new open MDF-e with the same
//!   data and rows, no fiscal fields;
//! - `GET /mdfecidadedestino_semdoc/{id}/{emp}`: destination cities without
//!   any document (what blocks the emission).
//!
//! Layout: here the header's descriptor and the document; `rows`: the
//! descriptors of its rows; `hooks`: the rows' checks; `calls`: the
//! declared calls; `emission`: the step particular to it and its `dfe::Kind`
//! (the provider's steps, rows and answers are every document's, `dfe`);
//! `sources`: what an MDF-e is read from; `request`: the `MdfePedidoEmissao`
//! built from it. The SEFAZ codes particular to it: `crate::rejections`.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, Button, DbType, Document, Field, Resource, Role, Source};
use serde_json::json;

use self::emission::Mdfe;
use super::dfe::calls::{Consult, Download};
use super::dfe::files::File;
use super::taxes::codes::ENVIRONMENTS;

mod calls;
pub mod emission;
mod hooks;
pub mod request;
mod rows;
pub mod sources;

pub const NAME: &str = "mdfe";
const SCHEMA: &str = crate::SCHEMA;
const PROGRAM: &str = "mdfe";

pub const MISSING: &str = "MDF-e não encontrado.";
pub const ISSUED: &str =
    "MDF-e já enviado à SEFAZ: só um MDF-e em aberto, rejeitado ou não enviado aceita alterações.";

/// What the calls share (the provider's client, the service's pool).
pub type Ctx = super::dfe::Ctx;

pub const STATUSES: [(&str, &str); 9] = [
    ("aberto", "Em aberto"),
    ("enviando", "Enviando"),
    ("pendente", "Aguardando a SEFAZ"),
    ("autorizado", "Autorizado"),
    ("rejeitado", "Rejeitado"),
    ("denegado", "Denegado"),
    ("cancelado", "Cancelado"),
    ("encerrado", "Encerrado"),
    ("erro", "Erro no envio"),
];
/// The statuses in which the MDF-e and its rows accept changes.
pub const OPEN: [&str; 3] = ["aberto", "rejeitado", "erro"];

const EMITTER_TYPES: [(&str, &str); 3] = [
    ("1", "1 - Prestador de serviço de transporte"),
    ("2", "2 - Transportador de carga própria"),
    (
        "3",
        "3 - Prestador de serviço de transporte que emitirá CT-e Globalizado",
    ),
];
const TRANSPORTER_TYPES: [(&str, &str); 3] = [("1", "1 - ETC"), ("2", "2 - TAC"), ("3", "3 - CTC")];
const MODALS: [(&str, &str); 1] = [("1", "1 - Rodoviário")];
const UNITS: [(&str, &str); 2] = [("01", "01 - KG"), ("02", "02 - TON")];
const LOAD_TYPES: [(&str, &str); 11] = [
    ("01", "01 - Granel sólido"),
    ("02", "02 - Granel líquido"),
    ("03", "03 - Frigorificada"),
    ("04", "04 - Conteinerizada"),
    ("05", "05 - Carga Geral"),
    ("06", "06 - Neogranel"),
    ("07", "07 - Perigosa (granel sólido)"),
    ("08", "08 - Perigosa (granel líquido)"),
    ("09", "09 - Perigosa (carga frigorificada)"),
    ("10", "10 - Perigosa (conteinerizada)"),
    ("11", "11 - Perigosa (carga geral)"),
];

/// The MDF-e and its rows, as one document.
pub fn all(ctx: Arc<Ctx>) -> std::result::Result<Vec<Resource>, String> {
    Document::new(mdfe(ctx))
        .status("MDFE_SITUACAO", &OPEN, ISSUED)
        .tones(&[
            ("aberto", "open"),
            ("rejeitado", "open"),
            ("erro", "open"),
            ("autorizado", "done"),
            ("encerrado", "done"),
            ("cancelado", "cancelled"),
            ("denegado", "cancelled"),
        ])
        .missing(MISSING)
        .date("MDFE_DTA_VIAGEM")
        .breadcrumbs(&["Início", "Fiscal", "MDF-e"])
        .child(rows::mdfecidadeorigem(), &["MCIO_MDFE_ID"])
        .child(rows::mdfecidadedestino(), &["MCID_MDFE_ID"])
        .child(rows::mdfenotascidadedestino(), &["MDNC_MDFE_ID"])
        .child(rows::mdfeufpercurso(), &["MUFP_MDFE_ID"])
        .child(rows::mdfeveiculo(), &["VEIC_MDFE_ID"])
        .child(rows::mdfemotorista(), &["MDMO_MDFE_ID"])
        .child(rows::mdfelacres(), &["LACRE_MDFE_ID"])
        .child(rows::mdfecontratante(), &["MDCO_MDFE_ID"])
        .child(rows::mdfeseguro(), &["MSEG_MDFE_ID"])
        .child(rows::mdfepagamentos(), &["MDPG_MDFE_ID"])
        .child(rows::mdfecomponentes(), &["MDPC_MDFE_ID"])
        .child(rows::mdfevalepedagio(), &["MDVP_MDFE_ID"])
        .build()
}

fn header_fields() -> Vec<Field> {
    vec![
        Field::id("MDFE_ID", "Código"),
        Field::int("MDFE_EMP_ID", "Empresa"),
        Field::options(
            "MDFE_TP_EMIT",
            "Tipo do Emitente",
            DbType::Int,
            &EMITTER_TYPES,
        )
        .required()
        .default(json!(2))
        .width(4),
        Field::options(
            "MDFE_TP_TRANSP",
            "Tipo do Transportador",
            DbType::Int,
            &TRANSPORTER_TYPES,
        )
        .width(3),
        Field::options("MDFE_MODAL", "Modal", DbType::Int, &MODALS)
            .default(json!(1))
            .width(2),
        Field::text("MDFE_UF_INI", "UF de Carregamento")
            .required()
            .len(2)
            .list()
            .width(2),
        Field::text("MDFE_UF_FIM", "UF de Descarregamento")
            .required()
            .len(2)
            .list()
            .width(2),
        Field::date("MDFE_DTA_VIAGEM", "Início da Viagem").list(),
        Field::text("MDFE_HORA_VIAGEM", "Hora (HH:MM)")
            .len(5)
            .mask("##:##")
            .width(2),
        Field::text("MDFE_RNTRC", "RNTRC").len(8).width(2),
        Field::text("MDFE_CIOT", "CIOT").len(12).width(2),
        Field::cpf_cnpj("MDFE_CIOT_CPF_CNPJ", "CPF/CNPJ de quem gerou o CIOT").width(3),
        Field::money("MDFE_VLR_CARGA", "Valor da Carga")
            .required()
            .list()
            .width(2),
        Field::options("MDFE_C_UNID", "Unidade do Peso", DbType::Text, &UNITS)
            .default(json!("01"))
            .width(2),
        Field::decimal("MDFE_Q_CARGA", "Peso Bruto da Carga")
            .scale(4)
            .min("0")
            .required()
            .width(2),
        Field::options(
            "MDFE_PROD_TP_CARGA",
            "Tipo de Carga",
            DbType::Text,
            &LOAD_TYPES,
        )
        .width(3),
        Field::text("MDFE_PROD_DESCRICAO", "Produto Predominante")
            .len(120)
            .searchable()
            .width(6),
        Field::text("MDFE_PROD_NCM", "NCM do Produto")
            .len(8)
            .width(2),
        Field::text("MDFE_PROD_EAN", "GTIN do Produto")
            .len(14)
            .width(2),
        Field::textarea("MDFE_OBS", "Observações (interesse do contribuinte)").len(5000),
        Field::textarea("MDFE_OBS_FISCO", "Observações (interesse do fisco)").len(2000),
        Field::int("MDFE_USR_ID", "Usuário").role(Role::CreatedBy),
        Field::timestamp("MDFE_DTA_CAD", "Cadastro"),
        Field::int("MDFE_SERIE", "Série")
            .read_only()
            .list()
            .width(1),
        Field::int("MDFE_NUMERO", "Número")
            .read_only()
            .list()
            .width(2),
        Field::options("MDFE_AMBIENTE", "Ambiente", DbType::Int, &ENVIRONMENTS).read_only(),
        Field::int("MDFE_TENTATIVA", "Tentativa").read_only(),
        Field::text("MDFE_REFERENCIA", "Referência na Nuvem Fiscal").read_only(),
        Field::text("MDFE_ID_FISCAL", "Id na Nuvem Fiscal").read_only(),
        Field::options("MDFE_SITUACAO", "Situação", DbType::Text, &STATUSES)
            .read_only()
            .list()
            .width(3),
        Field::access_key("MDFE_CHAVE", "Chave de Acesso")
            .read_only()
            .searchable()
            .list(),
        Field::text("MDFE_PROTOCOLO", "Protocolo").read_only(),
        Field::int("MDFE_CSTAT", "cStat").read_only(),
        Field::text("MDFE_MOTIVO", "Motivo").read_only(),
        Field::textarea("MDFE_EXPLICACAO", "Explicação").read_only(),
        Field::int("MDFE_QTD_CTE", "Quantidade de CT-e")
            .read_only()
            .width(2),
        Field::int("MDFE_QTD_NFE", "Quantidade de NF-e")
            .read_only()
            .width(2),
        Field::timestamp("MDFE_DTA_EMISSAO", "Emissão").list(),
        Field::timestamp("MDFE_DTA_AUTORIZACAO", "Autorização"),
        Field::text("MDFE_CANCEL_JUSTIFICATIVA", "Justificativa do Cancelamento").read_only(),
        Field::text("MDFE_CANCEL_PROTOCOLO", "Protocolo do Cancelamento").read_only(),
        Field::timestamp("MDFE_DTA_CANCELAMENTO", "Cancelamento"),
        Field::date("MDFE_DTA_ENCERRAMENTO", "Encerramento").read_only(),
        Field::text("MDFE_UF_ENCERRAMENTO", "UF de Encerramento").read_only(),
        Field::text("MDFE_MUN_ENCERRAMENTO", "Município de Encerramento (IBGE)").read_only(),
        Field::text("MDFE_ENC_PROTOCOLO", "Protocolo do Encerramento").read_only(),
    ]
}

fn mdfe(ctx: Arc<Ctx>) -> Resource {
    let by_id = |b: Button| b.param("MDFE_ID", Source::Field("MDFE_ID".into()));
    Resource::new(NAME, "MDF-e", SCHEMA, "mdfe", PROGRAM)
        .screen("/mdfe")
        .key(&["MDFE_ID"])
        .company("MDFE_EMP_ID")
        .label("MDFE_PROD_DESCRICAO")
        .order("MDFE_ID DESC")
        .hooks(Arc::new(hooks::Header))
        .constraint("mdfe_exclusao_check", "Só se exclui um MDF-e em aberto, rejeitado ou não enviado: um MDF-e autorizado é cancelado ou encerrado.")
        .constraint("mdfe_numero_key", "Número de MDF-e já usado nesta série.")
        .sample(json!({"MDFE_TP_EMIT": 2, "MDFE_UF_INI": "SP", "MDFE_UF_FIM": "MG",
            "MDFE_DTA_VIAGEM": "2026-12-16", "MDFE_HORA_VIAGEM": "08:30", "MDFE_VLR_CARGA": "25000.00",
            "MDFE_C_UNID": "01", "MDFE_Q_CARGA": "1200.5", "MDFE_PROD_TP_CARGA": "05",
            "MDFE_PROD_DESCRICAO": "PARAFUSOS E PORCAS", "MDFE_PROD_NCM": "73181500"}))
        .fields(header_fields())
        // The trip and the load first; what the SEFAZ answered, the cancel and
        // the closing last, where they do not stand in the way while typing.
        .group(Some("Viagem"), true, 12, &["MDFE_ID", "MDFE_TP_EMIT", "MDFE_TP_TRANSP", "MDFE_MODAL",
            "MDFE_UF_INI", "MDFE_UF_FIM", "MDFE_DTA_VIAGEM", "MDFE_HORA_VIAGEM", "MDFE_RNTRC", "MDFE_CIOT", "MDFE_CIOT_CPF_CNPJ"])
        .group(Some("Carga"), true, 12, &["MDFE_VLR_CARGA", "MDFE_C_UNID", "MDFE_Q_CARGA",
            "MDFE_PROD_TP_CARGA", "MDFE_PROD_DESCRICAO", "MDFE_PROD_NCM", "MDFE_PROD_EAN"])
        .group(Some("Observações"), true, 12, &["MDFE_OBS", "MDFE_OBS_FISCO"])
        .group(Some("SEFAZ"), true, 12, &["MDFE_SERIE", "MDFE_NUMERO", "MDFE_AMBIENTE", "MDFE_SITUACAO",
            "MDFE_CHAVE", "MDFE_PROTOCOLO", "MDFE_CSTAT", "MDFE_MOTIVO", "MDFE_EXPLICACAO", "MDFE_QTD_CTE",
            "MDFE_QTD_NFE", "MDFE_DTA_EMISSAO", "MDFE_DTA_AUTORIZACAO", "MDFE_TENTATIVA", "MDFE_REFERENCIA",
            "MDFE_ID_FISCAL"])
        .group(Some("Cancelamento e encerramento"), true, 12, &["MDFE_CANCEL_JUSTIFICATIVA",
            "MDFE_CANCEL_PROTOCOLO", "MDFE_DTA_CANCELAMENTO", "MDFE_DTA_ENCERRAMENTO", "MDFE_UF_ENCERRAMENTO",
            "MDFE_MUN_ENCERRAMENTO", "MDFE_ENC_PROTOCOLO"])
        .group(Some("Cadastro"), true, 12, &["MDFE_USR_ID", "MDFE_DTA_CAD"])
        .action(
            "GET",
            "/mdfenumerosequencial/{emp}",
            "numerosequencial",
            ActionPerm::View,
            "MDF-e: a série e o próximo número da numeração (modelo 58)",
            Arc::new(calls::NextNumber),
        )
        .action(
            "GET",
            "/mdfe/emitirnota/{MDFE_ID}/{emp}",
            "emitirnota",
            ActionPerm::Update,
            "MDF-e: emitir (valida, numera, envia à Nuvem Fiscal e aguarda a SEFAZ)",
            Arc::new(calls::Emit(ctx.clone())),
        )
        .button(by_id(Button::new("Emitir MDF-e").primary().open_when(&OPEN).confirm(
            "Emitir MDF-e",
            "Deseja emitir o MDF-e {MDFE_ID}? Depois de autorizado ele não poderá mais ser alterado.",
            "Emitir",
        )))
        .action(
            "GET",
            "/mdfe/consultar/{MDFE_ID}/{emp}",
            "consultar",
            ActionPerm::View,
            "MDF-e: consultar na SEFAZ (sincronizar e aguardar a situação final)",
            Arc::new(Consult { ctx: ctx.clone(), doc: &Mdfe, locate: calls::locate }),
        )
        .button(by_id(Button::new("Consultar").open_when(&[
            "enviando",
            "pendente",
            "autorizado",
            "cancelado",
            "encerrado",
        ])))
        .action(
            "POST",
            "/mdfe/cancelar/{MDFE_ID}/{emp}",
            "cancelar",
            ActionPerm::Update,
            "MDF-e: cancelar (JUSTIFICATIVA de 15 a 255 caracteres)",
            Arc::new(calls::Cancel(ctx.clone())),
        )
        .button(by_id(
            Button::new("Cancelar")
                .open_when(&["autorizado"])
                .dialog("justificativa", "Justificativa do cancelamento (15 a 255 caracteres)"),
        ))
        .action(
            "POST",
            "/mdfe/encerramento/{emp}",
            "encerramento",
            ActionPerm::Update,
            "MDF-e: encerrar (MDFE_ID, DATA_ENCERRAMENTO AAAA-MM-DD, UF, CODIGO_MUNICIPIO IBGE)",
            Arc::new(calls::Close(ctx.clone())),
        )
        .button(
            Button::new("Encerrar")
                .open_when(&["autorizado"])
                .body("MDFE_ID", Source::Field("MDFE_ID".into()))
                .dialog("encerramento", "Encerrar o MDF-e: data, UF e município"),
        )
        .action(
            "POST",
            "/mdfe/xml/{MDFE_ID}/{emp}",
            "xml",
            ActionPerm::View,
            "MDF-e: baixar o XML",
            Arc::new(Download { ctx: ctx.clone(), doc: &Mdfe, file: File::Xml, locate: calls::locate }),
        )
        .button(by_id(Button::new("XML").download().open_when(&["autorizado", "cancelado", "encerrado"])))
        .action(
            "POST",
            "/mdfe/damdfe/{MDFE_ID}/{emp}",
            "damdfe",
            ActionPerm::View,
            "MDF-e: baixar o DAMDFE (PDF)",
            Arc::new(Download { ctx, doc: &Mdfe, file: File::Pdf, locate: calls::locate }),
        )
        .button(by_id(Button::new("DAMDFE").download().open_when(&["autorizado", "cancelado", "encerrado"])))
        .action(
            "POST",
            "/mdfeduplicar/{MDFE_ID}/{emp}",
            "duplicar",
            ActionPerm::Create,
            "MDF-e: duplicar (um MDF-e novo em aberto com os mesmos dados e linhas, sem os dados fiscais)",
            Arc::new(calls::Duplicate),
        )
        .button(by_id(Button::new("Duplicar").opens(NAME).confirm(
            "Duplicar MDF-e",
            "Deseja criar um MDF-e novo, em aberto, com os dados do MDF-e {MDFE_ID}?",
            "Duplicar",
        )))
}
