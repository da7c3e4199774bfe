//! Emitting an MDF-e, in steps that each commit, so that what the provider
//! was told is never forgotten (as `order_nfe::emission`):
//!
//! 1. The header is locked; one authorised, or sent and not yet answered, is
//!    not sent again (409): two emissions of one MDF-e send one request. The
//!    request is built and checked (pt-BR message, nothing written, when
//!    something is missing). A first emission takes the next number of the
//!    series from the numbering (model 58), whose row stays locked until the
//!    MDF-e holding the number is committed: concurrent emissions get
//!    consecutive numbers, none twice, none lost. A rejected one is sent again
//!    with its own number under a new attempt (`referencia`). The row,
//!    `enviando`, is committed.
//! 2. The request goes to the provider; its id is committed (`pendente`)
//!    before anything waits for the SEFAZ. A refusal by the provider marks the
//!    row `erro`; an answer lost on the way leaves it `enviando`, and the
//!    consult finds the document by its `referencia`.
//! 3. The document is consulted until its status is final (or the wait runs
//!    out: it stays `pendente`), the XML and DAMDFE are fetched, and the
//!    answer is committed.

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request::{self, Numbering};
use super::sources::{self, Head, HEAD_COLS};
use super::store::{self, Doc};
use crate::nuvemfiscal::types::{Ambiente, Dfe, DfeStatus, MdfePedidoEmissao};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::{provider_error, provider_message};
use crate::resources::order_nfe::emission::{now_brt, MAX_WAIT};

pub const NO_NUMBERING: &str =
    "Cadastre a numeração do MDF-e (modelo 58) da série da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "Este MDF-e já foi autorizado.";
pub const IN_PROGRESS: &str =
    "Este MDF-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o.";
const CLOSED: &str = "Este MDF-e foi cancelado ou encerrado: duplique-o para emitir outro.";

/// The numbering row of the MDF-e series: the settings' series, else the
/// company's first active model-58 numbering.
pub async fn numbering(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    serie: Option<i32>,
    lock: bool,
) -> Result<(i64, i32, i64)> {
    let sql = format!(
        "SELECT num_id, num_serie, num_proximo FROM fiscal.numeracao
         WHERE client_id = $1 AND num_emp_id = $2 AND num_modelo = '58' AND num_situacao = 1
           AND ($3::int IS NULL OR num_serie = $3)
         ORDER BY num_serie LIMIT 1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(serie)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::validation(NO_NUMBERING))
}

/// The company's MDF-e series (its settings), if any.
pub async fn settings_serie(tx: &mut Tx, client: i64, emp: i64) -> Result<Option<i32>> {
    Ok(sqlx::query_scalar(
        "SELECT emps_mdfe_serie FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .flatten())
}

/// A reference unique across clients (the provider account is shared).
fn referencia(client: i64, emp: i64, id: i64, attempt: i32) -> String {
    format!("erp-{client}-{emp}-mdfe-{id}-{attempt}")
}

async fn head(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Head> {
    sqlx::query_as(&format!(
        "SELECT {HEAD_COLS} FROM fiscal.mdfe WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3"
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(super::MISSING.into()))
}

/// Step 1: the request, checked, and the row `enviando` with its number,
/// committed.
async fn prepare(db: &Db, client: i64, emp: i64, id: i64) -> Result<(Doc, MdfePedidoEmissao)> {
    let mut tx = db.begin_tenant(client).await?;
    let doc = store::by_id(&mut tx, client, emp, id, true).await?;
    match doc.mdfe_situacao.as_str() {
        "autorizado" | "denegado" => return Err(Error::Conflict(ALREADY_AUTHORISED.into())),
        "cancelado" | "encerrado" => return Err(Error::Conflict(CLOSED.into())),
        "enviando" | "pendente" => return Err(Error::Conflict(IN_PROGRESS.into())),
        _ => {}
    }
    let h = head(&mut tx, client, emp, id).await?;
    let src = sources::load(&mut tx, client, emp, h).await?;
    request::check(&src)?;
    let (serie, numero) = match (doc.mdfe_serie, doc.mdfe_numero) {
        (Some(s), Some(n)) => (s, n),
        _ => {
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
            (s, next)
        }
    };
    let attempt = doc.mdfe_tentativa + 1;
    let n = Numbering {
        serie,
        numero,
        referencia: referencia(client, emp, id, attempt),
        dh_emi: now_brt(),
    };
    let pedido = request::build(&src, &n)?;
    let tot = &pedido.infMDFe.tot;
    sqlx::query(
        "UPDATE fiscal.mdfe SET mdfe_serie = $4, mdfe_numero = $5, mdfe_ambiente = $6, mdfe_tentativa = $7,
             mdfe_referencia = $8, mdfe_situacao = 'enviando', mdfe_id_fiscal = NULL, mdfe_cstat = NULL,
             mdfe_motivo = NULL, mdfe_explicacao = NULL, mdfe_chave = NULL, mdfe_dta_emissao = $9,
             mdfe_qtd_cte = $10, mdfe_qtd_nfe = $11
         WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .bind(numero)
    .bind(if pedido.ambiente == Ambiente::Producao { 1 } else { 2 })
    .bind(attempt)
    .bind(&n.referencia)
    .bind(n.dh_emi)
    .bind(tot.qCTe.unwrap_or(0))
    .bind(tot.qNFe.unwrap_or(0))
    .execute(&mut *tx)
    .await?;
    let doc = store::by_id(&mut tx, client, emp, id, false).await?;
    tx.commit().await?;
    Ok((doc, pedido))
}

/// `GET /mdfe/emitirnota/{MDFE_ID}/{emp}`: steps 1 to 3.
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
) -> Result<Value> {
    let client = caller.client_id;
    let (doc, pedido) = prepare(db, client, emp, id).await?;
    let dfe = match nf.emitir_mdfe(&pedido).await {
        Ok(dfe) => dfe,
        Err(e) if e.outcome_unknown() => {
            tracing::warn!(client, emp, id, error = %e, "MDF-e emission: answer lost");
            return Err(Error::Unavailable(
                "A Nuvem Fiscal não confirmou o recebimento do MDF-e: consulte-o antes de emitir de novo.".into(),
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
    store::sent(&mut tx, client, emp, id, &dfe).await?;
    tx.commit().await?;
    follow(db, nf, res, caller, emp, &doc, &dfe.id).await
}

/// Step 3 (also the consult's): waits for a final status and writes it.
pub async fn follow(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    doc: &Doc,
    nuvem_id: &str,
) -> Result<Value> {
    let client = caller.client_id;
    let mut notices = Vec::new();
    match nf.aguardar_mdfe(nuvem_id, MAX_WAIT).await {
        Ok(dfe) => {
            let files = if matches!(
                dfe.status,
                DfeStatus::Autorizado | DfeStatus::Encerrado | DfeStatus::Cancelado
            ) {
                fetch_files(nf, nuvem_id, &mut notices).await
            } else {
                (None, None)
            };
            if dfe.status.is_final() {
                let mut tx = db.begin_tenant(client).await?;
                store::settle(&mut tx, client, emp, doc.mdfe_id, &dfe, files).await?;
                tx.commit().await?;
            }
        }
        Err(e) => notices.push(format!(
            "A consulta à Nuvem Fiscal falhou ({}): consulte o MDF-e de novo.",
            provider_message(&e)
        )),
    }
    let mut tx = db.begin_tenant(client).await?;
    let row = store::row(&mut tx, res, caller, emp, doc.mdfe_id).await?;
    tx.commit().await?;
    Ok(store::answer(row, notices))
}

/// The XML and the DAMDFE; what fails is a notice (the download calls fetch
/// it again).
pub async fn fetch_files(
    nf: &NuvemFiscal,
    nuvem_id: &str,
    notices: &mut Vec<String>,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let xml = match nf.baixar_xml_mdfe(nuvem_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("XML não obtido: {}.", provider_message(&e)));
            None
        }
    };
    let pdf = match nf.baixar_pdf_mdfe(nuvem_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("DAMDFE não obtido: {}.", provider_message(&e)));
            None
        }
    };
    (xml, pdf)
}

/// An MDF-e whose emission answer was lost: the provider's by its
/// `referencia`, or the row marked `erro` when the provider has none.
pub async fn recover(
    db: &Db,
    nf: &NuvemFiscal,
    client: i64,
    emp: i64,
    doc: &Doc,
    cnpj: &str,
) -> Result<Option<Dfe>> {
    let ambiente = if doc.mdfe_ambiente == Some(1) {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    };
    let found = nf
        .listar_mdfe(cnpj, ambiente, doc.mdfe_referencia.as_deref())
        .await
        .map_err(provider_error)?
        .data
        .into_iter()
        .next();
    let mut tx = db.begin_tenant(client).await?;
    match &found {
        Some(dfe) => store::sent(&mut tx, client, emp, doc.mdfe_id, dfe).await?,
        None => {
            store::failed(
                &mut tx,
                client,
                emp,
                doc.mdfe_id,
                "A Nuvem Fiscal não recebeu o MDF-e: emita de novo.",
            )
            .await?
        }
    }
    tx.commit().await?;
    Ok(found)
}
