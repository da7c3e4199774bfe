//! The reports' copies of other services' registers, from their
//! `erp.v1.RecordChanged` facts: one table-driven effect ([`Copy`]) per register
//! (which columns of the row land in which columns of the copy). A removed row
//! stays, flagged `excluido`, so old sales keep their names.

use erp_platform::bus::copies::{Copy, Kind};

pub const PRODUTOS: Copy = Copy {
    schema: "reports",
    table: "produtos",
    emp_field: Some("PROD_EMP_ID"),
    id: Some(("prod_id", "PROD_ID")),
    columns: &[
        ("descricao", "PROD_DESCRICAO", Kind::Text),
        ("grup_id", "PROD_GRUP_ID", Kind::Int),
        ("gsub_id", "PROD_GSUB_ID", Kind::Int),
        ("custo", "PROD_CUSTO", Kind::Decimal),
        ("referencia", "PROD_REFERENCIA", Kind::Text),
        // The unit's abbreviation, which the product's fact carries beside its id.
        ("unidade", "UNID_ABREVIADA", Kind::Text),
        ("preco", "PROD_VALOR", Kind::Decimal),
        ("estoque_min", "PROD_ESTOQUE_MIN", Kind::Decimal),
    ],
};

pub const SERVICOS: Copy = Copy {
    schema: "reports",
    table: "servicos",
    emp_field: Some("SERV_EMP_ID"),
    id: Some(("serv_id", "SERV_ID")),
    columns: &[("descricao", "SERV_DESCRICAO", Kind::Text)],
};

/// Groups and payment methods are the client's (their registers have the
/// company in the path only).
pub const GRUPOS: Copy = Copy {
    schema: "reports",
    table: "grupos",
    emp_field: None,
    id: Some(("grup_id", "GRUP_ID")),
    columns: &[("descricao", "GRUP_DESCRICAO", Kind::Text)],
};

pub const SUBGRUPOS: Copy = Copy {
    schema: "reports",
    table: "subgrupos",
    emp_field: Some("GSUB_EMP_ID"),
    id: Some(("gsub_id", "GSUB_ID")),
    columns: &[
        ("descricao", "GSUB_DESCRICAO", Kind::Text),
        ("grup_id", "GSUB_GRUP_ID", Kind::Int),
    ],
};

pub const CLIENTES: Copy = Copy {
    schema: "reports",
    table: "clientes",
    emp_field: Some("CLI_EMP_ID"),
    id: Some(("cli_id", "CLI_ID")),
    columns: &[
        ("descricao", "CLI_DESCRICAO", Kind::Text),
        ("cidade", "CLI_CIDADE", Kind::Text),
        ("uf", "CLI_UF", Kind::Text),
        ("cola_id", "CLI_COLA_ID", Kind::Int),
        ("cpf", "CLI_CPF", Kind::Text),
        ("cgc", "CLI_CGC", Kind::Text),
        ("fone", "CLI_FONE", Kind::Text),
        ("situacao", "CLI_SITUACAO", Kind::Text),
    ],
};

pub const COLABORADORES: Copy = Copy {
    schema: "reports",
    table: "colaboradores",
    emp_field: Some("COLA_EMP_ID"),
    id: Some(("cola_id", "COLA_ID")),
    columns: &[
        ("nome", "COLA_NOME", Kind::Text),
        ("perc_comissao", "COLA_PERC_COMISSAO", Kind::Decimal),
    ],
};

pub const FORMAS: Copy = Copy {
    schema: "reports",
    table: "formaspagamento",
    emp_field: None,
    id: Some(("frmp_id", "FRMP_ID")),
    columns: &[("descricao", "FRMP_DESCRICAO", Kind::Text)],
};

pub const EMPRESAS: Copy = Copy {
    schema: "reports",
    table: "empresas",
    emp_field: Some("EMP_ID"),
    id: Some(("empresa_id", "EMP_ID")),
    columns: &[
        ("descricao", "EMP_DESCRICAO", Kind::Text),
        ("logo", "EMP_IMG_LOGO_REL", Kind::Text),
    ],
};

/// Suppliers are the client's (their register has no company column).
pub const FORNECEDORES: Copy = Copy {
    schema: "reports",
    table: "fornecedores",
    emp_field: None,
    id: Some(("forn_id", "FORN_ID")),
    columns: &[
        ("descricao", "FORN_DESCRICAO", Kind::Text),
        ("fantasia", "FORN_FANTASIA", Kind::Text),
        ("documento", "FORN_CGC", Kind::Text),
        ("cidade", "FORN_CIDADE", Kind::Text),
        ("uf", "FORN_UF", Kind::Text),
        ("fone", "FORN_FONE", Kind::Text),
    ],
};

/// Finance's bank accounts (the opening balance of the movement report).
pub const BANCOS: Copy = Copy {
    schema: "reports",
    table: "bancos",
    emp_field: Some("BCO_EMP_ID"),
    id: Some(("bco_id", "BCO_ID")),
    columns: &[
        ("descricao", "BCO_DESCRICAO", Kind::Text),
        ("saldo_inicial", "BCO_SALDO_INICIAL", Kind::Decimal),
    ],
};

/// Finance's cost centres (`historicopadrao`) and their groups.
pub const CENTROS: Copy = Copy {
    schema: "reports",
    table: "centroscusto",
    emp_field: Some("HISP_EMP_ID"),
    id: Some(("hisp_id", "HISP_ID")),
    columns: &[
        ("descricao", "HISP_DESCRICAO", Kind::Text),
        ("tipo", "HISP_TIPO", Kind::Text),
        ("grhp_id", "HISP_GRHP_ID", Kind::Int),
    ],
};

pub const GRUPOS_CENTRO: Copy = Copy {
    schema: "reports",
    table: "gruposcentrocusto",
    emp_field: Some("GRHP_EMP_ID"),
    id: Some(("grhp_id", "GRHP_ID")),
    columns: &[("descricao", "GRHP_DESCRICAO", Kind::Text)],
};

/// Catalog's vehicles and service sectors (the service orders' reports).
pub const VEICULOS: Copy = Copy {
    schema: "reports",
    table: "veiculos",
    emp_field: Some("VEIC_EMP_ID"),
    id: Some(("veic_id", "VEIC_ID")),
    columns: &[
        ("placa", "VEIC_PLACA1", Kind::Text),
        ("cli_id", "VEIC_CLI_ID", Kind::Int),
        ("ano_modelo", "VEIC_ANO_MODELO", Kind::Int),
        ("cor", "VEIC_COR", Kind::Text),
    ],
};

pub const SETORES: Copy = Copy {
    schema: "reports",
    table: "setores",
    emp_field: Some("SETS_EMP_ID"),
    id: Some(("sets_id", "SETS_ID")),
    columns: &[("descricao", "SETS_DESCRICAO", Kind::Text)],
};

/// Users are the client's: the copy keeps the company the fact names; reports
/// look a user up by id alone.
pub const USUARIOS: Copy = Copy {
    schema: "reports",
    table: "usuarios",
    emp_field: Some("USR_EMP_ID"),
    id: Some(("usr_id", "USR_ID")),
    columns: &[
        ("nome", "USR_NOME", Kind::Text),
        ("usuario", "USR_USUARIO", Kind::Text),
    ],
};
