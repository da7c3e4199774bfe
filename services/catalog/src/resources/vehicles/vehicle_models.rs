//! Vehicle brands (`marcaveiculo`) and models (`modeloveiculo`), shared by the
//! client's companies.

use erp_platform::resource::{Field, Kind, Resource};
use serde_json::json;

use crate::SCHEMA;

pub(crate) fn marcaveiculo() -> Resource {
    Resource::new(
        "marcaveiculo",
        "Marcas de Veículos",
        SCHEMA,
        "marcaveiculo",
        "marcaveiculo",
    )
    .screen("/marcaveiculo")
    .sample(json!({"MRCV_DESCRICAO": "VOLKSWAGEN", "MRCV_COD_FIPE": "59"}))
    .company_path()
    .key(&["MRCV_ID"])
    .constraint(
        "marcaveiculo_descricao_key",
        "Descrição já cadastrada para outra marca de veículo.",
    )
    .label("MRCV_DESCRICAO")
    .order("MRCV_ID")
    .search_limit(6000)
    .fields(vec![
        Field::id("MRCV_ID", "Código"),
        Field::text("MRCV_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(8),
        Field::text("MRCV_COD_FIPE", "Código FIPE")
            .len(10)
            .list()
            .width(2),
        Field::situation("MRCV_SITUACAO"),
    ])
}

pub(crate) fn modeloveiculo() -> Resource {
    Resource::new(
        "modeloveiculo",
        "Modelos de Veículos",
        SCHEMA,
        "modeloveiculo",
        "modeloveiculo",
    )
    .screen("/modeloveiculo")
    .sample(json!({"MDLV_MRCV_ID": 1, "MDLV_DESCRICAO": "GOL 1.0", "MDLV_COD_FIPE": "005340-6"}))
    .company_path()
    .key(&["MDLV_ID"])
    .label("MDLV_DESCRICAO")
    .order("MDLV_ID")
    .fields(vec![
        Field::id("MDLV_ID", "Código"),
        Field::reference("MDLV_MRCV_ID", "Marca", "marcaveiculo", Kind::Combobox)
            .required()
            .list(),
        Field::text("MDLV_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list(),
        Field::text("MDLV_COD_FIPE", "Código FIPE")
            .len(10)
            .list()
            .width(2),
        Field::situation("MDLV_SITUACAO"),
    ])
}
