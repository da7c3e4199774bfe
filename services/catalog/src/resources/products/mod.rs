//! Products and what classifies and completes them.
//!
//! Descriptions copied from other rows (the unit abbreviation on a product, a
//! component's description on its raw-material line) are kept by triggers in the
//! migration, so every read returns them without a join.
//!
//! Layout:
//! - `product`: the product register (`produtos`) and its fiscal option lists.
//! - `product_hooks`: the product register's hooks (code rules, who changes it
//!   from where).
//! - `history`: the product's history of price, cost and register changes
//!   (`produtoshistorico`, read only, written by a trigger).
//! - `classification`: groups, subgroups, units, sizes, colours, brands.
//! - `sub_registers`: a product's information, suppliers, size/colour grid,
//!   painting and special customer prices.
//! - `barcodes`: extra barcodes and the barcode lookup of the sales screen.
//! - `raw_material`: the bill of materials and the list of one product's.
//! - `settings`: decimal places, default unit and the company's product settings.
//! - `duplicate`: duplicating a product.
//! - `replicate`: a product's information rows or grid copied to the same product
//!   in the client's other companies.
//! - `path_company`: the company of a product call, read from its path.
//! - `field_rules`: GTIN check digits, NCM/CEST codes, unit abbreviations.

use erp_platform::resource::Resource;

pub mod barcodes;
pub mod classification;
pub mod duplicate;
pub mod field_rules;
pub mod history;
mod path_company;
pub mod product;
pub mod product_hooks;
pub mod raw_material;
pub mod replicate;
pub mod settings;
pub mod sub_registers;

pub use duplicate::copy_description;
pub use product::produtos;

/// Registry order: what a sample references comes before it.
pub fn all() -> Vec<Resource> {
    vec![
        classification::grupo(),
        classification::subgrupo(),
        classification::unidade(),
        classification::tamanho(),
        classification::cor(),
        classification::marca(),
        product::produtos(),
        sub_registers::produtosinf(),
        barcodes::produtoscbar(),
        raw_material::materiaprima(),
        sub_registers::produtosfornecedor(),
        sub_registers::produtosgrade(),
        sub_registers::produtopintura(),
        sub_registers::produtosespeciais(),
    ]
}

/// Registers only catalog writes (no sample: the table-driven tests create none),
/// after the ones they point at.
pub fn derived() -> Vec<Resource> {
    vec![history::produtoshistorico()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = erp_platform::resource::Registry::new(super::all()).expect("registry");
        assert!(r.all().iter().all(|res| res.sample.is_some()));
        let calls: Vec<(&str, &str)> = r
            .all()
            .iter()
            .flat_map(|res| res.actions.iter().map(|a| (a.method, a.path.as_str())))
            .collect();
        for call in [
            ("GET", "/produtos/config/{emp}"),
            ("POST", "/produtoduplicar/{prodId}/{emp}/{user}"),
            ("POST", "/produtos/imagem/{id}/{emp}"),
            ("DELETE", "/produtos/imagem/{id}/{emp}/{name}"),
            ("POST", "/produtoscbar/vendas/{id}/{emp}"),
        ] {
            assert!(calls.contains(&call), "{call:?}");
        }
    }
}
