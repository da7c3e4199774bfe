//! Demo data of the registers for `make run`: every register with a screen of its
//! own gets its sample (and a few more rows where a form picks from a list), in the
//! demo client's company 1, so the screens and their comboboxes have something to
//! show. Idempotent: a register that already has rows in the company is left alone.

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::Result;
use serde_json::{json, Map, Value};

/// More rows than the sample, per register: fields merged over the sample.
fn extras(resource: &str) -> Vec<Value> {
    match resource {
        "colaborador" => vec![
            json!({"COLA_NOME": "Maria Técnica", "COLA_CPF": "529.982.247-25", "COLA_EMAIL": "maria@oficinademo.com.br"}),
        ],
        "marcaveiculo" => vec![
            json!({"MRCV_DESCRICAO": "FIAT", "MRCV_COD_FIPE": "21"}),
            json!({"MRCV_DESCRICAO": "CHEVROLET", "MRCV_COD_FIPE": "23"}),
        ],
        "modeloveiculo" => vec![
            json!({"MDLV_MRCV_ID": 2, "MDLV_DESCRICAO": "UNO 1.0", "MDLV_COD_FIPE": "001267-0"}),
            json!({"MDLV_MRCV_ID": 3, "MDLV_DESCRICAO": "ONIX 1.0", "MDLV_COD_FIPE": "004435-0"}),
        ],
        // More vehicles for the workshop's history (its service orders spread over them).
        "veiculo" => vec![
            json!({"VEIC_PLACA1": "RST-2E45", "VEIC_UF": "RS", "VEIC_CLI_ID": 2, "VEIC_MRCV_ID": 2, "VEIC_MDLV_ID": 2,
                   "VEIC_ANO_FABRICACAO": 2018, "VEIC_ANO_MODELO": 2018, "VEIC_COR": "Branco", "VEIC_CHASSI": null,
                   "VEIC_RENAVAM": null, "VEIC_HODOMETRO": 82000}),
            json!({"VEIC_PLACA1": "QWE-7F12", "VEIC_UF": "RS", "VEIC_CLI_ID": 2, "VEIC_MRCV_ID": 3, "VEIC_MDLV_ID": 3,
                   "VEIC_ANO_FABRICACAO": 2022, "VEIC_ANO_MODELO": 2023, "VEIC_COR": "Preto", "VEIC_CHASSI": null,
                   "VEIC_RENAVAM": null, "VEIC_HODOMETRO": 21000}),
            json!({"VEIC_PLACA1": "MNB-4C87", "VEIC_UF": "SP", "VEIC_CLI_ID": 1, "VEIC_MRCV_ID": 2, "VEIC_MDLV_ID": 2,
                   "VEIC_ANO_FABRICACAO": 2015, "VEIC_ANO_MODELO": 2016, "VEIC_COR": "Vermelho", "VEIC_CHASSI": null,
                   "VEIC_RENAVAM": null, "VEIC_HODOMETRO": 134000}),
            json!({"VEIC_PLACA1": "JKL-9A33", "VEIC_UF": "SC", "VEIC_CLI_ID": 1, "VEIC_MRCV_ID": 3, "VEIC_MDLV_ID": 3,
                   "VEIC_ANO_FABRICACAO": 2020, "VEIC_ANO_MODELO": 2020, "VEIC_COR": "Cinza", "VEIC_CHASSI": null,
                   "VEIC_RENAVAM": null, "VEIC_HODOMETRO": 56000}),
        ],
        "clientes" => vec![json!({
            "CLI_TIPO_PESSOA": "F", "CLI_DESCRICAO": "JOÃO DA SILVA", "CLI_FANTASIA": null, "CLI_CGC": null,
            "CLI_CPF": "111.444.777-35", "CLI_EMAIL": "joao.silva@exemplo.com.br", "CLI_FONE": "(54) 99876-5432",
            "CLI_CIDADE": "Caxias do Sul", "CLI_UF": "RS", "CLI_CEP": "95020-000", "CLI_ENDERECO": "Rua Sinimbu",
            "CLI_NUMERO": "1500", "CLI_BAIRRO": "Centro", "CLI_CID_IBGE": 4305108, "CLI_IND_IE": 9
        })],
        "condicaopagamento" => vec![
            json!({"CNDP_DESCRICAO": "30/60/90 DIAS", "CNDP_PARCELAS": 3, "CNDP_INTERVALO": 30, "CNDP_DIAS_PRIMEIRA": 30}),
        ],
        "formapagamento" => vec![
            json!({"FRMP_DESCRICAO": "PIX"}),
            json!({"FRMP_DESCRICAO": "CARTÃO DE CRÉDITO"}),
        ],
        // Each product in its own group and subgroup (the sample's are FERRAGENS,
        // PARAFUSOS), so the sales by group show three.
        "grupo" => vec![
            json!({"GRUP_DESCRICAO": "FILTROS", "GRUP_MARGEM": "90"}),
            json!({"GRUP_DESCRICAO": "LUBRIFICANTES", "GRUP_MARGEM": "50"}),
        ],
        "subgrupo" => vec![
            json!({"GSUB_DESCRICAO": "FILTROS DE ÓLEO", "GSUB_GRUP_ID": 2}),
            json!({"GSUB_DESCRICAO": "ÓLEOS DE MOTOR", "GSUB_GRUP_ID": 3}),
        ],
        "produtos" => vec![
            json!({"PROD_DESCRICAO": "FILTRO DE ÓLEO PSL 55", "PROD_REFERENCIA": "PSL55", "PROD_CBAR": "7896000000019",
                   "PROD_CUSTO": "18.50", "PROD_VALOR": "35.90", "PROD_MARGEM": "94", "PROD_NCM": "8421.23.00",
                   "PROD_GRUP_ID": 2, "PROD_GSUB_ID": 2, "PROD_CEST": null, "PROD_ESTOQUE_MIN": "20"}),
            json!({"PROD_DESCRICAO": "ÓLEO MOTOR 5W30 SINTÉTICO 1L", "PROD_REFERENCIA": "OL5W30", "PROD_CBAR": "7896000000026",
                   "PROD_CUSTO": "28.00", "PROD_VALOR": "42.50", "PROD_MARGEM": "52", "PROD_NCM": "2710.19.32",
                   "PROD_GRUP_ID": 3, "PROD_GSUB_ID": 3, "PROD_CEST": "06.001.00", "PROD_ESTOQUE_MIN": "60",
                   "PROD_PESO_BRUTO": "0.9000"}),
        ],
        "saldoestoque" => vec![
            json!({"SALD_PROD_ID": 2, "SALD_QTDE": "40", "SALD_CUSTO_UNIT": "18.50", "SALD_OBS": "Saldo inicial"}),
            json!({"SALD_PROD_ID": 3, "SALD_QTDE": "120", "SALD_CUSTO_UNIT": "28.00", "SALD_OBS": "Saldo inicial"}),
        ],
        "servico" => vec![
            json!({"SERV_DESCRICAO": "ALINHAMENTO E BALANCEAMENTO", "SERV_VLR_BASE": "120.00"}),
        ],
        _ => vec![],
    }
}

/// Registers seeded although they have no screen: forms pick from them.
const WITHOUT_SCREEN: [&str; 2] = ["tefadquirinte", "condicaopagamento"];

/// Seeds the demo registers; returns the registers whose rows could not be made
/// (none, unless a sample and the rules disagree).
pub async fn seed(cfg: &Config, client: i64, emp: i64) -> Result<Vec<String>> {
    let registry = erp_gateway::composition::registry()?;
    let db = Db::connect(cfg).await?;
    let caller = Caller { client_id: client, user_id: 1, emp_id: emp, privileged: false };
    let mut failed = Vec::new();
    for res in registry.all() {
        // Documents need orders' copies of customers and products, which arrive as
        // events once the services run: `seed_documents` makes them then.
        if res.schema == "orders" {
            continue;
        }
        let wanted =
            res.tenant && (res.screen.is_some() || WITHOUT_SCREEN.contains(&res.name.as_str()));
        let Some(sample) = res
            .sample
            .as_ref()
            .and_then(Value::as_object)
            .filter(|_| wanted)
        else {
            continue;
        };
        let company = res.company.as_ref().map(|_| emp);
        let mut tx = db.begin_tenant(client).await?;
        if query::count(&mut tx, res, &caller, company, &Map::new()).await? > 0 {
            continue;
        }
        let mut bodies = vec![sample.clone()];
        for extra in extras(&res.name) {
            let mut b = sample.clone();
            b.extend(extra.as_object().cloned().unwrap_or_default());
            bodies.push(b);
        }
        let mut ok = true;
        for b in &bodies {
            if let Err(e) = query::create(&mut tx, res, &caller, company, b).await {
                tracing::warn!(register = %res.name, error = %e, "demo row not created");
                ok = false;
                break;
            }
        }
        if ok {
            tx.commit().await?;
        } else {
            failed.push(res.name.clone());
        }
    }
    Ok(failed)
}

/// Demo documents, once orders knows the demo customers and products (their events
/// flow when the services run): an open quote and an open billing order with two
/// products and a service each, and an open purchase of two products. Idempotent
/// like `seed`.
pub async fn seed_documents(cfg: &Config, client: i64, emp: i64) -> Result<()> {
    let registry = erp_gateway::composition::registry()?;
    let db = Db::connect(cfg).await?;
    let caller = Caller { client_id: client, user_id: 1, emp_id: emp, privileged: false };
    let started = std::time::Instant::now();
    loop {
        let mut tx = db.begin_tenant(client).await?;
        let (customers, products, services): (i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM orders.clientes WHERE emp_id = $1),
                    (SELECT count(*) FROM orders.produtos WHERE emp_id = $1),
                    (SELECT count(*) FROM orders.servicos WHERE emp_id = $1)",
        )
        .bind(emp)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        if customers > 0 && products >= 3 && services > 0 {
            break;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            return Err(erp_platform::Error::Unavailable(
                "os cadastros de demonstração não chegaram ao serviço de pedidos".into(),
            ));
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let res = |name: &str| {
        registry
            .get(name)
            .cloned()
            .ok_or_else(|| erp_platform::Error::internal(format!("{name} not registered")))
    };
    let mut tx = db.begin_tenant(client).await?;
    if query::count(
        &mut tx,
        &*res("orcamento")?,
        &caller,
        Some(emp),
        &Map::new(),
    )
    .await?
        > 0
    {
        return Ok(());
    }
    let body = |v: Value| v.as_object().cloned().unwrap_or_default();
    let today = chrono::Local::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    let quote = query::create(
        &mut tx,
        &*res("orcamento")?,
        &caller,
        Some(emp),
        &body(json!({
            "ORCA_CLI_ID": 1, "ORCA_DTA_EMIS": today, "ORCA_OBS": "Revisão dos 30.000 km"
        })),
    )
    .await?;
    for (prod, qty) in [(2, "1"), (3, "4")] {
        query::create(
            &mut tx,
            &*res("orcamentoproduto")?,
            &caller,
            Some(emp),
            &body(json!({
                "ORCP_ORCA_ID": quote["ORCA_ID"], "ORCP_PROD_ID": prod, "ORCP_QTDE": qty
            })),
        )
        .await?;
    }
    query::create(
        &mut tx,
        &*res("orcamentoservico")?,
        &caller,
        Some(emp),
        &body(json!({
            "ORCI_ORCA_ID": quote["ORCA_ID"], "ORCI_SERV_ID": 1, "ORCI_QTDE": "1"
        })),
    )
    .await?;
    let order = query::create(
        &mut tx,
        &*res("pedido")?,
        &caller,
        Some(emp),
        &body(json!({
            "PEDF_SERIE": "1", "PEDF_CLI_ID": 2, "PEDF_DTA_EMISSAO": today
        })),
    )
    .await?;
    for (prod, qty) in [(1, "8"), (2, "2")] {
        query::create(&mut tx, &*res("pedidoproduto")?, &caller, Some(emp), &body(json!({
            "PEDI_PEDF_ID": order["PEDF_ID"], "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": prod, "PEDI_QTDE": qty
        }))).await?;
    }
    // An open purchase of two products (the XML import makes the others).
    let purchase = query::create(&mut tx, &*res("compra")?, &caller, Some(emp), &body(json!({
        "COMP_FORN_DESC": "FORNECEDOR TESTE LTDA", "COMP_MODELO": "01", "COMP_SERIE": "1", "COMP_NUMERO": 1520,
        "COMP_DTA_EMISSAO": today, "COMP_DTA_ENTRADA": today, "COMP_NATUREZA": "Compra para comercialização"
    }))).await?;
    for (prod, qty, unit) in [(2, "24", "18.50"), (3, "12", "28.00")] {
        query::create(&mut tx, &*res("compraproduto")?, &caller, Some(emp), &body(json!({
            "CMPP_COMP_ID": purchase["COMP_ID"], "CMPP_PROD_ID": prod, "CMPP_QTDE": qty, "CMPP_VLR_UNIT": unit
        }))).await?;
    }
    // A transport company's side: the CT-e and MDF-e numberings and a CT-e typed
    // and ready to be issued (São Paulo to Caxias do Sul, one NF-e carried).
    for (model, next) in [("57", 101), ("58", 11)] {
        query::create(
            &mut tx,
            &*res("numeracao")?,
            &caller,
            Some(emp),
            &body(json!({"NUM_MODELO": model, "NUM_SERIE": 1, "NUM_PROXIMO": next})),
        )
        .await?;
    }
    let cte = query::create(&mut tx, &*res("cte")?, &caller, Some(emp), &body(json!({
        "CTE_CFOP": "6.353", "CTE_NATUREZA": "PRESTAÇÃO DE SERVIÇO DE TRANSPORTE", "CTE_DTA_EMISSAO": today,
        "CTE_MUN_INI_IBGE": "3550308", "CTE_MUN_INI_NOME": "São Paulo", "CTE_MUN_INI_UF": "SP",
        "CTE_MUN_FIM_IBGE": "4305108", "CTE_MUN_FIM_NOME": "Caxias do Sul", "CTE_MUN_FIM_UF": "RS",
        "CTE_REM_CLI_ID": 1, "CTE_DEST_CLI_ID": 2, "CTE_TOMADOR": 0,
        "CTE_VLR_FRETE": "1850.00", "CTE_CST": "00", "CTE_ALIQ_ICMS": "12",
        "CTE_VLR_CARGA": "32000.00", "CTE_PRODUTO_PREDOMINANTE": "PEÇAS AUTOMOTIVAS",
        "CTE_UNIDADE": "01", "CTE_TIPO_MEDIDA": "PESO BRUTO", "CTE_QTDE": "840.5", "CTE_RNTRC": "12345678",
        "CTE_OBS": "Entrega em horário comercial."
    }))).await?;
    query::create(&mut tx, &*res("ctenotas")?, &caller, Some(emp), &body(json!({
        "CTEN_CTE_ID": cte["CTE_ID"], "CTEN_CHAVE": "35250512345678000195550010000012341000012346"
    }))).await?;
    for uf in ["PR", "SC"] {
        query::create(
            &mut tx,
            &*res("cteufpercursos")?,
            &caller,
            Some(emp),
            &body(json!({
                "CUFP_CTE_ID": cte["CTE_ID"], "CUFP_UF": uf
            })),
        )
        .await?;
    }
    seed_mdfe(&mut tx, &registry, &caller, emp, &today).await?;
    tx.commit().await?;
    Ok(())
}

/// An MDF-e typed and ready to be issued: the company's own load of auto parts
/// from São Paulo to Caxias do Sul through PR and SC, the NF-e the CT-e carries
/// unloaded there, a truck, its driver, the cargo insurance and the freight paid
/// with its component.
async fn seed_mdfe(
    tx: &mut erp_platform::db::Tx,
    registry: &erp_platform::resource::Registry,
    caller: &Caller,
    emp: i64,
    today: &str,
) -> Result<()> {
    let mut create = async |name: &str, v: Value| {
        let res = registry
            .get(name)
            .ok_or_else(|| erp_platform::Error::internal(format!("{name} not registered")))?;
        let body = v.as_object().cloned().unwrap_or_default();
        query::create(&mut *tx, res, caller, Some(emp), &body).await
    };
    let mdfe = create("mdfe", json!({
        "MDFE_TP_EMIT": 2, "MDFE_MODAL": 1, "MDFE_UF_INI": "SP", "MDFE_UF_FIM": "RS",
        "MDFE_DTA_VIAGEM": today, "MDFE_HORA_VIAGEM": "07:00", "MDFE_RNTRC": "12345678",
        "MDFE_VLR_CARGA": "32000.00", "MDFE_C_UNID": "01", "MDFE_Q_CARGA": "840.5",
        "MDFE_PROD_TP_CARGA": "05", "MDFE_PROD_DESCRICAO": "PEÇAS AUTOMOTIVAS", "MDFE_PROD_NCM": "87089990",
        "MDFE_OBS": "Carga própria: reposição do estoque da filial."
    })).await?;
    let id = &mdfe["MDFE_ID"];
    create(
        "mdfecidadeorigem",
        json!({"MCIO_MDFE_ID": id, "MCIO_CID_IBGE": "3550308", "MCIO_CIDADE": "São Paulo"}),
    )
    .await?;
    let city = create(
        "mdfecidadedestino",
        json!({
            "MCID_MDFE_ID": id, "MCID_CID_IBGE": "4305108", "MCID_CIDADE": "Caxias do Sul"
        }),
    )
    .await?;
    create(
        "mdfenotascidadedestino",
        json!({
            "MDNC_MDFE_ID": id, "MDNC_MCID_ID": city["MCID_ID"],
            "MDNC_CHAVE": "35250512345678000195550010000012341000012346"
        }),
    )
    .await?;
    for uf in ["PR", "SC"] {
        create("mdfeufpercurso", json!({"MUFP_MDFE_ID": id, "MUFP_UF": uf})).await?;
    }
    create("mdfeveiculo", json!({
        "VEIC_MDFE_ID": id, "VEIC_TIPO": "T", "VEIC_PLACA1": "IZA3B45", "VEIC_RENAVAM": "00987654321",
        "VEIC_TARA": 9500, "VEIC_CAP_KG": 14000, "VEIC_TP_ROD": "01", "VEIC_TP_CAR": "02", "VEIC_UF": "RS"
    })).await?;
    create("mdfemotorista", json!({"MDMO_MDFE_ID": id, "MDMO_NOME": "CARLOS ALBERTO SOUZA", "MDMO_CPF": "123.456.789-09"})).await?;
    create("mdfeseguro", json!({
        "MSEG_MDFE_ID": id, "MSEG_RESP": 1, "MSEG_SEGURADORA": "SEGURADORA DEMO SA",
        "MSEG_SEGURADORA_CNPJ": "11444777000161", "MSEG_APOLICE": "AP-2026-0042", "MSEG_AVERBACOES": "0001873"
    })).await?;
    let payment = create("mdfepagamentos", json!({
        "MDPG_MDFE_ID": id, "MDPG_NOME": "OFICINA DEMO LTDA", "MDPG_CPF_CNPJ": "11222333000181",
        "MDPG_VLR_CONTRATO": "1850.00", "MDPG_IND_PAG": 0, "MDPG_PIX": "financeiro@oficinademo.com.br"
    })).await?;
    create(
        "mdfecomponentes",
        json!({
            "MDPC_MDFE_ID": id, "MDPC_MDPG_ID": payment["MDPG_ID"], "MDPC_TIPO": "04",
            "MDPC_VLR_COMP": "1850.00", "MDPC_DESCRICAO": "Frete peso"
        }),
    )
    .await?;
    Ok(())
}
