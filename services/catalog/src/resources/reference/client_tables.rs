//! Per-client reference registers: areas, activity branches, functions, remarks,
//! reasons and works.

use std::sync::Arc;

use erp_platform::resource::{DbType, Field, Kind, Resource};
use serde_json::json;

use super::normalize::{Normalize, Rule};

const SCHEMA: &str = crate::SCHEMA;

/// Where a remark is printed.
pub const REMARK_TYPES: [(&str, &str); 5] = [
    ("G", "Geral"),
    ("F", "Nota Fiscal"),
    ("C", "Contrato"),
    ("P", "Pedido / Orçamento"),
    ("O", "Ordem de Serviço"),
];

/// What a reason is used for.
pub const REASON_TYPES: [(&str, &str); 5] = [
    ("C", "Cancelamento"),
    ("D", "Devolução"),
    ("E", "Ajuste de Estoque"),
    ("P", "Perda de Venda"),
    ("O", "Outros"),
];

pub fn area() -> Resource {
    Resource::new("area", "Áreas", SCHEMA, "area", "clientes")
        .key(&["AREA_ID"])
        .company("AREA_EMP_ID")
        .label("AREA_DESCRICAO")
        .order("AREA_DESCRICAO")
        .sample(json!({"AREA_DESCRICAO": "ZONA NORTE"}))
        .fields(vec![
            Field::id("AREA_ID", "Código"),
            Field::int("AREA_EMP_ID", "Empresa"),
            Field::text("AREA_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(7),
            Field::situation("AREA_SITUACAO"),
        ])
}

pub fn ramoatividade() -> Resource {
    Resource::new(
        "ramoatividade",
        "Ramos de Atividade",
        SCHEMA,
        "ramoatividade",
        "clientes",
    )
    .key(&["RATV_ID"])
    .company("RATV_EMP_ID")
    .label("RATV_DESCRICAO")
    .order("RATV_DESCRICAO")
    .hooks(Arc::new(Normalize {
        rules: &[Rule::Digits("RATV_CNAE", "CNAE", 7)],
        cnae: false,
    }))
    .sample(json!({"RATV_DESCRICAO": "COMÉRCIO VAREJISTA", "RATV_CNAE": "4711-3/02"}))
    .fields(vec![
        Field::id("RATV_ID", "Código"),
        Field::int("RATV_EMP_ID", "Empresa"),
        Field::text("RATV_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(7),
        Field::text("RATV_CNAE", "CNAE Principal")
            .len(7)
            .mask("####-#/##")
            .kind(Kind::Autocomplete)
            .reference_to("cnaes")
            .width(3),
        Field::situation("RATV_SITUACAO"),
    ])
}

pub fn funcao() -> Resource {
    Resource::new("funcao", "Funções", SCHEMA, "funcao", "funcoes")
        .company_path()
        .screen("/funcoes")
        .key(&["FUNC_ID"])
        .label("FUNC_DESCRICAO")
        .order("FUNC_DESCRICAO")
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Digits("FUNC_CBO", "CBO", 6)],
            cnae: false,
        }))
        .sample(json!({"FUNC_DESCRICAO": "MECÂNICO", "FUNC_CBO": "9144-05", "FUNC_COMISSAO": true}))
        .fields(vec![
            Field::id("FUNC_ID", "Código"),
            Field::text("FUNC_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(7),
            Field::text("FUNC_CBO", "CBO")
                .len(6)
                .mask("####-##")
                .list()
                .width(3),
            Field::boolean("FUNC_COMISSAO", "Recebe Comissão")
                .default(false.into())
                .width(3),
            Field::situation("FUNC_SITUACAO"),
        ])
}

pub fn observacao() -> Resource {
    Resource::new("observacao", "Observações", SCHEMA, "observacao", "observacoes")
        .screen("/observacoes")
        .key(&["OBS_ID"])
        .company("OBS_EMP_ID")
        .label("OBS_DESCRICAO")
        .order("OBS_DESCRICAO")
        .sample(json!({"OBS_DESCRICAO": "SIMPLES NACIONAL", "OBS_TEXTO": "Documento emitido por ME ou EPP optante pelo Simples Nacional.", "OBS_TIPO": "F"}))
        .fields(vec![
            Field::id("OBS_ID", "Código"),
            Field::int("OBS_EMP_ID", "Empresa"),
            Field::text("OBS_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::options("OBS_TIPO", "Tipo", DbType::Text, &REMARK_TYPES)
                .required()
                .default("G".into())
                .list()
                .width(3),
            Field::situation("OBS_SITUACAO"),
            Field::textarea("OBS_TEXTO", "Texto").required().len(5000),
        ])
}

pub fn motivos() -> Resource {
    Resource::new("motivos", "Motivos", SCHEMA, "motivos", "cadmotivos")
        .company_path()
        .screen("/cadmotivos")
        .key(&["MOT_ID"])
        .label("MOT_DESCRICAO")
        .order("MOT_DESCRICAO")
        .sample(json!({"MOT_DESCRICAO": "DESISTÊNCIA DO CLIENTE", "MOT_TIPO": "C"}))
        .fields(vec![
            Field::id("MOT_ID", "Código"),
            Field::text("MOT_DESCRICAO", "Descrição")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(6),
            Field::options("MOT_TIPO", "Tipo", DbType::Text, &REASON_TYPES)
                .required()
                .default("O".into())
                .list()
                .width(3),
            Field::situation("MOT_SITUACAO"),
        ])
}

pub fn obras() -> Resource {
    Resource::new("obras", "Obras", SCHEMA, "obras", "clientes")
        .key(&["OBRA_ID"])
        .company("OBRA_EMP_ID")
        .label("OBRA_DESCRICAO")
        .order("OBRA_DESCRICAO")
        .hooks(Arc::new(Normalize {
            rules: &[
                Rule::Digits("OBRA_CNO", "CNO", 12),
                Rule::DateOrder("OBRA_DTA_INICIO", "OBRA_DTA_FIM", "Término"),
            ],
            cnae: false,
        }))
        .sample(json!({
            "OBRA_DESCRICAO": "EDIFÍCIO RESIDENCIAL AURORA", "OBRA_CNO": "90.000.00000/00",
            "OBRA_CEP": "90010-000", "OBRA_ENDERECO": "Rua dos Andradas", "OBRA_NUMERO": "1000",
            "OBRA_BAIRRO": "Centro Histórico", "OBRA_CID_ID": 4314902,
            "OBRA_DTA_INICIO": "2026-01-05", "OBRA_DTA_FIM": "2027-06-30"
        }))
        .fields(vec![
            Field::id("OBRA_ID", "Código"),
            Field::int("OBRA_EMP_ID", "Empresa"),
            Field::text("OBRA_DESCRICAO", "Descrição")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(8),
            Field::reference("OBRA_CLI_ID", "Cliente", "clientes", Kind::Autocomplete)
                .list()
                .width(6),
            Field::text("OBRA_CNO", "CNO")
                .len(12)
                .mask("##.###.#####/##")
                .width(3),
            Field::text("OBRA_RESPONSAVEL", "Responsável")
                .len(100)
                .width(6),
            Field::date("OBRA_DTA_INICIO", "Início").list(),
            Field::date("OBRA_DTA_FIM", "Término"),
            Field::cep("OBRA_CEP", "CEP"),
            Field::text("OBRA_ENDERECO", "Endereço").len(150).width(6),
            Field::text("OBRA_NUMERO", "Número").len(20).width(2),
            Field::text("OBRA_COMPLEMENTO", "Complemento")
                .len(60)
                .width(4),
            Field::text("OBRA_BAIRRO", "Bairro").len(60),
            Field::reference("OBRA_CID_ID", "Cidade", "cidades", Kind::Autocomplete).list(),
            Field::situation("OBRA_SITUACAO"),
            Field::textarea("OBRA_OBS", "Observações").len(2000),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "OBRA_ID",
                "OBRA_DESCRICAO",
                "OBRA_CLI_ID",
                "OBRA_CNO",
                "OBRA_RESPONSAVEL",
                "OBRA_DTA_INICIO",
                "OBRA_DTA_FIM",
                "OBRA_SITUACAO",
            ],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "OBRA_CEP",
                "OBRA_ENDERECO",
                "OBRA_NUMERO",
                "OBRA_COMPLEMENTO",
                "OBRA_BAIRRO",
                "OBRA_CID_ID",
            ],
        )
        .group(Some("Observações"), true, 12, &["OBRA_OBS"])
}
