//! The history's sales: its own customers, an invoiced order, the receivables
//! received on their due dates.

use super::*;

/// The history's customers (companies without a credit limit, so that a year of
/// sales leaves the demo's own customers and their limits as they were), made
/// through catalog when missing: their CNPJs, names and towns.
const CUSTOMERS: [(u64, &str, &str, &str); 6] = [
    (
        876543210001,
        "TRANSPORTES SERRA GAÚCHA LTDA",
        "Caxias do Sul",
        "RS",
    ),
    (
        765432100001,
        "AUTO PEÇAS CENTRAL LTDA",
        "Bento Gonçalves",
        "RS",
    ),
    (
        654321000001,
        "DISTRIBUIDORA VALE DO TAQUARI LTDA",
        "Lajeado",
        "RS",
    ),
    (
        543210980001,
        "OFICINA MECÂNICA BOA VIAGEM LTDA",
        "Porto Alegre",
        "RS",
    ),
    (
        432109870001,
        "AGROPECUÁRIA CAMPOS DE CIMA LTDA",
        "Vacaria",
        "RS",
    ),
    (
        321098760001,
        "LOGÍSTICA LITORAL NORTE LTDA",
        "Florianópolis",
        "SC",
    ),
];

fn cnpj(base: u64) -> String {
    erp_platform::validators::Cnpj::from_base(base).to_string()
}

/// The ids of the history's customers, made when missing.
pub(super) async fn customers(st: &AppState, caller: &Caller) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    for (base, name, city, uf) in CUSTOMERS {
        let doc = cnpj(base);
        let found = list(
            st,
            caller,
            "catalog",
            "clientes",
            json!({"CLI_CGC": doc, "LIMIT": 1}),
        )
        .await?;
        if let Some(id) = found.first().and_then(|r| r["CLI_ID"].as_i64()) {
            out.push(id);
            continue;
        }
        let row = create_in(
            st,
            caller,
            "catalog",
            "clientes",
            json!({
                "CLI_TIPO_PESSOA": "J", "CLI_DESCRICAO": name, "CLI_CGC": doc, "CLI_IND_IE": 9,
                "CLI_CIDADE": city, "CLI_UF": uf, "CLI_COLA_ID": 1
            }),
        )
        .await?;
        out.extend(row["CLI_ID"].as_i64());
    }
    Ok(out)
}

/// One order of `day`: one to three products, a service one time in three,
/// invoiced at once.
#[allow(clippy::too_many_arguments)]
pub(super) async fn order(
    st: &AppState,
    caller: &Caller,
    rng: &mut StdRng,
    day: NaiveDate,
    customers: &[i64],
    products: &[i64],
    services: &[i64],
    methods: &[i64],
) -> Result<Vec<(i64, i64)>> {
    let date = day.format("%Y-%m-%d").to_string();
    let header = create_waiting(
        st,
        caller,
        "pedido",
        json!({
            "PEDF_SERIE": "1", "PEDF_CLI_ID": pick(rng, customers), "PEDF_DTA_EMISSAO": date,
            "PEDF_FRMP_ID": pick(rng, methods), "PEDF_OBS": NOTE
        }),
    )
    .await?;
    let id = header["PEDF_ID"]
        .as_i64()
        .ok_or_else(|| Error::internal("demo history: order without PEDF_ID"))?;
    let mut sold = Vec::new();
    for _ in 0..rng.gen_range(1..=3) {
        let Some(product) = pick(rng, products) else {
            continue;
        };
        let qty: i64 = rng.gen_range(1..=6);
        create(
            st,
            caller,
            "pedidoproduto",
            json!({
                "PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": product,
                "PEDI_QTDE": qty.to_string()
            }),
        )
        .await?;
        sold.push((product, qty));
    }
    if rng.gen_ratio(1, 3) {
        if let Some(service) = pick(rng, services) {
            create(
                st,
                caller,
                "pedidoservico",
                json!({"PFOS_PEDF_ID": id, "PFOS_PEDF_SERIE": "1", "PFOS_SERV_ID": service, "PFOS_QTDE": "1"}),
            )
            .await?;
        }
    }
    let key = [("PEDF_ID", id.to_string()), ("PEDF_SERIE", "1".to_string())];
    let release = json!({"LIBERAR_LIMITE": true});
    declared(st, caller, "orders", ("pedido", "faturar"), &key, release).await?;
    Ok(sold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use erp_platform::validators::Cnpj;

    #[test]
    fn the_history_customers_have_valid_cnpjs() {
        // Public vectors: the demo's customer and client CNPJs.
        assert_eq!(cnpj(114_447_770_001), "11.444.777/0001-61");
        assert_eq!(cnpj(112_223_330_001), "11.222.333/0001-81");
        for (base, ..) in CUSTOMERS {
            let doc = cnpj(base);
            assert!(Cnpj::parse(&doc).is_ok(), "{doc}");
        }
    }
}
