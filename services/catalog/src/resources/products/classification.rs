//! The small tables products are classified by: groups, subgroups, units, sizes,
//! colours and brands.
//!
//! Groups, colours and brands have no company column in the spec (§3): they are
//! shared by the client's companies, but their legacy paths carry `{emp}` (brands
//! default to company 1, §9), hence `company_path`.

use std::sync::Arc;

use erp_platform::resource::{Field, Kind, Resource};
use serde_json::json;

use super::field_rules::ProductRules;
use crate::SCHEMA;

pub fn grupo() -> Resource {
    Resource::new("grupo", "Grupos de Produtos", SCHEMA, "grupo", "grupos")
        .screen("/grupos")
        .sample(json!({"GRUP_DESCRICAO": "FERRAGENS", "GRUP_MARGEM": "35.5"}))
        .key(&["GRUP_ID"])
        .company_path()
        .events("grupo")
        .label("GRUP_DESCRICAO")
        .order("GRUP_DESCRICAO")
        .fields(vec![
            Field::id("GRUP_ID", "Código"),
            Field::text("GRUP_DESCRICAO", "Descrição")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(7),
            // Suggested on the product form when the group is picked.
            Field::decimal("GRUP_MARGEM", "Margem de Lucro Padrão (%)")
                .scale(4)
                .min("0")
                .max("999.9999")
                .width(3),
            Field::situation("GRUP_SITUACAO"),
        ])
}

pub fn subgrupo() -> Resource {
    Resource::new(
        "subgrupo",
        "Subgrupos de Produtos",
        SCHEMA,
        "subgrupo",
        "subgrupos",
    )
    .screen("/subgrupos")
    .sample(json!({"GSUB_DESCRICAO": "PARAFUSOS", "GSUB_GRUP_ID": 1}))
    .key(&["GSUB_ID"])
    .company("GSUB_EMP_ID")
    .events("subgrupo")
    .label("GSUB_DESCRICAO")
    .order("GSUB_DESCRICAO")
    .fields(vec![
        Field::id("GSUB_ID", "Código"),
        Field::int("GSUB_EMP_ID", "Empresa"),
        Field::text("GSUB_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(7),
        Field::reference("GSUB_GRUP_ID", "Grupo", "grupo", Kind::Combobox)
            .required()
            .list()
            .width(5),
        Field::situation("GSUB_SITUACAO"),
    ])
}

pub fn unidade() -> Resource {
    Resource::new(
        "unidade",
        "Unidades de Medida",
        SCHEMA,
        "unidade",
        "unidades",
    )
    .screen("/unidades")
    .sample(json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "un"}))
    .key(&["UNID_ID"])
    .constraint(
        "unidade_abreviada_key",
        "Sigla já cadastrada para outra unidade.",
    )
    .company("UNID_EMP_ID")
    .label("UNID_DESCRICAO")
    .order("UNID_DESCRICAO")
    .hooks(Arc::new(ProductRules {
        upper: &["UNID_ABREVIADA"],
        ..ProductRules::default()
    }))
    .fields(vec![
        Field::id("UNID_ID", "Código"),
        Field::int("UNID_EMP_ID", "Empresa"),
        Field::text("UNID_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(6),
        // What an NF-e item carries as uCom/uTrib (up to 6 characters).
        Field::text("UNID_ABREVIADA", "Sigla")
            .required()
            .len(6)
            .searchable()
            .list()
            .width(2),
        // Units such as KG or M sell fractions; UN and CX sell whole numbers.
        Field::boolean("UNID_FRACIONADA", "Permite Quantidade Fracionada")
            .default(json!(false))
            .width(4),
        Field::situation("UNID_SITUACAO"),
    ])
}

pub fn tamanho() -> Resource {
    Resource::new("tamanho", "Tamanhos", SCHEMA, "tamanho", "tamanhos")
        .screen("/tamanhos")
        .sample(json!({"TAM_DESCRICAO": "GG"}))
        .key(&["TAM_ID"])
        .company("TAM_EMP_ID")
        .label("TAM_DESCRICAO")
        .order("TAM_DESCRICAO")
        // erp.catalog.tamanho.*: orders names the sizes of its sales grid.
        .events("tamanho")
        .fields(vec![
            Field::id("TAM_ID", "Código"),
            Field::int("TAM_EMP_ID", "Empresa"),
            Field::text("TAM_DESCRICAO", "Descrição")
                .required()
                .len(30)
                .searchable()
                .list()
                .width(7),
            Field::situation("TAM_SITUACAO"),
        ])
}

pub fn cor() -> Resource {
    Resource::new("cor", "Cores", SCHEMA, "cor", "cores")
        .screen("/cores")
        .sample(json!({"COR_DESCRICAO": "AZUL ROYAL", "COR_HEX": "#4169e1"}))
        .key(&["COR_ID"])
        .company_path()
        .label("COR_DESCRICAO")
        .order("COR_DESCRICAO")
        // erp.catalog.cor.*: orders names the colours of its sales grid.
        .events("cor")
        .fields(vec![
            Field::id("COR_ID", "Código"),
            Field::text("COR_DESCRICAO", "Descrição")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(7),
            Field::color("COR_HEX", "Cor").list(),
            Field::situation("COR_SITUACAO"),
        ])
}

pub fn marca() -> Resource {
    Resource::new(
        "marca",
        "Marcas de Produtos",
        SCHEMA,
        "marca",
        "marcaprodutos",
    )
    .screen("/marcaprodutos")
    .sample(json!({"MARC_DESCRICAO": "TRAMONTINA"}))
    .key(&["MARC_ID"])
    .company_path()
    .label("MARC_DESCRICAO")
    .order("MARC_DESCRICAO")
    .fields(vec![
        Field::id("MARC_ID", "Código"),
        Field::text("MARC_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(7),
        Field::situation("MARC_SITUACAO"),
    ])
}
