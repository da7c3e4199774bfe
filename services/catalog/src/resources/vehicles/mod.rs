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
//! - `vehicle_models`: vehicle brands and models.
//! - `vehicle`: the vehicle register, its hooks and the find-or-create-by-plate call.
//! - `vehicle_documents`: plate, chassis and RENAVAM rules.
//! - `equipment_models`: equipment brands and models.
//! - `equipment_types`: equipment types and the services of a type.
//! - `equipment`: the equipment register.
//! - `equipment_images`: equipment pictures and their upload and removal.
//! - `contract_equipment`: the equipment of customer contracts.

use erp_platform::resource::Resource;

pub(crate) mod contract_equipment;
mod equipment;
mod equipment_images;
mod equipment_models;
mod equipment_types;
mod vehicle;
mod vehicle_documents;
mod vehicle_models;

/// In dependency order: referenced registers come first (samples point at id 1).
pub fn all() -> Vec<Resource> {
    vec![
        vehicle_models::marcaveiculo(),
        vehicle_models::modeloveiculo(),
        vehicle::veiculo(),
        equipment_models::marcaequipamento(),
        equipment_models::modeloequipamento(),
        equipment_types::tipoequipamento(),
        equipment_types::tipoequipamentoserv(),
        equipment::equipamento(),
        equipment_images::equipamentosimg(),
        contract_equipment::contratoseqpt(),
    ]
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
