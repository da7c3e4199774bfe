//! The recipient's manifestation: the event sent to the SEFAZ and recorded on
//! the row (one event per NF-e at a time: the row is locked while the
//! provider is asked), and the whole NF-e a ciência or confirmação brings.

use chrono::Utc;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};

use super::store::{upsert, whole, Company, DIST_WAIT};
use crate::nuvemfiscal::types::{
    DistribuicaoNfePedido, DistribuicaoNfePedidoManifestacao, TipoConsultaDistribuicao,
    TipoManifestacao,
};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::provider_error;

/// `MAN_SITUACAO` after an event.
fn status_of(t: TipoManifestacao) -> &'static str {
    match t {
        TipoManifestacao::Ciencia => "C",
        TipoManifestacao::Confirmacao => "F",
        TipoManifestacao::Desconhecimento => "D",
        TipoManifestacao::NaoRealizada => "N",
    }
}

/// Sends the event for the row of `key` and records it; a ciência or
/// confirmação then asks for the whole NF-e (a failure there is only logged:
/// the next "Buscar NF-e" brings it).
#[allow(clippy::too_many_arguments)]
pub(super) async fn register(
    nf: &NuvemFiscal,
    company: &Company,
    tx: &mut Tx,
    c: i64,
    emp: i64,
    key: &str,
    tipo: TipoManifestacao,
    justificativa: Option<String>,
) -> Result<()> {
    let event = nf
        .manifestar_nfe(&DistribuicaoNfePedidoManifestacao {
            cpf_cnpj: company.cnpj.clone(),
            ambiente: company.ambiente,
            chave_acesso: key.to_string(),
            tipo_evento: tipo,
            justificativa: justificativa.clone(),
        })
        .await
        .map_err(provider_error)?;
    if event.status.as_deref() != Some("registrado") {
        return Err(Error::Conflict(format!(
            "A SEFAZ não registrou a manifestação: {} - {}",
            event
                .codigo_status
                .map(|c| c.to_string())
                .unwrap_or_default(),
            event.motivo_status.unwrap_or_default()
        )));
    }
    sqlx::query(
        "UPDATE fiscal.manifestonfe SET man_situacao = $4, man_manifestacao = $5, man_manif_protocolo = $6,
             man_manif_data = coalesce($7, now()), man_justificativa = $8
         WHERE client_id = $1 AND man_emp_id = $2 AND man_chave = $3",
    )
    .bind(c)
    .bind(emp)
    .bind(key)
    .bind(status_of(tipo))
    .bind(tipo.code())
    .bind(&event.numero_protocolo)
    .bind(event.data_registro.map(|d| d.with_timezone(&Utc)))
    .bind(&justificativa)
    .execute(&mut **tx)
    .await?;
    if matches!(
        tipo,
        TipoManifestacao::Ciencia | TipoManifestacao::Confirmacao
    ) {
        if let Err(e) = fetch_whole(nf, company, tx, c, emp, key).await {
            tracing::warn!(client = c, emp, key, error = %e, "manifestonfe: whole NF-e not fetched yet");
        }
    }
    Ok(())
}

/// Asks the distribution for the key's newest document and keeps the whole
/// NF-e when that is what came.
pub(super) async fn fetch_whole(
    nf: &NuvemFiscal,
    company: &Company,
    tx: &mut Tx,
    c: i64,
    emp: i64,
    key: &str,
) -> Result<bool> {
    let answer = nf
        .distribuir_nfe_e_aguardar(
            &DistribuicaoNfePedido {
                cpf_cnpj: company.cnpj.clone(),
                ambiente: company.ambiente,
                uf_autor: company.uf.clone().filter(|u| u.len() == 2),
                tipo_consulta: TipoConsultaDistribuicao::ConsChave,
                dist_nsu: None,
                cons_nsu: None,
                cons_chave: Some(key.to_string()),
                ignorar_tempo_espera: None,
            },
            DIST_WAIT,
        )
        .await
        .map_err(provider_error)?;
    for doc in &answer.documentos {
        if let Some(incoming) = whole(nf, doc).await? {
            upsert(tx, c, emp, 0, &incoming).await?;
            return Ok(true);
        }
    }
    Ok(false)
}
