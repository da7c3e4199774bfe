//! The product register (`produtos`) and the option lists of its fiscal fields.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Resource};
use serde_json::json;

use super::duplicate::Duplicate;
use super::product_hooks::ProductHooks;
use erp_platform::resource::images::{RemoveImage, ReplaceImage};

/// Types a product image may have (the insert-images upload type, spec §5).
pub const IMAGE_TYPES: &[&str] = &["png", "jpeg", "bmp"];
use super::settings::{ProductSettings, QTY_SCALE};
use crate::SCHEMA;

/// ICMS origin of the goods (NF-e `orig`, table A of the CST).
pub const ORIGINS: [(&str, &str); 9] = [
    ("0", "0 - Nacional, exceto as indicadas nos códigos 3, 4, 5 e 8"),
    ("1", "1 - Estrangeira - Importação direta, exceto a indicada no código 6"),
    ("2", "2 - Estrangeira - Adquirida no mercado interno, exceto a indicada no código 7"),
    ("3", "3 - Nacional, com Conteúdo de Importação superior a 40% e inferior ou igual a 70%"),
    ("4", "4 - Nacional, produzida conforme os processos produtivos básicos"),
    ("5", "5 - Nacional, com Conteúdo de Importação inferior ou igual a 40%"),
    ("6", "6 - Estrangeira - Importação direta, sem similar nacional, constante da lista CAMEX"),
    ("7", "7 - Estrangeira - Adquirida no mercado interno, sem similar nacional, constante da lista CAMEX"),
    ("8", "8 - Nacional, com Conteúdo de Importação superior a 70%"),
];

/// Item type of the SPED Fiscal (registro 0200, TIPO_ITEM).
pub const ITEM_TYPES: [(&str, &str); 12] = [
    ("00", "00 - Mercadoria para Revenda"),
    ("01", "01 - Matéria-Prima"),
    ("02", "02 - Embalagem"),
    ("03", "03 - Produto em Processo"),
    ("04", "04 - Produto Acabado"),
    ("05", "05 - Subproduto"),
    ("06", "06 - Produto Intermediário"),
    ("07", "07 - Material de Uso e Consumo"),
    ("08", "08 - Ativo Imobilizado"),
    ("09", "09 - Serviços"),
    ("10", "10 - Outros Insumos"),
    ("99", "99 - Outras"),
];

pub fn produtos() -> Resource {
    Resource::new("produtos", "Produtos", SCHEMA, "produtos", "produtos")
        .screen("/produtos")
        .sample(json!({
            "PROD_DESCRICAO": "PARAFUSO SEXTAVADO 1/4 X 2 ZINCADO",
            "PROD_REFERENCIA": "PAR-14-2",
            "PROD_CBAR": "7891000315507",
            "PROD_UNID_ID": 1,
            "PROD_GRUP_ID": 1,
            "PROD_GSUB_ID": 1,
            "PROD_MARC_ID": 1,
            "PROD_NCM": "7318.15.00",
            "PROD_CEST": "10.060.00",
            "PROD_ORIGEM": 0,
            "PROD_CUSTO": "0.42",
            "PROD_MARGEM": "80",
            "PROD_VALOR": "0.76",
            "PROD_ESTOQUE_MIN": "500",
            "PROD_PESO_BRUTO": "0.0150"
        }))
        .key(&["PROD_ID"])
        .company("PROD_EMP_ID")
        .label("PROD_DESCRICAO")
        .order("PROD_DESCRICAO")
        // Stock and orders keep their own view of the products.
        .events("produto")
        .constraint(
            "produtos_cbar_key",
            "Código de barras já cadastrado para outro produto.",
        )
        // The codes' field rules, and who changes it from where for its history.
        .record_hooks(ProductHooks)
        .fields(vec![
            Field::id("PROD_ID", "Código"),
            Field::int("PROD_EMP_ID", "Empresa"),
            Field::text("PROD_DESCRICAO", "Descrição")
                .required()
                .len(120)
                .searchable()
                .list()
                .width(8),
            // Printed on receipts and labels, where 120 characters do not fit.
            Field::text("PROD_DESCRICAO_RED", "Descrição Reduzida")
                .len(40)
                .width(4),
            Field::text("PROD_REFERENCIA", "Referência / Código Interno")
                .len(30)
                .searchable()
                .list()
                .width(3),
            Field::text("PROD_CBAR", "Código de Barras (EAN)")
                .kind(Kind::Barcode)
                .len(14)
                .searchable()
                .list()
                .width(3),
            Field::options("PROD_TIPO", "Tipo do Item", DbType::Text, &ITEM_TYPES)
                .required()
                .default(json!("00"))
                .width(3),
            Field::reference("PROD_UNID_ID", "Unidade", "unidade", Kind::Combobox)
                .required()
                .width(3),
            // Copied from the unit by a trigger: lists and documents show it.
            Field::text("UNID_ABREVIADA", "Sigla da Unidade")
                .column("prod_unid_abreviada")
                .read_only()
                .list()
                .width(2),
            Field::reference("PROD_GRUP_ID", "Grupo", "grupo", Kind::Combobox).width(4),
            Field::reference("PROD_GSUB_ID", "Subgrupo", "subgrupo", Kind::Combobox).width(4),
            Field::reference("PROD_MARC_ID", "Marca", "marca", Kind::Combobox).width(4),
            Field::text("PROD_NCM", "NCM")
                .reference_to("ncm")
                .kind(Kind::Autocomplete)
                .len(8)
                .mask("####.##.##")
                .width(3),
            Field::text("PROD_CEST", "CEST")
                .len(7)
                .mask("##.###.##")
                .width(3),
            Field::options("PROD_ORIGEM", "Origem da Mercadoria", DbType::Int, &ORIGINS)
                .required()
                .default(json!(0))
                .width(6),
            Field::money("PROD_CUSTO", "Preço de Custo").width(3),
            Field::decimal("PROD_MARGEM", "Margem de Lucro (%)")
                .scale(4)
                .min("0")
                .max("999.9999")
                .width(3),
            Field::money("PROD_VALOR", "Preço de Venda").list().width(3),
            // The balance belongs to the stock service, which keeps it from its
            // movements and publishes it back; a product form never sets it.
            Field::decimal("PROD_ESTOQUE", "Estoque Atual")
                .scale(QTY_SCALE)
                .read_only()
                .list()
                .width(3),
            Field::decimal("PROD_ESTOQUE_MIN", "Estoque Mínimo")
                .scale(QTY_SCALE)
                .min("0")
                .width(3),
            Field::decimal("PROD_ESTOQUE_MAX", "Estoque Máximo")
                .scale(QTY_SCALE)
                .min("0")
                .width(3),
            Field::decimal("PROD_PESO_BRUTO", "Peso Bruto (kg)")
                .scale(QTY_SCALE)
                .min("0")
                .width(3),
            Field::decimal("PROD_PESO_LIQUIDO", "Peso Líquido (kg)")
                .scale(QTY_SCALE)
                .min("0")
                .width(3),
            Field::situation("PROD_SITUACAO"),
            Field::upload("PROD_IMAGEM", "Imagem", IMAGE_TYPES).width(12),
            Field::textarea("PROD_OBS", "Observações").len(2000),
            Field::timestamp("PROD_DTA_CAD", "Data de Cadastro").width(3),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "PROD_ID",
                "PROD_DESCRICAO",
                "PROD_DESCRICAO_RED",
                "PROD_REFERENCIA",
                "PROD_CBAR",
                "PROD_TIPO",
                "PROD_SITUACAO",
                "PROD_DTA_CAD",
            ],
        )
        .group(
            Some("Classificação"),
            true,
            12,
            &[
                "PROD_UNID_ID",
                "UNID_ABREVIADA",
                "PROD_GRUP_ID",
                "PROD_GSUB_ID",
                "PROD_MARC_ID",
            ],
        )
        .group(
            Some("Fiscal"),
            true,
            12,
            &["PROD_NCM", "PROD_CEST", "PROD_ORIGEM"],
        )
        .group(
            Some("Preços e Estoque"),
            true,
            12,
            &[
                "PROD_CUSTO",
                "PROD_MARGEM",
                "PROD_VALOR",
                "PROD_ESTOQUE",
                "PROD_ESTOQUE_MIN",
                "PROD_ESTOQUE_MAX",
                "PROD_PESO_BRUTO",
                "PROD_PESO_LIQUIDO",
            ],
        )
        .group(
            Some("Imagem e Observações"),
            true,
            12,
            &["PROD_IMAGEM", "PROD_OBS"],
        )
        .action(
            "GET",
            "/produtos/config/{emp}",
            "config",
            ActionPerm::View,
            "Produtos: configuração da empresa",
            Arc::new(ProductSettings),
        )
        // Without a company the call answers 'emp_id não informado.' (spec §5).
        .action(
            "GET",
            "/produtos/config",
            "config_sem_empresa",
            ActionPerm::View,
            "Produtos: configuração da empresa",
            Arc::new(ProductSettings),
        )
        .action(
            "POST",
            "/produtoduplicar/{prodId}/{emp}/{user}",
            "duplicar",
            ActionPerm::Create,
            "Produtos: duplicar",
            Arc::new(Duplicate),
        )
        .upload_action(
            "POST",
            "/produtos/imagem/{id}/{emp}",
            "imagem",
            IMAGE_TYPES,
            "Produtos: enviar imagem",
            // Answers the product with the file it replaced (`anterior`).
            Arc::new(ReplaceImage {
                field: "PROD_IMAGEM",
                key_params: &["id"],
                missing: "Produto não encontrado.",
            }),
        )
        .action(
            "DELETE",
            "/produtos/imagem/{id}/{emp}/{name}",
            "imagem_excluir",
            ActionPerm::Update,
            "Produtos: excluir imagem",
            // Only while the product still holds the named file; answers it as
            // `arquivo` so the gateway deletes it.
            Arc::new(RemoveImage { field: "PROD_IMAGEM", key_params: &["id"], name_param: "name" }),
        )
}
