//! Vehicles (`veiculo`): the register, the rules of its documents and years, and
//! the call that finds or creates a vehicle by its plate.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{company, int};
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::{validators, Error, Result};
use serde_json::{json, Map, Value};

use super::vehicle_documents::{chassis, plate, renavam};
use crate::resources::checks::{normalise, text_of, ModelOfBrand};
use crate::resources::rows::get_row;
use crate::SCHEMA;

pub(crate) fn veiculo() -> Resource {
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
        .constraint("veiculo_placa_key", "Placa já cadastrada para outro veículo.")
        .hooks(Arc::new(VehicleHooks))
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
            Arc::new(AutomaticVehicle),
        )
}

pub(crate) struct VehicleHooks;

const VEHICLE_MODEL: ModelOfBrand = ModelOfBrand {
    model_field: "VEIC_MDLV_ID",
    brand_field: "VEIC_MRCV_ID",
    table: "catalog.modeloveiculo",
    key_column: "mdlv_id",
    brand_column: "mdlv_mrcv_id",
};

#[async_trait]
impl Hooks for VehicleHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        for f in ["VEIC_PLACA1", "VEIC_PLACA2", "VEIC_PLACA3"] {
            normalise(body, f, plate)?;
        }
        normalise(body, "VEIC_CHASSI", chassis)?;
        normalise(body, "VEIC_RENAVAM", renavam)?;
        normalise(body, "VEIC_UF", |s| Ok(s.to_uppercase()))?;
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        // A model year is the year of manufacture or the next one.
        if let (Ok(made), Ok(model)) =
            (int(row, "VEIC_ANO_FABRICACAO"), int(row, "VEIC_ANO_MODELO"))
        {
            if model != made && model != made + 1 {
                return Err(Error::validation(
                    "O ano do modelo deve ser o ano de fabricação ou o seguinte.",
                ));
            }
        }
        VEHICLE_MODEL.check(tx, caller, row).await
    }
}

/// POST /veiculo/automatico/{emp} `{VEIC_PLACA1, CLI_ID?}`: the company's vehicle with
/// that plate, or a new one with just the plate (and the customer), as the service
/// order screen adds vehicles while typing the plate.
pub(crate) struct AutomaticVehicle;

#[async_trait]
impl ActionHandler for AutomaticVehicle {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, body, .. } = call;
        let emp = company(emp)?;
        let empty = Map::new();
        let form = body.as_object().unwrap_or(&empty);
        let placa = text_of(form, "VEIC_PLACA1")
            .ok_or_else(|| Error::validation(validators::required("Placa").to_string()))
            .and_then(plate)?;
        let existing: Option<i64> = sqlx::query_scalar(
            "SELECT veic_id FROM catalog.veiculo WHERE client_id = $1 AND veic_emp_id = $2 AND veic_placa1 = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(&placa)
        .fetch_optional(&mut **tx)
        .await?;
        if let Some(id) = existing {
            return get_row(tx, res, caller, Some(emp), id).await;
        }
        let mut new = Map::new();
        new.insert("VEIC_PLACA1".into(), Value::from(placa));
        if let Ok(cli) = int(&body, "CLI_ID").or_else(|_| int(&body, "VEIC_CLI_ID")) {
            new.insert("VEIC_CLI_ID".into(), Value::from(cli));
        }
        query::create(tx, res, caller, Some(emp), &new).await
    }
}
