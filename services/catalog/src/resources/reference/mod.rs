//! Reference tables of catalog.
//!
//! Public facts (countries, states, cities, NCM, CNAE, cBenef and the Brazilian bank
//! list) are the same for every client: they are `.global()` registers (no client_id,
//! read by everyone, changed only by support operators) with `.company_path()` so the
//! legacy paths that carry `{emp}` keep working. Their rows come from the data files
//! of `services/catalog/data/` (loaded by migrations) or from the official CSVs via
//! `crate::import`.
//!
//! The per-client tables (areas, activity branches, functions, remarks, reasons,
//! works) are tenant registers; those whose legacy fields carry `*_EMP_ID` (areas,
//! branches) or that belong to a company's documents (remarks, works of a customer)
//! are company-scoped, the others (functions, reasons) are per client with the
//! company only checked in the path.
//!
//! Permissions: the screens' programs where one exists (`paises`, `estados`,
//! `cidades`, `ncm`, `funcoes`, `observacoes`, `cadmotivos`); otherwise the program of
//! the register that uses the table (`clientes` for areas, branches, works and
//! CNAE; `tributacoes` for cBenef; `bancos` for the bank list).
//!
//! Layout:
//! - `places`: countries, states and cities.
//! - `fiscal_codes`: NCM, CNAE and cBenef.
//! - `banks`: the Brazilian bank list.
//! - `client_tables`: the per-client tables.
//! - `normalize`: the hook that stores codes as digits (or upper case) and checks
//!   date ranges, and the CNAE structure.

mod banks;
mod client_tables;
mod fiscal_codes;
mod normalize;
mod places;

use erp_platform::resource::Resource;

pub use normalize::{cnae_section, digits_only};

pub fn all() -> Vec<Resource> {
    vec![
        places::paises(),
        places::estados(),
        places::cidades(),
        fiscal_codes::ncm(),
        fiscal_codes::cnaes(),
        fiscal_codes::benef(),
        banks::bancosbr(),
        client_tables::area(),
        client_tables::ramoatividade(),
        client_tables::funcao(),
        client_tables::observacao(),
        client_tables::motivos(),
        client_tables::obras(),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = erp_platform::resource::Registry::new(super::all()).expect("registry");
        for res in r.all() {
            assert!(res.sample.is_some(), "{} has no sample", res.name);
        }
        assert!(r
            .get("cidades")
            .is_some_and(|c| !c.tenant && c.company_path));
    }
}
