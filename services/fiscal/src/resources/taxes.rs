//! Fiscal registers: ICMS tax rules (`tributacao`, screen /tributacoes 'Tributação
//! ICMS', with the IPI, PIS and COFINS situation of the same item), operation
//! natures (`natureza`, screen /naturezasoperacao: CFOPs inside the state, to other
//! states and abroad, entry or exit, NF-e purpose, whether it moves stock and
//! creates receivables/payables) and document numbering (`numeracao`, screen
//! /numeracoes: next number per model and series of each company).
//!
//! The code tables are those of the NF-e layout (CST/CSOSN, CST IPI/PIS/COFINS,
//! finNFe, document models); they live in `codes`.

#[path = "taxes_codes.rs"]
pub mod codes;
#[path = "taxes_hooks.rs"]
mod hooks;

use std::sync::Arc;

use erp_platform::resource::{DbType, Field, Kind, Resource};
use serde_json::json;

use codes::*;
use hooks::{NatureHooks, NumberingHooks, TaxRuleHooks};

const SCHEMA: &str = crate::SCHEMA;

fn percent(name: &str, label: &str) -> Field {
    Field::decimal(name, label)
        .scale(4)
        .min("0")
        .max("100")
        .default(0.into())
        .width(3)
}

fn cfop(name: &str, label: &str) -> Field {
    Field::text(name, label).len(4).mask("#.###").width(3)
}

pub fn all() -> Vec<Resource> {
    vec![tributacao(), natureza(), numeracao()]
}

pub fn tributacao() -> Resource {
    Resource::new("tributacao", "Tributação ICMS", SCHEMA, "tributacao", "tributacoes")
        .screen("/tributacoes")
        .key(&["TICM_ID"])
        .company("TICM_EMP_ID")
        .label("TICM_DESCRICAO")
        .order("TICM_DESCRICAO")
        .hooks(Arc::new(TaxRuleHooks))
        .sample(json!({
            "TICM_DESCRICAO": "SIMPLES NACIONAL - SEM CRÉDITO", "TICM_CSOSN": "102", "TICM_CFOP": "5.102",
            "TICM_CST_IPI": "99", "TICM_CST_PIS": "49", "TICM_CST_COFINS": "49"
        }))
        .fields(vec![
            Field::id("TICM_ID", "Código"),
            Field::int("TICM_EMP_ID", "Empresa"),
            Field::text("TICM_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::options("TICM_CST", "CST ICMS", DbType::Text, &CST_ICMS)
                .list()
                .width(6),
            Field::options("TICM_CSOSN", "CSOSN", DbType::Text, &CSOSN)
                .list()
                .width(6),
            cfop("TICM_CFOP", "CFOP").list(),
            percent("TICM_PERC_ICMS", "Alíquota ICMS (%)").list(),
            percent("TICM_PERC_REDUCAO_BC", "Redução da Base (%)"),
            percent("TICM_PERC_DIFERIMENTO", "Diferimento (%)"),
            percent("TICM_PERC_FCP", "FCP (%)"),
            percent("TICM_PERC_MVA_ST", "MVA ST (%)"),
            percent("TICM_PERC_ICMS_ST", "Alíquota ICMS ST (%)"),
            percent("TICM_PERC_REDUCAO_ST", "Redução da Base ST (%)"),
            Field::text("TICM_CBENEF", "Benefício Fiscal (cBenef)")
                .len(10)
                .kind(Kind::Autocomplete)
                .reference_to("benef")
                .width(4),
            Field::options("TICM_CST_IPI", "CST IPI", DbType::Text, &CST_IPI).width(6),
            percent("TICM_PERC_IPI", "Alíquota IPI (%)"),
            Field::options("TICM_CST_PIS", "CST PIS", DbType::Text, &CST_PIS_COFINS).width(6),
            percent("TICM_PERC_PIS", "Alíquota PIS (%)"),
            Field::options("TICM_CST_COFINS", "CST COFINS", DbType::Text, &CST_PIS_COFINS).width(6),
            percent("TICM_PERC_COFINS", "Alíquota COFINS (%)"),
            Field::situation("TICM_SITUACAO"),
            Field::textarea("TICM_OBS", "Observação").len(1000),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &["TICM_ID", "TICM_DESCRICAO", "TICM_CFOP", "TICM_SITUACAO"],
        )
        .group(
            Some("ICMS"),
            true,
            12,
            &[
                "TICM_CST",
                "TICM_CSOSN",
                "TICM_PERC_ICMS",
                "TICM_PERC_REDUCAO_BC",
                "TICM_PERC_DIFERIMENTO",
                "TICM_PERC_FCP",
                "TICM_CBENEF",
            ],
        )
        .group(
            Some("Substituição Tributária"),
            true,
            12,
            &["TICM_PERC_MVA_ST", "TICM_PERC_ICMS_ST", "TICM_PERC_REDUCAO_ST"],
        )
        .group(
            Some("IPI, PIS e COFINS"),
            true,
            12,
            &[
                "TICM_CST_IPI",
                "TICM_PERC_IPI",
                "TICM_CST_PIS",
                "TICM_PERC_PIS",
                "TICM_CST_COFINS",
                "TICM_PERC_COFINS",
            ],
        )
        .group(Some("Observação"), true, 12, &["TICM_OBS"])
}

pub fn natureza() -> Resource {
    Resource::new(
        "natureza",
        "Naturezas de Operação",
        SCHEMA,
        "natureza",
        "naturezasoperacao",
    )
    .screen("/naturezasoperacao")
    .key(&["NATO_ID"])
    .company("NATO_EMP_ID")
    .label("NATO_DESCRICAO")
    .order("NATO_DESCRICAO")
    .hooks(Arc::new(NatureHooks))
    .sample(json!({
        "NATO_DESCRICAO": "VENDA DE MERCADORIA", "NATO_TIPO": "S", "NATO_FINALIDADE": 1,
        "NATO_CFOP_ESTADUAL": "5.102", "NATO_CFOP_INTERESTADUAL": "6102", "NATO_CFOP_EXTERIOR": "7102",
        "NATO_TICM_ID": 1
    }))
    .fields(vec![
        Field::id("NATO_ID", "Código"),
        Field::int("NATO_EMP_ID", "Empresa"),
        Field::text("NATO_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(6),
        Field::options("NATO_TIPO", "Tipo", DbType::Text, &OPERATION_TYPES)
            .required()
            .list()
            .width(3),
        Field::options("NATO_FINALIDADE", "Finalidade", DbType::Int, &PURPOSES)
            .required()
            .default(1.into())
            .width(3),
        cfop("NATO_CFOP_ESTADUAL", "CFOP Dentro do Estado").list(),
        cfop("NATO_CFOP_INTERESTADUAL", "CFOP Fora do Estado").list(),
        cfop("NATO_CFOP_EXTERIOR", "CFOP Exterior"),
        Field::reference("NATO_TICM_ID", "Tributação ICMS", "tributacao", Kind::Combobox).width(6),
        Field::boolean("NATO_MOVIMENTA_ESTOQUE", "Movimenta Estoque")
            .default(true.into())
            .width(3),
        Field::boolean("NATO_GERA_FINANCEIRO", "Gera Financeiro")
            .default(true.into())
            .width(3),
        Field::boolean("NATO_CONSUMIDOR_FINAL", "Consumidor Final")
            .default(false.into())
            .width(3),
        Field::situation("NATO_SITUACAO"),
        Field::textarea("NATO_OBS", "Observação para a Nota").len(1000),
    ])
}

pub fn numeracao() -> Resource {
    Resource::new(
        "numeracao",
        "Numeração de Documentos",
        SCHEMA,
        "numeracao",
        "numeracoes",
    )
    .screen("/numeracoes")
    .key(&["NUM_ID"])
    .company("NUM_EMP_ID")
    .label("NUM_DESCRICAO")
    .order("NUM_MODELO, NUM_SERIE")
    .hooks(Arc::new(NumberingHooks))
    .sample(json!({"NUM_MODELO": "55", "NUM_SERIE": 1, "NUM_PROXIMO": 1, "NUM_AMBIENTE": 2}))
    .fields(vec![
        Field::id("NUM_ID", "Código"),
        Field::int("NUM_EMP_ID", "Empresa"),
        Field::text("NUM_DESCRICAO", "Descrição")
            .len(60)
            .searchable()
            .list()
            .width(6),
        Field::options("NUM_MODELO", "Modelo", DbType::Text, &DOCUMENT_MODELS)
            .required()
            .list()
            .width(6),
        Field::int("NUM_SERIE", "Série")
            .required()
            .min("0")
            .max("999")
            .list()
            .width(2),
        Field::int("NUM_PROXIMO", "Próximo Número")
            .required()
            .min("1")
            .max("999999999")
            .default(1.into())
            .list()
            .width(3),
        Field::options("NUM_AMBIENTE", "Ambiente", DbType::Int, &ENVIRONMENTS)
            .required()
            .default(2.into())
            .list()
            .width(3),
        Field::situation("NUM_SITUACAO"),
    ])
}
