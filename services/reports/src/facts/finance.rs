//! Finance's facts: `erp.finance.titulo.situacao` ([`TitleStanding`]) keeps each
//! receivable and payable as its latest fact left it (`titulos`) and each
//! settlement (`baixas`, flagged when reversed); `erp.finance.movimentobancario.registrado`
//! ([`BankMovement`]) keeps the bank movements (`movbancario`). Every fact carries
//! the whole state of what it names, keyed by finance's ids, so a redelivered
//! one writes the same rows again. `erp.finance.boleto.situacao` ([`SlipState`])
//! keeps nothing: it is counted in the business figures.

use async_trait::async_trait;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_proto::finance::v1::{BoletoSituacao, MovimentoBancario, TituloSituacao};

use super::{date, dec, decode, opt, text};

pub struct TitleStanding;

#[async_trait]
impl Effect for TitleStanding {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: TituloSituacao = decode(msg, client_id, |e: &TituloSituacao| e.client_id)?;
        let kind = match ev.kind.as_str() {
            k @ ("R" | "P") => k,
            other => {
                return Err(Error::validation(format!(
                    "Tipo de título inválido: '{other}'."
                )))
            }
        };
        if ev.emp_id <= 0 || ev.title_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou título."));
        }
        let key = (client_id, ev.emp_id, kind, ev.title_id);
        let moved = if kind == "R" {
            crate::live::RECEIVABLES
        } else {
            crate::live::PAYABLES
        };
        crate::live::figures_moved(tx, client_id, ev.emp_id, moved).await?;
        if ev.change == "excluido" {
            sqlx::query(
                "DELETE FROM reports.titulos WHERE client_id = $1 AND emp_id = $2 AND tipo = $3 AND tit_id = $4",
            )
            .bind(key.0)
            .bind(key.1)
            .bind(key.2)
            .bind(key.3)
            .execute(&mut **tx)
            .await?;
            return Ok(());
        }
        let (paid, balance) = (dec("Valor pago", &ev.paid)?, dec("Saldo", &ev.balance)?);
        if ev.issued_on.trim().is_empty() || ev.due_on.trim().is_empty() {
            // A fact of before the titles' dates travelled: the standing alone.
            sqlx::query(
                "UPDATE reports.titulos SET pago = $5, saldo = $6, situacao = $7
                 WHERE client_id = $1 AND emp_id = $2 AND tipo = $3 AND tit_id = $4",
            )
            .bind(key.0)
            .bind(key.1)
            .bind(key.2)
            .bind(key.3)
            .bind(paid)
            .bind(balance)
            .bind(&ev.status)
            .execute(&mut **tx)
            .await?;
        } else {
            // A title's first fact never overwrites what a later one left.
            let on_conflict = if ev.change == "criado" {
                "DO NOTHING"
            } else {
                "DO UPDATE SET pessoa_id = EXCLUDED.pessoa_id, pessoa_nome = EXCLUDED.pessoa_nome,
                     documento = EXCLUDED.documento, parcela = EXCLUDED.parcela, parcelas = EXCLUDED.parcelas,
                     dta_emis = EXCLUDED.dta_emis, dta_vcto = EXCLUDED.dta_vcto, valor = EXCLUDED.valor,
                     pago = EXCLUDED.pago, saldo = EXCLUDED.saldo, situacao = EXCLUDED.situacao,
                     frmp_id = EXCLUDED.frmp_id, bco_id = EXCLUDED.bco_id, hisp_id = EXCLUDED.hisp_id,
                     adiantamento = EXCLUDED.adiantamento"
            };
            sqlx::query(&format!(
                "INSERT INTO reports.titulos (client_id, emp_id, tipo, tit_id, pessoa_id, pessoa_nome, documento, origem,
                     origem_id, origem_serie, parcela, parcelas, dta_emis, dta_vcto, valor, pago, saldo, situacao,
                     frmp_id, bco_id, hisp_id, adiantamento)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                         $21, $22)
                 ON CONFLICT (client_id, emp_id, tipo, tit_id) {on_conflict}"
            ))
            .bind(key.0)
            .bind(key.1)
            .bind(key.2)
            .bind(key.3)
            .bind(ev.person_id)
            .bind(text(&ev.person_name))
            .bind(text(&ev.document))
            .bind(ev.origin.to_uppercase())
            .bind(opt(ev.origin_id))
            .bind(text(&ev.origin_serie))
            .bind(ev.instalment.max(1))
            .bind(ev.instalments.max(1))
            .bind(date("Data de emissão", &ev.issued_on)?)
            .bind(date("Data de vencimento", &ev.due_on)?)
            .bind(dec("Valor", &ev.value)?)
            .bind(paid)
            .bind(balance)
            .bind(&ev.status)
            .bind(opt(ev.method_id))
            .bind(opt(ev.bank_id))
            .bind(opt(ev.cost_centre_id))
            .bind(ev.advance)
            .execute(&mut **tx)
            .await?;
        }
        let Some(s) = ev.settlement.as_ref().filter(|_| ev.settlement_id > 0) else {
            return Ok(());
        };
        let reversed = ev.change == "estorno";
        sqlx::query(
            "INSERT INTO reports.baixas (client_id, emp_id, baix_id, tipo, tit_id, dta, valor, juros, multa, desconto,
                 total, bco_id, frmp_id, adto_id, estornada)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
             ON CONFLICT (client_id, emp_id, baix_id) DO UPDATE SET estornada = baixas.estornada OR EXCLUDED.estornada",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.settlement_id)
        .bind(kind)
        .bind(ev.title_id)
        .bind(date("Data da baixa", &s.settled_on)?)
        .bind(dec("Valor da baixa", &s.value)?)
        .bind(dec("Juros", &s.interest)?)
        .bind(dec("Multa", &s.fine)?)
        .bind(dec("Desconto", &s.discount)?)
        .bind(dec("Total da baixa", &s.total)?)
        .bind(opt(s.bank_id))
        .bind(opt(s.method_id))
        .bind(opt(s.advance_id))
        .bind(reversed)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::titles(client_id, msgs);
    }
}

pub struct BankMovement;

#[async_trait]
impl Effect for BankMovement {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: MovimentoBancario = decode(msg, client_id, |e: &MovimentoBancario| e.client_id)?;
        if ev.emp_id <= 0 || ev.movement_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou movimento."));
        }
        if ev.change == "excluido" {
            sqlx::query(
                "DELETE FROM reports.movbancario WHERE client_id = $1 AND emp_id = $2 AND mbca_id = $3",
            )
            .bind(client_id)
            .bind(ev.emp_id)
            .bind(ev.movement_id)
            .execute(&mut **tx)
            .await?;
            return Ok(());
        }
        let kind = match ev.kind.as_str() {
            k @ ("C" | "D") => k,
            other => {
                return Err(Error::validation(format!(
                    "Tipo de movimento inválido: '{other}'."
                )))
            }
        };
        sqlx::query(
            "INSERT INTO reports.movbancario (client_id, emp_id, mbca_id, bco_id, dta, tipo, valor, historico,
                 documento, hisp_id, frmp_id, origem, baix_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT (client_id, emp_id, mbca_id) DO UPDATE SET bco_id = EXCLUDED.bco_id, dta = EXCLUDED.dta,
                 tipo = EXCLUDED.tipo, valor = EXCLUDED.valor, historico = EXCLUDED.historico,
                 documento = EXCLUDED.documento, hisp_id = EXCLUDED.hisp_id, frmp_id = EXCLUDED.frmp_id,
                 origem = EXCLUDED.origem, baix_id = EXCLUDED.baix_id",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.movement_id)
        .bind(ev.bank_id)
        .bind(date("Data do movimento", &ev.moved_on)?)
        .bind(kind)
        .bind(dec("Valor", &ev.value)?)
        .bind(text(&ev.history))
        .bind(text(&ev.document))
        .bind(opt(ev.cost_centre_id))
        .bind(opt(ev.method_id))
        .bind(text(&ev.origin))
        .bind(opt(ev.settlement_id))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// A bank slip generated, paid or written off: nothing of the read model changes;
/// the business figures count it once, after its batch commits.
pub struct SlipState;

#[async_trait]
impl Effect for SlipState {
    async fn apply(&self, _tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: BoletoSituacao = decode(msg, client_id, |e: &BoletoSituacao| e.client_id)?;
        if ev.emp_id <= 0 || ev.boleto_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou boleto."));
        }
        Ok(())
    }

    fn committed(&self, client_id: i64, msgs: &[&Message]) {
        crate::business_metrics::slips(client_id, msgs);
    }
}
