//! Collaborators (with the equipment handed to them) and suppliers (with their codes
//! for our products).

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, Field, Kind, Resource};
use serde_json::json;

use super::actions;
use super::support::Checks;
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

pub(crate) fn fornecedor() -> Resource {
    Resource::new("fornecedor", "Fornecedores", SCHEMA, "fornecedor", "fornecedores")
        .screen("/fornecedores")
        .sample(json!({
            "FORN_DESCRICAO": "FORNECEDOR TESTE LTDA", "FORN_FANTASIA": "Fornecedor Teste",
            "FORN_CGC": "11.222.333/0001-81", "FORN_IE": "123456789", "FORN_CEP": "80010-000",
            "FORN_ENDERECO": "Rua XV de Novembro", "FORN_NUMERO": "50", "FORN_CIDADE": "Curitiba", "FORN_UF": "PR",
            "FORN_FONE": "41987654321", "FORN_EMAIL": "vendas@fornecedorteste.com.br", "FORN_PRAZO_ENTREGA": 5
        }))
        .key(&["FORN_ID"])
        .label("FORN_DESCRICAO")
        .order("FORN_DESCRICAO")
        // Purchases and payables keep the supplier's name.
        .events("fornecedor")
        .search_limit(20)
        .fields(vec![
            Field::id("FORN_ID", "Código"),
            Field::text("FORN_DESCRICAO", "Razão Social")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(6),
            Field::text("FORN_FANTASIA", "Nome Fantasia").len(150).searchable().list().width(6),
            Field::cpf_cnpj("FORN_CGC", "CPF/CNPJ").list().width(3),
            Field::text("FORN_IE", "Inscrição Estadual").len(20).width(3),
            Field::text("FORN_IM", "Inscrição Municipal").len(20).width(3),
            Field::cep("FORN_CEP", "CEP"),
            Field::text("FORN_ENDERECO", "Endereço").len(150),
            Field::text("FORN_NUMERO", "Número").len(20).width(2),
            Field::text("FORN_COMPLEMENTO", "Complemento").len(60).width(4),
            Field::text("FORN_BAIRRO", "Bairro").len(60),
            Field::reference("FORN_CID_IBGE", "Cidade (IBGE)", "cidades", Kind::Autocomplete),
            Field::text("FORN_CIDADE", "Cidade").len(60).list().width(4),
            Field::text("FORN_UF", "UF").len(2).list().width(2),
            Field::phones("FORN_FONE", "Telefones").list(),
            Field::email("FORN_EMAIL", "E-mail"),
            Field::text("FORN_SITE", "Site").len(150),
            Field::text("FORN_CONTATO", "Pessoa de Contato").len(60),
            Field::int("FORN_PRAZO_ENTREGA", "Prazo de Entrega (dias)").min("0").width(3),
            Field::reference("FORN_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox),
            Field::situation("FORN_SITUACAO"),
            Field::textarea("FORN_OBS", "Observações").len(2000),
            Field::timestamp("FORN_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "FORN_ID",
                "FORN_DESCRICAO",
                "FORN_FANTASIA",
                "FORN_CGC",
                "FORN_IE",
                "FORN_IM",
                "FORN_SITUACAO",
            ],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "FORN_CEP",
                "FORN_ENDERECO",
                "FORN_NUMERO",
                "FORN_COMPLEMENTO",
                "FORN_BAIRRO",
                "FORN_CID_IBGE",
                "FORN_CIDADE",
                "FORN_UF",
            ],
        )
        .group(
            Some("Contato e Compras"),
            true,
            12,
            &[
                "FORN_FONE",
                "FORN_EMAIL",
                "FORN_SITE",
                "FORN_CONTATO",
                "FORN_PRAZO_ENTREGA",
                "FORN_CNDP_ID",
            ],
        )
        .group(Some("Observações"), true, 12, &["FORN_OBS", "FORN_DTA_CAD"])
        .action(
            "GET",
            "/fornecedor/cliente/{id}/{emp}",
            "cliente",
            ActionPerm::View,
            "Fornecedores: o cliente da empresa {emp} com o mesmo CPF/CNPJ do fornecedor {id}",
            Arc::new(actions::SupplierAsCustomer {
                customers: super::clientes(),
            }),
        )
        .action(
            "GET",
            "/fornecedor/pesquisar/{filter}",
            "pesquisar",
            ActionPerm::View,
            "Fornecedores: pesquisar (sem filtro, lista vazia)",
            Arc::new(actions::SupplierSearch),
        )
}

pub(crate) fn fornecedor_prod() -> Resource {
    Resource::new(
        "fornecedorprod",
        "Produtos do Fornecedor",
        SCHEMA,
        "fornecedorprod",
        "fornecedores",
    )
    .sample(json!({
        "FOPR_FORN_ID": 1, "FOPR_PROD_ID": 1, "FOPR_CODIGO": "ABC-123", "FOPR_DESCRICAO": "Parafuso sextavado",
        "FOPR_UNIDADE": "CX", "FOPR_FATOR_CONVERSAO": "100", "FOPR_VLR_ULTIMA_COMPRA": "45.9",
        "FOPR_DTA_ULTIMA_COMPRA": "2026-10-01"
    }))
    .natural_key()
    .key(&["FOPR_FORN_ID", "FOPR_PROD_ID"])
    .label("FOPR_CODIGO")
    .order("FOPR_CODIGO")
    .fields(vec![
        Field::reference("FOPR_FORN_ID", "Fornecedor", "fornecedor", Kind::Autocomplete)
            .required()
            .list(),
        // Products are declared by another module: a plain column.
        Field::reference("FOPR_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("FOPR_CODIGO", "Código no Fornecedor")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(3),
        Field::text("FOPR_DESCRICAO", "Descrição no Fornecedor")
            .len(150)
            .searchable()
            .list(),
        Field::text("FOPR_UNIDADE", "Unidade").len(6).width(2),
        Field::decimal("FOPR_FATOR_CONVERSAO", "Fator de Conversão")
            .scale(4)
            .min("0.0001")
            .width(3),
        Field::money("FOPR_VLR_ULTIMA_COMPRA", "Último Preço")
            .scale(4)
            .max("99999999999.9999")
            .list()
            .width(3),
        Field::date("FOPR_DTA_ULTIMA_COMPRA", "Data da Última Compra").list(),
    ])
    .action(
        "POST",
        "/fornecedorprod/{id}",
        "do_fornecedor",
        ActionPerm::View,
        "Produtos do fornecedor {id} (corpo: ORDENACAO, FILTRO, LIMIT, PAGINATION)",
        Arc::new(actions::SupplierProducts),
    )
}
