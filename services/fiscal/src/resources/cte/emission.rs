//! Emitting a CT-e in steps that each commit, like the NF-e of orders
//! (`order_nfe::emission`), so that what the provider was told is never
//! forgotten:
//!
//! 1. The CT-e row is locked; one already authorised, or sent and not yet
//!    answered, is not sent again (409): two emissions of one CT-e send one
//!    request. Its rows are read and the request is built and checked before
//!    anything is written (bad data: 400, nothing changed). A CT-e without a
//!    number takes the next one of its series (model 57) from the numbering,
//!    whose row stays locked until the CT-e holding the number is committed:
//!    no number twice, none lost. A rejected CT-e goes again with its number
//!    under a new attempt (`referencia`). The row, `enviando`, is committed.
//! 2. The request goes to the provider; its id is committed (`pendente`)
//!    before anything waits. A refusal by the provider marks the row `erro`;
//!    an answer lost on the way leaves it `enviando`, and the consult finds it
//!    by its `referencia`.
//! 3. The CT-e is consulted until its status is final (or the wait runs out:
//!    it stays `pendente`), the XML and the DACTE are fetched, and the answer
//!    is committed.

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request::{self, Sources};
use super::store::{self, Doc};
use crate::nuvemfiscal::types::{Ambiente, CtePedidoEmissao, Dfe, DfeStatus};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::{provider_error, provider_message};
use crate::resources::order_nfe::emission::{now_brt, numbering_of, MAX_WAIT};
use crate::resources::order_nfe::request::Numbering;

pub const NO_NUMBERING: &str =
    "Cadastre a numeração do CT-e (modelo 57) da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "Este CT-e já foi autorizado.";
pub const IN_PROGRESS: &str = "Este CT-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o.";
const ALREADY_CANCELLED: &str = "Este CT-e foi cancelado.";

/// A reference unique across clients (the provider account is shared).
fn referencia(client: i64, emp: i64, id: i64, attempt: i32) -> String {
    format!("erp-{client}-{emp}-cte-{id}-{attempt}")
}

/// The series and number the CT-e has, or the ones it would take now.
pub async fn next_number(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<(i32, i64)> {
    let doc = store::by_id(tx, client, emp, id, false).await?;
    if let (Some(s), Some(n)) = (doc.cte_serie, doc.cte_numero) {
        return Ok((s, n));
    }
    let serie: Option<i32> = sqlx::query_scalar(
        "SELECT emps_cte_serie FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .flatten();
    let (_, s, next) = numbering_of(tx, client, emp, "57", serie, false)
        .await?
        .ok_or_else(|| Error::validation(NO_NUMBERING))?;
    Ok((s, next))
}

/// Step 1: the row to send and its request, committed.
async fn prepare(
    db: &Db,
    client: i64,
    emp: i64,
    id: i64,
    ambiente: i32,
) -> Result<(Doc, CtePedidoEmissao)> {
    let mut tx = db.begin_tenant(client).await?;
    let doc = store::by_id(&mut tx, client, emp, id, true).await?;
    match doc.cte_situacao.as_str() {
        "autorizado" | "denegado" => return Err(Error::Conflict(ALREADY_AUTHORISED.into())),
        "cancelado" => return Err(Error::Conflict(ALREADY_CANCELLED.into())),
        "enviando" | "pendente" => return Err(Error::Conflict(IN_PROGRESS.into())),
        _ => {}
    }
    sqlx::query("UPDATE fiscal.cte SET cte_ambiente = $4 WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3")
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(ambiente)
        .execute(&mut *tx)
        .await?;
    let src: Sources = request::load(&mut tx, client, emp, id).await?;
    let (serie, numero) = match (doc.cte_serie, doc.cte_numero) {
        (Some(s), Some(n)) => (s, n),
        _ => {
            let (num_id, s, next) =
                numbering_of(&mut tx, client, emp, "57", src.settings.serie, true)
                    .await?
                    .ok_or_else(|| Error::validation(NO_NUMBERING))?;
            sqlx::query(
                "UPDATE fiscal.numeracao SET num_proximo = num_proximo + 1
                 WHERE client_id = $1 AND num_emp_id = $2 AND num_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(num_id)
            .execute(&mut *tx)
            .await?;
            (s, next)
        }
    };
    let attempt = doc.cte_tentativa + 1;
    let n = Numbering {
        serie,
        numero,
        referencia: referencia(client, emp, id, attempt),
        dh_emi: now_brt(),
    };
    // Built and checked before anything is written: bad data changes nothing
    // (the transaction, with the number taken, is rolled back).
    let pedido = request::build(&src, &n)?;
    let doc: Doc = sqlx::query_as(
        "UPDATE fiscal.cte SET cte_serie = $4, cte_numero = $5, cte_tentativa = $6, cte_referencia = $7,
             cte_situacao = 'enviando', cte_id_fiscal = NULL, cte_cstat = NULL, cte_motivo = NULL,
             cte_explicacao = NULL, cte_chave = NULL, cte_protocolo = NULL, cte_dh_emissao = $8,
             cte_dta_emissao = ($8 AT TIME ZONE 'America/Sao_Paulo')::date
         WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3
         RETURNING cte_id, cte_emp_id, cte_situacao, cte_ambiente, cte_serie, cte_numero, cte_tentativa,
                   cte_referencia, cte_id_fiscal, cte_chave",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .bind(numero)
    .bind(attempt)
    .bind(&n.referencia)
    .bind(n.dh_emi)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((doc, pedido))
}

/// The request CT-e `id` would send now, unsent and unnumbered (the number
/// it has or would take).
pub async fn preview(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<CtePedidoEmissao> {
    let (serie, numero) = next_number(tx, client, emp, id).await?;
    let src = request::load(tx, client, emp, id).await?;
    let n = Numbering { serie, numero, referencia: "previa".into(), dh_emi: now_brt() };
    request::build(&src, &n)
}

/// `GET /cte/emitirnota/{id}/{emp}/{type}`: steps 1 to 3.
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    ambiente: i32,
) -> Result<Value> {
    let client = caller.client_id;
    let (doc, pedido) = prepare(db, client, emp, id, ambiente).await?;
    let dfe = match nf.emitir_cte(&pedido).await {
        Ok(dfe) => dfe,
        Err(e) if e.outcome_unknown() => {
            tracing::warn!(client, emp, id, error = %e, "CT-e emission: answer lost");
            return Err(Error::Unavailable(
                "A Nuvem Fiscal não confirmou o recebimento do CT-e: consulte-o antes de emitir de novo.".into(),
            ));
        }
        Err(e) => {
            let mut tx = db.begin_tenant(client).await?;
            store::failed(&mut tx, client, emp, id, &provider_message(&e)).await?;
            tx.commit().await?;
            return Err(provider_error(e));
        }
    };
    let mut tx = db.begin_tenant(client).await?;
    store::sent(&mut tx, client, emp, doc.cte_id, &dfe).await?;
    tx.commit().await?;
    follow(db, nf, res, caller, emp, id, &dfe.id).await
}

/// Step 3 (also the consult's): waits for a final status and writes it.
pub async fn follow(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    fiscal_id: &str,
) -> Result<Value> {
    let client = caller.client_id;
    let mut notices = Vec::new();
    match nf.aguardar_cte(fiscal_id, MAX_WAIT).await {
        Ok(dfe) => {
            let files = if dfe.status == DfeStatus::Autorizado {
                fetch_files(nf, fiscal_id, &mut notices).await
            } else {
                (None, None)
            };
            if dfe.status.is_final() {
                let mut tx = db.begin_tenant(client).await?;
                store::settle(&mut tx, client, emp, id, &dfe, files).await?;
                tx.commit().await?;
            }
        }
        Err(e) => notices.push(format!(
            "A consulta à Nuvem Fiscal falhou ({}): consulte o CT-e de novo.",
            provider_message(&e)
        )),
    }
    let mut tx = db.begin_tenant(client).await?;
    let row = store::row(&mut tx, res, caller, emp, id).await?;
    tx.commit().await?;
    Ok(store::answer(row, notices))
}

/// The XML and the DACTE of an authorised CT-e; what fails is a notice (the
/// download calls fetch it again).
pub async fn fetch_files(
    nf: &NuvemFiscal,
    fiscal_id: &str,
    notices: &mut Vec<String>,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let xml = match nf.baixar_xml_cte(fiscal_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("XML não obtido: {}.", provider_message(&e)));
            None
        }
    };
    let pdf = match nf.baixar_pdf_cte(fiscal_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("DACTE não obtido: {}.", provider_message(&e)));
            None
        }
    };
    (xml, pdf)
}

/// A CT-e whose emission answer was lost: the provider's by its
/// `referencia`, or the row marked `erro` when the provider has none.
pub async fn recover(
    db: &Db,
    nf: &NuvemFiscal,
    client: i64,
    doc: &Doc,
    cnpj: &str,
) -> Result<Option<Dfe>> {
    let ambiente = if doc.cte_ambiente == 1 {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    };
    let found = match &doc.cte_referencia {
        Some(r) => nf
            .listar_cte(cnpj, ambiente, Some(r))
            .await
            .map_err(provider_error)?
            .data
            .into_iter()
            .next(),
        None => None,
    };
    let mut tx = db.begin_tenant(client).await?;
    match &found {
        Some(dfe) => store::sent(&mut tx, client, doc.cte_emp_id, doc.cte_id, dfe).await?,
        None => {
            store::failed(
                &mut tx,
                client,
                doc.cte_emp_id,
                doc.cte_id,
                "A Nuvem Fiscal não recebeu o CT-e: emita de novo.",
            )
            .await?
        }
    }
    tx.commit().await?;
    Ok(found)
}
