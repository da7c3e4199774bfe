//! The stock ledger's arithmetic and its one write path. A movement changes the
//! balance of a product in a company: an entry moves the average cost to the
//! weighted mean of what was there and what came in (what came in is quantity x
//! unit cost, or the entry's exact whole value when its document gives one: a
//! purchase item's landed total, kept on the movement for its undo and the
//! recalculation); an exit leaves at the average
//! cost and never takes more than there is, unless its document was already issued
//! elsewhere (an invoiced order is a fact: the balance may go below zero and the
//! next recalculation or count fixes it). `record_many` (and `record`, one
//! movement) locks the company balance rows of its products in key order, so
//! concurrent movements of one product apply one after the other and never
//! deadlock; in the same transaction it keeps the per-location balances
//! (`saldos_local`) and the per-variant ones (`saldos_grade`), writes one movement
//! row and one `erp.stock.movimento.registrado` outbox event per movement. A batch
//! of events (many invoices) costs a fixed number of statements, each balance row
//! locked and written once.
//!
//! Locations: a movement without a location goes to the client's default location
//! (`localestoque.loca_padrao`), or to no location row when there is none. An exit
//! that names its location must find the quantity there ('Estoque insuficiente no
//! local de estoque.'); one that falls to the default location is checked against
//! the company balance only (stock entered before locations existed has no
//! location row to take from).
//!
//! Grid variants: a movement may name a variant of its product (catalog's
//! `produtosgrade`, PRGR_ID; `Movement::variant`). The product's balance and
//! average cost move as for any movement (a variant has no cost of its own); the
//! variant's quantity moves too, in `saldos_grade` (per location, 0 for none, like
//! the movement's location), in the same statements and under the same lock: every
//! writer of a variant row holds its product's company row first, so the variant
//! rows add no lock order of their own. A manual exit of a variant must find the
//! variant's quantity ('Estoque insuficiente da variação da grade.'); issued
//! documents' exits may take it below zero, as they may the product's.

use std::collections::HashMap;

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::{Decimal, RoundingStrategy};

pub const INSUFFICIENT: &str = "Estoque insuficiente.";
pub const INSUFFICIENT_AT_LOCATION: &str = "Estoque insuficiente no local de estoque.";
pub const INSUFFICIENT_VARIANT: &str = "Estoque insuficiente da variação da grade.";
/// Subject of the event each recorded movement publishes.
pub const MOVEMENT_SUBJECT: &str = erp_proto::subjects::MOVIMENTO_REGISTRADO;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Exit,
}

impl Kind {
    pub fn code(self) -> &'static str {
        match self {
            Kind::Entry => "E",
            Kind::Exit => "S",
        }
    }
    pub fn parse(code: &str) -> Result<Kind> {
        match code.trim().to_ascii_uppercase().as_str() {
            "E" => Ok(Kind::Entry),
            "S" => Ok(Kind::Exit),
            _ => Err(Error::validation(
                "Tipo de movimento inválido (E = entrada, S = saída).",
            )),
        }
    }
    pub fn opposite(self) -> Kind {
        match self {
            Kind::Entry => Kind::Exit,
            Kind::Exit => Kind::Entry,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Balance {
    pub qty: Decimal,
    pub avg_cost: Decimal,
}

impl Balance {
    /// SALDO_FINANCEIRO: the stock's value at average cost.
    pub fn value(&self) -> Decimal {
        (self.qty * self.avg_cost).round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
    }
}

fn cost(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
}

/// The balance after a movement, and the unit cost the movement carries (an exit
/// carries the average cost).
pub fn apply(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
) -> Result<(Balance, Decimal)> {
    apply_with(b, kind, qty, unit_cost, false)
}

/// `apply`, where `allow_negative` lets an exit take the balance below zero.
pub fn apply_with(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    allow_negative: bool,
) -> Result<(Balance, Decimal)> {
    apply_valued(b, kind, qty, unit_cost, None, allow_negative)
}

/// `apply_with`, where an entry's whole `value` (when its document gives it
/// exactly: a purchase item's landed total) replaces quantity x unit cost in the
/// average: (qty before x average before + value) / (qty before + qty).
pub fn apply_valued(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    value: Option<Decimal>,
    allow_negative: bool,
) -> Result<(Balance, Decimal)> {
    if qty <= Decimal::ZERO {
        return Err(Error::validation("A quantidade deve ser maior que zero."));
    }
    match kind {
        Kind::Entry => {
            if unit_cost < Decimal::ZERO || value.is_some_and(|v| v < Decimal::ZERO) {
                return Err(Error::validation("O custo unitário não pode ser negativo."));
            }
            let new_qty = b.qty + qty;
            // Into an empty (or negative) balance the incoming cost is the average.
            let avg = match value {
                _ if b.qty <= Decimal::ZERO => cost(value.map_or(unit_cost, |v| v / qty)),
                Some(v) => cost((b.qty * b.avg_cost + v) / new_qty),
                None => cost((b.qty * b.avg_cost + qty * unit_cost) / new_qty),
            };
            Ok((Balance { qty: new_qty, avg_cost: avg }, unit_cost))
        }
        Kind::Exit => {
            if qty > b.qty && !allow_negative {
                return Err(Error::Conflict(INSUFFICIENT.into()));
            }
            Ok((
                Balance { qty: b.qty - qty, avg_cost: b.avg_cost },
                b.avg_cost,
            ))
        }
    }
}

/// Undoes an earlier movement (its document was deleted): an exit comes back at the
/// cost it left with; an entry leaves taking its own value out of the average.
pub fn reverse(b: Balance, kind: Kind, qty: Decimal, unit_cost: Decimal) -> Result<Balance> {
    reverse_with(b, kind, qty, unit_cost, false)
}

/// `reverse`, where `allow_negative` lets the undo of an entry go below zero.
pub fn reverse_with(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    allow_negative: bool,
) -> Result<Balance> {
    reverse_valued(b, kind, qty, unit_cost, None, allow_negative)
}

/// `reverse_with`, where the undone entry's whole `value` (see `apply_valued`)
/// is what leaves the average: (qty x average - value) / (qty - undone qty).
pub fn reverse_valued(
    b: Balance,
    kind: Kind,
    qty: Decimal,
    unit_cost: Decimal,
    value: Option<Decimal>,
    allow_negative: bool,
) -> Result<Balance> {
    match kind {
        Kind::Exit => apply_with(b, Kind::Entry, qty, unit_cost, allow_negative).map(|r| r.0),
        Kind::Entry => {
            if qty > b.qty && !allow_negative {
                return Err(Error::Conflict(
                    "A entrada já foi consumida por saídas; não pode ser desfeita.".into(),
                ));
            }
            let new_qty = b.qty - qty;
            let value = value.unwrap_or(qty * unit_cost);
            let avg = if new_qty <= Decimal::ZERO {
                b.avg_cost
            } else {
                cost(((b.qty * b.avg_cost - value) / new_qty).max(Decimal::ZERO))
            };
            Ok(Balance { qty: new_qty, avg_cost: avg })
        }
    }
}

pub struct Movement<'a> {
    pub emp: i64,
    pub product: i64,
    pub location: Option<i64>,
    /// The product's grid variant (catalog's PRGR_ID) the movement moves, if any.
    pub variant: Option<i64>,
    pub kind: Kind,
    pub qty: Decimal,
    pub unit_cost: Decimal,
    pub origin: &'a str,
    pub origin_id: String,
    /// An entry's (or the undo of an entry's) whole value when its document gives
    /// it exactly (a purchase item's landed total): the average cost uses it
    /// instead of quantity x unit cost. `None` for everything else.
    pub value: Option<Decimal>,
    /// An undo of an earlier movement of the same origin.
    pub reversal: bool,
    /// The document was already issued elsewhere (an invoiced order, a service
    /// order's parts): its exit is recorded even if the balance goes below zero.
    /// Manual documents leave it false and are refused with 'Estoque insuficiente.'.
    pub allow_negative: bool,
}

impl<'a> Movement<'a> {
    /// A movement with no location, at no cost, that may not go below zero.
    pub fn new(
        emp: i64,
        product: i64,
        kind: Kind,
        qty: Decimal,
        origin: &'a str,
        origin_id: String,
    ) -> Self {
        Movement {
            emp,
            product,
            location: None,
            variant: None,
            kind,
            qty,
            unit_cost: Decimal::ZERO,
            origin,
            origin_id,
            value: None,
            reversal: false,
            allow_negative: false,
        }
    }
}

/// Locks the product's company balance row (creating it at zero) for this transaction.
pub async fn lock(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Balance> {
    Ok(lock_many(tx, client, &[(emp, product)])
        .await?
        .remove(&(emp, product))
        .unwrap_or_default())
}

/// The client's default location, if one is marked.
pub async fn default_location(tx: &mut Tx, client: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT loca_id FROM stock.localestoque WHERE client_id = $1 AND loca_padrao LIMIT 1",
    )
    .bind(client)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Locks the company balance rows of `keys` ((company, product), sorted and
/// distinct), creating missing ones at zero. Rows are locked in key order, so two
/// transactions that lock several products never wait on each other in a cycle.
async fn lock_many(
    tx: &mut Tx,
    client: i64,
    keys: &[(i64, i64)],
) -> Result<HashMap<(i64, i64), Balance>> {
    let emps: Vec<i64> = keys.iter().map(|k| k.0).collect();
    let products: Vec<i64> = keys.iter().map(|k| k.1).collect();
    sqlx::query(
        "INSERT INTO stock.saldos (client_id, sald_emp_id, sald_prod_id)
         SELECT $1, e, p FROM unnest($2::bigint[], $3::bigint[]) AS k(e, p) ORDER BY e, p
         ON CONFLICT DO NOTHING",
    )
    .bind(client)
    .bind(&emps)
    .bind(&products)
    .execute(&mut **tx)
    .await?;
    let rows: Vec<(i64, i64, Decimal, Decimal)> = sqlx::query_as(
        "SELECT s.sald_emp_id, s.sald_prod_id, s.sald_qtde, s.sald_custo_medio
         FROM stock.saldos s JOIN unnest($2::bigint[], $3::bigint[]) AS k(e, p)
           ON s.sald_emp_id = k.e AND s.sald_prod_id = k.p
         WHERE s.client_id = $1
         ORDER BY s.sald_emp_id, s.sald_prod_id FOR UPDATE OF s",
    )
    .bind(client)
    .bind(&emps)
    .bind(&products)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(e, p, qty, avg_cost)| ((e, p), Balance { qty, avg_cost }))
        .collect())
}

/// Quantities per (company, product, location), read under the company rows' locks
/// (every writer of a location balance holds its product's company row first).
async fn location_balances(
    tx: &mut Tx,
    client: i64,
    keys: &[(i64, i64, i64)],
) -> Result<HashMap<(i64, i64, i64), Decimal>> {
    let rows: Vec<(i64, i64, i64, Decimal)> = sqlx::query_as(
        "SELECT l.sall_emp_id, l.sall_prod_id, l.sall_loca_id, l.sall_qtde
         FROM stock.saldos_local l JOIN unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS k(e, p, loc)
           ON l.sall_emp_id = k.e AND l.sall_prod_id = k.p AND l.sall_loca_id = k.loc
         WHERE l.client_id = $1",
    )
    .bind(client)
    .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.2).collect::<Vec<_>>())
    .fetch_all(&mut **tx)
    .await?;
    let mut out: HashMap<(i64, i64, i64), Decimal> =
        keys.iter().map(|k| (*k, Decimal::ZERO)).collect();
    for (e, p, l, q) in rows {
        out.insert((e, p, l), q);
    }
    Ok(out)
}

/// A variant's row of `saldos_grade`: company, product, variant, location (0: none).
type VariantKey = (i64, i64, i64, i64);

/// The rows of `saldos_grade` of the variants `keys` ((company, product, variant),
/// every location), read under their products' company rows' locks (every writer
/// of a variant row holds its product's company row first).
async fn variant_rows(
    tx: &mut Tx,
    client: i64,
    keys: &[(i64, i64, i64)],
) -> Result<HashMap<VariantKey, Decimal>> {
    let rows: Vec<(i64, i64, i64, i64, Decimal)> = sqlx::query_as(
        "SELECT g.salg_emp_id, g.salg_prod_id, g.salg_prgr_id, g.salg_loca_id, g.salg_qtde
         FROM stock.saldos_grade g JOIN unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS k(e, p, v)
           ON g.salg_emp_id = k.e AND g.salg_prod_id = k.p AND g.salg_prgr_id = k.v
         WHERE g.client_id = $1",
    )
    .bind(client)
    .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.2).collect::<Vec<_>>())
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(e, p, v, l, q)| ((e, p, v, l), q))
        .collect())
}

/// Writes the rows of `saldos_grade` (in key order).
async fn store_variant_rows(
    tx: &mut Tx,
    client: i64,
    rows: &[(VariantKey, Decimal)],
) -> Result<()> {
    sqlx::query(
        "INSERT INTO stock.saldos_grade AS g (client_id, salg_emp_id, salg_prod_id, salg_prgr_id, salg_loca_id, salg_qtde)
         SELECT $1, e, p, v, l, q
         FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::numeric[]) AS k(e, p, v, l, q)
         ON CONFLICT (client_id, salg_emp_id, salg_prod_id, salg_prgr_id, salg_loca_id)
         DO UPDATE SET salg_qtde = EXCLUDED.salg_qtde",
    )
    .bind(client)
    .bind(rows.iter().map(|(k, _)| k.0).collect::<Vec<_>>())
    .bind(rows.iter().map(|(k, _)| k.1).collect::<Vec<_>>())
    .bind(rows.iter().map(|(k, _)| k.2).collect::<Vec<_>>())
    .bind(rows.iter().map(|(k, _)| k.3).collect::<Vec<_>>())
    .bind(rows.iter().map(|(_, q)| *q).collect::<Vec<_>>())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the company balances to `saldos` and to the product copies (which the
/// read-only product registers list).
async fn store_balances(
    tx: &mut Tx,
    client: i64,
    balances: &[((i64, i64), Balance)],
) -> Result<()> {
    let emps: Vec<i64> = balances.iter().map(|(k, _)| k.0).collect();
    let products: Vec<i64> = balances.iter().map(|(k, _)| k.1).collect();
    let qty: Vec<Decimal> = balances.iter().map(|(_, b)| b.qty).collect();
    let avg: Vec<Decimal> = balances.iter().map(|(_, b)| b.avg_cost).collect();
    sqlx::query(
        "UPDATE stock.saldos s SET sald_qtde = v.q, sald_custo_medio = v.c, sald_atualizado = now()
         FROM unnest($2::bigint[], $3::bigint[], $4::numeric[], $5::numeric[]) AS v(e, p, q, c)
         WHERE s.client_id = $1 AND s.sald_emp_id = v.e AND s.sald_prod_id = v.p",
    )
    .bind(client)
    .bind(&emps)
    .bind(&products)
    .bind(&qty)
    .bind(&avg)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE stock.produtos p SET prod_saldo = v.q, prod_custo_medio = v.c
         FROM unnest($2::bigint[], $3::bigint[], $4::numeric[], $5::numeric[]) AS v(e, pr, q, c)
         WHERE p.client_id = $1 AND p.prod_emp_id = v.e AND p.prod_id = v.pr",
    )
    .bind(client)
    .bind(&emps)
    .bind(&products)
    .bind(&qty)
    .bind(&avg)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn store_balance(tx: &mut Tx, client: i64, emp: i64, product: i64, b: Balance) -> Result<()> {
    store_balances(tx, client, &[((emp, product), b)]).await
}

/// Writes one movement and the balance it leaves, in the caller's transaction.
/// Returns the balance and the movement's unit cost.
pub async fn record(tx: &mut Tx, client: i64, m: &Movement<'_>) -> Result<(Balance, Decimal)> {
    record_many(tx, client, std::slice::from_ref(m))
        .await?
        .pop()
        .ok_or_else(|| Error::internal("no movement recorded"))
}

/// Writes movements in order, in the caller's transaction, with a fixed number of
/// statements whatever their count: each product's company balance row is locked
/// once (in key order), every movement applies the same arithmetic as one at a time
/// (so the stock card and the average cost are what `record` one by one would give),
/// and each balance is written once. One movement row and one
/// `erp.stock.movimento.registrado` event per movement. Returns, per movement, the
/// balance after it and its unit cost.
pub async fn record_many(
    tx: &mut Tx,
    client: i64,
    moves: &[Movement<'_>],
) -> Result<Vec<(Balance, Decimal)>> {
    if moves.is_empty() {
        return Ok(Vec::new());
    }
    if moves.iter().any(|m| m.emp <= 0 || m.product <= 0) {
        // Ids are positive: a document with product 0 (or a negative one) would
        // write a movement that no card and no report could place.
        return Err(Error::validation("Produto não informado."));
    }
    if moves.iter().any(|m| m.variant.is_some_and(|v| v <= 0)) {
        return Err(Error::validation("Variação da grade inválida."));
    }
    let mut keys: Vec<(i64, i64)> = moves.iter().map(|m| (m.emp, m.product)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut balances = lock_many(tx, client, &keys).await?;
    let default = if moves.iter().any(|m| m.location.is_none()) {
        default_location(tx, client).await?
    } else {
        None
    };
    let locations: Vec<Option<i64>> = moves.iter().map(|m| m.location.or(default)).collect();
    let mut loc_keys: Vec<(i64, i64, i64)> = moves
        .iter()
        .zip(&locations)
        .filter_map(|(m, l)| l.map(|l| (m.emp, m.product, l)))
        .collect();
    loc_keys.sort_unstable();
    loc_keys.dedup();
    let mut at = if loc_keys.is_empty() {
        HashMap::new()
    } else {
        location_balances(tx, client, &loc_keys).await?
    };
    let mut variant_keys: Vec<(i64, i64, i64)> = moves
        .iter()
        .filter_map(|m| m.variant.map(|v| (m.emp, m.product, v)))
        .collect();
    variant_keys.sort_unstable();
    variant_keys.dedup();
    let mut grid = if variant_keys.is_empty() {
        HashMap::new()
    } else {
        variant_rows(tx, client, &variant_keys).await?
    };
    // Each variant's company quantity (the sum of its rows), for the exits' check.
    let mut grid_totals: HashMap<(i64, i64, i64), Decimal> = HashMap::new();
    for ((e, p, v, _), q) in &grid {
        *grid_totals.entry((*e, *p, *v)).or_default() += *q;
    }
    let mut grid_touched: Vec<VariantKey> = Vec::new();

    let mut out = Vec::with_capacity(moves.len());
    for (m, loc) in moves.iter().zip(&locations) {
        let before = balances
            .get(&(m.emp, m.product))
            .copied()
            .unwrap_or_default();
        let (after, unit_cost) = if m.reversal {
            (
                reverse_valued(
                    before,
                    m.kind.opposite(),
                    m.qty,
                    m.unit_cost,
                    m.value,
                    m.allow_negative,
                )?,
                m.unit_cost,
            )
        } else {
            apply_valued(
                before,
                m.kind,
                m.qty,
                m.unit_cost,
                m.value,
                m.allow_negative,
            )?
        };
        balances.insert((m.emp, m.product), after);
        if let Some(l) = loc {
            let q = at.entry((m.emp, m.product, *l)).or_default();
            *q += match m.kind {
                Kind::Entry => m.qty,
                Kind::Exit => -m.qty,
            };
            if *q < Decimal::ZERO
                && m.location.is_some()
                && m.kind == Kind::Exit
                && !m.allow_negative
            {
                return Err(Error::Conflict(INSUFFICIENT_AT_LOCATION.into()));
            }
        }
        if let Some(v) = m.variant {
            let delta = match m.kind {
                Kind::Entry => m.qty,
                Kind::Exit => -m.qty,
            };
            let key = (m.emp, m.product, v, loc.unwrap_or(0));
            *grid.entry(key).or_default() += delta;
            grid_touched.push(key);
            let total = grid_totals.entry((m.emp, m.product, v)).or_default();
            *total += delta;
            if *total < Decimal::ZERO && m.kind == Kind::Exit && !m.allow_negative {
                return Err(Error::Conflict(INSUFFICIENT_VARIANT.into()));
            }
        }
        out.push((after, unit_cost));
    }

    // The movement rows, stamped with the time they are written (the stock card's
    // time, and what the invoice-to-balance benchmark measures).
    let written: Vec<(i64, String)> = sqlx::query_as(
        "INSERT INTO stock.movimentos (client_id, movi_emp_id, movi_prod_id, movi_loca_id, movi_tipo, movi_qtde,
             movi_custo_unit, movi_origem, movi_origem_id, movi_saldo_apos, movi_custo_medio_apos, movi_estorno,
             movi_custo_total, movi_prgr_id, movi_data)
         SELECT $1, e, p, l, t, q, c, o, oi, sa, ca, r, v, g, clock_timestamp()
         FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::numeric[], $7::numeric[],
                     $8::text[], $9::text[], $10::numeric[], $11::numeric[], $12::bool[], $13::numeric[],
                     $14::bigint[])
              WITH ORDINALITY AS v(e, p, l, t, q, c, o, oi, sa, ca, r, v, g, n)
         ORDER BY n
         RETURNING movi_id, to_char(movi_data AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD')",
    )
    .bind(client)
    .bind(moves.iter().map(|m| m.emp).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.product).collect::<Vec<_>>())
    .bind(&locations)
    .bind(moves.iter().map(|m| m.kind.code()).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.qty).collect::<Vec<_>>())
    .bind(out.iter().map(|o| o.1).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.origin).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.origin_id.as_str()).collect::<Vec<_>>())
    .bind(out.iter().map(|o| o.0.qty).collect::<Vec<_>>())
    .bind(out.iter().map(|o| o.0.avg_cost).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.reversal).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.value).collect::<Vec<_>>())
    .bind(moves.iter().map(|m| m.variant).collect::<Vec<_>>())
    .fetch_all(&mut **tx)
    .await?;
    // The identity numbers the rows in the order they were inserted (ORDER BY n).
    let mut written = written;
    written.sort_unstable_by_key(|w| w.0);

    let changed: Vec<((i64, i64), Balance)> = keys
        .iter()
        .filter_map(|k| balances.get(k).map(|b| (*k, *b)))
        .collect();
    store_balances(tx, client, &changed).await?;
    if !at.is_empty() {
        let mut rows: Vec<((i64, i64, i64), Decimal)> = at.into_iter().collect();
        rows.sort_unstable_by_key(|(k, _)| *k);
        sqlx::query(
            "INSERT INTO stock.saldos_local AS l (client_id, sall_emp_id, sall_prod_id, sall_loca_id, sall_qtde)
             SELECT $1, e, p, loc, q FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::numeric[]) AS v(e, p, loc, q)
             ON CONFLICT (client_id, sall_emp_id, sall_prod_id, sall_loca_id)
             DO UPDATE SET sall_qtde = EXCLUDED.sall_qtde",
        )
        .bind(client)
        .bind(rows.iter().map(|(k, _)| k.0).collect::<Vec<_>>())
        .bind(rows.iter().map(|(k, _)| k.1).collect::<Vec<_>>())
        .bind(rows.iter().map(|(k, _)| k.2).collect::<Vec<_>>())
        .bind(rows.iter().map(|(_, q)| *q).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
    }
    if !grid_touched.is_empty() {
        grid_touched.sort_unstable();
        grid_touched.dedup();
        let rows: Vec<(VariantKey, Decimal)> = grid_touched
            .iter()
            .map(|k| (*k, grid.get(k).copied().unwrap_or_default()))
            .collect();
        store_variant_rows(tx, client, &rows).await?;
    }

    let events: Vec<Vec<u8>> = moves
        .iter()
        .zip(&out)
        .zip(&locations)
        .zip(&written)
        .map(
            |(((m, (after, unit_cost)), loc), (movement_id, moved_on))| {
                erp_proto::stock::v1::MovimentoRegistrado {
                    client_id: client,
                    emp_id: m.emp,
                    product_id: m.product,
                    kind: m.kind.code().into(),
                    quantity: m.qty.to_string(),
                    unit_cost: unit_cost.to_string(),
                    balance_after: after.qty.to_string(),
                    average_cost_after: after.avg_cost.to_string(),
                    origin: m.origin.into(),
                    origin_id: m.origin_id.clone(),
                    location_id: loc.unwrap_or(0),
                    movement_id: *movement_id,
                    moved_on: moved_on.clone(),
                }
                .encode_to_vec()
            },
        )
        .collect();
    erp_platform::bus::outbox_insert_many(tx, crate::SCHEMA, MOVEMENT_SUBJECT, client, &events)
        .await?;
    Ok(out)
}

pub async fn balance(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Balance> {
    let row: Option<(Decimal, Decimal)> = sqlx::query_as(
        "SELECT sald_qtde, sald_custo_medio FROM stock.saldos
         WHERE client_id = $1 AND sald_emp_id = $2 AND sald_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row
        .map(|(qty, avg_cost)| Balance { qty, avg_cost })
        .unwrap_or_default())
}

/// The product's quantity in one location.
pub async fn balance_at(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    location: i64,
) -> Result<Decimal> {
    let q: Option<Decimal> = sqlx::query_scalar(
        "SELECT sall_qtde FROM stock.saldos_local
         WHERE client_id = $1 AND sall_emp_id = $2 AND sall_prod_id = $3 AND sall_loca_id = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(location)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(q.unwrap_or_default())
}

/// The quantity of each variant of the product that has (or had) one: in
/// `location` only, or in the company (every location) when `None`. In variant
/// order.
pub async fn variant_balances(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    location: Option<i64>,
) -> Result<Vec<(i64, Decimal)>> {
    Ok(sqlx::query_as(
        "SELECT salg_prgr_id, sum(salg_qtde) FROM stock.saldos_grade
         WHERE client_id = $1 AND salg_emp_id = $2 AND salg_prod_id = $3
           AND ($4::bigint IS NULL OR salg_loca_id = $4)
         GROUP BY salg_prgr_id ORDER BY salg_prgr_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .bind(location)
    .fetch_all(&mut **tx)
    .await?)
}

/// One stored movement, as the recalculation replays it.
#[derive(Clone, Copy, Debug)]
pub struct Replayed {
    pub kind: Kind,
    pub qty: Decimal,
    pub unit_cost: Decimal,
    /// The entry's exact whole value, when it was recorded with one.
    pub value: Option<Decimal>,
    pub reversal: bool,
}

/// The balance the movements lead to, in order, with the same arithmetic as
/// `record` (exits and undos are not refused here: what was written happened).
pub fn replay(moves: &[Replayed]) -> Balance {
    moves.iter().fold(Balance::default(), |b, m| {
        let next = if m.reversal {
            reverse_valued(b, m.kind.opposite(), m.qty, m.unit_cost, m.value, true)
        } else {
            apply_valued(b, m.kind, m.qty, m.unit_cost, m.value, true).map(|r| r.0)
        };
        // A stored movement has a positive quantity and a cost >= 0 (table checks);
        // should one not, it is skipped rather than stopping the recalculation.
        next.unwrap_or(b)
    })
}

/// Recomputes a product's balance and average cost from its movement rows, and the
/// per-location and per-variant quantities from the movements' locations and
/// variants, and writes them. Returns the balance before and after.
pub async fn recalculate(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
) -> Result<(Balance, Balance)> {
    let before = lock(tx, client, emp, product).await?;
    let rows: Vec<(String, Decimal, Decimal, bool, Option<Decimal>)> = sqlx::query_as(
        "SELECT movi_tipo::text, movi_qtde, movi_custo_unit, movi_estorno, movi_custo_total FROM stock.movimentos
         WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3 ORDER BY movi_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_all(&mut **tx)
    .await?;
    let moves = rows
        .into_iter()
        .map(|(kind, qty, unit_cost, reversal, value)| {
            Ok(Replayed { kind: Kind::parse(&kind)?, qty, unit_cost, value, reversal })
        })
        .collect::<Result<Vec<_>>>()?;
    let after = replay(&moves);
    store_balance(tx, client, emp, product, after).await?;
    sqlx::query(
        "DELETE FROM stock.saldos_local WHERE client_id = $1 AND sall_emp_id = $2 AND sall_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO stock.saldos_local (client_id, sall_emp_id, sall_prod_id, sall_loca_id, sall_qtde)
         SELECT client_id, movi_emp_id, movi_prod_id, movi_loca_id,
                sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END)
         FROM stock.movimentos
         WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3 AND movi_loca_id IS NOT NULL
         GROUP BY client_id, movi_emp_id, movi_prod_id, movi_loca_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM stock.saldos_grade WHERE client_id = $1 AND salg_emp_id = $2 AND salg_prod_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO stock.saldos_grade (client_id, salg_emp_id, salg_prod_id, salg_prgr_id, salg_loca_id, salg_qtde)
         SELECT client_id, movi_emp_id, movi_prod_id, movi_prgr_id, coalesce(movi_loca_id, 0),
                sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END)
         FROM stock.movimentos
         WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3 AND movi_prgr_id IS NOT NULL
         GROUP BY client_id, movi_emp_id, movi_prod_id, movi_prgr_id, coalesce(movi_loca_id, 0)",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .execute(&mut **tx)
    .await?;
    Ok((before, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    /// Worked by hand:
    /// | movement        | qty | avg cost                       | value  |
    /// | in 10 @ 5.00    | 10  | 5.0000                         | 50.00  |
    /// | in 5 @ 8.00     | 15  | (50 + 40) / 15 = 6.0000        | 90.00  |
    /// | out 3           | 12  | 6.0000                         | 72.00  |
    /// | in 8 @ 7.25     | 20  | (72 + 58) / 20 = 6.5000        | 130.00 |
    /// | in 3 @ 1.00     | 23  | (130 + 3) / 23 = 5.7826 (5.78260869…) | 133.00 |
    /// | out 23          | 0   | 5.7826                         | 0.00   |
    #[test]
    fn average_cost_follows_the_hand_computed_table() {
        let steps = [
            (Kind::Entry, "10", "5.00", "10", "5.0000", "50.00"),
            (Kind::Entry, "5", "8.00", "15", "6.0000", "90.00"),
            (Kind::Exit, "3", "0", "12", "6.0000", "72.00"),
            (Kind::Entry, "8", "7.25", "20", "6.5000", "130.00"),
            (Kind::Entry, "3", "1.00", "23", "5.7826", "133.00"),
            (Kind::Exit, "23", "0", "0", "5.7826", "0.00"),
        ];
        let mut b = Balance::default();
        for (kind, qty, unit, want_qty, want_avg, want_value) in steps {
            b = apply(b, kind, d(qty), d(unit))
                .map(|r| r.0)
                .expect("movement");
            assert_eq!(
                (b.qty, b.avg_cost, b.value()),
                (d(want_qty), d(want_avg), d(want_value))
            );
        }
        assert_eq!(
            apply(b, Kind::Exit, d("1"), d("0"))
                .err()
                .map(|e| e.to_string()),
            Some(INSUFFICIENT.into())
        );
    }

    #[test]
    fn reversals_restore_the_balance() {
        let b = Balance { qty: d("15"), avg_cost: d("6") };
        let undone = reverse(b, Kind::Entry, d("5"), d("8")).expect("undo entry");
        assert_eq!(undone, Balance { qty: d("10"), avg_cost: d("5") });
        let back = reverse(undone, Kind::Exit, d("3"), d("5")).expect("undo exit");
        assert_eq!(back, Balance { qty: d("13"), avg_cost: d("5") });
        assert!(reverse(
            Balance { qty: d("2"), avg_cost: d("5") },
            Kind::Entry,
            d("5"),
            d("5")
        )
        .is_err());
    }

    #[test]
    fn replay_gives_the_hand_computed_balance_and_allows_invoiced_exits_below_zero() {
        let m = |kind, qty: &str, cost: &str, reversal| Replayed {
            kind,
            qty: d(qty),
            unit_cost: d(cost),
            value: None,
            reversal,
        };
        // in 10 @ 5, in 5 @ 8 (avg 6), out 3 @ 6, undo of the 5 @ 8 entry
        // (12 * 6 - 5 * 8) / 7 = 4.5714, out 9 (invoiced: -2), in 4 @ 3 (avg 3).
        let b = replay(&[
            m(Kind::Entry, "10", "5", false),
            m(Kind::Entry, "5", "8", false),
            m(Kind::Exit, "3", "6", false),
            m(Kind::Exit, "5", "8", true),
            m(Kind::Exit, "9", "4.5714", false),
            m(Kind::Entry, "4", "3", false),
        ]);
        assert_eq!(b, Balance { qty: d("2"), avg_cost: d("3") });
        assert!(apply(Balance::default(), Kind::Exit, d("1"), d("0")).is_err());
        let (neg, _) =
            apply_with(Balance::default(), Kind::Exit, d("1"), d("0"), true).expect("allowed");
        assert_eq!(neg.qty, d("-1"));
    }
}
