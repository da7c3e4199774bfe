//! The history's purchases: finalized every Monday, their payables paid on
//! their due dates.

use super::*;

/// Where the purchases come from and what they cost to.
pub(super) struct Buying {
    pub(super) suppliers: Vec<i64>,
    centres: Vec<i64>,
}

pub(super) async fn buying(st: &AppState, caller: &Caller) -> Result<Buying> {
    let suppliers = ids(
        &list(st, caller, "catalog", "fornecedor", json!({"LIMIT": 5})).await?,
        "FORN_ID",
    );
    let group = create_in(
        st,
        caller,
        "finance",
        "grupohistoricopadrao",
        json!({"GRHP_DESCRICAO": "CUSTO DAS MERCADORIAS", "GRHP_TIPO": "D"}),
    )
    .await?;
    let mut centres = Vec::new();
    for name in ["COMPRA DE PEÇAS", "COMPRA DE LUBRIFICANTES"] {
        let row = create_in(
            st,
            caller,
            "finance",
            "historicopadrao",
            json!({"HISP_DESCRICAO": name, "HISP_TIPO": "D", "HISP_GRHP_ID": group["GRHP_ID"]}),
        )
        .await?;
        centres.extend(row["HISP_ID"].as_i64());
    }
    Ok(Buying { suppliers, centres })
}

/// One purchase of `day` (the `n`th): what was sold since the last one
/// (`needs`, per product) rounded up to boxes of six, or two or three
/// products when nothing was sold; one instalment due in 28 days, finalized at
/// once (stock entries, payables). So the demo's stock does not go below zero
/// for more than the days before the first Monday.
#[allow(clippy::too_many_arguments)]
pub(super) async fn purchase(
    st: &AppState,
    caller: &Caller,
    rng: &mut StdRng,
    day: NaiveDate,
    products: &[i64],
    needs: &std::collections::BTreeMap<i64, i64>,
    costs: &std::collections::HashMap<i64, rust_decimal::Decimal>,
    buying: &Buying,
    n: usize,
) -> Result<()> {
    let date = day.format("%Y-%m-%d").to_string();
    let mut lines: Vec<(i64, i64)> = needs
        .iter()
        .filter(|(_, q)| **q > 0)
        .map(|(p, q)| (*p, (q + 5) / 6 * 6))
        .collect();
    if lines.is_empty() {
        for _ in 0..rng.gen_range(2..=3) {
            lines.extend(pick(rng, products).map(|p| (p, rng.gen_range(6..=24))));
        }
    }
    let mut items = Vec::new();
    let mut total = rust_decimal::Decimal::ZERO;
    for (product, qty) in lines {
        let qty = rust_decimal::Decimal::from(qty);
        // The product's cost, give or take 5% (a random one without a cost).
        let unit = match costs.get(&product).filter(|c| !c.is_zero()) {
            Some(cost) => {
                (cost * rust_decimal::Decimal::new(rng.gen_range(95..=105), 2)).round_dp(2)
            }
            None => rust_decimal::Decimal::new(rng.gen_range(500..=4000), 2),
        };
        total += qty * unit;
        items.push(json!({
            "CMPP_PROD_ID": product, "CMPP_QTDE": qty.to_string(), "CMPP_VLR_UNIT": unit.to_string()
        }));
    }
    let number = 5000 + n;
    let due = (day + Days::new(28)).format("%Y-%m-%d").to_string();
    let body = json!({
        "compra": {
            "COMP_FORN_ID": pick(rng, &buying.suppliers), "COMP_MODELO": "55", "COMP_SERIE": "1",
            "COMP_NUMERO": number, "COMP_DTA_EMISSAO": date, "COMP_DTA_ENTRADA": date,
            "COMP_HISP_ID": pick(rng, &buying.centres), "COMP_OBS": NOTE
        },
        "itens": items,
        "pagamentos": [{"CMPD_NUMERO": format!("{number}/1"), "CMPD_DTA_VCTO": due,
                        "CMPD_VLR_TITULO": total.round_dp(2).to_string()}],
    });
    let made = declared(st, caller, "orders", ("compra", "completa"), &[], body).await?;
    let id = made["compra"]["COMP_ID"]
        .as_i64()
        .ok_or_else(|| Error::internal("demo history: purchase without COMP_ID"))?;
    let key = [("COMP_ID", id.to_string())];
    declared(
        st,
        caller,
        "orders",
        ("compra", "finalizar"),
        &key,
        json!({}),
    )
    .await?;
    Ok(())
}
