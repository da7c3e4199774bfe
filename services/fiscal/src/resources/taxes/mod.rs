//! Fiscal registers: ICMS tax rules (`tributacao`, screen /tributacoes 'Tributação
//! ICMS', with the IPI, PIS and COFINS situation of the same item), operation
//! natures (`natureza`, screen /naturezasoperacao: CFOPs inside the state, to other
//! states and abroad, entry or exit, NF-e purpose, whether it moves stock and
//! creates receivables/payables) and document numbering (`numeracao`, screen
//! /numeracoes: next number per model and series of each company).
//!
//! The code tables are those of the NF-e layout (CST/CSOSN, CST IPI/PIS/COFINS,
//! finNFe, document models).
//!
//! Layout:
//! - `tax_rules`: the tax rule register and its CST/CSOSN rule.
//! - `operation_natures`: the operation nature register and its CFOP rules.
//! - `numbering`: the document numbering register.
//! - `codes`: the NF-e code tables.
//! - `cfop`: the CFOP field and its stored form.
//! - `body`: reading the text values of a hook's body.

use erp_platform::resource::Resource;

pub(crate) mod body;
pub(crate) mod cfop;
pub mod codes;
mod numbering;
mod operation_natures;
mod tax_rules;

pub use numbering::numeracao;
pub use operation_natures::natureza;
pub use tax_rules::tributacao;

pub fn all() -> Vec<Resource> {
    vec![tributacao(), natureza(), numeracao()]
}
