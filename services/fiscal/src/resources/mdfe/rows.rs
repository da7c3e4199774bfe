//! The rows of an MDF-e, each a register of its own keyed by the MDF-e and a
//! sequence: loading and unloading cities and the documents unloaded in each,
//! path states, vehicles, drivers, seals, contractors, freight payments with
//! their components, and toll vouchers.

use std::sync::Arc;

use erp_platform::resource::{ActionPerm, DbType, Field, Resource};
use serde_json::json;

use super::{calls, hooks, PROGRAM, SCHEMA};

const WHEEL_TYPES: [(&str, &str); 6] = [
    ("01", "01 - Truck"),
    ("02", "02 - Toco"),
    ("03", "03 - Cavalo Mecânico"),
    ("04", "04 - VAN"),
    ("05", "05 - Utilitário"),
    ("06", "06 - Outros"),
];
const BODY_TYPES: [(&str, &str); 6] = [
    ("00", "00 - Não aplicável"),
    ("01", "01 - Aberta"),
    ("02", "02 - Fechada/Baú"),
    ("03", "03 - Granelera"),
    ("04", "04 - Porta Container"),
    ("05", "05 - Sider"),
];
const VEHICLE_KINDS: [(&str, &str); 2] = [("T", "Tração"), ("R", "Reboque")];
const COMPONENT_TYPES: [(&str, &str); 5] = [
    ("01", "01 - Vale Pedágio"),
    ("02", "02 - Impostos, taxas e contribuições"),
    (
        "03",
        "03 - Despesas (bancárias, meios de pagamento, outras)",
    ),
    ("04", "04 - Frete"),
    ("99", "99 - Outros"),
];
const PAYMENT_KINDS: [(&str, &str); 2] = [("0", "0 - À vista"), ("1", "1 - A prazo")];
const DOC_MODELS: [(&str, &str); 2] = [("55", "NF-e"), ("57", "CT-e")];

/// A row of the MDF-e: company, MDF-e and a sequence within it.
fn row(name: &str, title: &str, table: &str, prefix: &str, label: &str) -> Resource {
    let parent = format!("{prefix}_MDFE_ID");
    Resource::new(name, title, SCHEMA, table, PROGRAM)
        .key(&[parent.as_str(), &format!("{prefix}_ID")])
        .seq_key()
        .company(&format!("{prefix}_EMP_ID"))
        .label(label)
        .order(&format!("{prefix}_ID"))
        .list_path(&format!("/{name}/{{{parent}}}/{{emp}}"))
}

fn row_keys(prefix: &str) -> Vec<Field> {
    vec![
        Field::int(&format!("{prefix}_MDFE_ID"), "MDF-e").required(),
        Field::int(&format!("{prefix}_EMP_ID"), "Empresa"),
        Field::int(&format!("{prefix}_ID"), "Sequência")
            .read_only()
            .list()
            .width(1),
    ]
}

fn with(mut keys: Vec<Field>, fields: Vec<Field>) -> Vec<Field> {
    keys.extend(fields);
    keys
}

pub(super) fn mdfecidadeorigem() -> Resource {
    row(
        "mdfecidadeorigem",
        "Municípios de Carregamento",
        "mdfe_cidades_origem",
        "MCIO",
        "MCIO_CIDADE",
    )
    .hooks(Arc::new(hooks::City("MCIO")))
    .sample(json!({"MCIO_MDFE_ID": 1, "MCIO_CID_IBGE": "3550308", "MCIO_CIDADE": "São Paulo"}))
    .fields(with(
        row_keys("MCIO"),
        vec![
            Field::text("MCIO_CID_IBGE", "Código IBGE")
                .required()
                .len(7)
                .list()
                .width(2),
            Field::text("MCIO_CIDADE", "Município")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(6),
        ],
    ))
}

pub(super) fn mdfecidadedestino() -> Resource {
    row(
        "mdfecidadedestino",
        "Municípios de Descarregamento",
        "mdfe_cidades_destino",
        "MCID",
        "MCID_CIDADE",
    )
    .hooks(Arc::new(hooks::City("MCID")))
    .sample(json!({"MCID_MDFE_ID": 1, "MCID_CID_IBGE": "3106200", "MCID_CIDADE": "Belo Horizonte"}))
    .action(
        "GET",
        "/mdfecidadedestino_semdoc/{id}/{emp}",
        "semdoc",
        ActionPerm::View,
        "MDF-e: os municípios de descarregamento sem nenhum documento (o que impede a emissão)",
        Arc::new(calls::CitiesWithoutDocuments),
    )
    .fields(with(
        row_keys("MCID"),
        vec![
            Field::text("MCID_CID_IBGE", "Código IBGE")
                .required()
                .len(7)
                .list()
                .width(2),
            Field::text("MCID_CIDADE", "Município")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(6),
        ],
    ))
}

pub(super) fn mdfenotascidadedestino() -> Resource {
    row("mdfenotascidadedestino", "Documentos Descarregados", "mdfe_notas_cidade_destino", "MDNC", "MDNC_CHAVE")
        .hooks(Arc::new(hooks::UnloadedDocument))
        .constraint("mdfe_notas_cidade_fkey", hooks::CITY_MISSING)
        .constraint("mdfe_notas_chave_key", "Este documento já está neste MDF-e.")
        .sample(json!({"MDNC_MDFE_ID": 1, "MDNC_MCID_ID": 1, "MDNC_CHAVE": "35261111222333000181550010000012341000012345"}))
        .fields(with(row_keys("MDNC"), vec![
            // Empty: the MDF-e's only unloading city (hooks::sibling).
            Field::int("MDNC_MCID_ID", "Município de Descarregamento (sequência)").list().width(6),
            Field::options("MDNC_MODELO", "Documento", DbType::Text, &DOC_MODELS).server().list().width(2),
            Field::access_key("MDNC_CHAVE", "Chave de Acesso").required().searchable().list(),
        ]))
}

pub(super) fn mdfeufpercurso() -> Resource {
    row(
        "mdfeufpercurso",
        "UF de Percurso",
        "mdfe_uf_percurso",
        "MUFP",
        "MUFP_UF",
    )
    .hooks(Arc::new(hooks::PathState))
    .sample(json!({"MUFP_MDFE_ID": 1, "MUFP_UF": "RJ"}))
    .fields(with(
        row_keys("MUFP"),
        vec![Field::text("MUFP_UF", "UF")
            .required()
            .len(2)
            .searchable()
            .list()
            .width(1)],
    ))
}

pub(super) fn mdfeveiculo() -> Resource {
    row("mdfeveiculo", "Veículos", "mdfe_veiculos", "VEIC", "VEIC_PLACA1")
        .hooks(Arc::new(hooks::Vehicle))
        .sample(json!({"VEIC_MDFE_ID": 1, "VEIC_TIPO": "T", "VEIC_PLACA1": "ABC1D23", "VEIC_RENAVAM": "12345678901",
            "VEIC_TARA": 8000, "VEIC_CAP_KG": 15000, "VEIC_TP_ROD": "03", "VEIC_TP_CAR": "02", "VEIC_UF": "SP"}))
        .fields(with(row_keys("VEIC"), vec![
            Field::options("VEIC_TIPO", "Tipo", DbType::Text, &VEHICLE_KINDS).default(json!("T")).list().width(2),
            Field::text("VEIC_PLACA1", "Placa").required().len(8).searchable().list().width(2),
            Field::text("VEIC_RENAVAM", "RENAVAM").len(11).width(3),
            Field::int("VEIC_TARA", "Tara (kg)").required().min("0").list().width(2),
            Field::int("VEIC_CAP_KG", "Capacidade (kg)").min("0").width(2),
            Field::int("VEIC_CAP_M3", "Capacidade (m³)").min("0").width(2),
            Field::options("VEIC_TP_ROD", "Tipo de Rodado", DbType::Text, &WHEEL_TYPES).width(3),
            Field::options("VEIC_TP_CAR", "Tipo de Carroceria", DbType::Text, &BODY_TYPES).required().width(3),
            Field::text("VEIC_UF", "UF de Licenciamento").len(2).width(1),
        ]))
}

pub(super) fn mdfemotorista() -> Resource {
    row(
        "mdfemotorista",
        "Motoristas",
        "mdfe_motoristas",
        "MDMO",
        "MDMO_NOME",
    )
    .hooks(Arc::new(hooks::Driver))
    .sample(json!({"MDMO_MDFE_ID": 1, "MDMO_NOME": "JOSE DA SILVA", "MDMO_CPF": "529.982.247-25"}))
    .fields(with(
        row_keys("MDMO"),
        vec![
            Field::text("MDMO_NOME", "Nome")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(6),
            Field::cpf_cnpj("MDMO_CPF", "CPF")
                .required()
                .len(14)
                .mask("###.###.###-##")
                .list()
                .width(3),
        ],
    ))
}

pub(super) fn mdfelacres() -> Resource {
    row(
        "mdfelacres",
        "Lacres",
        "mdfe_lacres",
        "LACRE",
        "LACRE_NUMERO",
    )
    .sample(json!({"LACRE_MDFE_ID": 1, "LACRE_NUMERO": "LC-000123"}))
    .fields(with(
        row_keys("LACRE"),
        vec![Field::text("LACRE_NUMERO", "Número do Lacre")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(4)],
    ))
}

pub(super) fn mdfecontratante() -> Resource {
    row("mdfecontratante", "Contratantes", "mdfe_contratantes", "MDCO", "MDCO_NOME")
        .hooks(Arc::new(hooks::Contractor))
        .constraint("mdfe_contratantes_contrato_check", hooks::HALF_CONTRACT)
        .sample(json!({"MDCO_MDFE_ID": 1, "MDCO_NOME": "INDUSTRIA CONTRATANTE LTDA", "MDCO_CPF_CNPJ": "11.222.333/0001-81",
            "MDCO_NRO_CONTRATO": "CT-2026/015", "MDCO_VLR_CONTRATO": "120000.00"}))
        .fields(with(row_keys("MDCO"), vec![
            Field::text("MDCO_NOME", "Nome / Razão Social").required().min_len(2).len(60).searchable().list().width(6),
            Field::cpf_cnpj("MDCO_CPF_CNPJ", "CPF/CNPJ").required().list().width(3),
            // The contract of continued services (infContrato), when there is one.
            Field::text("MDCO_NRO_CONTRATO", "Número do Contrato").min_len(2).len(20).list().width(3),
            Field::money("MDCO_VLR_CONTRATO", "Valor Global do Contrato").min("0.01").width(3),
        ]))
}

const INSURANCE_RESPONSIBLES: [(&str, &str); 2] = [
    ("1", "1 - Emitente do MDF-e"),
    ("2", "2 - Contratante do transporte"),
];

pub(super) fn mdfeseguro() -> Resource {
    row("mdfeseguro", "Seguros da Carga", "mdfe_seguros", "MSEG", "MSEG_SEGURADORA")
        .hooks(Arc::new(hooks::Insurance))
        .sample(json!({"MSEG_MDFE_ID": 1, "MSEG_RESP": 1, "MSEG_SEGURADORA": "SEGURADORA TESTE SA",
            "MSEG_SEGURADORA_CNPJ": "11444777000161", "MSEG_APOLICE": "AP-778899", "MSEG_AVERBACOES": "000123, 000124"}))
        .fields(with(row_keys("MSEG"), vec![
            Field::options("MSEG_RESP", "Responsável pelo Seguro", DbType::Int, &INSURANCE_RESPONSIBLES)
                .required().default(json!(1)).list().width(3),
            Field::cpf_cnpj("MSEG_RESP_CPF_CNPJ", "CPF/CNPJ do Responsável (contratante)").width(3),
            Field::text("MSEG_SEGURADORA", "Seguradora").required().len(30).searchable().list().width(4),
            Field::cpf_cnpj("MSEG_SEGURADORA_CNPJ", "CNPJ da Seguradora").required().list().width(3),
            Field::text("MSEG_APOLICE", "Número da Apólice").len(20).list().width(3),
            Field::text("MSEG_AVERBACOES", "Averbações (separadas por vírgula)").len(400).width(6),
        ]))
}

pub(super) fn mdfepagamentos() -> Resource {
    row("mdfepagamentos", "Pagamentos do Frete", "mdfe_pagamentos", "MDPG", "MDPG_NOME")
        .hooks(Arc::new(hooks::Payment))
        .sample(json!({"MDPG_MDFE_ID": 1, "MDPG_NOME": "INDUSTRIA CONTRATANTE LTDA", "MDPG_CPF_CNPJ": "11222333000181",
            "MDPG_VLR_CONTRATO": "1500.00", "MDPG_IND_PAG": 1, "MDPG_DTA_VCTO": "2026-12-30", "MDPG_PIX": "financeiro@example.com"}))
        .fields(with(row_keys("MDPG"), vec![
            Field::text("MDPG_NOME", "Responsável pelo Pagamento").required().min_len(2).len(60).searchable().list().width(6),
            Field::cpf_cnpj("MDPG_CPF_CNPJ", "CPF/CNPJ").required().list().width(3),
            Field::money("MDPG_VLR_CONTRATO", "Valor do Contrato").required().list().width(2),
            Field::options("MDPG_IND_PAG", "Forma de Pagamento", DbType::Int, &PAYMENT_KINDS).default(json!(0)).width(2),
            Field::date("MDPG_DTA_VCTO", "Vencimento (a prazo)"),
            Field::money("MDPG_VLR_ADIANT", "Adiantamento").width(2),
            Field::text("MDPG_BANCO", "Banco").len(5).width(1),
            Field::text("MDPG_AGENCIA", "Agência").len(10).width(2),
            Field::text("MDPG_PIX", "Chave PIX").len(60).width(4),
        ]))
}

pub(super) fn mdfecomponentes() -> Resource {
    row("mdfecomponentes", "Componentes do Pagamento", "mdfe_componentes", "MDPC", "MDPC_DESCRICAO")
        .hooks(Arc::new(hooks::Component))
        .constraint("mdfe_componentes_pagamento_fkey", hooks::PAYMENT_MISSING)
        .sample(json!({"MDPC_MDFE_ID": 1, "MDPC_MDPG_ID": 1, "MDPC_TIPO": "04", "MDPC_VLR_COMP": "1500.00", "MDPC_DESCRICAO": "Frete peso"}))
        .fields(with(row_keys("MDPC"), vec![
            // Empty: the MDF-e's only payment (hooks::sibling).
            Field::int("MDPC_MDPG_ID", "Pagamento (sequência)").list().width(3),
            Field::options("MDPC_TIPO", "Tipo", DbType::Text, &COMPONENT_TYPES).required().list().width(4),
            Field::money("MDPC_VLR_COMP", "Valor").required().list().width(2),
            Field::text("MDPC_DESCRICAO", "Descrição").len(60).searchable().width(4),
        ]))
}

pub(super) fn mdfevalepedagio() -> Resource {
    row("mdfevalepedagio", "Vale-Pedágio", "mdfe_vale_pedagio", "MDVP", "MDVP_N_COMPRA")
        .sample(json!({"MDVP_MDFE_ID": 1, "MDVP_CNPJ_FORN": "11.222.333/0001-81", "MDVP_N_COMPRA": "998877", "MDVP_VALOR": "35.40"}))
        .fields(with(row_keys("MDVP"), vec![
            Field::cpf_cnpj("MDVP_CNPJ_FORN", "CNPJ da Fornecedora").required().list().width(3),
            Field::cpf_cnpj("MDVP_CPF_CNPJ_PAG", "CPF/CNPJ do Responsável pelo Pagamento").width(3),
            Field::text("MDVP_N_COMPRA", "Número do Comprovante").len(20).searchable().list().width(3),
            Field::money("MDVP_VALOR", "Valor").required().list().width(2),
        ]))
}
