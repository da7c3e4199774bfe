//! The CT-e (Conhecimento de Transporte Eletrônico, model 57, modal
//! rodoviário), declared once as a document: the `cte` header (CTE_*) typed
//! by the user, with its rows `ctenotas` (the NF-e it carries, CTEN_*),
//! `cteufpercursos` (the states of the route, CUFP_*), `cteveiculosnovos` (new
//! vehicles carried, CTVN_*) and `ctecartacorrecaogrupo` (its correction
//! letters, CTECG_*, written by the correction-letter call only). Issued
//! through the Nuvem Fiscal like the NF-e of orders (`order_nfe`).
//!
//! The generic list/filtro/registros/create/update/delete serve `/cte` and its
//! rows; an issued CT-e (sent, authorised, cancelled) refuses changes and
//! deletion (the document's status: only `aberto`, `rejeitado` and `erro` are
//! open; a database trigger guards deletion for every path).
//!
//! Calls (paths of the spec):
//! - `GET /ctenumerosequencial/{id}/{emp}`: the series and number the CT-e has
//!   or would take from the numbering (model 57);
//! - `GET /cte/emitirnota/{id}/{emp}/{type}` (`type`: 1 produção, 2
//!   homologação): validates, numbers, sends once, waits (`emission`);
//! - `GET /cte/consultar/{id}/{emp}`: synchronises and waits;
//! - `POST /cte/cancelar/{fiscalId}` {JUSTIFICATIVA} (15 to 255 characters);
//! - `POST /cte/cartacorrecao/{emp}` and `POST /ctecartacorrecao`
//!   {CTE_ID, CORRECOES: [{GRUPO, CAMPO, VALOR, NUMERO_ITEM?}]} (or one
//!   correction at the top of the body): recorded in `ctecartacorrecaogrupo`;
//! - `GET /ctexml/{id}/{emp}`, `POST /cte/xml/{emp}` {CTE_ID} and
//!   `GET /cte/dacte/{id}/{emp}`: the XML and the DACTE;
//! - `GET /cte/listarcte/{cnpjcpf}/{key}/{skip}/{type}`: the company's CT-e at
//!   the provider (`key` 0: any);
//! - `GET /cte/carregaxml/{emp}`: the company's authorised NF-e, to carry;
//! - `POST /cteduplicar/{id}/{emp}`: a new open CT-e with the same data and
//!   rows, without the fiscal fields.
//!
//! Layout: here the descriptors; `calls`: the declared calls; `emission`: the
//! step particular to it and its `dfe::Kind` (the provider's steps, rows and
//! answers are every document's, `dfe`); `sources`: what a CT-e is read from;
//! `parties`: its parties and places as the request takes them; `request`:
//! the request built from them; `hooks`: the registers' checks.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, Button, DbType, Document, Field, Kind, Resource, Source};
use serde_json::json;

use self::emission::Cte;
use super::dfe::calls::{Consult, Download};
use super::dfe::files::File;
use super::taxes::cfop::cfop;
use super::taxes::codes::{
    CTE_CST, CTE_FREIGHT_PAYERS, CTE_MODALS, CTE_SERVICE_TYPES, CTE_TAKERS, CTE_TYPES, CTE_UNITS,
    ENVIRONMENTS,
};

mod calls;
pub mod emission;
mod hooks;
mod parties;
pub mod request;
pub mod sources;

/// What the calls share (the provider's client, the service's pool).
pub type Ctx = super::dfe::Ctx;

pub const NAME: &str = "cte";
const SCHEMA: &str = crate::SCHEMA;
const PROGRAM: &str = "cte";

pub const MISSING: &str = "CT-e não encontrado.";
pub const ISSUED: &str = "CT-e já enviado à SEFAZ: não pode ser alterado nem excluído.";

/// The statuses; `aberto`, `rejeitado` and `erro` accept changes.
pub const STATUSES: [(&str, &str); 8] = [
    ("aberto", "Em digitação"),
    ("enviando", "Enviando"),
    ("pendente", "Aguardando a SEFAZ"),
    ("autorizado", "Autorizado"),
    ("rejeitado", "Rejeitado"),
    ("denegado", "Denegado"),
    ("cancelado", "Cancelado"),
    ("erro", "Erro no envio"),
];
pub const OPEN: [&str; 3] = ["aberto", "rejeitado", "erro"];

pub fn all(ctx: Arc<Ctx>) -> Result<Vec<Resource>, String> {
    Document::new(grouped(cte(ctx)))
        .status("CTE_SITUACAO", &OPEN, ISSUED)
        .tones(&[
            ("aberto", "open"),
            ("rejeitado", "open"),
            ("erro", "open"),
            ("autorizado", "done"),
            ("cancelado", "cancelled"),
            ("denegado", "cancelled"),
        ])
        .missing(MISSING)
        .date("CTE_DTA_EMISSAO")
        .breadcrumbs(&["Início", "Fiscal", "CT-e"])
        .child(ctenotas(), &["CTEN_CTE_ID"])
        .child(cteufpercursos(), &["CUFP_CTE_ID"])
        .child(cteveiculosnovos(), &["CTVN_CTE_ID"])
        .child(ctecartacorrecaogrupo(), &["CTECG_CTE_ID"])
        .build()
}

/// A party's fields (sender `REM`, recipient `DEST`, another taker `TOMA`):
/// the customer copy it may come from and what the CT-e says of it (typed, or
/// filled from the copy where left blank).
fn party(p: &str, who: &str) -> Vec<Field> {
    let f = |suffix: &str| format!("CTE_{p}_{suffix}");
    let mut out = vec![Field::reference(
        &f("CLI_ID"),
        &format!("{who} (cliente)"),
        "clientes",
        Kind::Autocomplete,
    )
    .width(6)];
    if p != "TOMA" {
        out.push(Field::cpf_cnpj(&f("CNPJCPF"), &format!("CPF/CNPJ do {who}")).width(3));
    }
    let name = Field::text(&f("NOME"), &format!("Nome do {who}"))
        .len(60)
        .width(6);
    out.push(if p == "TOMA" {
        name
    } else {
        name.searchable().list()
    });
    out.extend([
        Field::text(&f("IE"), &format!("IE do {who}"))
            .len(20)
            .width(3),
        Field::text(&f("ENDERECO"), &format!("Endereço do {who}"))
            .len(255)
            .width(6),
        Field::text(&f("NUMERO"), "Número").len(60).width(2),
        Field::text(&f("BAIRRO"), "Bairro").len(60).width(3),
        Field::text(&f("MUN_IBGE"), "Município (IBGE)")
            .len(7)
            .width(2),
        Field::text(&f("MUNICIPIO"), "Município").len(60).width(3),
        Field::text(&f("UF"), "UF").len(2).width(1),
        Field::cep(&f("CEP"), "CEP"),
    ]);
    out
}

fn place(p: &str, what: &str) -> Vec<Field> {
    vec![
        Field::text(
            &format!("CTE_MUN_{p}_IBGE"),
            &format!("Município {what} (IBGE)"),
        )
        .len(7)
        .width(2),
        Field::text(&format!("CTE_MUN_{p}_NOME"), &format!("Município {what}"))
            .len(60)
            .width(3),
        Field::text(&format!("CTE_MUN_{p}_UF"), &format!("UF {what}"))
            .len(2)
            .width(1),
    ]
}

fn fields() -> Vec<Field> {
    let mut f = vec![
        Field::id("CTE_ID", "Código"),
        Field::int("CTE_EMP_ID", "Empresa"),
        Field::options("CTE_SITUACAO", "Situação", DbType::Text, &STATUSES)
            .read_only()
            .list()
            .width(2),
        Field::options("CTE_TIPO_CTE", "Tipo do CT-e", DbType::Int, &CTE_TYPES)
            .required()
            .default(json!(1))
            .width(3),
        // The CT-e a complement (2) or a substitute (4) refers to.
        Field::access_key("CTE_CHAVE_REF", "Chave do CT-e Complementado/Substituído").width(6),
        Field::boolean("CTE_ALTERA_TOMA", "Substituição altera o tomador").width(3),
        Field::options(
            "CTE_TIPO_SERVICO",
            "Tipo do Serviço",
            DbType::Int,
            &CTE_SERVICE_TYPES,
        )
        .required()
        .default(json!(0))
        .width(3),
        Field::options("CTE_MODAL", "Modal", DbType::Text, &CTE_MODALS)
            .required()
            .default(json!("01"))
            .width(2),
        Field::options("CTE_AMBIENTE", "Ambiente", DbType::Int, &ENVIRONMENTS)
            .required()
            .default(json!(2))
            .width(2),
        cfop("CTE_CFOP", "CFOP").required(),
        Field::text("CTE_NATUREZA", "Natureza da Operação")
            .len(60)
            .required()
            .searchable()
            .width(6),
        Field::date("CTE_DTA_EMISSAO", "Data").list(),
        Field::options(
            "CTE_FRMP_ID",
            "Pagamento do Frete",
            DbType::Int,
            &CTE_FREIGHT_PAYERS,
        )
        .required()
        .default(json!(1))
        .width(2),
        Field::options(
            "CTE_TOMADOR",
            "Tomador do Serviço",
            DbType::Int,
            &CTE_TAKERS,
        )
        .required()
        .default(json!(0))
        .width(3),
        Field::cpf_cnpj("CTE_CNPJCPF", "CPF/CNPJ do Tomador").width(3),
    ];
    f.extend(place("ENV", "de emissão"));
    f.extend(place("INI", "de início"));
    f.extend(place("FIM", "de término"));
    f.extend(party("REM", "Remetente"));
    f.extend(party("DEST", "Destinatário"));
    f.extend(party("EXPED", "Expedidor"));
    f.extend(party("RECEB", "Recebedor"));
    f.extend(party("TOMA", "Tomador"));
    f.extend([
        Field::money("CTE_VLR_FRETE", "Valor da Prestação")
            .min("0")
            .list()
            .width(2),
        Field::money("CTE_VLR_RECEBER", "Valor a Receber")
            .min("0")
            .width(2),
        Field::options("CTE_CST", "CST do ICMS", DbType::Text, &CTE_CST)
            .required()
            .default(json!("00"))
            .width(4),
        Field::decimal("CTE_PERC_RED_BC", "Redução da Base (%)")
            .scale(4)
            .min("0")
            .max("100")
            .width(2),
        Field::money("CTE_VLR_BC_ICMS", "Base do ICMS")
            .min("0")
            .width(2),
        Field::decimal("CTE_ALIQ_ICMS", "Alíquota do ICMS (%)")
            .scale(4)
            .min("0")
            .max("100")
            .width(2),
        Field::money("CTE_VLR_ICMS", "Valor do ICMS")
            .min("0")
            .width(2),
        Field::money("CTE_VLR_CARGA", "Valor da Carga")
            .min("0")
            .width(2),
        Field::text("CTE_PRODUTO_PREDOMINANTE", "Produto Predominante")
            .len(60)
            .width(4),
        Field::text(
            "CTE_OUTRAS_CARACTERISTICAS",
            "Outras Características da Carga",
        )
        .len(30)
        .width(4),
        Field::options(
            "CTE_UNIDADE",
            "Unidade da Quantidade",
            DbType::Text,
            &CTE_UNITS,
        )
        .default(json!("01"))
        .width(2),
        Field::text("CTE_TIPO_MEDIDA", "Tipo da Medida")
            .len(20)
            .width(3),
        Field::decimal("CTE_QTDE", "Quantidade")
            .scale(4)
            .min("0")
            .width(2),
        Field::text("CTE_RNTRC", "RNTRC").len(8).width(2),
        Field::textarea("CTE_OBS", "Observações").len(2000),
        Field::int("CTE_SERIE", "Série").read_only().list().width(1),
        Field::int("CTE_NUMERO", "Número")
            .read_only()
            .list()
            .width(2),
        Field::int("CTE_TENTATIVA", "Tentativa").read_only(),
        Field::text("CTE_REFERENCIA", "Referência na Nuvem Fiscal").read_only(),
        Field::text("CTE_ID_FISCAL", "Id na Nuvem Fiscal").read_only(),
        Field::access_key("CTE_CHAVE", "Chave de Acesso")
            .read_only()
            .searchable(),
        Field::text("CTE_PROTOCOLO", "Protocolo").read_only(),
        Field::int("CTE_CSTAT", "cStat").read_only(),
        Field::text("CTE_MOTIVO", "Motivo").read_only(),
        Field::textarea("CTE_EXPLICACAO", "Explicação").read_only(),
        Field::timestamp("CTE_DH_EMISSAO", "Emitido em").read_only(),
        Field::timestamp("CTE_DTA_AUTORIZACAO", "Autorização").read_only(),
        // Served with the row (ctexml downloads it), never a form field.
        Field::textarea("CTE_NFE_XML", "XML")
            .read_only()
            .not_in_form(),
        Field::text("CTE_CANCEL_JUSTIFICATIVA", "Justificativa do Cancelamento").read_only(),
        Field::text("CTE_CANCEL_PROTOCOLO", "Protocolo do Cancelamento").read_only(),
        Field::timestamp("CTE_DTA_CANCELAMENTO", "Cancelamento").read_only(),
        Field::int("CTE_USR_ID", "Usuário").role(erp_platform::resource::Role::CreatedBy),
        Field::timestamp("CTE_DTA_CAD", "Cadastro"),
    ]);
    f
}

/// The form in groups: the document and its route, who takes and pays, each
/// party, the values, the cargo, then what the SEFAZ answered.
fn grouped(cte: Resource) -> Resource {
    let names = |list: &[&str]| list.iter().map(|n| format!("CTE_{n}")).collect::<Vec<_>>();
    let party = |p: &str| {
        let mut out = vec![format!("CTE_{p}_CLI_ID")];
        if p != "TOMA" {
            out.push(format!("CTE_{p}_CNPJCPF"));
        }
        out.extend(
            [
                "NOME",
                "IE",
                "ENDERECO",
                "NUMERO",
                "BAIRRO",
                "MUN_IBGE",
                "MUNICIPIO",
                "UF",
                "CEP",
            ]
            .map(|f| format!("CTE_{p}_{f}")),
        );
        out
    };
    let places = ["ENV", "INI", "FIM"]
        .iter()
        .flat_map(|p| ["IBGE", "NOME", "UF"].map(|f| format!("CTE_MUN_{p}_{f}")))
        .collect();
    let mut taker = names(&["FRMP_ID", "TOMADOR", "CNPJCPF"]);
    taker.extend(party("TOMA"));
    let groups: [(&str, Vec<String>); 13] = [
        (
            "CT-e",
            names(&[
                "ID",
                "TIPO_CTE",
                "TIPO_SERVICO",
                "MODAL",
                "AMBIENTE",
                "CFOP",
                "NATUREZA",
                "DTA_EMISSAO",
                "CHAVE_REF",
                "ALTERA_TOMA",
            ]),
        ),
        ("Percurso", places),
        ("Tomador e pagamento", taker),
        ("Remetente", party("REM")),
        ("Destinatário", party("DEST")),
        ("Expedidor", party("EXPED")),
        ("Recebedor", party("RECEB")),
        (
            "Valores e ICMS",
            names(&[
                "VLR_FRETE",
                "VLR_RECEBER",
                "CST",
                "PERC_RED_BC",
                "VLR_BC_ICMS",
                "ALIQ_ICMS",
                "VLR_ICMS",
            ]),
        ),
        (
            "Carga",
            names(&[
                "VLR_CARGA",
                "PRODUTO_PREDOMINANTE",
                "OUTRAS_CARACTERISTICAS",
                "UNIDADE",
                "TIPO_MEDIDA",
                "QTDE",
                "RNTRC",
            ]),
        ),
        ("Observações", names(&["OBS"])),
        (
            "SEFAZ",
            names(&[
                "SERIE",
                "NUMERO",
                "SITUACAO",
                "CHAVE",
                "PROTOCOLO",
                "CSTAT",
                "MOTIVO",
                "EXPLICACAO",
                "DH_EMISSAO",
                "DTA_AUTORIZACAO",
                "TENTATIVA",
                "REFERENCIA",
                "ID_FISCAL",
                "NFE_XML",
            ]),
        ),
        (
            "Cancelamento",
            names(&[
                "CANCEL_JUSTIFICATIVA",
                "CANCEL_PROTOCOLO",
                "DTA_CANCELAMENTO",
            ]),
        ),
        ("Cadastro", names(&["USR_ID", "DTA_CAD"])),
    ];
    groups.into_iter().fold(cte, |r, (title, fields)| {
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        r.group(Some(title), true, 12, &fields)
    })
}

fn cte(ctx: Arc<Ctx>) -> Resource {
    Resource::new(NAME, "CT-e", SCHEMA, "cte", PROGRAM)
        .screen("/cte")
        .key(&["CTE_ID"])
        .company("CTE_EMP_ID")
        .label("CTE_DEST_NOME")
        .order("CTE_ID DESC")
        .hooks(Arc::new(hooks::Header))
        .constraint("cte_exclusao_check", "Só se exclui um CT-e em digitação, rejeitado ou não enviado: um CT-e autorizado é cancelado.")
        .constraint("cte_numero_key", "Este número de CT-e já foi usado nesta série.")
        .sample(json!({
            "CTE_CFOP": "5.353", "CTE_NATUREZA": "PRESTAÇÃO DE SERVIÇO DE TRANSPORTE", "CTE_DTA_EMISSAO": "2026-12-15",
            "CTE_MUN_INI_IBGE": "3550308", "CTE_MUN_INI_NOME": "São Paulo", "CTE_MUN_INI_UF": "sp",
            "CTE_MUN_FIM_IBGE": "3509502", "CTE_MUN_FIM_NOME": "Campinas", "CTE_MUN_FIM_UF": "SP",
            "CTE_REM_CNPJCPF": "11.444.777/0001-61", "CTE_REM_NOME": "REMETENTE TESTE LTDA",
            "CTE_DEST_CNPJCPF": "11.222.333/0001-81", "CTE_DEST_NOME": "DESTINATARIO TESTE LTDA",
            "CTE_VLR_FRETE": "1500.75", "CTE_VLR_BC_ICMS": "1500.75", "CTE_ALIQ_ICMS": "12",
            "CTE_VLR_CARGA": "25000.00", "CTE_PRODUTO_PREDOMINANTE": "ELETRONICOS", "CTE_TIPO_MEDIDA": "PESO BRUTO",
            "CTE_QTDE": "120.5", "CTE_RNTRC": "12345678"
        }))
        .fields(fields())
        .action("GET", "/ctenumerosequencial/{id}/{emp}", "numerosequencial", ActionPerm::View,
            "CT-e: a série e o número que o CT-e tem ou tomaria da numeração (modelo 57)",
            Arc::new(calls::NextNumber))
        .action("GET", "/cte/emitirnota/{id}/{emp}/{type}", "emitir", ActionPerm::Update,
            "CT-e: validar, numerar, enviar à SEFAZ pela Nuvem Fiscal (uma vez) e aguardar (type: 1 produção, 2 homologação)",
            Arc::new(calls::Emit(ctx.clone())))
        .button(Button::new("Emitir CT-e").primary().open_when(&OPEN)
            .param("id", Source::Field("CTE_ID".into()))
            .param("type", Source::Field("CTE_AMBIENTE".into()))
            .confirm("Emitir CT-e", "Deseja enviar o CT-e {CTE_ID} à SEFAZ? Depois de autorizado ele só pode ser cancelado ou corrigido por carta de correção.", "Emitir"))
        .action("GET", "/cte/consultar/{id}/{emp}", "consultar", ActionPerm::View,
            "CT-e: consultar na SEFAZ (sincronizar e aguardar a situação final)",
            Arc::new(Consult { ctx: ctx.clone(), doc: &Cte, locate: calls::locate }))
        .button(Button::new("Consultar").open_when(&["enviando", "pendente", "autorizado", "rejeitado", "denegado", "cancelado", "erro"])
            .param("id", Source::Field("CTE_ID".into())))
        .action("POST", "/cte/cancelar/{fiscalId}", "cancelar", ActionPerm::Update,
            "CT-e: cancelar pelo id na Nuvem Fiscal (JUSTIFICATIVA de 15 a 255 caracteres)",
            Arc::new(calls::Cancel(ctx.clone())))
        .button(Button::new("Cancelar").open_when(&["autorizado"])
            .param("fiscalId", Source::Field("CTE_ID_FISCAL".into()))
            .dialog("justificativa", "Justificativa do cancelamento (15 a 255 caracteres)"))
        .action("POST", "/cte/cartacorrecao/{emp}", "cartacorrecao", ActionPerm::Update,
            "CT-e: carta de correção (CTE_ID, CORRECOES: [{GRUPO, CAMPO, VALOR, NUMERO_ITEM}] ou uma correção no corpo)",
            Arc::new(calls::Correct(ctx.clone())))
        .button(Button::new("Carta de Correção").open_when(&["autorizado"])
            .body("CTE_ID", Source::Field("CTE_ID".into()))
            .dialog("cte-correction", "Carta de correção (grupo, campo e valor correto)"))
        .action("POST", "/ctecartacorrecao", "ctecartacorrecao", ActionPerm::Update,
            "CT-e: carta de correção (CTE_ID, CTE_EMP_ID, CORRECOES ou GRUPO, CAMPO, VALOR)",
            Arc::new(calls::Correct(ctx.clone())))
        .action("GET", "/ctexml/{id}/{emp}", "xml", ActionPerm::View,
            "CT-e: baixar o XML autorizado",
            Arc::new(Download { ctx: ctx.clone(), doc: &Cte, file: File::Xml, locate: calls::locate }))
        .button(Button::new("XML").download().open_when(&["autorizado", "cancelado"]).param("id", Source::Field("CTE_ID".into())))
        .action("POST", "/cte/xml/{emp}", "xmlcorpo", ActionPerm::View,
            "CT-e: baixar o XML autorizado (CTE_ID no corpo)",
            Arc::new(Download { ctx: ctx.clone(), doc: &Cte, file: File::Xml, locate: calls::locate }))
        .action("GET", "/cte/dacte/{id}/{emp}", "dacte", ActionPerm::View,
            "CT-e: baixar o DACTE (PDF)",
            Arc::new(Download { ctx: ctx.clone(), doc: &Cte, file: File::Pdf, locate: calls::locate }))
        .button(Button::new("DACTE").download().open_when(&["autorizado", "cancelado"]).param("id", Source::Field("CTE_ID".into())))
        .action("GET", "/cte/listarcte/{cnpjcpf}/{key}/{skip}/{type}", "listarcte", ActionPerm::View,
            "CT-e: os CT-e da empresa na Nuvem Fiscal (key: chave ou 0; skip: quantos pular; type: 1 produção, 2 homologação)",
            Arc::new(calls::ProviderList(ctx.clone())))
        .action("GET", "/cte/carregaxml/{emp}", "carregaxml", ActionPerm::View,
            "CT-e: as NF-e autorizadas da empresa, para levar no CT-e (chave, número, cliente, valor)",
            Arc::new(calls::CarriedNfe))
        .action("POST", "/cteduplicar/{id}/{emp}", "duplicar", ActionPerm::Create,
            "CT-e: um novo CT-e em digitação com os mesmos dados, notas, percurso e veículos (sem os dados fiscais)",
            Arc::new(calls::Duplicate))
        .button(Button::new("Duplicar").param("id", Source::Field("CTE_ID".into())).opens(NAME)
            .confirm("Duplicar CT-e", "Criar um novo CT-e em digitação com os dados do CT-e {CTE_ID}?", "Duplicar"))
}

fn ctenotas() -> Resource {
    Resource::new("ctenotas", "Notas do CT-e", SCHEMA, "cte_notas", PROGRAM)
        .key(&["CTEN_CTE_ID", "CTEN_ID"])
        .seq_key()
        .company("CTEN_EMP_ID")
        .label("CTEN_CHAVE")
        .order("CTEN_ID")
        .list_path("/ctenotas/{CTEN_CTE_ID}/{emp}")
        .constraint("cte_notas_chave_key", "Esta NF-e já está no CT-e.")
        .sample(
            json!({"CTEN_CTE_ID": 1, "CTEN_CHAVE": "35250512345678000195550010000012341000012346"}),
        )
        .fields(vec![
            Field::int("CTEN_CTE_ID", "CT-e").required(),
            Field::int("CTEN_EMP_ID", "Empresa"),
            Field::int("CTEN_ID", "Sequência")
                .read_only()
                .list()
                .width(1),
            Field::access_key("CTEN_CHAVE", "Chave da NF-e")
                .required()
                .searchable()
                .list(),
            Field::text("CTEN_PIN", "PIN SUFRAMA").len(9).width(2),
            Field::date("CTEN_DTA_PREVISTA", "Entrega Prevista").list(),
        ])
}

fn cteufpercursos() -> Resource {
    Resource::new(
        "cteufpercursos",
        "Percurso do CT-e",
        SCHEMA,
        "cte_uf_percursos",
        PROGRAM,
    )
    .key(&["CUFP_CTE_ID", "CUFP_ID"])
    .seq_key()
    .company("CUFP_EMP_ID")
    .label("CUFP_UF")
    .order("CUFP_ID")
    .list_path("/cteufpercursos/{CUFP_CTE_ID}/{emp}")
    .hooks(Arc::new(hooks::RouteState))
    .sample(json!({"CUFP_CTE_ID": 1, "CUFP_UF": "MG"}))
    .fields(vec![
        Field::int("CUFP_CTE_ID", "CT-e").required(),
        Field::int("CUFP_EMP_ID", "Empresa"),
        Field::int("CUFP_ID", "Ordem").read_only().list().width(1),
        Field::text("CUFP_UF", "UF")
            .len(2)
            .required()
            .searchable()
            .list()
            .width(1),
    ])
}

fn cteveiculosnovos() -> Resource {
    Resource::new("cteveiculosnovos", "Veículos Novos do CT-e", SCHEMA, "cte_veiculos_novos", PROGRAM)
        .key(&["CTVN_CTE_ID", "CTVN_ID"])
        .seq_key()
        .company("CTVN_EMP_ID")
        .label("CTVN_CHASSI")
        .order("CTVN_ID")
        .list_path("/cteveiculosnovos/{CTVN_CTE_ID}/{emp}")
        .hooks(Arc::new(hooks::NewVehicle))
        .sample(json!({"CTVN_CTE_ID": 1, "CTVN_CHASSI": "9BWZZZ377VT004251", "CTVN_COR": "01",
            "CTVN_DESC_COR": "BRANCO", "CTVN_MODELO": "123456", "CTVN_VLR_UNIT": "85000.00", "CTVN_VLR_FRETE": "900.00"}))
        .fields(vec![
            Field::int("CTVN_CTE_ID", "CT-e").required(),
            Field::int("CTVN_EMP_ID", "Empresa"),
            Field::int("CTVN_ID", "Sequência").read_only().list().width(1),
            Field::text("CTVN_CHASSI", "Chassi").len(17).required().searchable().list().width(3),
            Field::text("CTVN_COR", "Código da Cor").len(4).required().width(2),
            Field::text("CTVN_DESC_COR", "Cor").len(40).required().list().width(3),
            Field::text("CTVN_MODELO", "Marca/Modelo (RENAVAM)").len(6).required().width(2),
            Field::money("CTVN_VLR_UNIT", "Valor do Veículo").min("0").required().list().width(2),
            Field::money("CTVN_VLR_FRETE", "Frete do Veículo").min("0").required().list().width(2),
        ])
}

fn ctecartacorrecaogrupo() -> Resource {
    Resource::new(
        "ctecartacorrecaogrupo",
        "Cartas de Correção do CT-e",
        SCHEMA,
        "cte_carta_correcao_grupo",
        PROGRAM,
    )
    .key(&["CTECG_CTE_ID", "CTECG_ID"])
    .seq_key()
    .company("CTECG_EMP_ID")
    .label("CTECG_VALOR")
    .order("CTECG_ID")
    .list_path("/ctecartacorrecaogrupo/{CTECG_CTE_ID}/{emp}")
    .hooks(Arc::new(hooks::LettersByCallOnly))
    // No sample: a row is a correction the SEFAZ registered, never a
    // demo or round-trip register row.
    .fields(vec![
        Field::int("CTECG_CTE_ID", "CT-e").required(),
        Field::int("CTECG_EMP_ID", "Empresa"),
        Field::int("CTECG_ID", "Sequência")
            .read_only()
            .list()
            .width(1),
        Field::int("CTECG_SEQUENCIA", "Carta")
            .read_only()
            .list()
            .width(1),
        Field::text("CTECG_GRUPO", "Grupo")
            .len(20)
            .read_only()
            .list()
            .width(2),
        Field::text("CTECG_CAMPO", "Campo")
            .len(20)
            .read_only()
            .list()
            .width(2),
        Field::text("CTECG_VALOR", "Valor Correto")
            .len(500)
            .read_only()
            .searchable()
            .list()
            .width(5),
        Field::int("CTECG_NUMERO_ITEM", "Item").read_only().width(1),
        Field::text("CTECG_PROTOCOLO", "Protocolo")
            .read_only()
            .list()
            .width(3),
        Field::int("CTECG_USR_ID", "Usuário").read_only(),
        Field::timestamp("CTECG_DTA", "Registrada em").list(),
    ])
}
