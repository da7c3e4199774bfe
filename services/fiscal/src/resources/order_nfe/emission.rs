//! Emitting the NF-e of an invoiced order: the step particular to it, then
//! the provider's steps every document shares (`dfe::emission`), each
//! committing on its own, so that what the provider was told is never
//! forgotten:
//!
//! 1. The order is locked; an NF-e already authorised, or sent and not yet
//!    answered, is not sent again (409) — two emissions of one order send one
//!    request. A new NF-e takes the next number of its series from the
//!    numbering, whose row is locked until the NF-e row holding the number is
//!    committed: concurrent emissions get consecutive numbers, none twice,
//!    none lost. A rejected one is sent again with its own number under a new
//!    attempt (`referencia`). The request is built and the row, `enviando`, is
//!    committed.
//! 2. and 3. as every document: sent once, its id stored before anything
//!    waits, followed to a final status with the XML and the DANFE; an
//!    authorisation is committed with the fact for orders (`store`).
//!
//! The preview builds the same request without numbering or sending anything.

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde_json::Value;

use super::request;
use super::sources;
use super::store::{self, Doc, Nfe, DOC_COLS};
use crate::nuvemfiscal::types::NfePedidoEmissao;
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::dfe;
use crate::resources::dfe::emission::{now_brt, referencia};
use crate::resources::dfe::numbering::{self, Numbering};

const NO_NUMBERING: &str =
    "Cadastre a numeração da NF-e (modelo 55) da série da empresa em Numeração de Documentos.";
pub const ALREADY_AUTHORISED: &str = "A NF-e deste pedido já foi autorizada.";
pub const IN_PROGRESS: &str =
    "A NF-e deste pedido já foi enviada e aguarda a resposta da SEFAZ: consulte-a.";
const ALREADY_CANCELLED: &str = "A NF-e deste pedido foi cancelada.";

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
            let (s, next) =
                numbering::peek(tx, client, emp, "55", src.settings.serie, NO_NUMBERING).await?;
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
            let (s, next) =
                numbering::take(&mut tx, client, emp, "55", src.settings.serie, NO_NUMBERING)
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
        referencia: referencia("pedidofatxml", client, emp, id, attempt),
        dh_emi: now_brt(),
    };
    let pedido = request::build(&src, &n)?;
    let valor = pedido.infNFe.total.ICMSTot.vNF;
    let doc: Doc = sqlx::query_as(&format!(
        "INSERT INTO fiscal.pedidofatxml (client_id, pexm_id, pexm_emp_id, pexm_pedf_id, pexm_serie, pexm_usr_id,
             pexm_nfe_serie, pexm_numero, pexm_ambiente, pexm_tentativa, pexm_referencia, pexm_situacao, pexm_valor,
             pexm_dta_emissao)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'enviando', $12, $13)
         ON CONFLICT (client_id, pexm_emp_id, pexm_id) DO UPDATE
         SET pexm_tentativa = EXCLUDED.pexm_tentativa, pexm_referencia = EXCLUDED.pexm_referencia,
             pexm_situacao = 'enviando', pexm_nuvem_id = NULL, pexm_cstat = NULL, pexm_motivo = NULL,
             pexm_explicacao = NULL, pexm_valor = EXCLUDED.pexm_valor, pexm_dta_emissao = EXCLUDED.pexm_dta_emissao,
             pexm_ambiente = EXCLUDED.pexm_ambiente, pexm_chave = NULL
         RETURNING {DOC_COLS}",
    ))
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

/// `POST /pedidofatxml`: step 1, then the provider's.
#[allow(clippy::too_many_arguments)]
pub async fn emit(
    db: &Db,
    nf: &NuvemFiscal,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    pedf_id: i64,
    serie: &str,
    nature: Option<i64>,
) -> Result<Value> {
    let (doc, pedido) = prepare(
        db,
        caller.client_id,
        caller.user_id,
        emp,
        pedf_id,
        serie,
        nature,
    )
    .await?;
    dfe::emission::send(db, nf, &Nfe, res, caller, emp, doc.pexm_id, &pedido).await
}
