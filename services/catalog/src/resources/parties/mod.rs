//! Parties: customers (`clientes`) with their sub-registers (contacts, references,
//! attachments, family, history, services, contracts), suppliers (`fornecedor`) with
//! the supplier's codes for our products, and collaborators (`colaborador`) with the
//! equipment handed to them.
//!
//! Decisions:
//! - Customers, collaborators and the customer sub-registers are per company (the
//!   legacy `CLI_EMP_ID`, `COLA_EMP_ID`, `CLIA_FIL_ID`...); a sub-register row and its
//!   customer are in the same company (the foreign key includes it).
//! - Suppliers are shared by the client's companies: their legacy calls
//!   (`/fornecedor/filtro`, `/fornecedor/registros`) carry no company.
//! - The customer's document is checked by person type: a CPF in `CLI_CPF`, a CNPJ
//!   (numeric or the 2026 alphanumeric one) in `CLI_CGC`; physical persons need the
//!   CPF and companies the CNPJ; foreign customers, rural producers (either document)
//!   and pre-registrations may go without. One customer per document in a company.
//! - Customer events (`erp.catalog.cliente.*`) carry the whole row, so orders keep the
//!   customer's name and city without reading this schema.
//!
//! Layout:
//! - `customers`: the customer register, its hooks and its search, credit-limit and
//!   view calls.
//! - `sub_registers`: the customer's sub-registers.
//! - `customer_attachments`: the upload and removal of a customer's attachments.
//! - `transfer`: moving a customer with its sub-records to another company of the
//!   client (`PUT /clientesTransf/{transferId}/{emp}`).
//! - `suppliers`: suppliers, their codes for our products and their calls.
//! - `collaborators`: collaborators and the equipment handed to them.

use erp_platform::resource::Resource;

mod collaborators;
mod customer_attachments;
mod customers;
mod sub_registers;
mod suppliers;
pub mod transfer;

pub use customers::PERSON_TYPES;

/// In dependency order: referenced registers come first (samples point at id 1).
pub fn all() -> Vec<Resource> {
    vec![
        collaborators::colaborador(),
        collaborators::colaborador_eqp(),
        customers::clientes(),
        sub_registers::contatos(),
        sub_registers::referencias(),
        sub_registers::anexos(),
        sub_registers::familiares(),
        sub_registers::historico(),
        sub_registers::servicos(),
        sub_registers::contratos(),
        suppliers::fornecedor(),
        suppliers::fornecedor_prod(),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = erp_platform::resource::Registry::new(super::all()).expect("registry");
        assert!(
            r.get("contratoscliente").is_some(),
            "alias of contratocliente"
        );
        for res in r.all() {
            assert!(res.sample.is_some(), "{} has a sample", res.name);
        }
    }
}
