//! The Brazilian bank list (BACEN's participants, COMPE and ISPB codes), shared by
//! every client and picked from finance's bank register.

use std::sync::Arc;

use erp_platform::resource::{Field, Resource};
use serde_json::json;

use super::normalize::{Normalize, Rule};

const SCHEMA: &str = crate::SCHEMA;

pub fn bancosbr() -> Resource {
    Resource::new("bancosbr", "Bancos Brasileiros", SCHEMA, "bancosbr", "bancos")
        .global()
        .natural_key()
        .key(&["BCOBR_COMPE"])
        .constraint("bancosbr_pkey", "Código COMPE já cadastrado para outro banco.")
        .constraint("bancosbr_ispb_key", "ISPB já cadastrado para outro banco.")
        .label("BCOBR_DESCRICAO")
        .order("BCOBR_COMPE")
        .search_limit(20)
        .hooks(Arc::new(Normalize {
            rules: &[
                Rule::Digits("BCOBR_COMPE", "Código COMPE", 3),
                Rule::Digits("BCOBR_ISPB", "ISPB", 8),
            ],
            cnae: false,
        }))
        .sample(json!({"BCOBR_COMPE": "999", "BCOBR_ISPB": "99999999", "BCOBR_DESCRICAO": "Banco Teste ERP S.A.", "BCOBR_NOME_CURTO": "BCO TESTE ERP"}))
        .fields(vec![
            Field::text("BCOBR_COMPE", "Código COMPE")
                .required()
                .len(3)
                .min_len(3)
                .searchable()
                .list()
                .width(2),
            Field::text("BCOBR_ISPB", "ISPB")
                .required()
                .len(8)
                .min_len(8)
                .searchable()
                .list()
                .width(2),
            Field::text("BCOBR_DESCRICAO", "Nome")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(8),
            Field::text("BCOBR_NOME_CURTO", "Nome Reduzido")
                .len(80)
                .searchable()
                .width(6),
            Field::cpf_cnpj("BCOBR_CNPJ", "CNPJ").width(4),
        ])
}
