//! The NF-e rows (`fiscal.pedidofatxml`): reading one as the register's JSON,
//! the one of an order (locked), and its `dfe::Kind`: the provider's side of
//! the row is every document's (`dfe::store`), plus the facts that tell
//! orders (`NfeAutorizada`, `NfeCancelada`, through the outbox in the
//! transaction that settles the answer or registers the cancel), and
//! `NfeRejeitada` for the business figures.

use async_trait::async_trait;
use chrono::Utc;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada, NfeRejeitada};
use prost::Message as _;
use serde_json::Value;

use crate::nuvemfiscal::paths::NFE;
use crate::nuvemfiscal::types::Dfe;
use crate::rejections;
use crate::resources::dfe::{Issued, Kind};

pub const NOT_FOUND: &str = "NF-e não encontrada.";

/// The register's fields of one row.
const ROW: &str = "jsonb_build_object(
    'PEXM_ID', pexm_id, 'PEXM_EMP_ID', pexm_emp_id, 'PEXM_PEDF_ID', pexm_pedf_id, 'PEXM_SERIE', pexm_serie,
    'PEXM_USR_ID', pexm_usr_id, 'PEXM_DTA_CAD', pexm_dta_cad, 'PEXM_MODELO', pexm_modelo,
    'PEXM_NFE_SERIE', pexm_nfe_serie, 'PEXM_NUMERO', pexm_numero, 'PEXM_AMBIENTE', pexm_ambiente,
    'PEXM_TENTATIVA', pexm_tentativa, 'PEXM_REFERENCIA', pexm_referencia, 'PEXM_NUVEM_ID', pexm_nuvem_id,
    'PEXM_SITUACAO', pexm_situacao, 'PEXM_CHAVE', pexm_chave, 'PEXM_PROTOCOLO', pexm_protocolo,
    'PEXM_CSTAT', pexm_cstat, 'PEXM_MOTIVO', pexm_motivo, 'PEXM_EXPLICACAO', pexm_explicacao,
    'PEXM_VALOR', pexm_valor::text, 'PEXM_DTA_EMISSAO', pexm_dta_emissao,
    'PEXM_DTA_AUTORIZACAO', pexm_dta_autorizacao, 'PEXM_XML', pexm_xml IS NOT NULL, 'PEXM_PDF', pexm_pdf IS NOT NULL,
    'PEXM_CANCEL_JUSTIFICATIVA', pexm_cancel_justificativa, 'PEXM_CANCEL_PROTOCOLO', pexm_cancel_protocolo,
    'PEXM_DTA_CANCELAMENTO', pexm_dta_cancelamento, 'PEXM_CCE_SEQ', pexm_cce_seq,
    'PEXM_CCE_CORRECAO', pexm_cce_correcao, 'PEXM_CCE_PROTOCOLO', pexm_cce_protocolo, 'PEXM_DTA_CCE', pexm_dta_cce)";

/// What the emission and the preview need of an order's NF-e row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Doc {
    pub pexm_id: i64,
    pub pexm_nfe_serie: i32,
    pub pexm_numero: i64,
    pub pexm_tentativa: i32,
    pub pexm_referencia: String,
    pub pexm_situacao: String,
}

pub const DOC_COLS: &str =
    "pexm_id, pexm_nfe_serie, pexm_numero, pexm_tentativa, pexm_referencia, pexm_situacao";

pub async fn row(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Value> {
    sqlx::query_scalar::<_, Value>(&format!(
        "SELECT {ROW} FROM fiscal.pedidofatxml WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3"
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))
}

/// The rows issued (authorised or cancelled) in a period, for the accountant.
pub async fn issued_between(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    from: chrono::NaiveDate,
    to: chrono::NaiveDate,
) -> Result<Vec<Value>> {
    Ok(sqlx::query_scalar::<_, Value>(&format!(
        "SELECT {ROW} FROM fiscal.pedidofatxml
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_situacao IN ('autorizado', 'cancelado')
           AND (pexm_dta_emissao AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN $3 AND $4
         ORDER BY pexm_nfe_serie, pexm_numero"
    ))
    .bind(client)
    .bind(emp)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?)
}

pub async fn by_order(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    pedf_id: i64,
    serie: &str,
) -> Result<Option<Doc>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {DOC_COLS} FROM fiscal.pedidofatxml
         WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_pedf_id = $3 AND pexm_serie = $4 FOR UPDATE"
    ))
    .bind(client)
    .bind(emp)
    .bind(pedf_id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The NF-e of orders at the provider.
pub static KIND: Kind = Kind {
    table: "fiscal.pedidofatxml",
    prefix: "pexm",
    serie: "pexm_nfe_serie",
    provider_id: "pexm_nuvem_id",
    xml: "pexm_xml",
    xml_is_text: false,
    name: "NF-e",
    feminine: true,
    pdf_name: "DANFE",
    file_tag: "nfe",
    paths: &NFE,
    explain: rejections::explain,
    closes: false,
    missing: NOT_FOUND,
};

/// The NF-e of orders: its own row (with whether the files are stored), and
/// the facts that set and clear the order's `PEDF_NFE_XML`.
pub struct Nfe;

/// What a fact for orders names of an NF-e row.
#[derive(sqlx::FromRow)]
struct OfOrder {
    pexm_pedf_id: i64,
    pexm_serie: String,
    pexm_numero: i64,
    pexm_nfe_serie: i32,
    pexm_chave: Option<String>,
    pexm_protocolo: Option<String>,
    pexm_cancel_protocolo: Option<String>,
}

async fn of_order(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<OfOrder> {
    sqlx::query_as(
        "SELECT pexm_pedf_id, pexm_serie, pexm_numero, pexm_nfe_serie, pexm_chave, pexm_protocolo,
                pexm_cancel_protocolo
         FROM fiscal.pedidofatxml WHERE client_id = $1 AND pexm_emp_id = $2 AND pexm_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))
}

#[async_trait]
impl Issued for Nfe {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    async fn row(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: i64,
        id: i64,
    ) -> Result<Value> {
        row(tx, caller.client_id, emp, id).await
    }

    /// An authorisation writes the fact for orders, a rejection or denial the
    /// fact for the business figures, each once: only when the answer moved the
    /// row to that status.
    async fn settled(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        id: i64,
        dfe: &Dfe,
        moved_to: Option<&str>,
    ) -> Result<()> {
        match moved_to {
            Some("autorizado") => {}
            Some(status @ ("rejeitado" | "denegado")) => {
                let o = of_order(tx, client, emp, id).await?;
                let aut = dfe.autorizacao.as_ref();
                let fact = NfeRejeitada {
                    client_id: client,
                    emp_id: emp,
                    pedido_id: o.pexm_pedf_id,
                    serie: o.pexm_serie,
                    cstat: aut.and_then(|a| a.codigo_status).unwrap_or_default(),
                    motivo: aut
                        .and_then(|a| a.motivo_status.clone())
                        .unwrap_or_default(),
                    status: status.into(),
                };
                erp_platform::bus::outbox_insert(
                    tx,
                    crate::SCHEMA,
                    erp_proto::subjects::NFE_REJEITADA,
                    client,
                    &fact.encode_to_vec(),
                )
                .await?;
                return Ok(());
            }
            _ => return Ok(()),
        }
        let o = of_order(tx, client, emp, id).await?;
        let fact = NfeAutorizada {
            client_id: client,
            emp_id: emp,
            pedido_id: o.pexm_pedf_id,
            serie: o.pexm_serie,
            chave: dfe.chave.clone().or(o.pexm_chave).unwrap_or_default(),
            protocolo: o.pexm_protocolo.unwrap_or_default(),
            numero: o.pexm_numero,
            nfe_serie: o.pexm_nfe_serie,
            authorised_at: Utc::now().to_rfc3339(),
        };
        erp_platform::bus::outbox_insert(
            tx,
            crate::SCHEMA,
            erp_proto::subjects::NFE_AUTORIZADA,
            client,
            &fact.encode_to_vec(),
        )
        .await?;
        Ok(())
    }

    /// The cancel's fact for orders.
    async fn cancelled(&self, tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<()> {
        let o = of_order(tx, client, emp, id).await?;
        let fact = NfeCancelada {
            client_id: client,
            emp_id: emp,
            pedido_id: o.pexm_pedf_id,
            serie: o.pexm_serie,
            chave: o.pexm_chave.unwrap_or_default(),
            protocolo: o.pexm_cancel_protocolo.unwrap_or_default(),
        };
        erp_platform::bus::outbox_insert(
            tx,
            crate::SCHEMA,
            erp_proto::subjects::NFE_CANCELADA,
            client,
            &fact.encode_to_vec(),
        )
        .await?;
        Ok(())
    }
}
