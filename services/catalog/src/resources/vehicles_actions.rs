//! Vehicle document rules (plate, chassis, RENAVAM), the hooks of vehicles and
//! contract equipment, and the declared calls of vehicles and equipment.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, ActionHandler, Hooks, Op, Resource};
use erp_platform::{validators, Error, Result};
use serde_json::{json, Map, Value};

use crate::resources::parties::support::{
    children_filter, company, get_row, int_of, int_param, normalise, param, text_of, ModelOfBrand,
};

/// Gallery limit of the spec (§9): the image field hides its add control at 12.
const MAX_IMAGES: i64 = 12;

/// A Brazilian plate, old (AAA9999) or Mercosul (AAA9A99), stored upper case
/// without the hyphen.
pub(crate) fn plate(s: &str) -> Result<String> {
    let p: String = s
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .collect::<String>()
        .to_uppercase();
    let b = p.as_bytes();
    let ok = b.len() == 7
        && b[..3].iter().all(u8::is_ascii_uppercase)
        && b[3].is_ascii_digit()
        && (b[4].is_ascii_digit() || b[4].is_ascii_uppercase())
        && b[5..].iter().all(u8::is_ascii_digit);
    if ok {
        Ok(p)
    } else {
        Err(Error::validation("Placa inválida."))
    }
}

/// A VIN: 17 letters and digits, never I, O or Q (they read as 1 and 0).
pub(crate) fn chassis(s: &str) -> Result<String> {
    let c: String = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let ok = c.len() == 17
        && c.bytes()
            .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"IOQ".contains(&b)));
    if ok {
        Ok(c)
    } else {
        Err(Error::validation("Chassi inválido."))
    }
}

/// RENAVAM: 11 digits (the old 9-digit numbers take two leading zeros), the last a
/// modulo-11 check digit over the first ten with weights 3,2,9,8,7,6,5,4,3,2.
pub(crate) fn renavam(s: &str) -> Result<String> {
    let bad = || Error::validation("RENAVAM inválido.");
    let mut d = validators::only_digits(s);
    if s.chars()
        .any(|c| !(c.is_ascii_digit() || matches!(c, '.' | '-' | ' ')))
    {
        return Err(bad());
    }
    if d.len() == 9 {
        d.insert_str(0, "00");
    }
    let b = d.as_bytes();
    if b.len() != 11 || b.iter().all(|c| *c == b[0]) {
        return Err(bad());
    }
    let sum: u32 = b[..10]
        .iter()
        .zip([3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        .map(|(c, w)| u32::from(c - b'0') * w)
        .sum();
    let dv = match 11 - sum % 11 {
        10 | 11 => 0,
        n => n,
    };
    if u32::from(b[10] - b'0') == dv {
        Ok(d)
    } else {
        Err(bad())
    }
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
        if let (Some(made), Some(model)) = (
            int_of(row.get("VEIC_ANO_FABRICACAO")),
            int_of(row.get("VEIC_ANO_MODELO")),
        ) {
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
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        _params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let emp = company(emp)?;
        let empty = Map::new();
        let body = body.as_object().unwrap_or(&empty);
        let placa = text_of(body, "VEIC_PLACA1")
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
        if let Some(cli) = int_of(body.get("CLI_ID")).or_else(|| int_of(body.get("VEIC_CLI_ID"))) {
            new.insert("VEIC_CLI_ID".into(), Value::from(cli));
        }
        query::create(tx, res, caller, Some(emp), &new).await
    }
}

/// GET and DELETE /tipoequipamentoserv/{typeId}/{servId}: the link of a service to an
/// equipment type, addressed by the pair instead of its own id.
pub(crate) struct TypeService {
    pub delete: bool,
}

#[async_trait]
impl ActionHandler for TypeService {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        _emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let (kind, service) = (int_param(params, "typeId")?, int_param(params, "servId")?);
        let id: i64 = sqlx::query_scalar(
            "SELECT teqs_id FROM catalog.tipoequipamentoserv WHERE client_id = $1 AND teqs_tpeq_id = $2 AND teqs_serv_id = $3",
        )
        .bind(caller.client_id)
        .bind(kind)
        .bind(service)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Serviço não encontrado para o tipo de equipamento.".into()))?;
        if self.delete {
            query::delete(tx, res, caller, None, &[id.to_string()]).await?;
            Ok(json!({"code": 200, "msg": "Registro excluído com sucesso."}))
        } else {
            get_row(tx, res, caller, None, id).await
        }
    }
}

/// POST /equipamentosimg/{id}/{emp} (multipart): a picture of equipment {id}. With
/// `EQIM_ID` it replaces the picture of that row (answering the previous file in
/// `anterior`), otherwise it adds a row, up to the gallery limit.
pub(crate) struct EquipmentImageUpload;

#[async_trait]
impl ActionHandler for EquipmentImageUpload {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let (emp, equipment) = (company(emp)?, int_param(params, "id")?);
        let (name, original) = erp_platform::resource::uploaded_file(&body)?;
        let empty = Map::new();
        let form = body.as_object().unwrap_or(&empty);
        let (id, previous) = match int_of(form.get("EQIM_ID")) {
            Some(id) => {
                let row = get_row(tx, res, caller, Some(emp), id).await?;
                if int_of(row.get("EQIM_EQPT_ID")) != Some(equipment) {
                    return Err(Error::not_found());
                }
                (id, row.get("EQIM_IMAGEM").cloned().unwrap_or(Value::Null))
            }
            None => {
                let count: i64 = sqlx::query_scalar(
                    "SELECT count(*) FROM catalog.equipamentosimg \
                     WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_eqpt_id = $3 AND eqim_imagem IS NOT NULL",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(equipment)
                .fetch_one(&mut **tx)
                .await?;
                if count >= MAX_IMAGES {
                    return Err(Error::validation(format!(
                        "O equipamento já tem {MAX_IMAGES} imagens; exclua uma antes de enviar outra."
                    )));
                }
                let description = text_of(form, "EQIM_DESCRICAO").or(original).unwrap_or(name);
                let mut new = Map::new();
                new.insert("EQIM_EQPT_ID".into(), Value::from(equipment));
                new.insert(
                    "EQIM_DESCRICAO".into(),
                    Value::from(description.chars().take(150).collect::<String>()),
                );
                let row = query::create(tx, res, caller, Some(emp), &new).await?;
                let id = int_of(row.get("EQIM_ID"))
                    .ok_or_else(|| Error::internal("image without id"))?;
                (id, Value::Null)
            }
        };
        sqlx::query(
            "UPDATE catalog.equipamentosimg SET eqim_imagem = $4 WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        let mut row = get_row(tx, res, caller, Some(emp), id).await?;
        if let Value::Object(m) = &mut row {
            let url = body.get("arquivo").and_then(|f| f.get("url")).cloned();
            m.insert("url".into(), url.unwrap_or(Value::Null));
            m.insert("anterior".into(), previous);
        }
        Ok(row)
    }
}

/// DELETE /equipamentosimg/{id}/{emp}/{nome}: removes the picture named {nome} of
/// equipment {id}; answers the file name so the caller can remove the file.
pub(crate) struct EquipmentImageDelete;

#[async_trait]
impl ActionHandler for EquipmentImageDelete {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let (emp, equipment) = (company(emp)?, int_param(params, "id")?);
        let name = param(params, "nome")?;
        let id: i64 = sqlx::query_scalar(
            "SELECT eqim_id FROM catalog.equipamentosimg \
             WHERE client_id = $1 AND eqim_emp_id = $2 AND eqim_eqpt_id = $3 AND eqim_imagem = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(equipment)
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Imagem não encontrada.".into()))?;
        query::delete(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        Ok(json!({"code": 200, "msg": "Registro excluído com sucesso.", "arquivo": name}))
    }
}

/// The customer of a contract item is the contract's customer.
pub(crate) struct ContractEquipmentHooks;

#[async_trait]
impl Hooks for ContractEquipmentHooks {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let (Some(emp), Some(contract), Some(customer)) = (
            int_of(row.get("CONTE_EMP_ID")),
            int_of(row.get("CONTE_CONT_ID")),
            int_of(row.get("CONTE_CLI_ID")),
        ) else {
            return Ok(());
        };
        let of_contract: Option<i64> = sqlx::query_scalar(
            "SELECT cont_cli_id FROM catalog.contratocliente WHERE client_id = $1 AND cont_emp_id = $2 AND cont_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(contract)
        .fetch_optional(&mut **tx)
        .await?;
        if of_contract.is_some_and(|c| c != customer) {
            return Err(Error::validation(
                "O cliente informado não é o cliente do contrato.",
            ));
        }
        Ok(())
    }
}

/// POST /contratoseqpt/{contract}/{emp}: the equipment of a contract.
pub(crate) struct ContractEquipment;

#[async_trait]
impl ActionHandler for ContractEquipment {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let filter = children_filter(&body, "CONTE_CONT_ID", int_param(params, "contract")?);
        Ok(Value::Array(
            query::list(tx, res, caller, Some(company(emp)?), &filter).await?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T>(r: Result<T>) -> Option<String> {
        r.err().map(|e| e.to_string())
    }

    #[test]
    fn plates_old_and_mercosul() {
        assert_eq!(plate("abc-1234").ok(), Some("ABC1234".into()));
        assert_eq!(plate("BRA2E19").ok(), Some("BRA2E19".into()));
        assert_eq!(plate(" bra 2e19 ").ok(), Some("BRA2E19".into()));
        for bad in [
            "AB1234", "ABC12345", "1BC1234", "ABCD234", "ABC1A2B", "ÁBC1234",
        ] {
            assert_eq!(msg(plate(bad)), Some("Placa inválida.".into()), "{bad}");
        }
    }

    #[test]
    fn chassis_has_17_characters_without_i_o_q() {
        assert_eq!(
            chassis("9bwzzz377vt004251").ok(),
            Some("9BWZZZ377VT004251".into())
        );
        for bad in ["9BWZZZ377VT00425", "9BWZZZ377VT0042O1", "9BWZZZ377VT00425-"] {
            assert_eq!(msg(chassis(bad)), Some("Chassi inválido.".into()), "{bad}");
        }
    }

    #[test]
    fn renavam_check_digit() {
        for good in ["00639884962", "639884962", "86769597308", "35298206229"] {
            assert!(renavam(good).is_ok(), "{good}");
        }
        assert_eq!(renavam("639884962").ok(), Some("00639884962".into()));
        for bad in ["00639884963", "11111111111", "1234", "0063988496a"] {
            assert_eq!(msg(renavam(bad)), Some("RENAVAM inválido.".into()), "{bad}");
        }
    }
}
