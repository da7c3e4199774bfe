//! Emitting the NF-e of an invoiced order, in steps that each commit, so that
//! what the provider was told is never forgotten:
//!
//! 1. The order is locked; an NF-e already authorised, or sent and not yet
//!    answered, is not sent again (409) — two emissions of one order send one
//!    request. A new NF-e takes the next number of its series from the
//!    numbering, whose row is locked until the NF-e row holding the number is
//!    committed: concurrent emissions get consecutive numbers, none twice,
//!    none lost. A rejected one is sent again with its own number under a new
//!    attempt (`referencia`). The request is built and the row, `enviando`, is
//!    committed.
//! 2. The request goes to the provider; its id is committed (`pendente`)
//!    before anything waits for the SEFAZ. A refusal by the provider marks the
//!    row `erro`; an answer lost on the way leaves it `enviando`, and the
//!    consult finds the document by its `referencia`.
//! 3. The document is consulted until its status is final (or the wait runs
//!    out: it stays `pendente`), the XML and DANFE are fetched, and the answer
//!    is committed with, for an authorisation, the fact for orders.
//!
//! The preview builds the same request without numbering or sending anything.

use std::time::Duration;

use chrono::{FixedOffset, Timelike, Utc};
use erp_platform::db::{Db, Tx};
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request::{self, Numbering};
use super::sources;
use super::store::{self, Doc};
use crate::nuvemfiscal::types::{Dfe, DfeStatus, NfePedidoEmissao};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::{provider_error, provider_message};

/// How long a call waits for the SEFAZ before answering `pendente` (the
/// gateway gives a call 15 s).
pub const MAX_WAIT: Duration = Duration::from_secs(10);

const NO_NUMBERING: &str =
    "Cadastre a numeração da NF-e (modelo 55) da série da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "A NF-e deste pedido já foi autorizada.";
pub const IN_PROGRESS: &str =
    "A NF-e deste pedido já foi enviada e aguarda a resposta da SEFAZ: consulte-a.";
const ALREADY_CANCELLED: &str = "A NF-e deste pedido foi cancelada.";

/// Now in Brasília time (UTC-3, no daylight saving since 2019), whole seconds.
pub fn now_brt() -> chrono::DateTime<FixedOffset> {
    let now = Utc::now().fixed_offset();
    let brt = FixedOffset::west_opt(3 * 3600).unwrap_or(*now.offset());
    let t = now.with_timezone(&brt);
    t.with_nanosecond(0).unwrap_or(t)
}

/// The numbering row of the NF-e series: the settings' series, else the
/// company's first active model-55 numbering.
async fn numbering(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    serie: Option<i32>,
    lock: bool,
) -> Result<(i64, i32, i64)> {
    numbering_of(tx, client, emp, "55", serie, lock)
        .await?
        .ok_or_else(|| Error::validation(NO_NUMBERING))
}

/// The numbering row (id, series, next number) of document model `model`:
/// series `serie`, else the company's first active one of the model; locked
/// when `lock` (until the row holding the number taken is committed).
pub(crate) async fn numbering_of(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    model: &str,
    serie: Option<i32>,
    lock: bool,
) -> Result<Option<(i64, i32, i64)>> {
    let sql = format!(
        "SELECT num_id, num_serie, num_proximo FROM fiscal.numeracao
         WHERE client_id = $1 AND num_emp_id = $2 AND num_modelo = $4 AND num_situacao = 1
           AND ($3::int IS NULL OR num_serie = $3)
         ORDER BY num_serie LIMIT 1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    Ok(sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(serie)
        .bind(model)
        .fetch_optional(&mut **tx)
        .await?)
}

/// A reference unique across clients (the provider account is shared).
fn referencia(client: i64, emp: i64, id: i64, attempt: i32) -> String {
    format!("erp-{client}-{emp}-pedidofatxml-{id}-{attempt}")
}

/// `GET /pedidofatxml/previa/{id}/{emp}/{serie}`: the request as it would go.
pub async fn preview(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
    nature: Option<i64>,
) -> Result<NfePedidoEmissao> {
    let order = sources::order(tx, client, emp, pedf_id, serie, false).await?;
    let src = sources::load(tx, client, emp, order, nature).await?;
    let n = match store::by_order(tx, client, emp, pedf_id, serie).await? {
        Some(d) => Numbering {
            serie: d.pexm_nfe_serie,
            numero: d.pexm_numero,
            referencia: d.pexm_referencia,
            dh_emi: now_brt(),
        },
        None => {
            let (_, s, next) = numbering(tx, client, emp, src.settings.serie, false).await?;
            Numbering { serie: s, numero: next, referencia: "previa".into(), dh_emi: now_brt() }
        }
    };
    request::build(&src, &n)
}

/// Step 1: the row to send and its request, committed.
async fn prepare(
    db: &Db,
    client: i64,
    user: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
    nature: Option<i64>,
) -> Result<(Doc, NfePedidoEmissao)> {
    let mut tx = db.begin_tenant(client).await?;
    let order = sources::order(&mut tx, client, emp, pedf_id, serie, true).await?;
    let existing = store::by_order(&mut tx, client, emp, pedf_id, serie).await?;
    if let Some(d) = &existing {
        match d.pexm_situacao.as_str() {
            "autorizado" | "denegado" => return Err(Error::Conflict(ALREADY_AUTHORISED.into())),
            "cancelado" => return Err(Error::Conflict(ALREADY_CANCELLED.into())),
            "enviando" | "pendente" => return Err(Error::Conflict(IN_PROGRESS.into())),
            _ => {}
        }
    }
    let src = sources::load(&mut tx, client, emp, order, nature).await?;
    let ambiente = if src.settings.ambiente == 1 { 1 } else { 2 };
    let (id, nfe_serie, numero, attempt) = match existing {
        Some(d) => (
            d.pexm_id,
            d.pexm_nfe_serie,
            d.pexm_numero,
            d.pexm_tentativa + 1,
        ),
        None => {
            let (num_id, s, next) =
                numbering(&mut tx, client, emp, src.settings.serie, true).await?;
            sqlx::query(
                "UPDATE fiscal.numeracao SET num_proximo = num_proximo + 1
                 WHERE client_id = $1 AND num_emp_id = $2 AND num_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(num_id)
            .execute(&mut *tx)
            .await?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO fiscal.id_counters (client_id, emp_id, resource, last_id)
                 VALUES ($1, $2, 'pedidofatxml',
                         (SELECT coalesce(max(pexm_id), 0) + 1 FROM fiscal.pedidofatxml
                          WHERE client_id = $1 AND pexm_emp_id = $2))
                 ON CONFLICT (client_id, emp_id, resource) DO UPDATE
                 SET last_id = greatest(fiscal.id_counters.last_id + 1, EXCLUDED.last_id) RETURNING last_id",
            )
            .bind(client)
            .bind(emp)
            .fetch_one(&mut *tx)
            .await?;
            (id, s, next, 1)
        }
    };
    let n = Numbering {
        serie: nfe_serie,
        numero,
        referencia: referencia(client, emp, id, attempt),
        dh_emi: now_brt(),
    };
    let pedido = request::build(&src, &n)?;
    let valor = pedido.infNFe.total.ICMSTot.vNF;
    let doc: Doc = sqlx::query_as(
        "INSERT INTO fiscal.pedidofatxml (client_id, pexm_id, pexm_emp_id, pexm_pedf_id, pexm_serie, pexm_usr_id,
             pexm_nfe_serie, pexm_numero, pexm_ambiente, pexm_tentativa, pexm_referencia, pexm_situacao, pexm_valor,
             pexm_dta_emissao)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'enviando', $12, $13)
         ON CONFLICT (client_id, pexm_emp_id, pexm_id) DO UPDATE
         SET pexm_tentativa = EXCLUDED.pexm_tentativa, pexm_referencia = EXCLUDED.pexm_referencia,
             pexm_situacao = 'enviando', pexm_nuvem_id = NULL, pexm_cstat = NULL, pexm_motivo = NULL,
             pexm_explicacao = NULL, pexm_valor = EXCLUDED.pexm_valor, pexm_dta_emissao = EXCLUDED.pexm_dta_emissao,
             pexm_ambiente = EXCLUDED.pexm_ambiente, pexm_chave = NULL
         RETURNING pexm_id, pexm_pedf_id, pexm_serie, pexm_nfe_serie, pexm_numero, pexm_ambiente, pexm_tentativa,
                   pexm_referencia, pexm_nuvem_id, pexm_situacao, pexm_chave",
    )
    .bind(client)
    .bind(id)
    .bind(emp)
    .bind(pedf_id)
    .bind(serie)
    .bind((user > 0).then_some(user))
    .bind(nfe_serie)
    .bind(numero)
    .bind(ambiente)
    .bind(attempt)
    .bind(&n.referencia)
    .bind(valor)
    .bind(n.dh_emi)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((doc, pedido))
}

/// `POST /pedidofatxml`: steps 1 to 3.
#[allow(clippy::too_many_arguments)]
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    client: i64,
    user: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
    nature: Option<i64>,
) -> Result<Value> {
    let (doc, pedido) = prepare(db, client, user, emp, pedf_id, serie, nature).await?;
    let dfe = match nf.emitir_nfe(&pedido).await {
        Ok(dfe) => dfe,
        Err(e) if e.outcome_unknown() => {
            tracing::warn!(client, emp, id = doc.pexm_id, error = %e, "NF-e emission: answer lost");
            return Err(Error::Unavailable(
                "A Nuvem Fiscal não confirmou o recebimento da NF-e: consulte-a antes de emitir de novo.".into(),
            ));
        }
        Err(e) => {
            let mut tx = db.begin_tenant(client).await?;
            store::failed(&mut tx, client, emp, doc.pexm_id, &provider_message(&e)).await?;
            tx.commit().await?;
            return Err(provider_error(e));
        }
    };
    let mut tx = db.begin_tenant(client).await?;
    store::sent(&mut tx, client, emp, doc.pexm_id, &dfe).await?;
    tx.commit().await?;
    follow(db, nf, client, emp, &doc, &dfe.id).await
}

/// Step 3 (also the consult's): waits for a final status and writes it.
pub async fn follow(
    db: &Db,
    nf: &NuvemFiscal,
    client: i64,
    emp: i64,
    doc: &Doc,
    nuvem_id: &str,
) -> Result<Value> {
    let mut notices = Vec::new();
    match nf.aguardar_nfe(nuvem_id, MAX_WAIT).await {
        Ok(dfe) => {
            let files = if dfe.status == DfeStatus::Autorizado {
                fetch_files(nf, nuvem_id, &mut notices).await
            } else {
                (None, None)
            };
            if dfe.status.is_final() {
                let mut tx = db.begin_tenant(client).await?;
                store::settle(&mut tx, client, emp, doc, &dfe, files).await?;
                tx.commit().await?;
            }
        }
        Err(e) => notices.push(format!(
            "A consulta à Nuvem Fiscal falhou ({}): consulte a NF-e de novo.",
            provider_message(&e)
        )),
    }
    let mut tx = db.begin_tenant(client).await?;
    let row = store::row(&mut tx, client, emp, doc.pexm_id).await?;
    tx.commit().await?;
    Ok(store::answer(row, notices))
}

/// The XML and the DANFE of an authorised NF-e; what fails is a notice (the
/// download calls fetch it again).
pub async fn fetch_files(
    nf: &NuvemFiscal,
    nuvem_id: &str,
    notices: &mut Vec<String>,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let xml = match nf.baixar_xml_nfe(nuvem_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("XML não obtido: {}.", provider_message(&e)));
            None
        }
    };
    let pdf = match nf.baixar_pdf_nfe(nuvem_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("DANFE não obtido: {}.", provider_message(&e)));
            None
        }
    };
    (xml, pdf)
}

/// A document whose emission answer was lost: the provider's by its
/// `referencia`, or the row marked `erro` when the provider has none.
pub async fn recover(
    db: &Db,
    nf: &NuvemFiscal,
    client: i64,
    emp: i64,
    doc: &Doc,
    cnpj: &str,
) -> Result<Option<Dfe>> {
    let ambiente = if doc.pexm_ambiente == 1 {
        crate::nuvemfiscal::types::Ambiente::Producao
    } else {
        crate::nuvemfiscal::types::Ambiente::Homologacao
    };
    let found = nf
        .listar_nfe(cnpj, ambiente, Some(&doc.pexm_referencia))
        .await
        .map_err(provider_error)?
        .data
        .into_iter()
        .next();
    let mut tx = db.begin_tenant(client).await?;
    match &found {
        Some(dfe) => store::sent(&mut tx, client, emp, doc.pexm_id, dfe).await?,
        None => {
            store::failed(
                &mut tx,
                client,
                emp,
                doc.pexm_id,
                "A Nuvem Fiscal não recebeu a NF-e: emita de novo.",
            )
            .await?
        }
    }
    tx.commit().await?;
    Ok(found)
}
