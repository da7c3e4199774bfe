//! A product's history (`produtoshistorico`): who changed its sale price, cost,
//! description, NCM, unit or situation, when, from what to what, and from where.
//!
//! The rows are written by catalog itself, in the transaction of the change: a
//! trigger on the product table (migration `produtoshistorico`) writes one row per
//! changed field of any UPDATE of a product, so every way a product changes is
//! recorded — the product screen, a purchase's price update (orders writes it
//! through this register, `PUT /produtos`), an import. Who and from where come
//! from the product register's hook (`product_hooks`), which sets them for the
//! transaction before the engine's UPDATE: the user is the caller's; the origin
//! is what the body's `HIST_ORIGEM` says (`compra`, `importacao`), else
//! `cadastro` (the caller carries no screen to tell them apart). A change made
//! without the register (SQL of catalog's own) is recorded without a user, as
//! `cadastro`.
//!
//! The register is read only ('O histórico do produto é registrado pelo sistema e
//! não pode ser alterado.'): list and count by product, newest first —
//! `POST /produtoshistorico/{PRHI_PROD_ID}/{emp}`,
//! `POST /produtoshistorico/registros/{PRHI_PROD_ID}/{emp}`, or the generic
//! `POST /produtoshistorico/{emp}` with `PRHI_PROD_ID` in the filter. Values are
//! the stored text of the field (`0.76`; the unit's abbreviation; the situation's
//! label). It has no sample: the table-driven tests create no row of it.

use std::sync::Arc;

use erp_platform::resource::{DbType, Field, Kind, ReadOnly, Resource};

use crate::SCHEMA;

/// What every generic write of the history answers.
pub const READ_ONLY: &str =
    "O histórico do produto é registrado pelo sistema e não pode ser alterado.";

/// Where a change of a product comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The product screen (or a caller that did not say).
    Register,
    /// A purchase's cost and price update.
    Purchase,
    /// An import.
    Import,
}

impl Origin {
    pub const ALL: [Origin; 3] = [Origin::Register, Origin::Purchase, Origin::Import];

    /// The stored code (`PRHI_ORIGEM`).
    pub fn code(self) -> &'static str {
        match self {
            Origin::Register => "cadastro",
            Origin::Purchase => "compra",
            Origin::Import => "importacao",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Origin::Register => "Cadastro do produto",
            Origin::Purchase => "Atualização de preços da compra",
            Origin::Import => "Importação",
        }
    }

    /// The origin a body's `HIST_ORIGEM` names; anything else is the register.
    pub fn from_hint(hint: Option<&str>) -> Origin {
        let hint = hint.map(|h| h.trim().to_lowercase()).unwrap_or_default();
        Origin::ALL
            .into_iter()
            .find(|o| o.code() == hint)
            .unwrap_or(Origin::Register)
    }
}

pub fn produtoshistorico() -> Resource {
    let origins: Vec<(&str, &str)> = Origin::ALL.iter().map(|o| (o.code(), o.label())).collect();
    Resource::new(
        "produtoshistorico",
        "Histórico do Produto",
        SCHEMA,
        "produtoshistorico",
        "produtos",
    )
    .key(&["PRHI_ID"])
    .company("PRHI_EMP_ID")
    .label("PRHI_DESCRICAO")
    .order("PRHI_DATA DESC, PRHI_ID DESC")
    .list_path("/produtoshistorico/{PRHI_PROD_ID}/{emp}")
    .count_path("/produtoshistorico/registros/{PRHI_PROD_ID}/{emp}")
    .hooks(Arc::new(ReadOnly(READ_ONLY)))
    .fields(vec![
        Field::id("PRHI_ID", "Código"),
        Field::int("PRHI_EMP_ID", "Empresa"),
        Field::reference("PRHI_PROD_ID", "Produto", "produtos", Kind::Autocomplete).read_only(),
        Field::timestamp("PRHI_DATA", "Data").list(),
        Field::int("PRHI_USR_ID", "Usuário")
            .read_only()
            .list()
            .width(2),
        Field::text("PRHI_CAMPO", "Campo").read_only().width(3),
        Field::text("PRHI_DESCRICAO", "Alteração")
            .read_only()
            .searchable()
            .list()
            .width(3),
        Field::text("PRHI_VALOR_ANTERIOR", "Valor Anterior")
            .read_only()
            .list()
            .width(3),
        Field::text("PRHI_VALOR_NOVO", "Valor Novo")
            .read_only()
            .list()
            .width(3),
        Field::options("PRHI_ORIGEM", "Origem", DbType::Text, &origins)
            .read_only()
            .list()
            .width(3),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_come_from_known_hints_only() {
        assert_eq!(Origin::from_hint(None), Origin::Register);
        assert_eq!(Origin::from_hint(Some(" Compra ")), Origin::Purchase);
        assert_eq!(Origin::from_hint(Some("importacao")), Origin::Import);
        assert_eq!(Origin::from_hint(Some("tela")), Origin::Register);
    }

    #[test]
    fn the_register_is_consistent() {
        let r = erp_platform::resource::Registry::new(vec![
            crate::resources::products::produtos(),
            produtoshistorico(),
        ])
        .expect("registry");
        assert!(r
            .get("produtoshistorico")
            .is_some_and(|h| h.sample.is_none()));
    }
}
