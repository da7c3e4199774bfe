//! The service order's declared calls: totalization, surcharge, stock write-off,
//! odometer check, close/cancel and grouping of product lines.

use erp_platform::resource::document::arithmetic::money;
use sqlx::Row;

use super::*;

/// A decimal of a body (number or text, comma or point); None when absent or blank.
pub(super) fn body_dec(body: &Value, k: &str) -> Result<Option<Decimal>> {
    match body.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => params::dec(&Value::String(s.trim().replace(',', "."))).map(Some),
        Some(v) => params::dec(v).map(Some),
    }
}

/// Money as the API shows it (2 places).
fn money_json(d: Decimal) -> Value {
    Value::String(money(d).to_string())
}

/// The order's situation, locked for the transaction.
async fn lock(
    tx: &mut Tx,
    def: &DocumentDef,
    caller: &Caller,
    emp: i64,
    key: &[String],
) -> Result<String> {
    ops::lock(tx, def, caller.client_id, Some(emp), key).await
}

/// The order's totals as the screen shows them.
pub async fn totals_json(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<Value> {
    type Row = (Decimal, Decimal, Decimal, Decimal, Decimal, Decimal, String);
    let r: Row = sqlx::query_as(
        "SELECT ords_vlr_serv, ords_vlr_pecas, ords_acrescimo, ords_vlr_acre, ords_vlr_desc, ords_vlr_total, ords_situacao
         FROM orders.ordemservico WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))?;
    Ok(json!({
        "ORDS_ID": id,
        "ORDS_EMP_ID": emp,
        "ORDS_SERIE": serie,
        "ORDS_VLR_SERV": money_json(r.0),
        "ORDS_VLR_PECAS": money_json(r.1),
        "ORDS_ACRESCIMO": money_json(r.2),
        "ORDS_VLR_ACRE": money_json(r.3),
        "ORDS_VLR_DESC": money_json(r.4),
        "ORDS_VLR_TOTAL": money_json(r.5),
        "ORDS_SITUACAO": r.6,
    }))
}

pub(super) struct Totalize;

#[async_trait]
impl ActionHandler for Totalize {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "ORDS_ID")?;
        let serie = params::param(p, "ORDS_SERIE")?.to_string();
        let key = [id.to_string(), serie.clone()];
        let def = def_of(res)?;
        // A closed order keeps the totals it was closed with.
        if def.is_open(&lock(tx, &def, caller, emp, &key).await?) {
            ops::recalc(tx, &def, caller.client_id, Some(emp), &key).await?;
        }
        totals_json(tx, caller.client_id, emp, id, &serie).await
    }
}

pub(super) async fn set_surcharge(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    serie: &str,
    v: Decimal,
) -> Result<()> {
    sqlx::query(
        "UPDATE orders.ordemservico SET ords_acrescimo = $5
         WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .bind(v)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub(super) struct Surcharge;

#[async_trait]
impl ActionHandler for Surcharge {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, body } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "NROS")?;
        let serie = params::param(p, "SERIE")?.to_string();
        let key = [id.to_string(), serie.clone()];
        let client = caller.client_id;
        let def = def_of(res)?;
        ops::ensure_open(tx, &def, client, Some(emp), &key).await?;
        let value = match (body_dec(&body, "VALOR")?, body_dec(&body, "PERCENTUAL")?) {
            (Some(v), _) => v,
            (None, Some(p)) => {
                if p < Decimal::ZERO {
                    return Err(Error::validation(
                        "O percentual de acréscimo não pode ser negativo.",
                    ));
                }
                set_surcharge(tx, client, emp, id, &serie, Decimal::ZERO).await?;
                let lines = ops::recalc(tx, &def, client, Some(emp), &key)
                    .await?
                    .unwrap_or_default();
                lines.total * p / Decimal::ONE_HUNDRED
            }
            (None, None) => {
                return Err(Error::validation(
                    "Informe o VALOR ou o PERCENTUAL do acréscimo.",
                ))
            }
        };
        if value < Decimal::ZERO {
            return Err(Error::validation("O acréscimo não pode ser negativo."));
        }
        set_surcharge(tx, client, emp, id, &serie, money(value)).await?;
        ops::recalc(tx, &def, client, Some(emp), &key).await?;
        totals_json(tx, client, emp, id, &serie).await
    }
}

/// Writes the order's parts off stock: once (the row is locked), not for a
/// cancelled order, and only when it has products; the event goes to the outbox in
/// the same transaction.
pub async fn write_off(
    tx: &mut Tx,
    def: &DocumentDef,
    caller: &Caller,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<Value> {
    let client = caller.client_id;
    let key = [id.to_string(), serie.to_string()];
    if lock(tx, def, caller, emp, &key).await? == "C" {
        return Err(Error::Conflict(
            "Ordem de serviço cancelada não baixa estoque.".into(),
        ));
    }
    if written_off(tx, client, emp, &key[0], serie).await? {
        return Err(Error::Conflict(ALREADY_WRITTEN_OFF.into()));
    }
    let lines: Vec<erp_proto::orders::v1::StockLine> = sqlx::query_as::<_, (i64, Decimal, i64, Option<i64>)>(
        "SELECT ordp_prod_id, ordp_qtde, ordp_seq, ordp_loca_id FROM orders.ordemservicoproduto
         WHERE client_id = $1 AND ordp_ords_emp_id = $2 AND ordp_ords_id = $3 AND ordp_serie = $4 ORDER BY ordp_seq",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|(product, qty, item, loc)| erp_proto::orders::v1::StockLine {
        product_id: product,
        product_emp_id: emp,
        quantity: qty.normalize().to_string(),
        item,
        location_id: loc.unwrap_or(0),
    })
    .collect();
    if lines.is_empty() {
        return Err(Error::validation(NO_PRODUCTS));
    }
    sqlx::query(
        "UPDATE orders.ordemservico SET ords_estoque_baixado = true, ords_dta_baixa = now()
         WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .execute(&mut **tx)
    .await?;
    let n = lines.len();
    let event = erp_proto::orders::v1::OrdemServicoBaixada {
        client_id: client,
        emp_id: emp,
        ordem_id: id,
        serie: serie.into(),
        user_id: caller.user_id,
        lines,
    };
    erp_platform::bus::outbox_insert(
        tx,
        SCHEMA,
        erp_proto::subjects::OS_ESTOQUE_BAIXADO,
        client,
        &event.encode_to_vec(),
    )
    .await?;
    Ok(json!({
        "code": 200,
        "msg": "Estoque baixado.",
        "ORDS_ID": id,
        "ORDS_EMP_ID": emp,
        "ORDS_SERIE": serie,
        "ITENS": n,
    }))
}

pub(super) struct WriteOff;

#[async_trait]
impl ActionHandler for WriteOff {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, body, .. } = call;
        let num = |k: &str| -> Option<i64> {
            match body.get(k)? {
                Value::String(s) => s.trim().parse().ok(),
                v => v.as_i64(),
            }
        };
        // The gateway authorised the company of the body (ORDS_EMP_ID) as `emp`.
        let emp = emp
            .or_else(|| num("ORDS_EMP_ID"))
            .ok_or_else(|| Error::validation("emp_id não informado."))?;
        let id = num("ORDS_ID").ok_or_else(|| Error::validation("ORDS_ID não informado."))?;
        let serie = body
            .get("ORDS_SERIE")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(SERIE)
            .to_string();
        write_off(tx, &*def_of(res)?, caller, emp, id, &serie).await
    }
}

pub(super) struct Odometer;

#[async_trait]
impl ActionHandler for Odometer {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let vehicle = params::id_param(p, "vehicle")?;
        let informed = p
            .get("odometer")
            .and_then(|s| s.trim().replace(',', ".").parse::<Decimal>().ok())
            .filter(|d| *d > Decimal::ZERO)
            .and_then(|d| d.trunc().to_i64())
            .unwrap_or(ODOMETER_FALLBACK);
        let previous: i64 = sqlx::query_scalar(
            "SELECT coalesce(max(ords_km), 0) FROM orders.ordemservico
             WHERE client_id = $1 AND ords_emp_id = $2 AND ords_veic_id = $3 AND ords_situacao <> 'C'",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(vehicle)
        .fetch_one(&mut **tx)
        .await?;
        Ok(json!({
            "VEIC_ID": vehicle,
            "KM_ANTERIOR": previous,
            "KM_INFORMADO": informed,
            "KM_VALIDO": informed >= previous,
        }))
    }
}

pub(super) enum Transition {
    Finish,
    Cancel,
}

#[async_trait]
impl ActionHandler for Transition {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "ORDS_ID")?;
        let serie = params::param(p, "ORDS_SERIE")?.to_string();
        let key = [id.to_string(), serie.clone()];
        let client = caller.client_id;
        let def = def_of(res)?;
        match lock(tx, &def, caller, emp, &key).await?.as_str() {
            "A" => {}
            "F" => return Err(Error::Conflict("Ordem de serviço já finalizada.".into())),
            _ => return Err(Error::Conflict("Ordem de serviço cancelada.".into())),
        }
        let to = match self {
            Transition::Finish => {
                ops::recalc(tx, &def, client, Some(emp), &key).await?;
                "F"
            }
            Transition::Cancel => {
                if written_off(tx, client, emp, &key[0], &serie).await? {
                    return Err(Error::Conflict(
                        "Ordem de serviço com estoque baixado não pode ser cancelada.".into(),
                    ));
                }
                "C"
            }
        };
        sqlx::query(
            "UPDATE orders.ordemservico SET ords_situacao = $5,
                ords_dta_saida = CASE WHEN $5 = 'F' THEN coalesce(ords_dta_saida, current_date) ELSE ords_dta_saida END
             WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(&serie)
        .bind(to)
        .execute(&mut **tx)
        .await?;
        if to == "F" {
            let fact = finished(tx, client, emp, id, &serie, caller.user_id).await?;
            erp_platform::bus::outbox_insert(
                tx,
                SCHEMA,
                erp_proto::subjects::OS_FINALIZADA,
                client,
                &fact.encode_to_vec(),
            )
            .await?;
        }
        query::get(tx, res, caller, Some(emp), &key).await
    }
}

/// Merges the order's lines of one product into the first one (quantities,
/// discounts and surcharges summed, the first line's price): the engine's merge,
/// refused once the parts left stock.
pub(super) struct Group;

#[async_trait]
impl ActionHandler for Group {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "ORDP_ORDS_ID")?;
        let serie = params::param(p, "ORDP_SERIE")?.to_string();
        let prod = params::id_param(p, "ORDP_PROD_ID")?;
        // The product's company (its register's owner); the order keeps the
        // products of its own company.
        params::id_param(p, "PROD_EMP_ID")?;
        let key = [id.to_string(), serie.clone()];
        let def = def_of(res)?;
        ops::ensure_open(tx, &def, caller.client_id, Some(emp), &key).await?;
        if written_off(tx, caller.client_id, emp, &key[0], &serie).await? {
            return Err(Error::Conflict(PARTS_LOCKED.into()));
        }
        let (merged, first) = ops::merge(
            tx,
            &def,
            1,
            caller,
            Some(emp),
            &key,
            (prod, "Produto não encontrado na ordem de serviço."),
        )
        .await?;
        let seq = first.last().and_then(|s| s.parse::<i64>().ok());
        Ok(
            json!({"code": 200, "msg": "Itens agrupados.", "LINHAS_AGRUPADAS": merged, "ORDP_SEQ": seq}),
        )
    }
}

/// The fact of a service order just finished: its header and its lines (services
/// with the order's first sector of the service, then parts).
async fn finished(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    serie: &str,
    user_id: i64,
) -> Result<erp_proto::orders::v1::OrdemServicoFinalizada> {
    let h = sqlx::query(
        "SELECT ords_cli_id, coalesce(ords_cli_desc, ''), coalesce(ords_veic_id, 0), coalesce(ords_km, 0),
                ords_dta_entrada::text, coalesce(ords_dta_saida, current_date)::text, ords_vlr_serv::text,
                ords_vlr_pecas::text, ords_vlr_acre::text, ords_vlr_desc::text, ords_vlr_total::text,
                coalesce(ords_cola_id, 0)
         FROM orders.ordemservico
         WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_one(&mut **tx)
    .await?;
    let lines = sqlx::query(
        "SELECT 'S' AS kind, i.ordi_id AS item, i.ordi_serv_id AS item_id, coalesce(i.ordi_descricao, '') AS descr,
                i.ordi_qtde::text AS qty, i.ordi_vlr_unit::text AS price, i.ordi_vlr_desc::text AS disc,
                i.ordi_vlr_acre::text AS acre, i.ordi_vlr_total::text AS total,
                coalesce((SELECT min(s.id_setor) FROM orders.ordemservicoservicosetor s
                          WHERE s.client_id = i.client_id AND s.emp_id = i.ordi_ords_emp_id AND s.nros = i.ordi_ords_id
                            AND s.serie = i.ordi_serie AND s.id_serv = i.ordi_serv_id), 0) AS sector,
                coalesce(i.ordi_cola_id, 0) AS mechanic
         FROM orders.ordemservicoservico i
         WHERE i.client_id = $1 AND i.ordi_ords_emp_id = $2 AND i.ordi_ords_id = $3 AND i.ordi_serie = $4
         UNION ALL
         SELECT 'P', p.ordp_seq, p.ordp_prod_id, coalesce(p.ordp_descricao, ''), p.ordp_qtde::text,
                p.ordp_vlr_unit::text, p.ordp_vlr_desc::text, p.ordp_vlr_acre::text, p.ordp_vlr_total::text, 0, 0
         FROM orders.ordemservicoproduto p
         WHERE p.client_id = $1 AND p.ordp_ords_emp_id = $2 AND p.ordp_ords_id = $3 AND p.ordp_serie = $4
         ORDER BY 1 DESC, 2",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| {
        Ok(erp_proto::orders::v1::ServiceOrderLine {
            kind: r.try_get("kind")?,
            item: r.try_get("item")?,
            item_id: r.try_get("item_id")?,
            description: r.try_get("descr")?,
            quantity: r.try_get("qty")?,
            unit_price: r.try_get("price")?,
            discount: r.try_get("disc")?,
            surcharge: r.try_get("acre")?,
            total: r.try_get("total")?,
            sector_id: r.try_get("sector")?,
            mechanic_id: r.try_get("mechanic")?,
        })
    })
    .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
    Ok(erp_proto::orders::v1::OrdemServicoFinalizada {
        client_id: client,
        emp_id: emp,
        ordem_id: id,
        serie: serie.into(),
        customer_id: h.try_get(0)?,
        customer_name: h.try_get(1)?,
        vehicle_id: h.try_get(2)?,
        odometer: h.try_get(3)?,
        entered_on: h.try_get(4)?,
        closed_on: h.try_get(5)?,
        services_total: h.try_get(6)?,
        products_total: h.try_get(7)?,
        surcharges: h.try_get(8)?,
        discounts: h.try_get(9)?,
        total: h.try_get(10)?,
        user_id,
        lines,
        responsible_id: h.try_get(11)?,
    })
}
