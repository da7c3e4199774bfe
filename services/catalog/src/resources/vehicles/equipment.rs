//! Equipment (`equipamento`): the machines a company installs and services, by
//! serial number, with their customer, brand, model and type.

use std::sync::Arc;

use erp_platform::resource::{Field, Kind, Resource};
use serde_json::json;

use crate::resources::checks::{Checks, ModelOfBrand};
use crate::SCHEMA;

pub(crate) fn equipamento() -> Resource {
    Resource::new("equipamento", "Equipamentos", SCHEMA, "equipamento", "equipamento")
        .screen("/equipamento")
        .sample(json!({
            "EQPT_SERIE": "SN-2026-0001", "EQPT_DESCRICAO": "Compressor de ar 10 pés", "EQPT_TPEQ_ID": 1,
            "EQPT_MREQ_ID": 1, "EQPT_MDEQ_ID": 1, "EQPT_CLI_ID": 1, "EQPT_PATRIMONIO": "PAT-77",
            "EQPT_DTA_INSTALACAO": "2026-02-01", "EQPT_DTA_GARANTIA": "2027-02-01"
        }))
        .key(&["EQPT_ID"])
        .company("EQPT_EMP_ID")
        .label("EQPT_SERIE")
        .order("EQPT_SERIE")
        .search_limit(20)
        .hooks(Arc::new(Checks {
            date_order: &[
                (
                    "EQPT_DTA_FABRICACAO",
                    "EQPT_DTA_INSTALACAO",
                    "A data de instalação deve ser maior ou igual à data de fabricação.",
                ),
                (
                    "EQPT_DTA_INSTALACAO",
                    "EQPT_DTA_GARANTIA",
                    "O fim da garantia deve ser maior ou igual à data de instalação.",
                ),
            ],
            model_of_brand: Some(ModelOfBrand {
                model_field: "EQPT_MDEQ_ID",
                brand_field: "EQPT_MREQ_ID",
                table: "catalog.modeloequipamento",
                key_column: "mdeq_id",
                brand_column: "mdeq_mreq_id",
            }),
            ..Checks::default()
        }))
        .fields(vec![
            Field::id("EQPT_ID", "Código"),
            Field::int("EQPT_EMP_ID", "Empresa"),
            Field::text("EQPT_SERIE", "Número de Série")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(4),
            Field::text("EQPT_DESCRICAO", "Descrição").len(150).searchable().list().width(8),
            Field::reference("EQPT_TPEQ_ID", "Tipo", "tipoequipamento", Kind::Combobox).list(),
            Field::reference("EQPT_MREQ_ID", "Marca", "marcaequipamento", Kind::Combobox).list(),
            Field::reference("EQPT_MDEQ_ID", "Modelo", "modeloequipamento", Kind::Combobox).list(),
            Field::reference("EQPT_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).list(),
            Field::text("EQPT_PATRIMONIO", "Patrimônio").len(30).searchable().width(3),
            Field::text("EQPT_LOCALIZACAO", "Localização").len(100),
            Field::date("EQPT_DTA_FABRICACAO", "Data de Fabricação"),
            Field::date("EQPT_DTA_INSTALACAO", "Data de Instalação"),
            Field::date("EQPT_DTA_GARANTIA", "Fim da Garantia").list(),
            Field::textarea("EQPT_OBS", "Observações").len(2000),
            Field::situation("EQPT_SITUACAO"),
            Field::timestamp("EQPT_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "EQPT_ID",
                "EQPT_SERIE",
                "EQPT_DESCRICAO",
                "EQPT_TPEQ_ID",
                "EQPT_MREQ_ID",
                "EQPT_MDEQ_ID",
                "EQPT_PATRIMONIO",
                "EQPT_SITUACAO",
            ],
        )
        .group(
            Some("Instalação e Garantia"),
            true,
            12,
            &[
                "EQPT_CLI_ID",
                "EQPT_LOCALIZACAO",
                "EQPT_DTA_FABRICACAO",
                "EQPT_DTA_INSTALACAO",
                "EQPT_DTA_GARANTIA",
            ],
        )
        .group(Some("Observações"), true, 12, &["EQPT_OBS", "EQPT_DTA_CAD"])
}
