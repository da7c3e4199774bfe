//! Equipment brands (`marcaequipamento`) and models (`modeloequipamento`), shared
//! by the client's companies.

use erp_platform::resource::{Field, Kind, Resource};
use serde_json::json;

use crate::SCHEMA;

pub(crate) fn marcaequipamento() -> Resource {
    Resource::new(
        "marcaequipamento",
        "Marcas de Equipamentos",
        SCHEMA,
        "marcaequipamento",
        "marcaequipamento",
    )
    .screen("/marcaequipamento")
    .sample(json!({"MREQ_DESCRICAO": "WEG"}))
    .company_path()
    .key(&["MREQ_ID"])
    .constraint(
        "marcaequipamento_descricao_key",
        "Descrição já cadastrada para outra marca de equipamento.",
    )
    .label("MREQ_DESCRICAO")
    .order("MREQ_DESCRICAO")
    .fields(vec![
        Field::id("MREQ_ID", "Código"),
        Field::text("MREQ_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(8),
        Field::situation("MREQ_SITUACAO"),
    ])
}

pub(crate) fn modeloequipamento() -> Resource {
    Resource::new(
        "modeloequipamento",
        "Modelos de Equipamentos",
        SCHEMA,
        "modeloequipamento",
        "modeloequipamento",
    )
    .screen("/modeloequipamento")
    .sample(json!({"MDEQ_MREQ_ID": 1, "MDEQ_DESCRICAO": "W22 5CV"}))
    .company_path()
    .key(&["MDEQ_ID"])
    .label("MDEQ_DESCRICAO")
    .order("MDEQ_DESCRICAO")
    .fields(vec![
        Field::id("MDEQ_ID", "Código"),
        Field::reference("MDEQ_MREQ_ID", "Marca", "marcaequipamento", Kind::Combobox)
            .required()
            .list(),
        Field::text("MDEQ_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list(),
        Field::situation("MDEQ_SITUACAO"),
    ])
}
