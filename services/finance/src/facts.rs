//! The facts finance publishes about titles and bank movements, read back from
//! the database in the transaction of the change (so a fact always carries what
//! was committed with it) and written through finance's outbox:
//!
//! - `erp.finance.titulo.situacao` (`TituloSituacao`): the title's whole standing
//!   (person, document, dates, worth, paid, balance, status, method, account,
//!   cost centre) after it was made, changed, cancelled or removed, or after one
//!   of its settlements was written or reversed (then with the settlement).
//! - `erp.finance.movimentobancario.registrado` (`MovimentoBancario`): a movement
//!   of an account was written, changed or removed.
//!
//! - `erp.finance.boleto.situacao` (`BoletoSituacao`): a bank slip was generated,
//!   paid or written off (reports counts them).
//!
//! The first two carry whole states keyed by ids, so a consumer applying one twice
//! ends where it was.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::Result;
use erp_proto::finance::v1::{BoletoSituacao, MovimentoBancario, Settlement, TituloSituacao};
use erp_proto::subjects::{BOLETO_SITUACAO, TITULO_SITUACAO};
use prost::Message as _;
use rust_decimal::Decimal;
use sqlx::Row;

/// The subject of `MovimentoBancario`.
pub use erp_proto::subjects::MOVIMENTO_BANCARIO;

fn two(d: Decimal) -> String {
    format!("{:.2}", crate::charges::money(d))
}

fn day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// A title's table by its side code ("R" receivables, "P" payables).
fn table(kind: &str) -> &'static str {
    if kind == "R" {
        "contasreceber"
    } else {
        "contaspagar"
    }
}

type SettlementRow = (
    NaiveDate,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    i64,
    Option<i64>,
    Option<i64>,
);

/// Publishes the standing of titles `ids` of side `kind` ("R", "P") after
/// `change` ("criado", "alterado", "cancelado"; "baixa", "estorno" with the
/// settlement `settlement`).
#[allow(clippy::too_many_arguments)]
pub async fn titles(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    kind: &str,
    ids: &[i64],
    change: &str,
    settlement: i64,
    user: i64,
) -> Result<()> {
    let advance = if kind == "P" {
        "t.tit_adiantamento"
    } else {
        "false"
    };
    let sql = format!(
        "SELECT t.tit_id, t.tit_pessoa_id, t.tit_pessoa_nome, t.tit_documento, t.tit_origem, t.tit_origem_id,
                t.tit_origem_serie, t.tit_parcela, t.tit_parcelas, t.tit_dta_emis, t.tit_dta_vcto,
                t.tit_valor + t.tit_acrescimo AS worth, t.tit_pago, t.tit_saldo, t.tit_situacao, t.tit_frmp_id,
                t.tit_bco_id, t.tit_hisp_id, {advance} AS advance
         FROM finance.{} t WHERE t.client_id = $1 AND t.tit_emp_id = $2 AND t.tit_id = ANY($3) ORDER BY t.tit_id",
        table(kind)
    );
    let rows = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(ids)
        .fetch_all(&mut **tx)
        .await?;
    let done: Option<Settlement> = if settlement > 0 {
        let s: Option<SettlementRow> = sqlx::query_as(
            "SELECT baix_dta, baix_valor, baix_juros, baix_multa, baix_desconto, baix_total, baix_bco_id,
                    baix_frmp_id, baix_adto_id
             FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(settlement)
        .fetch_optional(&mut **tx)
        .await?;
        s.map(|s| Settlement {
            settled_on: day(s.0),
            value: two(s.1),
            interest: two(s.2),
            fine: two(s.3),
            discount: two(s.4),
            // An offset moved no money.
            total: two(if s.8.is_some() { Decimal::ZERO } else { s.5 }),
            bank_id: s.6,
            method_id: s.7.unwrap_or(0),
            advance_id: s.8.unwrap_or(0),
        })
    } else {
        None
    };
    for r in rows {
        let ev = TituloSituacao {
            client_id: client,
            emp_id: emp,
            kind: kind.to_string(),
            title_id: r.try_get("tit_id")?,
            origin: r.try_get::<String, _>("tit_origem")?.to_lowercase(),
            origin_emp: emp,
            origin_id: r.try_get::<Option<i64>, _>("tit_origem_id")?.unwrap_or(0),
            origin_serie: r
                .try_get::<Option<String>, _>("tit_origem_serie")?
                .unwrap_or_default(),
            instalment: r.try_get("tit_parcela")?,
            instalments: r.try_get("tit_parcelas")?,
            value: two(r.try_get("worth")?),
            paid: two(r.try_get("tit_pago")?),
            balance: two(r.try_get("tit_saldo")?),
            status: r.try_get("tit_situacao")?,
            settlement_id: settlement,
            change: change.to_string(),
            user_id: user,
            person_id: r.try_get("tit_pessoa_id")?,
            person_name: r
                .try_get::<Option<String>, _>("tit_pessoa_nome")?
                .unwrap_or_default(),
            document: r
                .try_get::<Option<String>, _>("tit_documento")?
                .unwrap_or_default(),
            issued_on: day(r.try_get("tit_dta_emis")?),
            due_on: day(r.try_get("tit_dta_vcto")?),
            method_id: r.try_get::<Option<i64>, _>("tit_frmp_id")?.unwrap_or(0),
            bank_id: r.try_get::<Option<i64>, _>("tit_bco_id")?.unwrap_or(0),
            cost_centre_id: r.try_get::<Option<i64>, _>("tit_hisp_id")?.unwrap_or(0),
            advance: r.try_get("advance")?,
            settlement: done.clone(),
        };
        erp_platform::bus::outbox_insert(
            tx,
            crate::SCHEMA,
            TITULO_SITUACAO,
            client,
            &ev.encode_to_vec(),
        )
        .await?;
    }
    Ok(())
}

/// Publishes that title `id` of side `kind` was removed.
pub async fn title_removed(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    kind: &str,
    id: i64,
    user: i64,
) -> Result<()> {
    let ev = TituloSituacao {
        client_id: client,
        emp_id: emp,
        kind: kind.to_string(),
        title_id: id,
        change: "excluido".into(),
        status: "C".into(),
        user_id: user,
        ..Default::default()
    };
    erp_platform::bus::outbox_insert(
        tx,
        crate::SCHEMA,
        TITULO_SITUACAO,
        client,
        &ev.encode_to_vec(),
    )
    .await?;
    Ok(())
}

type MovementRow = (
    i64,
    NaiveDate,
    String,
    Decimal,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<i64>,
);

/// Publishes movements `ids` of the company as they are now (`change`:
/// "criado", "alterado"), or as removed ("excluido": only the ids travel).
pub async fn movements(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    ids: &[i64],
    change: &str,
) -> Result<()> {
    let mut facts = Vec::with_capacity(ids.len());
    if change == "excluido" {
        for id in ids {
            facts.push(MovimentoBancario {
                client_id: client,
                emp_id: emp,
                movement_id: *id,
                change: change.into(),
                ..Default::default()
            });
        }
    } else {
        for id in ids {
            let r: Option<MovementRow> = sqlx::query_as(
                "SELECT mbca_bco_id, mbca_dta_mov, mbca_tipo, mbca_valor, mbca_historico, mbca_documento,
                        mbca_hisp_id, mbca_frmp_id, mbca_origem, mbca_baix_id
                 FROM finance.movimentacaobancaria WHERE client_id = $1 AND mbca_emp_id = $2 AND mbca_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
            let Some(r) = r else { continue };
            facts.push(MovimentoBancario {
                client_id: client,
                emp_id: emp,
                movement_id: *id,
                bank_id: r.0,
                moved_on: day(r.1),
                kind: r.2,
                value: two(r.3),
                history: r.4.unwrap_or_default(),
                document: r.5.unwrap_or_default(),
                cost_centre_id: r.6.unwrap_or(0),
                method_id: r.7.unwrap_or(0),
                origin: r.8.unwrap_or_default(),
                settlement_id: r.9.unwrap_or(0),
                change: change.into(),
            });
        }
    }
    let payloads: Vec<Vec<u8>> = facts.iter().map(|f| f.encode_to_vec()).collect();
    erp_platform::bus::outbox_insert_many(tx, crate::SCHEMA, MOVIMENTO_BANCARIO, client, &payloads)
        .await?;
    Ok(())
}

/// Publishes that slip `id` (of receivable `title`) was generated, paid or written
/// off (`change`: "gerado", "pago", "baixado"), worth `value`.
pub async fn slip_changed(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    title: i64,
    change: &str,
    value: Decimal,
) -> Result<()> {
    let ev = BoletoSituacao {
        client_id: client,
        emp_id: emp,
        boleto_id: id,
        title_id: title,
        change: change.into(),
        value: two(value),
    };
    erp_platform::bus::outbox_insert(
        tx,
        crate::SCHEMA,
        BOLETO_SITUACAO,
        client,
        &ev.encode_to_vec(),
    )
    .await?;
    Ok(())
}
