//! The customer's sub-registers. They have no screen of their own (the customer form
//! shows them), belong to the customer program and to the customer's company, and
//! name their customer in a `*_CLI_ID` column with a foreign key. Contacts,
//! references, attachments, family, history and services go with their customer;
//! contracts are business documents and keep the customer from being deleted.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Resource, Role};
use serde_json::json;

use super::customer_attachments::{AttachmentDelete, AttachmentUpload, ATTACHMENT_TYPES};
use crate::resources::checks::Checks;
use crate::SCHEMA;

fn customer(name: &str) -> Field {
    Field::reference(name, "Cliente", "clientes", Kind::Autocomplete)
        .required()
        .list()
}

pub(crate) fn contatos() -> Resource {
    Resource::new(
        "clientescontato",
        "Contatos do Cliente",
        SCHEMA,
        "clientescontato",
        "clientes",
    )
    .sample(json!({
        "CONTATO_CLI_ID": 1, "CONTATO_NOME": "Maria Compras", "CONTATO_CARGO": "Compradora",
        "CONTATO_FONE": "11987654321", "CONTATO_EMAIL": "maria@clienteteste.com.br"
    }))
    .key(&["CONTATO_ID"])
    .company("CONTATO_EMP_ID")
    .label("CONTATO_NOME")
    .order("CONTATO_NOME")
    .fields(vec![
        Field::id("CONTATO_ID", "Código"),
        Field::int("CONTATO_EMP_ID", "Empresa"),
        customer("CONTATO_CLI_ID"),
        Field::text("CONTATO_NOME", "Nome")
            .required()
            .len(100)
            .searchable()
            .list(),
        Field::text("CONTATO_CARGO", "Cargo")
            .len(60)
            .list()
            .width(3),
        Field::text("CONTATO_SETOR", "Setor").len(60).width(3),
        Field::phones("CONTATO_FONE", "Telefones").list(),
        Field::email("CONTATO_EMAIL", "E-mail").list(),
        Field::date("CONTATO_DTA_NASC", "Data de Nascimento"),
        Field::textarea("CONTATO_OBS", "Observações").len(500),
    ])
}

pub(crate) fn referencias() -> Resource {
    Resource::new("clientesc", "Referências do Cliente", SCHEMA, "clientesc", "clientes")
        .sample(json!({
            "REF_CLI_ID": 1, "REF_TIPO": "C", "REF_NOME": "Distribuidora Referência", "REF_CONTATO": "João",
            "REF_FONE": "11912345678"
        }))
        .key(&["REF_ID"])
        .company("REF_EMP_ID")
        .label("REF_NOME")
        .order("REF_NOME")
        .fields(vec![
            Field::id("REF_ID", "Código"),
            Field::int("REF_EMP_ID", "Empresa"),
            customer("REF_CLI_ID"),
            Field::options(
                "REF_TIPO",
                "Tipo",
                DbType::Text,
                &[("C", "Comercial"), ("B", "Bancária"), ("P", "Pessoal")],
            )
            .required()
            .default(json!("C"))
            .list()
            .width(3),
            Field::text("REF_NOME", "Nome").required().len(100).searchable().list(),
            Field::text("REF_CONTATO", "Contato").len(60).width(4),
            Field::phones("REF_FONE", "Telefones").list(),
            Field::email("REF_EMAIL", "E-mail"),
            Field::textarea("REF_OBS", "Observações").len(500),
        ])
}

pub(crate) fn anexos() -> Resource {
    Resource::new(
        "clientesanexo",
        "Anexos do Cliente",
        SCHEMA,
        "clientesanexo",
        "clientes",
    )
    .sample(json!({"CLIA_CLI_ID": 1, "CLIA_DESCRICAO": "Contrato social"}))
    .key(&["CLIA_ID"])
    .company("CLIA_FIL_ID")
    .label("CLIA_DESCRICAO")
    .order("CLIA_DTA_CAD DESC")
    .hooks(Arc::new(Checks { ..Checks::default() }))
    .fields(vec![
        Field::id("CLIA_ID", "Código"),
        Field::int("CLIA_FIL_ID", "Empresa"),
        customer("CLIA_CLI_ID"),
        Field::text("CLIA_DESCRICAO", "Descrição")
            .required()
            .len(150)
            .searchable()
            .list(),
        Field::upload("CLIA_ANEXO", "Arquivo", &ATTACHMENT_TYPES).list(),
        Field::int("CLIA_USR_ID", "Usuário").role(Role::CreatedBy),
        Field::timestamp("CLIA_DTA_CAD", "Data").list(),
    ])
    .upload_action(
        "POST",
        "/clientesanexo/{id}/{emp}",
        "enviar",
        &ATTACHMENT_TYPES,
        "Anexos do cliente: enviar um arquivo ao cliente {id} (campo CLIA_DESCRICAO opcional)",
        Arc::new(AttachmentUpload),
    )
    .action(
        "DELETE",
        "/clientesanexo/{id}/{emp}/{anexo}",
        "excluir_arquivo",
        ActionPerm::Delete,
        "Anexos do cliente: excluir o anexo {id} pelo nome do arquivo",
        Arc::new(AttachmentDelete),
    )
}

pub(crate) fn familiares() -> Resource {
    Resource::new(
        "clientesfamiliar",
        "Familiares do Cliente",
        SCHEMA,
        "clientesfamiliar",
        "clientes",
    )
    .sample(json!({
        "CLIF_CLI_ID": 1, "CLIF_NOME": "Ana Familiar", "CLIF_PARENTESCO": "CONJUGE",
        "CLIF_DTA_NASC": "1985-04-12", "CLIF_CPF": "529.982.247-25"
    }))
    .key(&["CLIF_ID"])
    .company("CLIF_EMP_ID")
    .label("CLIF_NOME")
    .order("CLIF_NOME")
    .hooks(Arc::new(Checks { cpf: &["CLIF_CPF"], ..Checks::default() }))
    .fields(vec![
        Field::id("CLIF_ID", "Código"),
        Field::int("CLIF_EMP_ID", "Empresa"),
        customer("CLIF_CLI_ID"),
        Field::text("CLIF_NOME", "Nome")
            .required()
            .len(100)
            .searchable()
            .list(),
        Field::options(
            "CLIF_PARENTESCO",
            "Parentesco",
            DbType::Text,
            &[
                ("CONJUGE", "Cônjuge"),
                ("FILHO", "Filho(a)"),
                ("PAI", "Pai"),
                ("MAE", "Mãe"),
                ("IRMAO", "Irmão(ã)"),
                ("OUTRO", "Outro"),
            ],
        )
        .list()
        .width(3),
        Field::date("CLIF_DTA_NASC", "Data de Nascimento").list(),
        Field::cpf_cnpj("CLIF_CPF", "CPF").len(14).width(3),
        Field::phones("CLIF_FONE", "Telefones"),
        Field::textarea("CLIF_OBS", "Observações").len(500),
    ])
}

pub(crate) fn historico() -> Resource {
    Resource::new("clienteshistorico", "Histórico do Cliente", SCHEMA, "clienteshistorico", "clientes")
        .sample(json!({"CLIH_CLI_ID": 1, "CLIH_DESCRICAO": "Cliente ligou pedindo orçamento", "CLIH_HORA_EMIS": "09:15"}))
        .key(&["CLIH_ID"])
        .company("CLIH_EMP_ID")
        .label("CLIH_DESCRICAO")
        .order("CLIH_DATA_EMIS DESC, CLIH_HORA_EMIS DESC")
        .hooks(Arc::new(Checks {
            times: &["CLIH_HORA_EMIS"],
            ..Checks::default()
        }))
        .fields(vec![
            Field::id("CLIH_ID", "Código"),
            Field::int("CLIH_EMP_ID", "Empresa"),
            customer("CLIH_CLI_ID"),
            // Left blank, the database fills today's date and the current time.
            Field::date("CLIH_DATA_EMIS", "Data").list(),
            Field::text("CLIH_HORA_EMIS", "Hora").len(8).mask("##:##").list().width(2),
            Field::textarea("CLIH_DESCRICAO", "Descrição")
                .required()
                .len(4000)
                .searchable()
                .list(),
            Field::int("CLIH_USR_ID", "Usuário").role(Role::CreatedBy),
        ])
}

pub(crate) fn servicos() -> Resource {
    Resource::new("clientesserv", "Serviços do Cliente", SCHEMA, "clientesserv", "clientes")
        .sample(json!({
            "CLIS_CLI_ID": 1, "CLIS_SERV_ID": 1, "CLIS_DESCRICAO": "Manutenção mensal", "CLIS_VALOR": "350.00"
        }))
        .natural_key()
        .key(&["CLIS_CLI_ID", "CLIS_SERV_ID"])
        .constraint("clientesserv_pkey", "Serviço já cadastrado para este cliente.")
        .company("CLIS_EMP_ID")
        .label("CLIS_DESCRICAO")
        .order("CLIS_DESCRICAO")
        .fields(vec![
            Field::int("CLIS_EMP_ID", "Empresa"),
            customer("CLIS_CLI_ID"),
            Field::reference("CLIS_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
                .required()
                .list(),
            Field::text("CLIS_DESCRICAO", "Descrição").required().len(150).searchable().list(),
            Field::money("CLIS_VALOR", "Valor").max("9999999999999.99").list().width(3),
            Field::textarea("CLIS_OBS", "Observações").len(500),
        ])
}

pub(crate) fn contratos() -> Resource {
    Resource::new(
        "contratocliente",
        "Contratos do Cliente",
        SCHEMA,
        "contratocliente",
        "clientes",
    )
    .alias("contratoscliente")
    .sample(json!({
        "CONT_CLI_ID": 1, "CONT_DESCRICAO": "Contrato de manutenção", "CONT_NUMERO": "2026/001",
        "CONT_VALOR": "1200.00", "CONT_DATA_INI": "2026-01-01", "CONT_DATA_FIM": "2026-12-31",
        "CONT_DIA_VENCIMENTO": 10, "CONT_PERIODICIDADE": "M"
    }))
    .key(&["CONT_ID"])
    .company("CONT_EMP_ID")
    .label("CONT_DESCRICAO")
    .order("CONT_DATA_INI DESC")
    .hooks(Arc::new(Checks {
        date_order: &[(
            "CONT_DATA_INI",
            "CONT_DATA_FIM",
            "A data final do contrato deve ser maior ou igual à data inicial.",
        )],
        ..Checks::default()
    }))
    .fields(vec![
        Field::id("CONT_ID", "Código"),
        Field::int("CONT_EMP_ID", "Empresa"),
        customer("CONT_CLI_ID"),
        Field::text("CONT_DESCRICAO", "Descrição")
            .required()
            .len(150)
            .searchable()
            .list(),
        Field::text("CONT_NUMERO", "Número")
            .len(30)
            .searchable()
            .list()
            .width(3),
        Field::money("CONT_VALOR", "Valor")
            .required()
            .max("9999999999999.99")
            .list()
            .width(3),
        Field::date("CONT_DATA_INI", "Data Inicial")
            .required()
            .list(),
        Field::date("CONT_DATA_FIM", "Data Final").list(),
        Field::int("CONT_DIA_VENCIMENTO", "Dia do Vencimento")
            .min("1")
            .max("31")
            .width(3),
        Field::options(
            "CONT_PERIODICIDADE",
            "Periodicidade",
            DbType::Text,
            &[
                ("M", "Mensal"),
                ("B", "Bimestral"),
                ("T", "Trimestral"),
                ("S", "Semestral"),
                ("A", "Anual"),
            ],
        )
        .default(json!("M"))
        .width(3),
        Field::situation("CONT_SITUACAO"),
        Field::textarea("CONT_OBS", "Observações").len(2000),
        Field::timestamp("CONT_DTA_CAD", "Data de Cadastro"),
    ])
}
