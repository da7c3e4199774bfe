//! Every unique key of catalog a user can hit answers its register's own message
//! with status 409, through the engine's `create`, instead of the generic
//! 'Registro já cadastrado.'.

use std::sync::atomic::{AtomicI64, Ordering};

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry};
use serde_json::{json, Value};

/// Client ids of this module only.
fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(60_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

fn caller(client_id: i64, privileged: bool) -> Caller {
    Caller { client_id, user_id: 1, emp_id: 1, privileged }
}

/// One case: the rows created first, then the write that repeats a key.
struct Case {
    rows: Vec<(&'static str, Value)>,
    register: &'static str,
    again: Value,
    message: &'static str,
}

fn case(
    rows: Vec<(&'static str, Value)>,
    register: &'static str,
    again: Value,
    message: &'static str,
) -> Case {
    Case { rows, register, again, message }
}

/// A create of `name` as the gateway sends it (company 1 for per-company registers).
async fn create(
    tx: &mut Tx,
    registry: &Registry,
    me: &Caller,
    name: &str,
    v: &Value,
) -> erp_platform::Result<Value> {
    let res = registry.get(name).expect("declared");
    let emp = res.company.as_ref().map(|_| 1);
    let body = v.as_object().cloned().unwrap_or_default();
    query::create(tx, res, me, emp, &body).await
}

/// Creates the case's rows, then the repeated one, as a client of its own, in a
/// transaction that is never committed (the public tables are shared by the whole
/// binary); answers the status and public message of the refused write.
async fn refused(db: &Db, registry: &Registry, c: &Case, privileged: bool) -> (u16, String) {
    let me = caller(client(), privileged);
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    for (name, v) in &c.rows {
        create(&mut tx, registry, &me, name, v)
            .await
            .unwrap_or_else(|e| panic!("{name} {v}: {e}"));
    }
    match create(&mut tx, registry, &me, c.register, &c.again).await {
        Ok(row) => panic!("{} accepted {row}", c.register),
        Err(e) => (e.http_status(), e.public_message()),
    }
}

#[tokio::test]
async fn duplicates_of_client_registers_answer_their_message() {
    let db = Db::connect(&crate::setup().await).await.expect("app pool");
    let registry = erp_catalog::resources::registry().expect("registry");
    let person = |v: Value| ("clientes", v);
    let unit = (
        "unidade",
        json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
    );
    let product = (
        "produtos",
        json!({"PROD_DESCRICAO": "PARAFUSO", "PROD_UNID_ID": 1}),
    );
    let size = ("tamanho", json!({"TAM_DESCRICAO": "P"}));
    let cases = [
        case(
            vec![person(
                json!({"CLI_DESCRICAO": "JOSÉ", "CLI_TIPO_PESSOA": "F", "CLI_CPF": "529.982.247-25"}),
            )],
            "clientes",
            json!({"CLI_DESCRICAO": "OUTRO JOSÉ", "CLI_TIPO_PESSOA": "F", "CLI_CPF": "52998224725"}),
            "CPF já cadastrado para outro cliente.",
        ),
        case(
            vec![person(
                json!({"CLI_DESCRICAO": "ABC LTDA", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "11.444.777/0001-61"}),
            )],
            "clientes",
            json!({"CLI_DESCRICAO": "ABC S.A.", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "11444777000161"}),
            "CNPJ já cadastrado para outro cliente.",
        ),
        case(
            vec![
                person(json!({"CLI_DESCRICAO": "ANA", "CLI_TIPO_PESSOA": "P"})),
                (
                    "clientesserv",
                    json!({"CLIS_CLI_ID": 1, "CLIS_SERV_ID": 4, "CLIS_DESCRICAO": "Manutenção"}),
                ),
            ],
            "clientesserv",
            json!({"CLIS_CLI_ID": 1, "CLIS_SERV_ID": 4, "CLIS_DESCRICAO": "Outra"}),
            "Serviço já cadastrado para este cliente.",
        ),
        case(
            vec![(
                "colaborador",
                json!({"COLA_NOME": "CARLOS", "COLA_CPF": "390.533.447-05"}),
            )],
            "colaborador",
            json!({"COLA_NOME": "OUTRO", "COLA_CPF": "39053344705"}),
            "CPF já cadastrado para outro colaborador.",
        ),
        case(
            vec![(
                "fornecedor",
                json!({"FORN_DESCRICAO": "METALÚRGICA", "FORN_CGC": "11.222.333/0001-81"}),
            )],
            "fornecedor",
            json!({"FORN_DESCRICAO": "OUTRA", "FORN_CGC": "11222333000181"}),
            "CPF/CNPJ já cadastrado para outro fornecedor.",
        ),
        case(
            vec![
                ("fornecedor", json!({"FORN_DESCRICAO": "METALÚRGICA"})),
                (
                    "fornecedorprod",
                    json!({"FOPR_FORN_ID": 1, "FOPR_PROD_ID": 7, "FOPR_CODIGO": "A-1"}),
                ),
            ],
            "fornecedorprod",
            json!({"FOPR_FORN_ID": 1, "FOPR_PROD_ID": 7, "FOPR_CODIGO": "A-2"}),
            "Produto já cadastrado para este fornecedor.",
        ),
        case(
            vec![("marcaveiculo", json!({"MRCV_DESCRICAO": "FIAT"}))],
            "marcaveiculo",
            json!({"MRCV_DESCRICAO": "fiat"}),
            "Descrição já cadastrada para outra marca de veículo.",
        ),
        case(
            vec![("veiculo", json!({"VEIC_PLACA1": "BRA2E19"}))],
            "veiculo",
            json!({"VEIC_PLACA1": "bra-2e19"}),
            "Placa já cadastrada para outro veículo.",
        ),
        case(
            vec![("marcaequipamento", json!({"MREQ_DESCRICAO": "WEG"}))],
            "marcaequipamento",
            json!({"MREQ_DESCRICAO": "Weg"}),
            "Descrição já cadastrada para outra marca de equipamento.",
        ),
        case(
            vec![("tipoequipamento", json!({"TPEQ_DESCRICAO": "COMPRESSOR"}))],
            "tipoequipamento",
            json!({"TPEQ_DESCRICAO": "compressor"}),
            "Descrição já cadastrada para outro tipo de equipamento.",
        ),
        case(
            vec![
                ("tipoequipamento", json!({"TPEQ_DESCRICAO": "COMPRESSOR"})),
                (
                    "tipoequipamentoserv",
                    json!({"TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 5, "TEQS_DESCRICAO": "Filtro"}),
                ),
            ],
            "tipoequipamentoserv",
            json!({"TEQS_TPEQ_ID": 1, "TEQS_SERV_ID": 5, "TEQS_DESCRICAO": "Outro"}),
            "Serviço já cadastrado para este tipo de equipamento.",
        ),
        case(
            vec![
                person(json!({"CLI_DESCRICAO": "ANA", "CLI_TIPO_PESSOA": "P"})),
                (
                    "contratocliente",
                    json!({"CONT_CLI_ID": 1, "CONT_DESCRICAO": "Suporte", "CONT_VALOR": "100", "CONT_DATA_INI": "2026-01-01"}),
                ),
                ("equipamento", json!({"EQPT_SERIE": "SN-1"})),
                (
                    "contratoseqpt",
                    json!({"CONTE_CONT_ID": 1, "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": 1}),
                ),
            ],
            "contratoseqpt",
            json!({"CONTE_CONT_ID": 1, "CONTE_CLI_ID": 1, "CONTE_EQPT_ID": 1}),
            "Equipamento já incluído neste contrato.",
        ),
        case(
            vec![unit.clone()],
            "unidade",
            json!({"UNID_DESCRICAO": "OUTRA", "UNID_ABREVIADA": "un"}),
            "Sigla já cadastrada para outra unidade.",
        ),
        case(
            vec![
                unit.clone(),
                (
                    "produtos",
                    json!({"PROD_DESCRICAO": "A", "PROD_UNID_ID": 1, "PROD_CBAR": "7891000315507"}),
                ),
            ],
            "produtos",
            json!({"PROD_DESCRICAO": "B", "PROD_UNID_ID": 1, "PROD_CBAR": "7891000315507"}),
            "Código de barras já cadastrado para outro produto.",
        ),
        case(
            vec![
                unit.clone(),
                product.clone(),
                (
                    "produtoscbar",
                    json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "7891234567895"}),
                ),
            ],
            "produtoscbar",
            json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "7891234567895"}),
            "Código de barras já cadastrado em outra embalagem.",
        ),
        case(
            vec![
                unit.clone(),
                product.clone(),
                size.clone(),
                (
                    "produtosgrade",
                    json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1}),
                ),
            ],
            "produtosgrade",
            json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1}),
            "Tamanho e cor já cadastrados na grade deste produto.",
        ),
        case(
            vec![
                unit.clone(),
                product.clone(),
                size.clone(),
                (
                    "produtosgrade",
                    json!({"PRGR_PROD_ID": 1, "PRGR_CBAR": "7894900011517"}),
                ),
            ],
            "produtosgrade",
            json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1, "PRGR_CBAR": "7894900011517"}),
            "Código de barras já cadastrado em outra variação da grade.",
        ),
        case(
            vec![
                unit.clone(),
                product.clone(),
                (
                    "produtosfornecedor",
                    json!({"PRFR_PROD_ID": 1, "PRFR_FORN_ID": 3, "PRFR_REF_ID": "A-1"}),
                ),
            ],
            "produtosfornecedor",
            json!({"PRFR_PROD_ID": 1, "PRFR_FORN_ID": 3, "PRFR_REF_ID": "A-1"}),
            "Código no Fornecedor já cadastrado para este produto e fornecedor.",
        ),
        case(
            vec![
                unit.clone(),
                product.clone(),
                (
                    "produtosespeciais",
                    json!({"PRES_CLI_ID": 1, "PRES_PROD_ID": 1, "PRES_VALOR": "0.70"}),
                ),
            ],
            "produtosespeciais",
            json!({"PRES_CLI_ID": 1, "PRES_PROD_ID": 1, "PRES_VALOR": "0.65"}),
            "Cliente já tem preço especial para este produto.",
        ),
    ];
    for c in &cases {
        assert_eq!(
            refused(&db, &registry, c, false).await,
            (409, c.message.to_string()),
            "{} {}",
            c.register,
            c.again
        );
    }
}

#[tokio::test]
async fn duplicates_of_public_tables_answer_their_message() {
    let db = Db::connect(&crate::setup().await).await.expect("app pool");
    let registry = erp_catalog::resources::registry().expect("registry");
    // The migrations loaded Brazil (76, BR), São Paulo (35, SP, 3550308) and Banco do
    // Brasil (001, ISPB 00000000); the codes created here are this test's own.
    let cases = [
        case(
            vec![],
            "paises",
            json!({"PAIS_ID": 76, "PAIS_DESCRICAO": "Outro Brasil"}),
            "Código (ISO) já cadastrado para outro país.",
        ),
        case(
            vec![],
            "paises",
            json!({"PAIS_ID": 990, "PAIS_DESCRICAO": "País Duplicado", "PAIS_SIGLA": "BR"}),
            "Sigla já cadastrada para outro país.",
        ),
        case(
            vec![(
                "paises",
                json!({"PAIS_ID": 991, "PAIS_DESCRICAO": "País Bacen", "PAIS_COD_BACEN": 9911}),
            )],
            "paises",
            json!({"PAIS_ID": 992, "PAIS_DESCRICAO": "Outro Bacen", "PAIS_COD_BACEN": 9911}),
            "Código BACEN já cadastrado para outro país.",
        ),
        case(
            vec![],
            "estados",
            json!({"EST_ID": 35, "EST_SIGLA": "XS", "EST_DESCRICAO": "Outro"}),
            "Código IBGE já cadastrado para outro estado.",
        ),
        case(
            vec![],
            "estados",
            json!({"EST_ID": 97, "EST_SIGLA": "SP", "EST_DESCRICAO": "Outro"}),
            "UF já cadastrada para outro estado.",
        ),
        case(
            vec![],
            "cidades",
            json!({"CID_ID": 3550308, "CID_DESCRICAO": "Outra", "EST_SIGLA": "SP"}),
            "Código IBGE já cadastrado para outra cidade.",
        ),
        case(
            vec![(
                "ncm",
                json!({"NCM_CODIGO": "8888.88.88", "NCM_DESCRICAO": "X"}),
            )],
            "ncm",
            json!({"NCM_CODIGO": "88888888", "NCM_DESCRICAO": "Y"}),
            "NCM já cadastrado.",
        ),
        case(
            vec![(
                "cnaes",
                json!({"CNAE_CODIGO": "8888-8/88", "CNAE_DESCRICAO": "X"}),
            )],
            "cnaes",
            json!({"CNAE_CODIGO": "8888888", "CNAE_DESCRICAO": "Y"}),
            "CNAE já cadastrado.",
        ),
        case(
            vec![(
                "benef",
                json!({"BENEF_CODIGO": "RS888888", "BENEF_DESCRICAO": "X", "BENEF_UF": "RS"}),
            )],
            "benef",
            json!({"BENEF_CODIGO": "rs888888", "BENEF_DESCRICAO": "Y", "BENEF_UF": "RS"}),
            "Código (cBenef) já cadastrado.",
        ),
        case(
            vec![],
            "bancosbr",
            json!({"BCOBR_COMPE": "001", "BCOBR_ISPB": "88888888", "BCOBR_DESCRICAO": "Outro"}),
            "Código COMPE já cadastrado para outro banco.",
        ),
        case(
            vec![],
            "bancosbr",
            json!({"BCOBR_COMPE": "888", "BCOBR_ISPB": "00000000", "BCOBR_DESCRICAO": "Outro"}),
            "ISPB já cadastrado para outro banco.",
        ),
    ];
    for c in &cases {
        assert_eq!(
            refused(&db, &registry, c, true).await,
            (409, c.message.to_string()),
            "{} {}",
            c.register,
            c.again
        );
    }
}
