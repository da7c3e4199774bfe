//! Emitting an MDF-e: the step particular to it, then the provider's steps
//! every document shares (`dfe::emission`), so that what the provider was
//! told is never forgotten.
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
//! 2. and 3. as every document: sent once, its id stored before anything
//!    waits, followed to a final status with the XML and the DAMDFE.

use async_trait::async_trait;
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request;
use super::sources::{self, Head, HEAD_COLS};
use super::MISSING;
use crate::nuvemfiscal::paths::MDFE;
use crate::nuvemfiscal::types::{Ambiente, MdfePedidoEmissao};
use crate::nuvemfiscal::NuvemFiscal;
use crate::rejections;
use crate::resources::dfe::{self, numbering, store, Issued, Kind};

pub const NO_NUMBERING: &str =
    "Cadastre a numeração do MDF-e (modelo 58) da série da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "Este MDF-e já foi autorizado.";
pub const IN_PROGRESS: &str =
    "Este MDF-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o.";
const CLOSED: &str = "Este MDF-e foi cancelado ou encerrado: duplique-o para emitir outro.";

/// The MDF-e at the provider: closed by its own event (`encerrado`).
pub static KIND: Kind = Kind {
    table: "fiscal.mdfe",
    prefix: "mdfe",
    serie: "mdfe_serie",
    provider_id: "mdfe_id_fiscal",
    xml: "mdfe_xml",
    xml_is_text: false,
    name: "MDF-e",
    feminine: false,
    pdf_name: "DAMDFE",
    file_tag: "mdfe",
    paths: &MDFE,
    explain: rejections::explain_mdfe,
    closes: true,
    missing: MISSING,
};

/// The MDF-e register's rows as the calls answer them: the generic get's,
/// plus whether the XML (`MDFE_XML`) and the DAMDFE (`MDFE_PDF`) are stored.
pub struct Mdfe;

#[async_trait]
impl Issued for Mdfe {
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
        let mut row = dfe::generic_row(tx, &KIND, res, caller, emp, id).await?;
        let (xml, pdf): (bool, bool) = sqlx::query_as(
            "SELECT mdfe_xml IS NOT NULL, mdfe_pdf IS NOT NULL FROM fiscal.mdfe
             WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .unwrap_or_default();
        if let Value::Object(m) = &mut row {
            m.insert("MDFE_XML".into(), Value::from(xml));
            m.insert("MDFE_PDF".into(), Value::from(pdf));
        }
        Ok(row)
    }
}

/// The series and number the next MDF-e takes: the settings' series, else
/// the company's first active model-58 numbering.
pub async fn next_number(tx: &mut Tx, client: i64, emp: i64) -> Result<(i32, i64)> {
    let serie = numbering::settings_serie(tx, client, emp, "emps_mdfe_serie").await?;
    numbering::peek(tx, client, emp, "58", serie, NO_NUMBERING).await
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
    .ok_or_else(|| Error::NotFound(MISSING.into()))
}

/// Step 1: the request, checked, and the row `enviando` with its number,
/// committed.
async fn prepare(db: &Db, client: i64, emp: i64, id: i64) -> Result<MdfePedidoEmissao> {
    let mut tx = db.begin_tenant(client).await?;
    let doc = store::by_id(&mut tx, &KIND, client, emp, id, true).await?;
    match doc.situacao.as_str() {
        "autorizado" | "denegado" => return Err(Error::Conflict(ALREADY_AUTHORISED.into())),
        "cancelado" | "encerrado" => return Err(Error::Conflict(CLOSED.into())),
        "enviando" | "pendente" => return Err(Error::Conflict(IN_PROGRESS.into())),
        _ => {}
    }
    let h = head(&mut tx, client, emp, id).await?;
    let src = sources::load(&mut tx, client, emp, h).await?;
    request::check(&src)?;
    let (n, attempt) = numbering::for_emission(
        &mut tx,
        &doc,
        "mdfe",
        client,
        emp,
        "58",
        src.settings.serie,
        NO_NUMBERING,
    )
    .await?;
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
    .bind(n.serie)
    .bind(n.numero)
    .bind(if pedido.ambiente == Ambiente::Producao { 1 } else { 2 })
    .bind(attempt)
    .bind(&n.referencia)
    .bind(n.dh_emi)
    .bind(tot.qCTe.unwrap_or(0))
    .bind(tot.qNFe.unwrap_or(0))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(pedido)
}

/// `GET /mdfe/emitirnota/{MDFE_ID}/{emp}`: step 1, then the provider's.
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
) -> Result<Value> {
    let pedido = prepare(db, caller.client_id, emp, id).await?;
    dfe::emission::send(db, nf, &Mdfe, res, caller, emp, id, &pedido).await
}
