//! Request bodies as the product would send them, filled enough to exercise
//! the groups the types model: here the shared values and a company;
//! `invoice`: NF-e; `transport`: CT-e and MDF-e.

use std::str::FromStr;

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;

use crate::nuvemfiscal::types::*;

mod invoice;
mod transport;

pub use invoice::{nfe, nfe_simples};
pub use transport::{cte, mdfe};

pub const CNPJ: &str = "12345678000195";

pub fn d(text: &str) -> Decimal {
    Decimal::from_str(text).expect("decimal")
}

pub fn when() -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339("2025-05-14T10:30:00-03:00").expect("date")
}

pub fn empresa() -> Empresa {
    Empresa {
        cpf_cnpj: CNPJ.into(),
        nome_razao_social: "Empresa de Teste Ltda".into(),
        nome_fantasia: Some("Teste".into()),
        inscricao_estadual: Some("111111111111".into()),
        email: "fiscal@example.com".into(),
        endereco: EmpresaEndereco {
            logradouro: "Rua das Flores".into(),
            numero: "100".into(),
            bairro: "Centro".into(),
            codigo_municipio: "3550308".into(),
            cidade: Some("São Paulo".into()),
            uf: "SP".into(),
            cep: "01001000".into(),
            ..Default::default()
        },
        ..Default::default()
    }
}
