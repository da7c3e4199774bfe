//! Collaborators (`colaborador`): salespeople, mechanics and other staff, and the
//! equipment (tools, uniforms, PPE) handed to them.

use std::sync::Arc;

use erp_platform::resource::{Field, Kind, Resource};
use serde_json::json;

use crate::resources::checks::Checks;
use crate::SCHEMA;

pub(crate) fn colaborador() -> Resource {
    Resource::new(
        "colaborador",
        "Colaboradores",
        SCHEMA,
        "colaborador",
        "colaboradores",
    )
    .screen("/colaboradores")
    .sample(json!({
        "COLA_NOME": "Carlos Vendedor", "COLA_CPF": "390.533.447-05", "COLA_FONE": "11987654321",
        "COLA_EMAIL": "carlos@empresa.com.br", "COLA_PERC_COMISSAO": "2.5", "COLA_VENDEDOR": true,
        "COLA_DTA_ADMISSAO": "2024-03-01"
    }))
    .key(&["COLA_ID"])
    .company("COLA_EMP_ID")
    .label("COLA_NOME")
    .order("COLA_NOME")
    // Orders and service orders keep the salesperson's and the mechanic's name.
    .events("colaborador")
    .constraint(
        "colaborador_cpf_key",
        "CPF já cadastrado para outro colaborador.",
    )
    .hooks(Arc::new(Checks {
        cpf: &["COLA_CPF"],
        date_order: &[(
            "COLA_DTA_ADMISSAO",
            "COLA_DTA_DEMISSAO",
            "A data de demissão deve ser maior ou igual à data de admissão.",
        )],
        ..Checks::default()
    }))
    .fields(vec![
        Field::id("COLA_ID", "Código"),
        Field::int("COLA_EMP_ID", "Empresa"),
        Field::text("COLA_NOME", "Nome")
            .required()
            .len(100)
            .searchable()
            .list()
            .width(6),
        Field::text("COLA_APELIDO", "Apelido").len(60).searchable(),
        Field::cpf_cnpj("COLA_CPF", "CPF").len(14).list().width(3),
        Field::text("COLA_RG", "RG").len(20).width(3),
        Field::date("COLA_DTA_NASC", "Data de Nascimento"),
        // Functions are a reference table of another module: a plain column.
        Field::reference("COLA_FUNC_ID", "Função", "funcao", Kind::Combobox).list(),
        Field::phones("COLA_FONE", "Telefones").list(),
        Field::email("COLA_EMAIL", "E-mail"),
        Field::decimal("COLA_PERC_COMISSAO", "Comissão (%)")
            .scale(4)
            .min("0")
            .max("100")
            .width(3),
        Field::boolean("COLA_VENDEDOR", "Vendedor")
            .default(json!(false))
            .width(2),
        Field::boolean("COLA_TECNICO", "Técnico/Mecânico")
            .default(json!(false))
            .width(2),
        Field::date("COLA_DTA_ADMISSAO", "Data de Admissão"),
        Field::date("COLA_DTA_DEMISSAO", "Data de Demissão"),
        Field::cep("COLA_CEP", "CEP"),
        Field::text("COLA_ENDERECO", "Endereço").len(150),
        Field::text("COLA_NUMERO", "Número").len(20).width(2),
        Field::text("COLA_COMPLEMENTO", "Complemento")
            .len(60)
            .width(4),
        Field::text("COLA_BAIRRO", "Bairro").len(60),
        Field::reference(
            "COLA_CID_IBGE",
            "Cidade (IBGE)",
            "cidades",
            Kind::Autocomplete,
        ),
        Field::text("COLA_CIDADE", "Cidade").len(60),
        Field::text("COLA_UF", "UF").len(2).width(2),
        Field::textarea("COLA_OBS", "Observações").len(2000),
        Field::situation("COLA_SITUACAO"),
        Field::timestamp("COLA_DTA_CAD", "Data de Cadastro"),
    ])
    .group(
        Some("Identificação"),
        true,
        12,
        &[
            "COLA_ID",
            "COLA_NOME",
            "COLA_APELIDO",
            "COLA_CPF",
            "COLA_RG",
            "COLA_DTA_NASC",
            "COLA_SITUACAO",
        ],
    )
    .group(
        Some("Trabalho"),
        true,
        12,
        &[
            "COLA_FUNC_ID",
            "COLA_DTA_ADMISSAO",
            "COLA_DTA_DEMISSAO",
            "COLA_PERC_COMISSAO",
            "COLA_VENDEDOR",
            "COLA_TECNICO",
        ],
    )
    .group(
        Some("Endereço e Contato"),
        true,
        12,
        &[
            "COLA_CEP",
            "COLA_ENDERECO",
            "COLA_NUMERO",
            "COLA_COMPLEMENTO",
            "COLA_BAIRRO",
            "COLA_CID_IBGE",
            "COLA_CIDADE",
            "COLA_UF",
            "COLA_FONE",
            "COLA_EMAIL",
        ],
    )
    .group(Some("Observações"), true, 12, &["COLA_OBS", "COLA_DTA_CAD"])
}

pub(crate) fn colaborador_eqp() -> Resource {
    Resource::new(
        "colaboradoreqp",
        "Equipamentos do Colaborador",
        SCHEMA,
        "colaboradoreqp",
        "colaboradores",
    )
    .sample(json!({
        "COLAE_COLA_ID": 1, "COLAE_EQP_DESCRICAO": "Furadeira de impacto", "COLAE_QTDE": "1",
        "COLAE_PATRIMONIO": "PAT-0001", "COLAE_DTA_ENTREGA": "2026-02-01"
    }))
    .key(&["COLAE_EQP_ID"])
    .company("COLAE_EMP_ID")
    .label("COLAE_EQP_DESCRICAO")
    .order("COLAE_EQP_DESCRICAO")
    .hooks(Arc::new(Checks {
        date_order: &[(
            "COLAE_DTA_ENTREGA",
            "COLAE_DTA_DEVOLUCAO",
            "A data de devolução deve ser maior ou igual à data de entrega.",
        )],
        ..Checks::default()
    }))
    .fields(vec![
        Field::id("COLAE_EQP_ID", "Código"),
        Field::int("COLAE_EMP_ID", "Empresa"),
        Field::reference(
            "COLAE_COLA_ID",
            "Colaborador",
            "colaborador",
            Kind::Autocomplete,
        )
        .required()
        .list(),
        Field::text("COLAE_EQP_DESCRICAO", "Descrição")
            .required()
            .len(150)
            .searchable()
            .list(),
        Field::decimal("COLAE_QTDE", "Quantidade")
            .scale(4)
            .min("0")
            .width(2),
        Field::text("COLAE_PATRIMONIO", "Patrimônio")
            .len(30)
            .searchable()
            .list()
            .width(3),
        Field::date("COLAE_DTA_ENTREGA", "Data de Entrega").list(),
        Field::date("COLAE_DTA_DEVOLUCAO", "Data de Devolução").list(),
        Field::textarea("COLAE_OBS", "Observações").len(500),
    ])
}
