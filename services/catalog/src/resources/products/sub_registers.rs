//! A product's sub-registers: information, suppliers, the size/colour grid,
//! painting formulas and special customer prices (barcodes and raw material have
//! modules of their own). They have no screen of their own: the product screen
//! shows them in tabs, filtered by the product's id (`*_PROD_ID`). Each row belongs
//! to the product's company, and goes away with the product. The information rows
//! and the grid are replicated to the same product in the client's other companies
//! by `GET /produtosinfreplicador/{PROD_ID}/{emp}` and
//! `GET /produtosgradereplicador/{PROD_ID}/{emp}` (`replicate`).

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, Field, Kind, Resource};
use serde_json::json;

use super::field_rules::ProductRules;
use super::replicate::{ReplicateGrid, ReplicateInfo};
use super::settings::QTY_SCALE;
use crate::SCHEMA;

/// Free-form extra information of a product (application, warranty, technical
/// data), one titled text per row.
pub fn produtosinf() -> Resource {
    Resource::new("produtosinf", "Informações do Produto", SCHEMA, "produtosinf", "produtos")
        .sample(json!({"PROI_PROD_ID": 1, "PROI_DESCRICAO": "GARANTIA", "PROI_INFORMACAO": "12 meses contra defeitos de fabricação."}))
        .key(&["PROI_ID"])
        .company("PROI_EMP_ID")
        .label("PROI_DESCRICAO")
        .order("PROI_ID")
        .fields(vec![
            Field::id("PROI_ID", "Código"),
            Field::int("PROI_EMP_ID", "Empresa"),
            Field::reference("PROI_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
            Field::text("PROI_DESCRICAO", "Título")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(12),
            Field::textarea("PROI_INFORMACAO", "Informação").len(4000).list(),
        ])
        .call(
            "GET",
            "/produtosinfreplicador/{PROD_ID}/{emp}",
            "replicar",
            ActionPerm::Update,
            "Informações do produto: replicar para o mesmo produto (mesmo código de barras, senão mesma referência) nas outras empresas",
            ReplicateInfo,
        )
}

/// Who supplies the product and under which code: purchase invoices (NF-e XML)
/// name the supplier's code, and this maps it to the product.
pub fn produtosfornecedor() -> Resource {
    Resource::new(
        "produtosfornecedor",
        "Fornecedores do Produto",
        SCHEMA,
        "produtosfornecedor",
        "produtos",
    )
    .sample(json!({"PRFR_PROD_ID": 1, "PRFR_FORN_ID": 1, "PRFR_REF_ID": "PS-1420-Z", "PRFR_CUSTO": "0.40", "PRFR_FATOR": "100", "PRFR_UNID_COMPRA": "CX"}))
    .key(&["PRFR_ID"])
    .constraint(
        "produtosfornecedor_ref_key",
        "Código no Fornecedor já cadastrado para este produto e fornecedor.",
    )
    .company("PRFR_EMP_ID")
    .label("PRFR_REF_ID")
    .order("PRFR_ID")
    // data-and-calls §9: product suppliers are fetched 20 at a time.
    .search_limit(20)
    .fields(vec![
        Field::id("PRFR_ID", "Código"),
        Field::int("PRFR_EMP_ID", "Empresa"),
        Field::reference("PRFR_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
        // Suppliers are the parties register's; no database key across modules.
        Field::reference("PRFR_FORN_ID", "Fornecedor", "fornecedor", Kind::Autocomplete)
            .required()
            .list()
            .width(6),
        Field::text("PRFR_REF_ID", "Código no Fornecedor")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(3),
        Field::text("PRFR_UNID_COMPRA", "Unidade de Compra").len(6).width(3),
        // How many of our units one unit bought from the supplier holds.
        Field::decimal("PRFR_FATOR", "Fator de Conversão")
            .scale(QTY_SCALE)
            .min("0.0001")
            .default(json!(1))
            .width(3),
        Field::money("PRFR_CUSTO", "Último Custo").list().width(3),
        Field::date("PRFR_DTA_ULT_COMPRA", "Última Compra").list(),
    ])
}

/// The size/colour grid: the variants a product is sold in, each with its own
/// barcode and, when it differs, its own price. Its facts
/// (`erp.catalog.produtograde.*`) keep orders' copy; stock keeps a quantity per
/// variant (by PRGR_ID).
pub fn produtosgrade() -> Resource {
    Resource::new("produtosgrade", "Grade do Produto", SCHEMA, "produtosgrade", "produtos")
        .sample(json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1, "PRGR_COR_ID": 1, "PRGR_CBAR": "7894900011517", "PRGR_VALOR": "0.80"}))
        .key(&["PRGR_ID"])
        .constraint(
            "produtosgrade_variante_key",
            "Tamanho e cor já cadastrados na grade deste produto.",
        )
        .constraint(
            "produtosgrade_cbar_key",
            "Código de barras já cadastrado em outra variação da grade.",
        )
        .company("PRGR_EMP_ID")
        .label("PRGR_DESCRICAO")
        .order("PRGR_ID")
        // erp.catalog.produtograde.*: orders keeps a copy (sale lines name a
        // variant; the sales grid lists them).
        .events("produtograde")
        .hooks(Arc::new(ProductRules {
            barcodes: &["PRGR_CBAR"],
            ..ProductRules::default()
        }))
        .fields(vec![
            Field::id("PRGR_ID", "Código"),
            Field::int("PRGR_EMP_ID", "Empresa"),
            Field::reference("PRGR_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
            Field::reference("PRGR_TAM_ID", "Tamanho", "tamanho", Kind::Combobox)
                .list()
                .width(3),
            Field::reference("PRGR_COR_ID", "Cor", "cor", Kind::Combobox)
                .list()
                .width(3),
            // Left blank, a trigger names the variant after its size and colour.
            Field::text("PRGR_DESCRICAO", "Descrição da Variação")
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::text("PRGR_REFERENCIA", "Referência").len(30).searchable().width(3),
            Field::text("PRGR_CBAR", "Código de Barras (EAN)")
                .kind(Kind::Barcode)
                .len(14)
                .searchable()
                .list()
                .width(3),
            // Blank: the product's price.
            Field::money("PRGR_VALOR", "Preço de Venda").list().width(3),
            Field::situation("PRGR_SITUACAO"),
        ])
        .call(
            "GET",
            "/produtosgradereplicador/{PROD_ID}/{emp}",
            "replicar",
            ActionPerm::Update,
            "Grade do produto: replicar para o mesmo produto (mesmo código de barras, senão mesma referência) nas outras empresas",
            ReplicateGrid,
        )
}

/// Paint formulas of a product (tinting: which colour, under the manufacturer's
/// code, and the formula to mix it).
pub fn produtopintura() -> Resource {
    Resource::new("produtopintura", "Pintura do Produto", SCHEMA, "produtopintura", "produtos")
        .sample(json!({"PRPT_PROD_ID": 1, "PRPT_DESCRICAO": "AZUL DEL REY", "PRPT_COR_ID": 1, "PRPT_CODIGO": "S1B4", "PRPT_FORMULA": "Base T: 900 ml; Azul: 85 ml; Preto: 15 ml", "PRPT_VALOR": "12.50"}))
        .key(&["PRPT_ID"])
        .company("PRPT_EMP_ID")
        .label("PRPT_DESCRICAO")
        .order("PRPT_DESCRICAO")
        .fields(vec![
            Field::id("PRPT_ID", "Código"),
            Field::int("PRPT_EMP_ID", "Empresa"),
            Field::reference("PRPT_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
            Field::text("PRPT_DESCRICAO", "Descrição")
                .required()
                .len(80)
                .searchable()
                .list()
                .width(6),
            Field::reference("PRPT_COR_ID", "Cor", "cor", Kind::Combobox)
                .list()
                .width(3),
            Field::text("PRPT_CODIGO", "Código do Fabricante")
                .len(30)
                .searchable()
                .list()
                .width(3),
            Field::textarea("PRPT_FORMULA", "Fórmula").len(4000),
            // Added to the product's price when this formula is sold.
            Field::money("PRPT_VALOR", "Valor Adicional").list().width(3),
            Field::situation("PRPT_SITUACAO"),
        ])
}

/// Special prices a customer pays for a product. One row per customer and product,
/// which is the legacy key.
pub fn produtosespeciais() -> Resource {
    Resource::new(
        "produtosespeciais",
        "Produtos Especiais do Cliente",
        SCHEMA,
        "produtosespeciais",
        "produtos",
    )
    .sample(json!({"PRES_CLI_ID": 1, "PRES_PROD_ID": 1, "PRES_VALOR": "0.70", "PRES_DTA_VALIDADE": "2027-12-31"}))
    .natural_key()
    .key(&["PRES_CLI_ID", "PRES_PROD_ID"])
    .constraint(
        "produtosespeciais_pkey",
        "Cliente já tem preço especial para este produto.",
    )
    .company("PRES_EMP_ID")
    .label("PRES_DESCRICAO")
    .order("PRES_DESCRICAO")
    .fields(vec![
        Field::int("PRES_EMP_ID", "Empresa"),
        // Customers are the parties register's; no database key across modules.
        Field::reference("PRES_CLI_ID", "Cliente", "clientes", Kind::Autocomplete)
            .required()
            .list()
            .width(6),
        Field::reference("PRES_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .width(6),
        // The product's description, kept by a trigger for lists and searches.
        Field::text("PRES_DESCRICAO", "Descrição do Produto")
            .read_only()
            .searchable()
            .list(),
        Field::money("PRES_VALOR", "Preço Especial").required().list().width(3),
        Field::date("PRES_DTA_VALIDADE", "Válido até").list(),
        Field::textarea("PRES_OBS", "Observação").len(500),
    ])
}
