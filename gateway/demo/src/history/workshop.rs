//! The history's workshop: its sectors and the service orders finished.

use super::*;

/// The workshop's sectors (made here) and vehicles (the demo's) with their
/// owners and odometers (the last one each came in with).
pub(super) struct Workshop {
    sectors: Vec<i64>,
    vehicles: Vec<i64>,
    owners: std::collections::HashMap<i64, i64>,
    km: std::collections::HashMap<i64, i64>,
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
    let rows = list(st, caller, "catalog", "veiculo", json!({"LIMIT": 20})).await?;
    let vehicles = ids(&rows, "VEIC_ID");
    let mut owners = std::collections::HashMap::new();
    let mut km = std::collections::HashMap::new();
    for r in &rows {
        if let Some(v) = r["VEIC_ID"].as_i64() {
            owners.extend(r["VEIC_CLI_ID"].as_i64().map(|c| (v, c)));
            // A year ago: what it shows now less a year of driving.
            let now = r["VEIC_HODOMETRO"].as_i64().unwrap_or(30_000);
            km.insert(v, (now - 15_000).max(0));
        }
    }
    Ok(Workshop { sectors, vehicles, owners, km })
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
    workshop: &mut Workshop,
) -> Result<()> {
    let date = day.format("%Y-%m-%d").to_string();
    // Each visit a few hundred to a few thousand km after the vehicle's last.
    let vehicle = pick(rng, &workshop.vehicles);
    let km = vehicle.map(|v| {
        let km = workshop.km.get(&v).copied().unwrap_or(30_000) + rng.gen_range(100..=900);
        workshop.km.insert(v, km);
        km
    });
    // The vehicle's owner brings it in (anyone, for a vehicle without one).
    let customer = vehicle
        .and_then(|v| workshop.owners.get(&v).copied())
        .or_else(|| pick(rng, customers));
    let header = create_waiting(
        st,
        caller,
        "ordemservico",
        json!({
            "ORDS_CLI_ID": customer, "ORDS_VEIC_ID": vehicle, "ORDS_KM": km,
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
    let key = [
        ("ORDS_ID", id.to_string()),
        ("ORDS_SERIE", "OS".to_string()),
    ];
    declared(
        st,
        caller,
        "orders",
        ("ordemservico", "finalizar"),
        &key,
        json!({}),
    )
    .await?;
    Ok(())
}
