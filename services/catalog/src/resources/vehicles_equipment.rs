//! Equipment: brands, models, types and the services of a type, the equipment
//! itself, its images, and the equipment covered by customer contracts.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, Field, Kind, Resource};
use serde_json::json;

use super::actions;
use crate::resources::parties::support::{stamped, Checks, ModelOfBrand};
use crate::SCHEMA;

/// Allowed types of equipment pictures (the spec's insert-images type).
const IMAGES: [&str; 3] = ["png", "jpeg", "bmp"];

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

pub(crate) fn tipoequipamento() -> Resource {
    Resource::new(
        "tipoequipamento",
        "Tipos de Equipamento",
        SCHEMA,
        "tipoequipamento",
        "tipoequipamento",
    )
    .screen("/tipoequipamento")
    .sample(json!({"TPEQ_DESCRICAO": "Compressor"}))
    .key(&["TPEQ_ID"])
    .label("TPEQ_DESCRICAO")
    .order("TPEQ_ID")
    .fields(vec![
        Field::id("TPEQ_ID", "Código"),
        Field::text("TPEQ_DESCRICAO", "Descrição")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(8),
        Field::situation("TPEQ_SITUACAO"),
    ])
}

pub(crate) fn tipoequipamentoserv() -> Resource {
    Resource::new(
        "tipoequipamentoserv",
        "Serviços do Tipo de Equipamento",
        SCHEMA,
        "tipoequipamentoserv",
        "tipoequipamento",
    )
    .sample(json!({
        "TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 1, "TEQS_DESCRICAO": "Troca do filtro de ar", "TEQS_PERIODICIDADE_DIAS": 90
    }))
    .key(&["TEQS_ID"])
    .label("TEQS_DESCRICAO")
    .order("TEQS_DESCRICAO")
    .fields(vec![
        Field::id("TEQS_ID", "Código"),
        Field::reference("TEQS_TPEQ_ID", "Tipo de Equipamento", "tipoequipamento", Kind::Combobox)
            .required()
            .list(),
        // Services are declared by another module: a plain column.
        Field::reference("TEQS_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("TEQS_DESCRICAO", "Descrição")
            .required()
            .len(150)
            .searchable()
            .list(),
        Field::int("TEQS_PERIODICIDADE_DIAS", "Periodicidade (dias)")
            .min("1")
            .list()
            .width(3),
        Field::textarea("TEQS_OBS", "Observações").len(500),
    ])
    .action(
        "GET",
        "/tipoequipamentoserv/{typeId}/{servId}",
        "consultar_par",
        ActionPerm::View,
        "Serviços do tipo de equipamento: o serviço {servId} do tipo {typeId}",
        Arc::new(actions::TypeService { delete: false }),
    )
    .action(
        "DELETE",
        "/tipoequipamentoserv/{typeId}/{servId}",
        "excluir_par",
        ActionPerm::Delete,
        "Serviços do tipo de equipamento: retirar o serviço {servId} do tipo {typeId}",
        Arc::new(actions::TypeService { delete: true }),
    )
}

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

pub(crate) fn equipamentosimg() -> Resource {
    Resource::new(
        "equipamentosimg",
        "Imagens do Equipamento",
        SCHEMA,
        "equipamentosimg",
        "equipamento",
    )
    .sample(json!({"EQIM_EQPT_ID": 1, "EQIM_DESCRICAO": "Placa de identificação"}))
    .key(&["EQIM_ID"])
    .company("EQIM_EMP_ID")
    .label("EQIM_DESCRICAO")
    .order("EQIM_ID")
    .hooks(Arc::new(Checks {
        created_by: Some("EQIM_USR_ID"),
        ..Checks::default()
    }))
    .fields(vec![
        Field::id("EQIM_ID", "Código"),
        Field::int("EQIM_EMP_ID", "Empresa"),
        Field::reference("EQIM_EQPT_ID", "Equipamento", "equipamento", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("EQIM_DESCRICAO", "Descrição").required().len(150).searchable().list(),
        Field::upload("EQIM_IMAGEM", "Imagem", &IMAGES).list(),
        stamped(Field::int("EQIM_USR_ID", "Usuário")),
        Field::timestamp("EQIM_DTA_CAD", "Data"),
    ])
    .upload_action(
        "POST",
        "/equipamentosimg/{id}/{emp}",
        "enviar",
        &IMAGES,
        "Imagens do equipamento {id}: enviar (EQIM_ID opcional troca a imagem de uma linha; EQIM_DESCRICAO opcional)",
        Arc::new(actions::EquipmentImageUpload),
    )
    .action(
        "DELETE",
        "/equipamentosimg/{id}/{emp}/{nome}",
        "excluir_arquivo",
        ActionPerm::Delete,
        "Imagens do equipamento {id}: excluir pelo nome do arquivo",
        Arc::new(actions::EquipmentImageDelete),
    )
}

pub(crate) fn contratoseqpt() -> Resource {
    Resource::new(
        "contratoseqpt",
        "Equipamentos do Contrato",
        SCHEMA,
        "contratoseqpt",
        "clientes",
    )
    .sample(json!({
        "CONTE_CONT_ID": 1, "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": 1, "CONTE_DESCRICAO": "Compressor da linha 1",
        "CONTE_VALOR": "150.00"
    }))
    .key(&["CONTE_ID"])
    .company("CONTE_EMP_ID")
    .label("CONTE_DESCRICAO")
    .order("CONTE_ID")
    .hooks(Arc::new(actions::ContractEquipmentHooks))
    .fields(vec![
        Field::id("CONTE_ID", "Código"),
        Field::int("CONTE_EMP_ID", "Empresa"),
        Field::reference("CONTE_CONT_ID", "Contrato", "contratocliente", Kind::Combobox)
            .required()
            .list(),
        Field::reference("CONTE_CLI_ID", "Cliente", "clientes", Kind::Autocomplete)
            .required()
            .list(),
        Field::reference("CONTE_EQPT_ID", "Equipamento", "equipamento", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("CONTE_DESCRICAO", "Descrição").len(150).searchable().list(),
        Field::money("CONTE_VALOR", "Valor").max("9999999999999.99").list().width(3),
        Field::textarea("CONTE_OBS", "Observações").len(500),
    ])
    .action(
        "POST",
        "/contratoseqpt/{contract}/{emp}",
        "do_contrato",
        ActionPerm::View,
        "Equipamentos do contrato {contract} (corpo: ORDENACAO, FILTRO, LIMIT, PAGINATION)",
        Arc::new(actions::ContractEquipment),
    )
}
