//! The declared calls of the title registers: settle (`baixa`, and the quick
//! settlement of payables `baixacontaspagar/rapida`), reverse (`estorno`), a
//! title's settlements, whether a title can be settled (`verifica`), the charges of
//! a settlement before it is confirmed (`calculo`), the payables to settle
//! (`baixacontaspagar/filtros`), a customer's titles, the settled receivables of a
//! period, the removal of an order's instalments, the instalments of a value by
//! a condition (`simular`), a supplier's advances and their offset against the
//! supplier's payables (`adiantamentos`, `compensar`).
//!
//! A settlement's body: `DATA` (yyyy-MM-dd, default today), `BCO_ID` (default the
//! parameters' account of the side), `FRMP_ID`, `OBS` and `TITULOS`: a list of
//! title ids or of `{ID (or CRCB_ID/CMPD_ID), VALOR, JUROS, MULTA, DESCONTO}`.
//! `VALOR` left out settles the whole balance; `JUROS` and `MULTA` left out are
//! computed from the financial parameters on `DATA` for the value settled;
//! `DESCONTO` defaults to zero. A body without `TITULOS` is one title.

use async_trait::async_trait;
use chrono::{Duration, NaiveDate};
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, id_param, param};
use erp_platform::resource::values::{parse_date, parse_decimal};
use erp_platform::resource::{query, ActionHandler, Call};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use super::title_names::names;
use crate::instalments;
use crate::titles::{self, Origin, SettleItem, Settlement, Side, Title};

fn first<'a>(body: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().filter_map(|k| body.get(*k)).find(|v| {
        !matches!(v, Value::Null) && !matches!(v, Value::String(s) if s.trim().is_empty())
    })
}

/// A money value of a body: none when absent or blank; two places, not negative.
fn money_in(v: Option<&Value>, label: &str) -> Result<Option<Decimal>> {
    let Some(v) = v else { return Ok(None) };
    let d = parse_decimal(v)
        .ok_or_else(|| Error::validation(format!("Valor inválido para {label}.")))?;
    if d < Decimal::ZERO {
        return Err(Error::validation(format!("{label} não pode ser negativo.")));
    }
    if d.normalize().scale() > 2 {
        return Err(Error::validation(format!(
            "{label} aceita no máximo 2 casas decimais."
        )));
    }
    Ok(Some(d))
}

fn int_in(v: Option<&Value>, label: &str) -> Result<Option<i64>> {
    match v {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| Error::validation(format!("{label} inválido."))),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| Error::validation(format!("{label} inválido."))),
        Some(_) => Err(Error::validation(format!("{label} inválido."))),
    }
}

fn date_in(v: Option<&Value>) -> Result<Option<NaiveDate>> {
    match v {
        None => Ok(None),
        Some(Value::String(s)) => parse_date(s).map(Some),
        Some(_) => Err(Error::validation("Data inválida")),
    }
}

fn item(side: Side, v: &Value) -> Result<SettleItem> {
    let map = match v {
        Value::Object(m) => m.clone(),
        other => {
            let mut m = Map::new();
            m.insert("ID".into(), other.clone());
            m
        }
    };
    let id = int_in(first(&map, &["ID", side.key()]), "Título")?
        .ok_or_else(|| Error::validation("Informe o título a baixar."))?;
    Ok(SettleItem {
        id,
        value: money_in(first(&map, &["VALOR", "BAIX_VALOR"]), "Valor")?,
        interest: money_in(first(&map, &["JUROS", "BAIX_JUROS"]), "Juros")?,
        fine: money_in(first(&map, &["MULTA", "BAIX_MULTA"]), "Multa")?,
        discount: money_in(first(&map, &["DESCONTO", "BAIX_DESCONTO"]), "Desconto")?
            .unwrap_or_default(),
    })
}

/// The titles of a body: `TITULOS` or the body itself as one title.
fn items(side: Side, body: &Map<String, Value>) -> Result<Vec<SettleItem>> {
    match body.get("TITULOS") {
        Some(Value::Array(list)) => list.iter().map(|v| item(side, v)).collect(),
        Some(Value::Null) | None => Ok(vec![item(side, &Value::Object(body.clone()))?]),
        Some(_) => Err(Error::validation("TITULOS deve ser uma lista.")),
    }
}

async fn settlement(
    tx: &mut Tx,
    side: Side,
    body: &Map<String, Value>,
    user: i64,
) -> Result<Settlement> {
    let date = match date_in(first(body, &["DATA", "BAIX_DTA"]))? {
        Some(d) => d,
        None => titles::today(tx).await?,
    };
    Ok(Settlement {
        date,
        bank: int_in(first(body, &["BCO_ID", "BAIX_BCO_ID"]), "Conta bancária")?,
        method: int_in(
            first(body, &["FRMP_ID", "BAIX_FRMP_ID"]),
            "Forma de pagamento",
        )?,
        remarks: first(body, &["OBS", "BAIX_OBS"])
            .and_then(Value::as_str)
            .map(|s| s.trim().to_string()),
        items: items(side, body)?,
        user,
    })
}

/// `POST /{contasreceber|contaspagar}/baixa/{emp}`, `POST /baixacontaspagar/rapida/{emp}`:
/// settles the titles of the body, all or nothing. The quick one settles each
/// title's whole balance (values in the body are not taken).
pub struct Settle {
    pub side: Side,
    pub quick: bool,
}

#[async_trait]
impl ActionHandler for Settle {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let mut s = settlement(tx, self.side, &body, call.caller.user_id).await?;
        if self.quick {
            for i in &mut s.items {
                i.value = None;
            }
        }
        let done = titles::settle(tx, call.caller.client_id, emp, self.side, &s).await?;
        let total: Decimal = done.iter().map(|d| d.total).sum();
        Ok(json!({
            "code": 200,
            "msg": if done.len() == 1 { "Baixa realizada com sucesso." } else { "Baixas realizadas com sucesso." },
            "BAIX_DTA": s.date.format("%Y-%m-%d").to_string(),
            "BAIX_TOTAL": crate::num(total),
            "baixas": done.iter().map(|d| titles::settled_json(self.side, d)).collect::<Vec<_>>(),
        }))
    }
}

/// `PUT /{register}/estorno/{id}/{emp}`: reverses settlement `id`.
pub struct Reverse(pub Side);

#[async_trait]
impl ActionHandler for Reverse {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        let r = titles::reverse(
            tx,
            call.caller.client_id,
            emp,
            self.0,
            id,
            call.caller.user_id,
        )
        .await?;
        let mut out = json!({
            "code": 200,
            "msg": "Baixa estornada com sucesso.",
            "BAIX_ID": r.settlement,
            "MBCA_ID": r.movement,
            "SALDO": crate::num(r.balance),
        });
        if let Value::Object(m) = &mut out {
            m.insert(self.0.key().into(), Value::from(r.title));
            m.insert(names(self.0).f("SITUACAO"), Value::from(r.status));
        }
        Ok(out)
    }
}

/// `POST /{register}/baixas/{id}/{emp}`: the settlements of title `id`.
pub struct Settlements(pub Side);

#[async_trait]
impl ActionHandler for Settlements {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        titles::load(tx, call.caller.client_id, emp, self.0, &[id], false).await?;
        Ok(Value::Array(
            titles::settlements_of(tx, call.caller.client_id, emp, self.0, id).await?,
        ))
    }
}

/// What settling `value` of `t` on `date` would take, as a row.
fn preview_row(
    side: Side,
    t: &Title,
    value: Option<Decimal>,
    discount: Decimal,
    date: NaiveDate,
    p: &titles::Parameters,
) -> Value {
    let refused = titles::refusal(t);
    let value = value.unwrap_or(t.balance).min(t.balance).max(Decimal::ZERO);
    let c = titles::charges_of(t, value, date, p);
    let mut row = json!({
        "SITUACAO": t.status,
        "SALDO": crate::num(t.balance),
        "VENCIMENTO": t.due.format("%Y-%m-%d").to_string(),
        "DATA": date.format("%Y-%m-%d").to_string(),
        "DIAS_ATRASO": c.days_late,
        "VALOR": crate::num(value),
        "JUROS": crate::num(c.interest),
        "MULTA": crate::num(c.fine),
        "DESCONTO": crate::num(discount),
        "TOTAL": crate::num((value + c.interest + c.fine - discount).max(Decimal::ZERO)),
        "PODE_BAIXAR": refused.is_none(),
        "msg": refused.unwrap_or_else(|| "Título pode ser baixado.".into()),
    });
    if let Value::Object(m) = &mut row {
        m.insert(side.key().into(), Value::from(t.id));
    }
    row
}

/// `GET /{register}/verifica/{id}/{emp}`: whether title `id` can be settled, with
/// its balance and today's charges.
pub struct Check(pub Side);

#[async_trait]
impl ActionHandler for Check {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        let client = call.caller.client_id;
        let found = titles::load(tx, client, emp, self.0, &[id], false).await?;
        let t = found.get(&id).ok_or_else(Error::not_found)?;
        let p = titles::parameters(tx, client, emp).await?;
        let today = titles::today(tx).await?;
        Ok(preview_row(self.0, t, None, Decimal::ZERO, today, &p))
    }
}

/// `POST /{register}/calculo/{emp}`: the charges and total of settling the body's
/// titles on `DATA`, one row per title (nothing written).
pub struct Preview(pub Side);

#[async_trait]
impl ActionHandler for Preview {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let body = body_map(call.body);
        let s = settlement(tx, self.0, &body, call.caller.user_id).await?;
        let ids: Vec<i64> = s.items.iter().map(|i| i.id).collect();
        let found = titles::load(tx, client, emp, self.0, &ids, false).await?;
        let p = titles::parameters(tx, client, emp).await?;
        let mut rows = Vec::with_capacity(s.items.len());
        for i in &s.items {
            let t = found.get(&i.id).ok_or_else(Error::not_found)?;
            rows.push(preview_row(self.0, t, i.value, i.discount, s.date, &p));
        }
        Ok(Value::Array(rows))
    }
}

/// `POST /baixacontaspagar/filtros/{emp}`: the payables to settle as `{dados,
/// count}`. The body is a list body of the register (ORDENACAO, LIMIT, PAGINATION,
/// `CMPD_COMP_FORN_ID`, `CMPD_DTA_VCTO_INI`/`_FIM`, `CMPD_SITUACAO`, `CMPD_BCO_ID`...);
/// without a status it lists the open and partly paid ones. Each row also carries
/// `DIAS_ATRASO`, `JUROS_CALC`, `MULTA_CALC` and `TOTAL_CALC` of settling its
/// balance on `DATA_BAIXA` (default today).
pub struct PayablesToSettle;

#[async_trait]
impl ActionHandler for PayablesToSettle {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, body, .. } = call;
        let emp_id = company(emp)?;
        let mut filter = body_map(body);
        let on = date_in(
            filter
                .remove("DATA_BAIXA")
                .as_ref()
                .filter(|v| !v.is_null()),
        )?;
        let on = match on {
            Some(d) => d,
            None => titles::today(tx).await?,
        };
        let status = names(Side::Payable).f("SITUACAO");
        if filter.get(&status).is_none_or(Value::is_null) {
            filter.insert(status, json!(["A", "P"]));
        }
        let mut rows = query::list(tx, res, caller, emp, &filter).await?;
        let mut count_filter = filter.clone();
        for k in ["ORDENACAO", "LIMIT", "PAGINATION", "OFFSET"] {
            count_filter.remove(k);
        }
        let count = query::count(tx, res, caller, emp, &count_filter).await?;
        let p = titles::parameters(tx, caller.client_id, emp_id).await?;
        let due_field = names(Side::Payable).f("DTA_VCTO");
        for row in &mut rows {
            let balance =
                erp_platform::resource::params::opt_dec(row, "SALDO")?.unwrap_or_default();
            let due = match row.get(&due_field).and_then(Value::as_str) {
                Some(s) => parse_date(s)?,
                None => continue,
            };
            let c = crate::charges::late_charges(balance, due, on, &p.late);
            if let Value::Object(m) = row {
                m.insert("DIAS_ATRASO".into(), Value::from(c.days_late));
                m.insert("JUROS_CALC".into(), crate::num(c.interest));
                m.insert("MULTA_CALC".into(), crate::num(c.fine));
                m.insert(
                    "TOTAL_CALC".into(),
                    crate::num(balance + c.interest + c.fine),
                );
            }
        }
        Ok(json!({"dados": rows, "count": count}))
    }
}

/// `GET /contasreceber/cliente/{emp}/{cliId}/{type}`: a customer's titles by due
/// date. `type`: `abertos` (or A, 0: open and partly paid), `pagos` (Q, 1),
/// `vencidos` (V, 3: open and due before today) or `todos` (T, 2: every status).
pub struct CustomerTitles;

#[async_trait]
impl ActionHandler for CustomerTitles {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        company(emp)?;
        let customer = id_param(params, "cliId")?;
        let kind = param(params, "type")?.to_ascii_uppercase();
        let mut filter = Map::new();
        filter.insert("CRCB_CLI_ID".into(), Value::from(customer));
        filter.insert(
            "ORDENACAO".into(),
            Value::from("CRCB_DTA_VCTO, CRCB_PARCELA"),
        );
        filter.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
        match kind.as_str() {
            "ABERTOS" | "A" | "0" => {
                filter.insert("CRCB_SITUACAO".into(), json!(["A", "P"]));
            }
            "PAGOS" | "Q" | "1" => {
                filter.insert("CRCB_SITUACAO".into(), json!(["Q"]));
            }
            "TODOS" | "T" | "2" => {}
            "VENCIDOS" | "V" | "3" => {
                let yesterday = titles::today(tx).await? - Duration::days(1);
                filter.insert("CRCB_SITUACAO".into(), json!(["A", "P"]));
                filter.insert(
                    "CRCB_DTA_VCTO_FIM".into(),
                    Value::from(yesterday.format("%Y-%m-%d").to_string()),
                );
            }
            _ => {
                return Err(Error::validation(
                    "Tipo inválido: informe abertos, pagos, vencidos ou todos.",
                ))
            }
        }
        Ok(Value::Array(
            query::list(tx, res, caller, emp, &filter).await?,
        ))
    }
}

const SETTLED_FILTERS: [&str; 10] = [
    "DATA_INI",
    "DATA_FIM",
    "CRCB_CLI_ID",
    "BCO_ID",
    "FRMP_ID",
    "ESTORNADAS",
    "LIMIT",
    "PAGINATION",
    "OFFSET",
    "ORDENACAO",
];

/// `POST /contasreceberbaixadas/{emp}`: the receivables' settlements of a period
/// (`DATA_INI`, `DATA_FIM` of the settlement), of a customer, account or payment
/// method, by settlement date; reversed ones only with `ESTORNADAS`: true.
pub struct SettledReceivables;

#[async_trait]
impl ActionHandler for SettledReceivables {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        if let Some(k) = body
            .keys()
            .find(|k| !SETTLED_FILTERS.contains(&k.as_str()) && !k.ends_with("EMP_ID"))
        {
            return Err(Error::validation(format!("Filtro inválido: '{k}'.")));
        }
        let from = date_in(first(&body, &["DATA_INI"]))?;
        let to = date_in(first(&body, &["DATA_FIM"]))?;
        let limit = int_in(first(&body, &["LIMIT"]), "LIMIT")?.unwrap_or(query::DEFAULT_LIMIT);
        if !(1..=query::MAX_LIMIT).contains(&limit) {
            return Err(Error::validation(format!(
                "LIMIT deve estar entre 1 e {}.",
                query::MAX_LIMIT
            )));
        }
        let offset = match (
            int_in(first(&body, &["OFFSET"]), "OFFSET")?,
            int_in(first(&body, &["PAGINATION"]), "PAGINATION")?,
        ) {
            (Some(o), _) => o,
            (None, Some(p)) => p.saturating_mul(limit),
            _ => 0,
        };
        if offset < 0 {
            return Err(Error::validation("Paginação inválida."));
        }
        let reversed = match first(&body, &["ESTORNADAS"]) {
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                matches!(v.as_str().map(str::trim), Some("1" | "S" | "true"))
                    || v.as_i64() == Some(1)
            }
            None => false,
        };
        let rows: Vec<Value> = sqlx::query_scalar(
            "SELECT json_build_object(
                 'BAIX_ID', x.baix_id, 'CRCB_ID', t.tit_id, 'CRCB_CLI_ID', t.tit_pessoa_id,
                 'CLI_DESCRICAO', t.tit_pessoa_nome, 'CRCB_DOCUMENTO', t.tit_documento,
                 'CRCB_PARCELA', t.tit_parcela, 'CRCB_QTD_PARCELAS', t.tit_parcelas,
                 'CRCB_DTA_EMIS', t.tit_dta_emis, 'CRCB_DTA_VCTO', t.tit_dta_vcto, 'CRCB_VLR_CTA', t.tit_valor,
                 'CRCB_DTA_PAG', x.baix_dta, 'BAIX_VALOR', x.baix_valor, 'BAIX_JUROS', x.baix_juros,
                 'BAIX_MULTA', x.baix_multa, 'BAIX_DESCONTO', x.baix_desconto, 'BAIX_TOTAL', x.baix_total,
                 'BAIX_BCO_ID', x.baix_bco_id, 'BCO_DESCRICAO', b.bco_descricao,
                 'BAIX_FRMP_ID', x.baix_frmp_id, 'FRMP_DESCRICAO', f.frmp_descricao,
                 'BAIX_ESTORNADA', x.baix_estornada, 'SALDO', t.tit_saldo, 'CRCB_SITUACAO', t.tit_situacao)
             FROM finance.baixas x
             JOIN finance.contasreceber t ON t.client_id = x.client_id AND t.tit_emp_id = x.baix_emp_id
                                         AND t.tit_id = x.baix_tit_id
             LEFT JOIN finance.banco b ON b.client_id = x.client_id AND b.bco_emp_id = x.baix_emp_id
                                      AND b.bco_id = x.baix_bco_id
             LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
             WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_tipo = 'R'
               AND ($3::date IS NULL OR x.baix_dta >= $3) AND ($4::date IS NULL OR x.baix_dta <= $4)
               AND ($5::bigint IS NULL OR t.tit_pessoa_id = $5) AND ($6::bigint IS NULL OR x.baix_bco_id = $6)
               AND ($7::bigint IS NULL OR x.baix_frmp_id = $7) AND ($8 OR NOT x.baix_estornada)
             ORDER BY x.baix_dta, x.baix_id LIMIT $9 OFFSET $10",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .bind(from)
        .bind(to)
        .bind(int_in(first(&body, &["CRCB_CLI_ID"]), "Cliente")?)
        .bind(int_in(first(&body, &["BCO_ID"]), "Conta bancária")?)
        .bind(int_in(first(&body, &["FRMP_ID"]), "Forma de pagamento")?)
        .bind(reversed)
        .bind(limit)
        .bind(offset)
        .fetch_all(&mut **tx)
        .await?;
        Ok(Value::Array(rows))
    }
}

/// `DELETE /contasreceberparcelaspedidos/{id}/{emp}/{serie}`: removes the
/// receivables of order `id`/`serie`, refused when one was ever settled; invoicing
/// the order again makes them anew.
pub struct RemoveOrderInstalments;

#[async_trait]
impl ActionHandler for RemoveOrderInstalments {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        let serie = param(call.params, "serie")?.to_string();
        let doc = Origin { emp, kind: "PEDIDO", id, serie: &serie };
        let n = titles::remove_document(tx, call.caller.client_id, Side::Receivable, &doc).await?;
        if n == 0 {
            return Err(Error::NotFound(format!(
                "Nenhuma parcela do pedido {id} série {serie} encontrada."
            )));
        }
        Ok(json!({"code": 200, "msg": "Parcelas do pedido excluídas com sucesso.", "excluidas": n}))
    }
}

/// `POST /contasreceber/simular/{emp}`: the instalments of `TOTAL` issued on `DATA`
/// (default today) by payment condition `CNDP_ID` or due-date condition `CNDV_ID`
/// (one instalment on the issue date when neither), as rows `{PARCELA,
/// VENCIMENTO, VALOR}`; nothing written.
pub struct Simulate;

#[async_trait]
impl ActionHandler for Simulate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let total = money_in(first(&body, &["TOTAL", "VALOR"]), "Total")?
            .ok_or_else(|| Error::validation("Informe o total a parcelar."))?;
        let issued = match date_in(first(&body, &["DATA"]))? {
            Some(d) => d,
            None => titles::today(tx).await?,
        };
        let (terms, _) = titles::terms(
            tx,
            call.caller.client_id,
            emp,
            int_in(first(&body, &["CNDP_ID"]), "Condição de pagamento")?,
            int_in(first(&body, &["CNDV_ID"]), "Condição de vencimento")?,
        )
        .await?;
        let parts = instalments::schedule(total, issued, &terms)?;
        Ok(Value::Array(
            parts
                .iter()
                .map(|p| {
                    json!({
                        "PARCELA": p.seq,
                        "VENCIMENTO": p.due.format("%Y-%m-%d").to_string(),
                        "VALOR": crate::num(p.amount),
                    })
                })
                .collect(),
        ))
    }
}

/// `GET /comprapagamentos/adiantamentos/{supplierId}/{bankId}`: the supplier's
/// advances with something left to offset (`SALDO` = paid − offset), paid from
/// account `bankId` (0: any), in the caller's company.
pub struct Advances;

#[async_trait]
impl ActionHandler for Advances {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let supplier = id_param(call.params, "supplierId")?;
        let bank = int_in(
            call.params
                .get("bankId")
                .map(|s| Value::from(s.as_str()))
                .as_ref(),
            "Conta bancária",
        )?
        .filter(|b| *b > 0);
        Ok(Value::Array(
            titles::advances(tx, call.caller.client_id, emp, supplier, bank).await?,
        ))
    }
}

/// `POST /contaspagar/compensar/{emp}`: settles payables of an advance's supplier
/// with what the advance paid. Body: `ADIANTAMENTO` (the advance's CMPD_ID), `DATA`
/// (default today), `OBS`, `TITULOS` (ids or `{ID, VALOR}`; `VALOR` left out takes
/// the whole balance).
pub struct OffsetAdvance;

#[async_trait]
impl ActionHandler for OffsetAdvance {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let advance = int_in(first(&body, &["ADIANTAMENTO"]), "Adiantamento")?
            .ok_or_else(|| Error::validation("Informe o adiantamento a compensar."))?;
        let date = match date_in(first(&body, &["DATA"]))? {
            Some(d) => d,
            None => titles::today(tx).await?,
        };
        let items = match body.get("TITULOS") {
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| item(Side::Payable, v).map(|i| (i.id, i.value)))
                .collect::<Result<Vec<_>>>()?,
            _ => return Err(Error::validation("Informe os títulos a compensar.")),
        };
        let o = titles::Offset {
            advance,
            date,
            remarks: first(&body, &["OBS"])
                .and_then(Value::as_str)
                .map(|s| s.trim().to_string()),
            items,
            user: call.caller.user_id,
        };
        let done = titles::offset(tx, call.caller.client_id, emp, &o).await?;
        let total: Decimal = done.iter().map(|d| d.total).sum();
        Ok(json!({
            "code": 200,
            "msg": "Compensação realizada com sucesso.",
            "BAIX_DTA": date.format("%Y-%m-%d").to_string(),
            "BAIX_TOTAL": crate::num(total),
            "baixas": done.iter().map(|d| titles::settled_json(Side::Payable, d)).collect::<Vec<_>>(),
        }))
    }
}
