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
        "clientes" => vec![json!({
            "CLI_TIPO_PESSOA": "F", "CLI_DESCRICAO": "JOÃO DA SILVA", "CLI_FANTASIA": null, "CLI_CGC": null,
            "CLI_CPF": "111.444.777-35", "CLI_EMAIL": "joao.silva@exemplo.com.br", "CLI_FONE": "(54) 99876-5432",
            "CLI_CIDADE": "Caxias do Sul", "CLI_UF": "RS", "CLI_CEP": "95020-000", "CLI_ENDERECO": "Rua Sinimbu",
            "CLI_NUMERO": "1500", "CLI_BAIRRO": "Centro"
        })],
        "condicaopagamento" => vec![
            json!({"CNDP_DESCRICAO": "30/60/90 DIAS", "CNDP_PARCELAS": 3, "CNDP_INTERVALO": 30, "CNDP_DIAS_PRIMEIRA": 30}),
        ],
        "formapagamento" => vec![
            json!({"FRMP_DESCRICAO": "PIX"}),
            json!({"FRMP_DESCRICAO": "CARTÃO DE CRÉDITO"}),
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
    let registry = crate::roles::registry()?;
    let db = Db::connect(cfg).await?;
    let caller = Caller {
        client_id: client,
        user_id: 1,
        emp_id: emp,
        privileged: false,
    };
    let mut failed = Vec::new();
    for res in registry.all() {
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
