//! Registers owned by identity, declared for the resource engine.

use std::sync::Arc;

use erp_platform::resource::{DbType, Field, Kind, Registry, Resource};

use crate::hooks::{CompanyHooks, UserHooks};

pub const TAX_REGIMES: [(&str, &str); 5] = [
    ("NENHUM", "NENHUM"),
    ("MEI", "MEI"),
    ("SIMPLES NACIONAL", "SIMPLES NACIONAL"),
    ("LUCRO PRESUMIDO", "LUCRO PRESUMIDO"),
    ("LUCRO REAL", "LUCRO REAL"),
];

pub fn registry() -> Result<Registry, String> {
    Registry::new(vec![
        empresas(),
        usuarios(),
        programas(),
        parametros_generico(),
        subgrupo_usuario(),
    ])
}

fn empresas() -> Resource {
    Resource::new("empresas", "Empresas", crate::SCHEMA, "empresas", "empresas")
        .screen("/empresas")
        .affects_principal()
        .sample(serde_json::json!({"EMP_DESCRICAO": "EMPRESA TESTE LTDA", "EMP_CGC": "11.444.777/0001-61", "EMP_REGIME": "SIMPLES NACIONAL"}))
        .key(&["EMP_ID"])
        .label("EMP_DESCRICAO")
        .order("EMP_ID")
        .events("empresa")
        .constraint("empresas_cgc_key", "CNPJ/CPF já cadastrado para outra empresa.")
        .hooks(Arc::new(CompanyHooks))
        .fields(vec![
            Field::id("EMP_ID", "Código"),
            Field::text("EMP_DESCRICAO", "Razão Social")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(8),
            Field::text("EMP_FANTASIA", "Nome Fantasia")
                .len(150)
                .searchable()
                .list(),
            Field::cpf_cnpj("EMP_CGC", "CNPJ/CPF").required().list(),
            Field::text("EMP_IE", "Inscrição Estadual").len(20).width(3),
            Field::text("EMP_IM", "Inscrição Municipal").len(20).width(3),
            Field::options("EMP_REGIME", "Regime Tributário", DbType::Text, &TAX_REGIMES)
                .required()
                .default("NENHUM".into()),
            Field::text("EMP_CNAE", "CNAE").len(10).width(3),
            Field::cep("EMP_CEP", "CEP"),
            Field::text("EMP_ENDERECO", "Endereço").len(150).width(6),
            Field::text("EMP_NUMERO", "Número").len(20).width(2),
            Field::text("EMP_COMPLEMENTO", "Complemento").len(60).width(4),
            Field::text("EMP_BAIRRO", "Bairro").len(60),
            Field::reference("EMP_CID_IBGE", "Cidade (IBGE)", "cidades", Kind::Autocomplete),
            Field::text("EMP_CIDADE", "Cidade").len(60).list(),
            Field::text("EMP_UF", "UF").len(2).width(2),
            Field::phones("EMP_FONE", "Telefones"),
            Field::email("EMP_EMAIL", "E-mail"),
            Field::upload("EMP_IMG_LOGO", "Logo do Sistema", &["png", "jpeg", "bmp"]),
            Field::upload("EMP_IMG_LOGO_REL", "Logo dos Relatórios", &["png", "jpeg", "bmp"]),
            Field::situation("EMP_SITUACAO"),
            Field::timestamp("EMP_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "EMP_ID",
                "EMP_DESCRICAO",
                "EMP_FANTASIA",
                "EMP_CGC",
                "EMP_IE",
                "EMP_IM",
                "EMP_REGIME",
                "EMP_CNAE",
                "EMP_SITUACAO",
            ],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "EMP_CEP",
                "EMP_ENDERECO",
                "EMP_NUMERO",
                "EMP_COMPLEMENTO",
                "EMP_BAIRRO",
                "EMP_CID_IBGE",
                "EMP_CIDADE",
                "EMP_UF",
            ],
        )
        .group(Some("Contato"), true, 12, &["EMP_FONE", "EMP_EMAIL"])
        .group(Some("Logos"), true, 12, &["EMP_IMG_LOGO", "EMP_IMG_LOGO_REL"])
}

fn usuarios() -> Resource {
    Resource::new("usuarios", "Usuários", crate::SCHEMA, "usuarios", "usuarios")
        .screen("/usuarios")
        .affects_principal()
        .sample(serde_json::json!({"USR_USUARIO": "teste", "USR_NOME": "Usuário Teste", "USR_SENHA": "segredo123", "USR_EMAIL": "teste@exemplo.com.br"}))
        .key(&["USR_ID"])
        .company("USR_EMP_ID")
        .ids_per_client()
        .label("USR_USUARIO")
        .order("USR_USUARIO")
        .events("usuario")
        .constraint(
            "usuarios_login_key",
            "Usuário já em uso: escolha outro nome de usuário.",
        )
        .hooks(Arc::new(UserHooks))
        .fields(vec![
            Field::id("USR_ID", "Código"),
            Field::int("USR_EMP_ID", "Empresa"),
            Field::text("USR_USUARIO", "Usuário")
                .required()
                .len(40)
                .min_len(3)
                .searchable()
                .list(),
            Field::text("USR_NOME", "Nome")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(8),
            Field::email("USR_EMAIL", "E-mail").list(),
            Field::phones("USR_FONE", "Telefone"),
            Field::password("USR_SENHA", "Senha").column("usr_senha_hash"),
            Field::new_json("USR_EMPRESAS", "Empresas Permitidas", Kind::Chips).reference_to("empresas"),
            Field::situation("USR_SITUACAO"),
            Field::timestamp("USR_DTA_CAD", "Data de Cadastro"),
        ])
}

fn programas() -> Resource {
    Resource::new("programas", "Programas", crate::SCHEMA, "programas", "programas")
        .screen("/programas")
        .sample(serde_json::json!({"PROG_ID": 9001, "PROG_NOME": "teste", "PROG_DESCRICAO": "Tela de Teste", "PROG_NIVEL1": "Administração", "PROG_NIVEL3": "Tela de Teste", "PROG_ORDEM": 99}))
        .global()
        .natural_key()
        .key(&["PROG_ID"])
        .constraint("programas_pkey", "Código já cadastrado para outro programa.")
        .constraint("programas_nome_key", "Nome já cadastrado para outro programa.")
        .label("PROG_DESCRICAO")
        .order("PROG_ID")
        .fields(vec![
            Field::int("PROG_ID", "Código").required().list().width(2),
            Field::text("PROG_NOME", "Nome").required().len(60).searchable().list(),
            Field::text("PROG_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list(),
            Field::text("PROG_DIR_WEB", "Caminho Web").len(120).list(),
            Field::text("PROG_EXE", "Executável").len(60),
            Field::text("PROG_IMG_WEB", "Ícone").len(60),
            Field::text("PROG_NIVEL1", "Nível 1").required().len(60).list(),
            Field::text("PROG_NIVEL2", "Nível 2").len(60),
            Field::text("PROG_NIVEL3", "Nível 3").required().len(100),
            Field::int("PROG_ORDEM", "Ordem").required().min("0"),
        ])
}

fn parametros_generico() -> Resource {
    Resource::new(
        "parametrosgenerico",
        "Parâmetros Genéricos",
        crate::SCHEMA,
        "parametros_generico",
        "gerenciadorempresas",
    )
    .key(&["PARG_ID"])
    .label("PARG_DESCRICAO")
    .sample(serde_json::json!({"PARG_DESCRICAO": "Parâmetro de teste", "PARG_VALOR": "S"}))
    .order("PARG_ID")
    .fields(vec![
        Field::id("PARG_ID", "Código"),
        Field::text("PARG_DESCRICAO", "Descrição")
            .required()
            .len(120)
            .searchable()
            .list(),
        Field::text("PARG_VALOR", "Valor").len(500).list(),
        Field::textarea("PARG_OBS", "Observação").len(1000),
    ])
}

fn subgrupo_usuario() -> Resource {
    Resource::new(
        "subgrupousuario",
        "Subgrupos do Usuário",
        crate::SCHEMA,
        "subgrupo_usuario",
        "usuarios",
    )
    .key(&["SGUS_ID"])
    .constraint(
        "subgrupo_usuario_key",
        "Subgrupo já liberado para este usuário.",
    )
    .company("SGUS_EMP_ID")
    .label("SGUS_GSUB_ID")
    .sample(serde_json::json!({"SGUS_USR_ID": 1, "SGUS_GSUB_ID": 1}))
    .order("SGUS_ID")
    .fields(vec![
        Field::id("SGUS_ID", "Código"),
        Field::int("SGUS_EMP_ID", "Empresa"),
        Field::int("SGUS_USR_ID", "Usuário").required().list(),
        Field::reference("SGUS_GSUB_ID", "Subgrupo", "subgrupo", Kind::Combobox)
            .required()
            .list(),
    ])
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_are_consistent() {
        let r = super::registry().expect("registry");
        assert!(r.get("empresas").is_some() && r.get("usuarios").is_some());
    }
}
