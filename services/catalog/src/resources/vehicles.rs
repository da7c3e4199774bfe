//! Vehicles (`veiculo`) with their brands and models, and equipment (`equipamento`)
//! with brands, models, types, the services of a type, images and the equipment of
//! customer contracts (`contratoseqpt`, declared here because it points at
//! equipment, which comes after the customer registers).
//!
//! Decisions:
//! - Vehicles and equipment are per company, like the customers they belong to.
//! - Brands, models and equipment types are shared by the client's companies: the
//!   legacy screens read them with company 1 whatever the user's company (spec §9),
//!   so their paths keep `{emp}` (checked by the guard) but the rows are not per
//!   company. Equipment types are addressed without a company at all ("update by
//!   id").
//! - Plates are stored upper case without the hyphen, old (AAA9999) or Mercosul
//!   (AAA9A99); one vehicle per plate in a company, which is what lets
//!   `POST /veiculo/automatico/{emp}` find or create a vehicle by plate.
//! - A model must belong to the brand chosen beside it; the check runs on the written
//!   row, with a message, rather than as a composite key that would only say
//!   "related record not found".
//!
//! Layout:
//! - `vehicles`: the entry (`all`), vehicle brands, models and vehicles.
//! - `vehicles_equipment`: the equipment registers.
//! - `vehicles_actions`: plate, chassis and RENAVAM rules, hooks and declared calls.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Resource};
use serde_json::json;

use crate::SCHEMA;

#[path = "vehicles_actions.rs"]
mod actions;
#[path = "vehicles_equipment.rs"]
mod equipment;

/// In dependency order: referenced registers come first (samples point at id 1).
pub fn all() -> Vec<Resource> {
    vec![
        marcaveiculo(),
        modeloveiculo(),
        veiculo(),
        equipment::marcaequipamento(),
        equipment::modeloequipamento(),
        equipment::tipoequipamento(),
        equipment::tipoequipamentoserv(),
        equipment::equipamento(),
        equipment::equipamentosimg(),
        equipment::contratoseqpt(),
    ]
}

fn marcaveiculo() -> Resource {
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

fn modeloveiculo() -> Resource {
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

fn veiculo() -> Resource {
    Resource::new("veiculo", "Veículos", SCHEMA, "veiculo", "veiculos")
        .screen("/veiculos")
        .sample(json!({
            "VEIC_PLACA1": "abc-1d23", "VEIC_UF": "SP", "VEIC_CLI_ID": 1, "VEIC_MRCV_ID": 1, "VEIC_MDLV_ID": 1,
            "VEIC_TIPO": "AUTOMOVEL", "VEIC_ANO_FABRICACAO": 2020, "VEIC_ANO_MODELO": 2021, "VEIC_COR": "Prata",
            "VEIC_CHASSI": "9BWZZZ377VT004251", "VEIC_RENAVAM": "00639884962", "VEIC_COMBUSTIVEL": "F",
            "VEIC_HODOMETRO": 45000
        }))
        .key(&["VEIC_ID"])
        .company("VEIC_EMP_ID")
        .label("VEIC_PLACA1")
        .order("VEIC_PLACA1")
        .search_limit(20)
        // Service orders, trips and transport documents keep the plate and odometer.
        .events("veiculo")
        .hooks(Arc::new(actions::VehicleHooks))
        .fields(vec![
            Field::id("VEIC_ID", "Código"),
            Field::int("VEIC_EMP_ID", "Empresa"),
            Field::text("VEIC_PLACA1", "Placa")
                .required()
                .len(8)
                .searchable()
                .list()
                .width(2),
            Field::text("VEIC_PLACA2", "Placa Reboque 1").len(8).width(2),
            Field::text("VEIC_PLACA3", "Placa Reboque 2").len(8).width(2),
            Field::text("VEIC_UF", "UF").len(2).width(2),
            Field::reference("VEIC_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).list(),
            Field::reference("VEIC_MRCV_ID", "Marca", "marcaveiculo", Kind::Combobox).list(),
            Field::reference("VEIC_MDLV_ID", "Modelo", "modeloveiculo", Kind::Combobox).list(),
            Field::options(
                "VEIC_TIPO",
                "Tipo",
                DbType::Text,
                &[
                    ("AUTOMOVEL", "Automóvel"),
                    ("MOTOCICLETA", "Motocicleta"),
                    ("CAMINHONETE", "Caminhonete"),
                    ("UTILITARIO", "Utilitário"),
                    ("CAMINHAO", "Caminhão"),
                    ("REBOQUE", "Reboque/Semirreboque"),
                    ("ONIBUS", "Ônibus/Micro-ônibus"),
                    ("OUTRO", "Outro"),
                ],
            )
            .width(3),
            Field::int("VEIC_ANO_FABRICACAO", "Ano de Fabricação")
                .min("1900")
                .max("2100")
                .list()
                .width(2),
            Field::int("VEIC_ANO_MODELO", "Ano do Modelo").min("1900").max("2101").width(2),
            Field::text("VEIC_COR", "Cor").len(30).list().width(3),
            Field::text("VEIC_CHASSI", "Chassi").len(17).searchable().width(4),
            Field::text("VEIC_RENAVAM", "RENAVAM").len(11).width(3),
            Field::options(
                "VEIC_COMBUSTIVEL",
                "Combustível",
                DbType::Text,
                &[
                    ("G", "Gasolina"),
                    ("E", "Etanol"),
                    ("F", "Flex"),
                    ("D", "Diesel"),
                    ("N", "GNV"),
                    ("L", "Elétrico"),
                    ("H", "Híbrido"),
                ],
            )
            .width(3),
            Field::int("VEIC_HODOMETRO", "Hodômetro (km)").min("0").list().width(3),
            Field::int("VEIC_TARA", "Tara (kg)").min("0").width(3),
            Field::int("VEIC_CAPACIDADE_KG", "Capacidade (kg)").min("0").width(3),
            Field::int("VEIC_CAPACIDADE_M3", "Capacidade (m³)").min("0").width(3),
            Field::options(
                "VEIC_TIPO_RODADO",
                "Tipo de Rodado",
                DbType::Text,
                &[
                    ("01", "Truck"),
                    ("02", "Toco"),
                    ("03", "Cavalo Mecânico"),
                    ("04", "VAN"),
                    ("05", "Utilitário"),
                    ("06", "Outros"),
                ],
            )
            .width(3),
            Field::options(
                "VEIC_TIPO_CARROCERIA",
                "Tipo de Carroceria",
                DbType::Text,
                &[
                    ("00", "Não aplicável"),
                    ("01", "Aberta"),
                    ("02", "Fechada/Baú"),
                    ("03", "Graneleira"),
                    ("04", "Porta Container"),
                    ("05", "Sider"),
                ],
            )
            .width(3),
            Field::text("VEIC_RNTRC", "RNTRC").len(8).width(3),
            Field::textarea("VEIC_OBS", "Observações").len(2000),
            Field::situation("VEIC_SITUACAO"),
            Field::timestamp("VEIC_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "VEIC_ID",
                "VEIC_PLACA1",
                "VEIC_UF",
                "VEIC_PLACA2",
                "VEIC_PLACA3",
                "VEIC_SITUACAO",
                "VEIC_CLI_ID",
            ],
        )
        .group(
            Some("Veículo"),
            true,
            12,
            &[
                "VEIC_TIPO",
                "VEIC_MRCV_ID",
                "VEIC_MDLV_ID",
                "VEIC_ANO_FABRICACAO",
                "VEIC_ANO_MODELO",
                "VEIC_COR",
                "VEIC_COMBUSTIVEL",
                "VEIC_CHASSI",
                "VEIC_RENAVAM",
                "VEIC_HODOMETRO",
            ],
        )
        .group(
            Some("Transporte (CT-e/MDF-e)"),
            true,
            12,
            &[
                "VEIC_TARA",
                "VEIC_CAPACIDADE_KG",
                "VEIC_CAPACIDADE_M3",
                "VEIC_TIPO_RODADO",
                "VEIC_TIPO_CARROCERIA",
                "VEIC_RNTRC",
            ],
        )
        .group(Some("Observações"), true, 12, &["VEIC_OBS", "VEIC_DTA_CAD"])
        .action(
            "POST",
            "/veiculo/automatico/{emp}",
            "automatico",
            ActionPerm::Create,
            "Veículos: o veículo da placa VEIC_PLACA1, criado (com o cliente CLI_ID) se não existir",
            Arc::new(actions::AutomaticVehicle),
        )
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = erp_platform::resource::Registry::new(
            [super::super::parties::all(), super::all()].concat(),
        )
        .expect("registry");
        for res in r.all() {
            assert!(res.sample.is_some(), "{} has a sample", res.name);
        }
        assert_eq!(r.get("marcaveiculo").map(|m| m.search_limit), Some(6000));
    }
}
