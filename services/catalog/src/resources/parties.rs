//! Parties: customers (`clientes`) with their sub-registers (contacts, references,
//! attachments, family, history, services, contracts), suppliers (`fornecedor`) with
//! the supplier's codes for our products, and collaborators (`colaborador`) with the
//! equipment handed to them.
//!
//! Decisions:
//! - Customers, collaborators and the customer sub-registers are per company (the
//!   legacy `CLI_EMP_ID`, `COLA_EMP_ID`, `CLIA_FIL_ID`...); a sub-register row and its
//!   customer are in the same company (the foreign key includes it).
//! - Suppliers are shared by the client's companies: their legacy calls
//!   (`/fornecedor/filtro`, `/fornecedor/registros`) carry no company.
//! - The customer's document is checked by person type: a CPF in `CLI_CPF`, a CNPJ
//!   (numeric or the 2026 alphanumeric one) in `CLI_CGC`; physical persons need the
//!   CPF and companies the CNPJ; foreign customers, rural producers (either document)
//!   and pre-registrations may go without.
//! - Customer events (`erp.catalog.cliente.*`) carry the whole row, so orders keep the
//!   customer's name and city without reading this schema.
//!
//! Layout:
//! - `parties`: the entry (`all`) and the customer register.
//! - `parties_subregisters`: the customer's sub-registers.
//! - `parties_others`: suppliers and collaborators.
//! - `parties_actions`: the customer hooks and the declared calls of customers and
//!   suppliers.
//! - `parties_support`: helpers and the configurable [`support::Checks`] hook, also
//!   used by the vehicle registers.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Resource};
use serde_json::json;

use crate::SCHEMA;

#[path = "parties_actions.rs"]
mod actions;
#[path = "parties_others.rs"]
mod others;
#[path = "parties_subregisters.rs"]
mod subregisters;
#[path = "parties_support.rs"]
pub(crate) mod support;

/// The person types of the spec's list, in its order: the search call's numeric
/// filter is the position in this list (0 = all).
pub const PERSON_TYPES: [(&str, &str); 5] = [
    ("F", "Física"),
    ("J", "Jurídica"),
    ("E", "Exterior"),
    ("R", "Produtor Rural"),
    ("P", "Pré-cadastro"),
];

/// In dependency order: referenced registers come first (samples point at id 1).
pub fn all() -> Vec<Resource> {
    vec![
        others::colaborador(),
        others::colaborador_eqp(),
        clientes(),
        subregisters::contatos(),
        subregisters::referencias(),
        subregisters::anexos(),
        subregisters::familiares(),
        subregisters::historico(),
        subregisters::servicos(),
        subregisters::contratos(),
        others::fornecedor(),
        others::fornecedor_prod(),
    ]
}

pub(crate) fn clientes() -> Resource {
    Resource::new("clientes", "Clientes", SCHEMA, "clientes", "clientes")
        .screen("/clientes")
        .sample(json!({
            "CLI_TIPO_PESSOA": "J", "CLI_DESCRICAO": "CLIENTE TESTE LTDA", "CLI_FANTASIA": "Cliente Teste",
            "CLI_CGC": "11.444.777/0001-61", "CLI_IND_IE": 9, "CLI_CEP": "01310-100",
            "CLI_ENDERECO": "Avenida Paulista", "CLI_NUMERO": "1000", "CLI_BAIRRO": "Bela Vista",
            "CLI_CIDADE": "São Paulo", "CLI_UF": "SP", "CLI_FONE": "(11) 98765-4321",
            "CLI_EMAIL": "compras@clienteteste.com.br", "CLI_LIMITE_CREDITO": "5000.00", "CLI_COLA_ID": 1
        }))
        .key(&["CLI_ID"])
        .company("CLI_EMP_ID")
        .label("CLI_DESCRICAO")
        .order("CLI_DESCRICAO")
        .events("cliente")
        .search_limit(20)
        .hooks(Arc::new(actions::CustomerHooks))
        .fields(vec![
            Field::id("CLI_ID", "Código"),
            Field::int("CLI_EMP_ID", "Empresa"),
            Field::options("CLI_TIPO_PESSOA", "Tipo de Pessoa", DbType::Text, &PERSON_TYPES)
                .required()
                .default(json!("F"))
                .list()
                .width(3),
            Field::text("CLI_DESCRICAO", "Nome/Razão Social")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(6),
            Field::text("CLI_FANTASIA", "Nome Fantasia").len(150).searchable().width(6),
            Field::cpf_cnpj("CLI_CPF", "CPF").len(14).list().width(3),
            Field::cpf_cnpj("CLI_CGC", "CNPJ").list().width(3),
            Field::text("CLI_DOC_ESTRANGEIRO", "Documento Estrangeiro").len(30).width(3),
            Field::options(
                "CLI_IND_IE",
                "Indicador da IE",
                DbType::Int,
                &[("1", "Contribuinte ICMS"), ("2", "Contribuinte isento"), ("9", "Não contribuinte")],
            )
            .required()
            .default(json!(9))
            .width(3),
            Field::text("CLI_IE", "Inscrição Estadual").len(20).width(3),
            Field::text("CLI_IM", "Inscrição Municipal").len(20).width(3),
            Field::text("CLI_RG", "RG").len(20).width(3),
            Field::date("CLI_DTA_NASC", "Data de Nascimento"),
            Field::cep("CLI_CEP", "CEP"),
            Field::text("CLI_ENDERECO", "Endereço").len(150),
            Field::text("CLI_NUMERO", "Número").len(20).width(2),
            Field::text("CLI_COMPLEMENTO", "Complemento").len(60).width(4),
            Field::text("CLI_BAIRRO", "Bairro").len(60),
            Field::reference("CLI_CID_IBGE", "Cidade (IBGE)", "cidades", Kind::Autocomplete),
            Field::text("CLI_CIDADE", "Cidade").len(60).list().width(4),
            Field::text("CLI_UF", "UF").len(2).list().width(2),
            Field::reference("CLI_PAIS_ID", "País", "paises", Kind::Autocomplete),
            Field::phones("CLI_FONE", "Telefones").list(),
            Field::email("CLI_EMAIL", "E-mail"),
            Field::email("CLI_EMAIL_NFE", "E-mail para NF-e"),
            Field::text("CLI_CONTATO", "Pessoa de Contato").len(60),
            Field::money("CLI_LIMITE_CREDITO", "Limite de Crédito").max("9999999999999.99").width(3),
            Field::reference("CLI_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete),
            Field::int("CLI_TABELA_PRECO", "Tabela de Preço").min("1").max("99").width(3),
            Field::reference("CLI_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox),
            Field::options("CLI_SITUACAO", "Situação", DbType::Int, &[("1", "Ativo"), ("2", "Bloqueado")])
                .kind(Kind::Situation)
                .required()
                .default(json!(1))
                .list()
                .width(3),
            Field::text("CLI_MOTIVO_BLOQUEIO", "Motivo do Bloqueio").len(200),
            Field::textarea("CLI_OBS", "Observações").len(2000),
            Field::upload("CLI_IMAGEM", "Imagem", &["png", "jpeg", "bmp"]),
            Field::timestamp("CLI_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "CLI_ID",
                "CLI_TIPO_PESSOA",
                "CLI_SITUACAO",
                "CLI_DESCRICAO",
                "CLI_FANTASIA",
                "CLI_CPF",
                "CLI_CGC",
                "CLI_DOC_ESTRANGEIRO",
                "CLI_RG",
                "CLI_DTA_NASC",
                "CLI_DTA_CAD",
            ],
        )
        .group(
            Some("Dados Fiscais"),
            true,
            12,
            &["CLI_IND_IE", "CLI_IE", "CLI_IM"],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "CLI_CEP",
                "CLI_ENDERECO",
                "CLI_NUMERO",
                "CLI_COMPLEMENTO",
                "CLI_BAIRRO",
                "CLI_CID_IBGE",
                "CLI_CIDADE",
                "CLI_UF",
                "CLI_PAIS_ID",
            ],
        )
        .group(
            Some("Contato"),
            true,
            12,
            &["CLI_FONE", "CLI_EMAIL", "CLI_EMAIL_NFE", "CLI_CONTATO"],
        )
        .group(
            Some("Comercial"),
            true,
            12,
            &[
                "CLI_LIMITE_CREDITO",
                "CLI_COLA_ID",
                "CLI_TABELA_PRECO",
                "CLI_CNDP_ID",
                "CLI_MOTIVO_BLOQUEIO",
            ],
        )
        .group(Some("Observações"), true, 12, &["CLI_OBS", "CLI_IMAGEM"])
        .action(
            "GET",
            "/clientes/pesquisar/{filter}/{emp}/{personType}",
            "pesquisar_tipo",
            ActionPerm::View,
            "Clientes: pesquisar por nome ou documento e tipo de pessoa (0 = todos)",
            Arc::new(actions::SearchByPersonType),
        )
        .action(
            "GET",
            "/clientes/limitecredito/{id}/{emp}",
            "limite_credito",
            ActionPerm::View,
            "Clientes: limite de crédito, valor utilizado e saldo",
            Arc::new(actions::CreditLimit),
        )
        .action(
            "GET",
            "/clientes/visualizar/{id}/{emp}",
            "visualizar",
            ActionPerm::View,
            "Clientes: o cliente com seus contatos e referências",
            Arc::new(actions::View {
                contacts: subregisters::contatos(),
                references: subregisters::referencias(),
            }),
        )
        .upload_action(
            "POST",
            "/clientes/imagem/{id}/{emp}",
            "imagem",
            &["png", "jpeg", "bmp"],
            "Clientes: enviar a imagem do cliente",
            Arc::new(actions::Image),
        )
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = erp_platform::resource::Registry::new(super::all()).expect("registry");
        assert!(
            r.get("contratoscliente").is_some(),
            "alias of contratocliente"
        );
        for res in r.all() {
            assert!(res.sample.is_some(), "{} has a sample", res.name);
        }
    }
}
