//! Fiscal's copies of other services' registers, from their
//! `erp.v1.RecordChanged` facts: what an NF-e needs of the company (emitter),
//! the customer (recipient), the products (items) and the payment methods
//! (`tPag`). One table-driven effect ([`Copy`]) per register: which field of
//! the row lands in which column of the copy, and how it is read. A removed
//! row stays, flagged `excluido`; an NF-e is not issued to or with one.

use erp_platform::bus::copies::{Copy, Kind};

pub const EMPRESAS: Copy = Copy {
    schema: "fiscal",
    table: "empresas",
    emp_field: Some("EMP_ID"),
    id: None,
    columns: &[
        ("descricao", "EMP_DESCRICAO", Kind::Text),
        ("fantasia", "EMP_FANTASIA", Kind::Text),
        ("cnpj", "EMP_CGC", Kind::Document),
        ("ie", "EMP_IE", Kind::Text),
        ("im", "EMP_IM", Kind::Text),
        ("cnae", "EMP_CNAE", Kind::Digits),
        ("regime", "EMP_REGIME", Kind::Text),
        ("endereco", "EMP_ENDERECO", Kind::Text),
        ("numero", "EMP_NUMERO", Kind::Text),
        ("complemento", "EMP_COMPLEMENTO", Kind::Text),
        ("bairro", "EMP_BAIRRO", Kind::Text),
        ("cid_ibge", "EMP_CID_IBGE", Kind::Digits),
        ("cidade", "EMP_CIDADE", Kind::Text),
        ("uf", "EMP_UF", Kind::Upper),
        ("cep", "EMP_CEP", Kind::Digits),
        ("fone", "EMP_FONE", Kind::Digits),
        ("email", "EMP_EMAIL", Kind::Text),
    ],
};

pub const CLIENTES: Copy = Copy {
    schema: "fiscal",
    table: "clientes",
    emp_field: Some("CLI_EMP_ID"),
    id: Some(("cli_id", "CLI_ID")),
    columns: &[
        ("tipo_pessoa", "CLI_TIPO_PESSOA", Kind::Upper),
        ("descricao", "CLI_DESCRICAO", Kind::Text),
        ("cpf", "CLI_CPF", Kind::Document),
        ("cnpj", "CLI_CGC", Kind::Document),
        ("doc_estrangeiro", "CLI_DOC_ESTRANGEIRO", Kind::Text),
        ("ind_ie", "CLI_IND_IE", Kind::Int),
        ("ie", "CLI_IE", Kind::Text),
        ("im", "CLI_IM", Kind::Text),
        ("endereco", "CLI_ENDERECO", Kind::Text),
        ("numero", "CLI_NUMERO", Kind::Text),
        ("complemento", "CLI_COMPLEMENTO", Kind::Text),
        ("bairro", "CLI_BAIRRO", Kind::Text),
        ("cid_ibge", "CLI_CID_IBGE", Kind::Digits),
        ("cidade", "CLI_CIDADE", Kind::Text),
        ("uf", "CLI_UF", Kind::Upper),
        ("cep", "CLI_CEP", Kind::Digits),
        ("fone", "CLI_FONE", Kind::Digits),
        ("email", "CLI_EMAIL", Kind::Text),
        ("email_nfe", "CLI_EMAIL_NFE", Kind::Text),
    ],
};

pub const PRODUTOS: Copy = Copy {
    schema: "fiscal",
    table: "produtos",
    emp_field: Some("PROD_EMP_ID"),
    id: Some(("prod_id", "PROD_ID")),
    columns: &[
        ("descricao", "PROD_DESCRICAO", Kind::Text),
        ("ncm", "PROD_NCM", Kind::Digits),
        ("cest", "PROD_CEST", Kind::Digits),
        ("unidade", "UNID_ABREVIADA", Kind::Upper),
        ("origem", "PROD_ORIGEM", Kind::Int),
        ("gtin", "PROD_CBAR", Kind::Digits),
    ],
};

pub const FORMAS: Copy = Copy {
    schema: "fiscal",
    table: "formaspagamento",
    emp_field: None,
    id: Some(("frmp_id", "FRMP_ID")),
    columns: &[
        ("descricao", "FRMP_DESCRICAO", Kind::Text),
        ("tipo", "FRMP_TIPO", Kind::Text),
    ],
};
