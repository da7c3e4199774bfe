//! The service order's declared calls: totalization, surcharge, stock write-off,
//! odometer check, close/cancel and grouping of product lines.

use erp_platform::resource::document::arithmetic::money;

use super::*;

/// A decimal of a call's body as the legacy screens send it (number or text, comma
/// or point; null or blank is none), refused as 'Valor inválido: abc.'.
fn legacy_decimal<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Decimal>, D::Error> {
    let refused =
        |v: &dyn std::fmt::Display| Problem::Says(format!("Valor inválido: {v}.")).error();
    match Option::<Value>::deserialize(d)? {
        None => Ok(None),
        Some(Value::String(s)) => {
            let s = s.trim().replace(',', ".");
            Decimal::from_str(&s).map(Some).map_err(|_| refused(&s))
        }
        Some(v) => Decimal::from_str(&v.to_string())
            .map(Some)
            .map_err(|_| refused(&v)),
    }
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

/// The order's totals as the screen shows them (amounts as text with two places,
/// as the legacy answer wrote them).
#[derive(Serialize, JsonSchema)]
pub struct OrderTotals {
    #[serde(rename = "ORDS_ID")]
    pub id: i64,
    #[serde(rename = "ORDS_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "ORDS_SERIE")]
    pub serie: String,
    #[serde(rename = "ORDS_VLR_SERV")]
    pub services: String,
    #[serde(rename = "ORDS_VLR_PECAS")]
    pub parts: String,
    /// The order's own surcharge.
    #[serde(rename = "ORDS_ACRESCIMO")]
    pub surcharge: String,
    /// The lines' surcharges plus the order's own.
    #[serde(rename = "ORDS_VLR_ACRE")]
    pub surcharges: String,
    #[serde(rename = "ORDS_VLR_DESC")]
    pub discounts: String,
    #[serde(rename = "ORDS_VLR_TOTAL")]
    pub total: String,
    #[serde(rename = "ORDS_SITUACAO")]
    pub status: String,
}

/// The order's totals as stored.
#[derive(sqlx::FromRow)]
struct StoredTotals {
    services: Decimal,
    parts: Decimal,
    surcharge: Decimal,
    surcharges: Decimal,
    discounts: Decimal,
    total: Decimal,
    status: String,
}

/// The order's totals as the screen shows them.
pub async fn totals(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<OrderTotals> {
    let r: StoredTotals = sqlx::query_as(
        "SELECT ords_vlr_serv AS services, ords_vlr_pecas AS parts, ords_acrescimo AS surcharge,
                ords_vlr_acre AS surcharges, ords_vlr_desc AS discounts, ords_vlr_total AS total,
                ords_situacao AS status
         FROM orders.ordemservico WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))?;
    let text = |d: Decimal| money(d).to_string();
    Ok(OrderTotals {
        id,
        emp,
        serie: serie.to_string(),
        services: text(r.services),
        parts: text(r.parts),
        surcharge: text(r.surcharge),
        surcharges: text(r.surcharges),
        discounts: text(r.discounts),
        total: text(r.total),
        status: r.status,
    })
}

/// A service order's key as its calls' paths name it.
#[derive(Deserialize, JsonSchema)]
pub struct OrderKeyIn {
    #[serde(rename = "ORDS_ID")]
    pub id: i64,
    #[serde(rename = "ORDS_SERIE")]
    pub serie: String,
}

pub(super) struct Totalize;

#[async_trait]
impl Operation for Totalize {
    type In = OrderKeyIn;
    type Out = OrderTotals;
    async fn run(&self, cx: &mut Ctx<'_>, i: OrderKeyIn) -> Result<OrderTotals> {
        let emp = cx.emp()?;
        let key = [i.id.to_string(), i.serie.clone()];
        let def = def_of(cx.res)?;
        // A closed order keeps the totals it was closed with.
        if def.is_open(&lock(cx.tx, &def, cx.caller, emp, &key).await?) {
            ops::recalc(cx.tx, &def, cx.client(), Some(emp), &key).await?;
        }
        totals(cx.tx, cx.client(), emp, i.id, &i.serie).await
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

/// `POST /ordemservicoacrescimo/{NROS}/{emp}/{SERIE}`: the order and the surcharge,
/// a value or a percentage of the lines' total.
#[derive(Deserialize, JsonSchema)]
pub struct SurchargeIn {
    #[serde(rename = "NROS")]
    pub id: i64,
    #[serde(rename = "SERIE")]
    pub serie: String,
    #[serde(rename = "VALOR", default, deserialize_with = "legacy_decimal")]
    #[schemars(with = "Option<Dec>")]
    pub value: Option<Decimal>,
    #[serde(rename = "PERCENTUAL", default, deserialize_with = "legacy_decimal")]
    #[schemars(with = "Option<Dec>")]
    pub percent: Option<Decimal>,
}

pub(super) struct Surcharge;

#[async_trait]
impl Operation for Surcharge {
    type In = SurchargeIn;
    type Out = OrderTotals;
    async fn run(&self, cx: &mut Ctx<'_>, i: SurchargeIn) -> Result<OrderTotals> {
        let emp = cx.emp()?;
        let (id, serie) = (i.id, i.serie);
        let key = [id.to_string(), serie.clone()];
        let client = cx.client();
        let def = def_of(cx.res)?;
        let tx = &mut *cx.tx;
        ops::ensure_open(tx, &def, client, Some(emp), &key).await?;
        let value = match (i.value, i.percent) {
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
        totals(tx, client, emp, id, &serie).await
    }
}

/// What writing the parts off stock answers.
#[derive(Serialize, JsonSchema)]
pub struct WrittenOff {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "ORDS_ID")]
    pub id: i64,
    #[serde(rename = "ORDS_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "ORDS_SERIE")]
    pub serie: String,
    /// How many product lines left stock.
    #[serde(rename = "ITENS")]
    pub lines: usize,
}

/// A product line as the write-off sends it to stock.
#[derive(sqlx::FromRow)]
struct Part {
    product: i64,
    qty: Decimal,
    item: i64,
    location: Option<i64>,
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
) -> Result<WrittenOff> {
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
    let lines: Vec<erp_proto::orders::v1::StockLine> = sqlx::query_as::<_, Part>(
        "SELECT ordp_prod_id AS product, ordp_qtde AS qty, ordp_seq AS item, ordp_loca_id AS location
         FROM orders.ordemservicoproduto
         WHERE client_id = $1 AND ordp_ords_emp_id = $2 AND ordp_ords_id = $3 AND ordp_serie = $4 ORDER BY ordp_seq",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|p| erp_proto::orders::v1::StockLine {
        product_id: p.product,
        product_emp_id: emp,
        quantity: p.qty.normalize().to_string(),
        item: p.item,
        location_id: p.location.unwrap_or(0),
        // Service-order parts name no grid variant.
        variant_id: 0,
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
    Ok(WrittenOff {
        code: 200,
        msg: "Estoque baixado.".into(),
        id,
        emp,
        serie: serie.into(),
        lines: n,
    })
}

/// `POST /ordemservicobaixarestoque`: the order, in the body (its company is the
/// call's: `ORDS_EMP_ID`).
#[derive(Deserialize, JsonSchema)]
pub struct WriteOffIn {
    #[serde(rename = "ORDS_ID")]
    #[schemars(extend("x-missing" = "ORDS_ID não informado.", "x-invalid" = "ORDS_ID não informado."))]
    pub id: i64,
    /// `OS` when left out.
    #[serde(rename = "ORDS_SERIE", default)]
    pub serie: Option<String>,
}

pub(super) struct WriteOff;

#[async_trait]
impl Operation for WriteOff {
    type In = WriteOffIn;
    type Out = WrittenOff;
    async fn run(&self, cx: &mut Ctx<'_>, i: WriteOffIn) -> Result<WrittenOff> {
        // The gateway authorised the company of the body (ORDS_EMP_ID) as the call's.
        let emp = cx.emp()?;
        let serie = i
            .serie
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(SERIE)
            .to_string();
        write_off(cx.tx, &*def_of(cx.res)?, cx.caller, emp, i.id, &serie).await
    }
}

/// `GET /ordemservico/consultakm/{vehicle}/{emp}/{odometer}`.
#[derive(Deserialize, JsonSchema)]
pub struct OdometerIn {
    pub vehicle: i64,
    /// The informed odometer (`ODOMETER_FALLBACK` when it is not a positive number).
    pub odometer: String,
}

/// The vehicle's highest odometer against the informed one.
#[derive(Serialize, JsonSchema)]
pub struct OdometerCheck {
    #[serde(rename = "VEIC_ID")]
    pub vehicle: i64,
    #[serde(rename = "KM_ANTERIOR")]
    pub previous: i64,
    #[serde(rename = "KM_INFORMADO")]
    pub informed: i64,
    #[serde(rename = "KM_VALIDO")]
    pub valid: bool,
}

pub(super) struct Odometer;

#[async_trait]
impl Operation for Odometer {
    type In = OdometerIn;
    type Out = OdometerCheck;
    async fn run(&self, cx: &mut Ctx<'_>, i: OdometerIn) -> Result<OdometerCheck> {
        let emp = cx.emp()?;
        let informed = Decimal::from_str(&i.odometer.trim().replace(',', "."))
            .ok()
            .filter(|d| *d > Decimal::ZERO)
            .and_then(|d| d.trunc().to_i64())
            .unwrap_or(ODOMETER_FALLBACK);
        let previous: i64 = sqlx::query_scalar(
            "SELECT coalesce(max(ords_km), 0) FROM orders.ordemservico
             WHERE client_id = $1 AND ords_emp_id = $2 AND ords_veic_id = $3 AND ords_situacao <> 'C'",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(i.vehicle)
        .fetch_one(&mut **cx.tx)
        .await?;
        Ok(OdometerCheck { vehicle: i.vehicle, previous, informed, valid: informed >= previous })
    }
}

pub(super) enum Transition {
    Finish,
    Cancel,
}

#[async_trait]
impl Operation for Transition {
    type In = OrderKeyIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: OrderKeyIn) -> Result<Row> {
        let emp = cx.emp()?;
        let (id, serie) = (i.id, i.serie);
        let key = [id.to_string(), serie.clone()];
        let client = cx.client();
        let def = def_of(cx.res)?;
        let tx = &mut *cx.tx;
        match lock(tx, &def, cx.caller, emp, &key).await?.as_str() {
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
            let fact = finished(tx, client, emp, id, &serie, cx.caller.user_id).await?;
            erp_platform::bus::outbox_insert(
                tx,
                SCHEMA,
                erp_proto::subjects::OS_FINALIZADA,
                client,
                &fact.encode_to_vec(),
            )
            .await?;
        }
        Ok(Row(
            query::get(tx, cx.res, cx.caller, Some(emp), &key).await?
        ))
    }
}

/// `PUT /ordemservicoprodutoagrupar/{ORDP_ORDS_ID}/{emp}/{ORDP_SERIE}/{ORDP_PROD_ID}/{PROD_EMP_ID}`.
#[derive(Deserialize, JsonSchema)]
#[schemars(rename = "ServiceOrderGroupIn")]
pub struct GroupIn {
    #[serde(rename = "ORDP_ORDS_ID")]
    pub id: i64,
    #[serde(rename = "ORDP_SERIE")]
    pub serie: String,
    #[serde(rename = "ORDP_PROD_ID")]
    pub product: i64,
    /// The product's company (its register's owner); the order keeps the products
    /// of its own company.
    #[serde(rename = "PROD_EMP_ID")]
    pub product_emp: i64,
}

/// What merging the order's lines of a product answers.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "ServiceOrderGrouped")]
pub struct Grouped {
    pub code: u16,
    pub msg: String,
    /// How many lines the product had (now one).
    #[serde(rename = "LINHAS_AGRUPADAS")]
    pub merged: usize,
    /// The line kept.
    #[serde(rename = "ORDP_SEQ")]
    pub seq: Option<i64>,
}

/// Merges the order's lines of one product into the first one (quantities,
/// discounts and surcharges summed, the first line's price): the engine's merge,
/// refused once the parts left stock.
pub(super) struct Group;

#[async_trait]
impl Operation for Group {
    type In = GroupIn;
    type Out = Grouped;
    async fn run(&self, cx: &mut Ctx<'_>, i: GroupIn) -> Result<Grouped> {
        let emp = cx.emp()?;
        let _ = i.product_emp;
        let key = [i.id.to_string(), i.serie.clone()];
        let def = def_of(cx.res)?;
        let client = cx.client();
        ops::ensure_open(cx.tx, &def, client, Some(emp), &key).await?;
        if written_off(cx.tx, client, emp, &key[0], &i.serie).await? {
            return Err(Error::Conflict(PARTS_LOCKED.into()));
        }
        let (merged, first) = ops::merge(
            cx.tx,
            &def,
            1,
            cx.caller,
            Some(emp),
            &key,
            (i.product, "Produto não encontrado na ordem de serviço."),
        )
        .await?;
        let seq = first.last().and_then(|s| s.parse::<i64>().ok());
        Ok(Grouped { code: 200, msg: "Itens agrupados.".into(), merged, seq })
    }
}

/// A line of a finished order as its fact carries it (services, then parts).
#[derive(sqlx::FromRow)]
struct FinishedLine {
    kind: String,
    item: i64,
    item_id: i64,
    descr: String,
    qty: String,
    price: String,
    disc: String,
    acre: String,
    total: String,
    sector: i64,
    mechanic: i64,
}

/// A finished order's header as its fact carries it.
#[derive(sqlx::FromRow)]
struct FinishedHead {
    customer_id: i64,
    customer_name: String,
    vehicle_id: i64,
    odometer: i64,
    entered_on: String,
    closed_on: String,
    services_total: String,
    products_total: String,
    surcharges: String,
    discounts: String,
    total: String,
    responsible_id: i64,
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
    let h: FinishedHead = sqlx::query_as(
        "SELECT ords_cli_id AS customer_id, coalesce(ords_cli_desc, '') AS customer_name,
                coalesce(ords_veic_id, 0) AS vehicle_id, coalesce(ords_km, 0) AS odometer,
                ords_dta_entrada::text AS entered_on, coalesce(ords_dta_saida, current_date)::text AS closed_on,
                ords_vlr_serv::text AS services_total, ords_vlr_pecas::text AS products_total,
                ords_vlr_acre::text AS surcharges, ords_vlr_desc::text AS discounts, ords_vlr_total::text AS total,
                coalesce(ords_cola_id, 0) AS responsible_id
         FROM orders.ordemservico
         WHERE client_id = $1 AND ords_emp_id = $2 AND ords_id = $3 AND ords_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_one(&mut **tx)
    .await?;
    let lines: Vec<FinishedLine> = sqlx::query_as(
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
    .await?;
    let lines = lines
        .into_iter()
        .map(|r| erp_proto::orders::v1::ServiceOrderLine {
            kind: r.kind,
            item: r.item,
            item_id: r.item_id,
            description: r.descr,
            quantity: r.qty,
            unit_price: r.price,
            discount: r.disc,
            surcharge: r.acre,
            total: r.total,
            sector_id: r.sector,
            mechanic_id: r.mechanic,
        })
        .collect();
    Ok(erp_proto::orders::v1::OrdemServicoFinalizada {
        client_id: client,
        emp_id: emp,
        ordem_id: id,
        serie: serie.into(),
        customer_id: h.customer_id,
        customer_name: h.customer_name,
        vehicle_id: h.vehicle_id,
        odometer: h.odometer,
        entered_on: h.entered_on,
        closed_on: h.closed_on,
        services_total: h.services_total,
        products_total: h.products_total,
        surcharges: h.surcharges,
        discounts: h.discounts,
        total: h.total,
        user_id,
        lines,
        responsible_id: h.responsible_id,
    })
}
