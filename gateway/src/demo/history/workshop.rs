//! The history's workshop: its sectors and the service orders finished.

use super::*;

/// The workshop's sectors (made here) and vehicles (the demo's).
pub(super) struct Workshop {
    sectors: Vec<i64>,
    vehicles: Vec<i64>,
}

pub(super) async fn workshop(st: &AppState, caller: &Caller) -> Result<Workshop> {
    let mut sectors = Vec::new();
    for name in ["MECÂNICA", "ELÉTRICA", "SUSPENSÃO E FREIOS"] {
        let row = create_in(
            st,
            caller,
            "catalog",
            "setorservico",
            json!({"SETS_DESCRICAO": name}),
        )
        .await?;
        sectors.extend(row["SETS_ID"].as_i64());
    }
    let vehicles = ids(
        &list(st, caller, "catalog", "veiculo", json!({"LIMIT": 20})).await?,
        "VEIC_ID",
    );
    Ok(Workshop { sectors, vehicles })
}

/// One service order of `day`: one or two services, each in a sector, a part one
/// time in two, finished the same day.
#[allow(clippy::too_many_arguments)]
pub(super) async fn service_order(
    st: &AppState,
    caller: &Caller,
    rng: &mut StdRng,
    day: NaiveDate,
    customers: &[i64],
    products: &[i64],
    services: &[i64],
    workshop: &Workshop,
) -> Result<()> {
    let date = day.format("%Y-%m-%d").to_string();
    let header = create_waiting(
        st,
        caller,
        "ordemservico",
        json!({
            "ORDS_CLI_ID": pick(rng, customers), "ORDS_VEIC_ID": pick(rng, &workshop.vehicles),
            "ORDS_DTA_ENTRADA": date, "ORDS_DTA_SAIDA": date, "ORDS_OBS": NOTE,
            "ORDS_DEFEITO": "Revisão"
        }),
    )
    .await?;
    let id = header["ORDS_ID"]
        .as_i64()
        .ok_or_else(|| Error::internal("demo history: service order without ORDS_ID"))?;
    let mut done = Vec::new();
    for _ in 0..rng.gen_range(1..=2) {
        let Some(service) = pick(rng, services).filter(|s| !done.contains(s)) else {
            continue;
        };
        done.push(service);
        create(
            st,
            caller,
            "ordemservicoservico",
            json!({"ORDI_ORDS_ID": id, "ORDI_SERIE": "OS", "ORDI_SERV_ID": service, "ORDI_QTDE": rng.gen_range(1..=2).to_string()}),
        )
        .await?;
        if let Some(sector) = pick(rng, &workshop.sectors) {
            create(
                st,
                caller,
                "ordemservicoservicosetor",
                json!({"NROS": id, "SERIE": "OS", "ID_SERV": service, "ID_SETOR": sector}),
            )
            .await?;
        }
    }
    if rng.gen_ratio(1, 2) {
        create(
            st,
            caller,
            "ordemservicoproduto",
            json!({"ORDP_ORDS_ID": id, "ORDP_SERIE": "OS", "ORDP_PROD_ID": pick(rng, products), "ORDP_QTDE": "1"}),
        )
        .await?;
    }
    let msg = ActionRequest {
        resource: "ordemservico".into(),
        action: "finalizar".into(),
        emp: Some(caller.emp_id),
        params: [
            ("ORDS_ID".to_string(), id.to_string()),
            ("emp".to_string(), caller.emp_id.to_string()),
            ("ORDS_SERIE".to_string(), "OS".to_string()),
        ]
        .into(),
        body_json: b"{}".to_vec(),
    };
    call(st.up.resources("orders")?.action(request(caller, msg))).await?;
    Ok(())
}
