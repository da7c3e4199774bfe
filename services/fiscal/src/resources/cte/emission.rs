//! Emitting a CT-e: the step particular to it, then the provider's steps
//! every document shares (`dfe::emission`), so that what the provider was
//! told is never forgotten.
//!
//! 1. The CT-e row is locked; one already authorised, or sent and not yet
//!    answered, is not sent again (409): two emissions of one CT-e send one
//!    request. Its rows are read and the request is built and checked before
//!    anything is written (bad data: 400, nothing changed). A CT-e without a
//!    number takes the next one of its series (model 57) from the numbering,
//!    whose row stays locked until the CT-e holding the number is committed:
//!    no number twice, none lost. A rejected CT-e goes again with its number
//!    under a new attempt (`referencia`). The row, `enviando`, is committed.
//! 2. and 3. as every document: sent once, its id stored before anything
//!    waits, followed to a final status with the XML and the DACTE.

use async_trait::async_trait;
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request;
use super::sources::{self, Sources};
use super::MISSING;
use crate::nuvemfiscal::paths::CTE;
use crate::nuvemfiscal::types::CtePedidoEmissao;
use crate::nuvemfiscal::NuvemFiscal;
use crate::rejections;
use crate::resources::dfe::emission::now_brt;
use crate::resources::dfe::numbering::{self, Numbering};
use crate::resources::dfe::{self, store, Issued, Kind};

pub const NO_NUMBERING: &str =
    "Cadastre a numeração do CT-e (modelo 57) da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "Este CT-e já foi autorizado.";
pub const IN_PROGRESS: &str = "Este CT-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o.";
const ALREADY_CANCELLED: &str = "Este CT-e foi cancelado.";

/// The CT-e at the provider.
pub static KIND: Kind = Kind {
    table: "fiscal.cte",
    prefix: "cte",
    serie: "cte_serie",
    provider_id: "cte_id_fiscal",
    xml: "cte_nfe_xml",
    xml_is_text: true,
    name: "CT-e",
    feminine: false,
    pdf_name: "DACTE",
    file_tag: "cte",
    paths: &CTE,
    explain: rejections::explain_cte,
    closes: false,
    missing: MISSING,
};

/// The CT-e register's rows as the calls answer them: the generic get's.
pub struct Cte;

#[async_trait]
impl Issued for Cte {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    async fn row(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: i64,
        id: i64,
    ) -> Result<Value> {
        dfe::generic_row(tx, &KIND, res, caller, emp, id).await
    }
}

/// The company's CT-e series in its fiscal settings, if any.
async fn settings_serie(tx: &mut Tx, client: i64, emp: i64) -> Result<Option<i32>> {
    numbering::settings_serie(tx, client, emp, "emps_cte_serie").await
}

/// The series and number the CT-e has, or the ones it would take now.
pub async fn next_number(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<(i32, i64)> {
    let doc = store::by_id(tx, &KIND, client, emp, id, false).await?;
    if let (Some(s), Some(n)) = (doc.serie, doc.numero) {
        return Ok((s, n));
    }
    let serie = settings_serie(tx, client, emp).await?;
    numbering::peek(tx, client, emp, "57", serie, NO_NUMBERING).await
}

/// Step 1: the row to send and its request, committed.
async fn prepare(
    db: &Db,
    client: i64,
    emp: i64,
    id: i64,
    ambiente: i32,
) -> Result<CtePedidoEmissao> {
    let mut tx = db.begin_tenant(client).await?;
    let doc = store::by_id(&mut tx, &KIND, client, emp, id, true).await?;
    match doc.situacao.as_str() {
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
    let src: Sources = sources::load(&mut tx, client, emp, id).await?;
    let (n, attempt) = numbering::for_emission(
        &mut tx,
        &doc,
        "cte",
        client,
        emp,
        "57",
        src.settings.serie,
        NO_NUMBERING,
    )
    .await?;
    // Built and checked before anything is written: bad data changes nothing
    // (the transaction, with the number taken, is rolled back).
    let pedido = request::build(&src, &n)?;
    sqlx::query(
        "UPDATE fiscal.cte SET cte_serie = $4, cte_numero = $5, cte_tentativa = $6, cte_referencia = $7,
             cte_situacao = 'enviando', cte_id_fiscal = NULL, cte_cstat = NULL, cte_motivo = NULL,
             cte_explicacao = NULL, cte_chave = NULL, cte_protocolo = NULL, cte_dh_emissao = $8,
             cte_dta_emissao = ($8 AT TIME ZONE 'America/Sao_Paulo')::date
         WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(n.serie)
    .bind(n.numero)
    .bind(attempt)
    .bind(&n.referencia)
    .bind(n.dh_emi)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(pedido)
}

/// The request CT-e `id` would send now, unsent and unnumbered (the number
/// it has or would take).
pub async fn preview(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<CtePedidoEmissao> {
    let (serie, numero) = next_number(tx, client, emp, id).await?;
    let src = sources::load(tx, client, emp, id).await?;
    let n = Numbering { serie, numero, referencia: "previa".into(), dh_emi: now_brt() };
    request::build(&src, &n)
}

/// `GET /cte/emitirnota/{id}/{emp}/{type}`: step 1, then the provider's.
#[allow(clippy::too_many_arguments)]
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    ambiente: i32,
) -> Result<Value> {
    let pedido = prepare(db, caller.client_id, emp, id, ambiente).await?;
    dfe::emission::send(db, nf, &Cte, res, caller, emp, id, &pedido).await
}
