//! Distribuição de NF-e and manifestação do destinatário: the NF-e issued
//! against a company are fetched from the Ambiente Nacional by NSU
//! (`distribuir_nfe`, then `aguardar_distribuicao_nfe` while the provider
//! answers `processando`), their XML downloaded, and the recipient says what
//! it makes of each (`manifestar_nfe`: ciência, confirmação, desconhecimento,
//! operação não realizada).

use std::time::Duration;

use reqwest::Method;
use tokio::time::Instant;

use super::client::{Body, NuvemFiscal, Replay};
use super::error::{Error, Result};
use super::paths::{self, DISTRIBUICAO_NFE, DISTRIBUICAO_NFE_DOCUMENTO_XML, DISTRIBUICAO_NFE_ID};
use super::polling::{POLL_FIRST, POLL_MAX};
use super::types::{
    DistribuicaoNfe, DistribuicaoNfeEvento, DistribuicaoNfePedido,
    DistribuicaoNfePedidoManifestacao, DistribuicaoStatus,
};

/// SEFAZ limits of the justification of desconhecimento / não realizada.
const JUSTIFICATIVA: (usize, usize) = (15, 255);

impl NuvemFiscal {
    /// `POST /distribuicao/nfe`. A retry is harmless (the same NSU range is
    /// asked again), so it is replayed on transport errors.
    pub async fn distribuir_nfe(&self, pedido: &DistribuicaoNfePedido) -> Result<DistribuicaoNfe> {
        self.call(
            Method::POST,
            DISTRIBUICAO_NFE,
            &[],
            Body::json(pedido)?,
            Replay::Safe,
        )
        .await
    }

    /// `GET /distribuicao/nfe/{id}`.
    pub async fn consultar_distribuicao_nfe(&self, id: &str) -> Result<DistribuicaoNfe> {
        let path = paths::fill(DISTRIBUICAO_NFE_ID, id);
        self.call(Method::GET, &path, &[], Body::Empty, Replay::Safe)
            .await
    }

    /// Sends the request and, while the provider answers `processando`,
    /// consults it until `concluido` or `erro` or `max_wait` has passed (the
    /// last answer is returned either way).
    pub async fn distribuir_nfe_e_aguardar(
        &self,
        pedido: &DistribuicaoNfePedido,
        max_wait: Duration,
    ) -> Result<DistribuicaoNfe> {
        let deadline = Instant::now() + max_wait;
        let mut answer = self.distribuir_nfe(pedido).await?;
        let mut wait = POLL_FIRST;
        while answer.status == DistribuicaoStatus::Processando {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            tokio::time::sleep(wait.min(deadline - now)).await;
            wait = (wait * 2).min(POLL_MAX);
            answer = self.consultar_distribuicao_nfe(&answer.id).await?;
        }
        Ok(answer)
    }

    /// `GET /distribuicao/nfe/documentos/{id}/xml`: the summary (`resNFe`)
    /// or, once distributed whole, the NF-e with its protocol (`nfeProc`).
    pub async fn baixar_xml_documento_distribuicao(&self, id: &str) -> Result<Vec<u8>> {
        self.download(&paths::fill(DISTRIBUICAO_NFE_DOCUMENTO_XML, id))
            .await
    }

    /// `POST /distribuicao/nfe/manifestacoes`. Desconhecimento and operação
    /// não realizada need a justification of 15 to 255 characters (checked
    /// here, before anything is sent). An event is sent once.
    pub async fn manifestar_nfe(
        &self,
        pedido: &DistribuicaoNfePedidoManifestacao,
    ) -> Result<DistribuicaoNfeEvento> {
        let mut pedido = pedido.clone();
        if pedido.tipo_evento.needs_justification() {
            let text = pedido.justificativa.as_deref().unwrap_or_default().trim();
            let len = text.chars().count();
            if len < JUSTIFICATIVA.0 || len > JUSTIFICATIVA.1 {
                return Err(Error::Invalid(
                    "A justificativa da manifestação deve ter entre 15 e 255 caracteres.".into(),
                ));
            }
            pedido.justificativa = Some(text.to_string());
        } else {
            pedido.justificativa = None;
        }
        self.call(
            Method::POST,
            paths::DISTRIBUICAO_NFE_MANIFESTACOES,
            &[],
            Body::json(&pedido)?,
            Replay::Once,
        )
        .await
    }
}
