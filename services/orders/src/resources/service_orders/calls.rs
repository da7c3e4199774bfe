//! The service order's declared calls: totalization, surcharge, stock write-off,
//! odometer check, close/cancel and grouping of product lines.

use erp_platform::resource::document::arithmetic::money;

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
