//! NF-e, CT-e and MDF-e operations of [`NuvemFiscal`]: emit, consult, list,
//! cancel, correct (NF-e), close (MDF-e), synchronise and download.
//!
//! Emissions and events are sent once (see [`super::client`]); after an
//! error for which [`super::Error::outcome_unknown`] is true, look the
//! document up with `listar_*` by its `referencia` before emitting again.

use reqwest::Method;
use serde::Serialize;

use super::client::{Body, NuvemFiscal, Replay};
use super::error::{Error, Result};
use super::paths::{self, DocPaths, CTE, MDFE, NFE};
use super::types::{
    Ambiente, CtePedidoCancelamento, CtePedidoEmissao, Dfe, DfeCancelamento, DfeCartaCorrecao,
    DfeListagem, DfeSincronizacao, MdfeEncerramento, MdfePedidoCancelamento, MdfePedidoEmissao,
    MdfePedidoEncerramento, NfePedidoCancelamento, NfePedidoCartaCorrecao, NfePedidoEmissao,
};

/// SEFAZ limits of `xJust` (cancel) and `xCorrecao` (correction letter).
const JUSTIFICATIVA: (usize, usize) = (15, 255);
const CORRECAO: (usize, usize) = (15, 1000);

impl NuvemFiscal {
    // --- NF-e -----------------------------------------------------------

    /// `POST /nfe`. The answer is usually `pendente`: follow it with
    /// [`NuvemFiscal::aguardar_nfe`].
    pub async fn emitir_nfe(&self, pedido: &NfePedidoEmissao) -> Result<Dfe> {
        self.emitir(&NFE, pedido).await
    }

    /// `GET /nfe/{id}`.
    pub async fn consultar_nfe(&self, id: &str) -> Result<Dfe> {
        self.consultar(&NFE, id).await
    }

    /// `GET /nfe?cpf_cnpj=&ambiente=&referencia=`: newest first. With a
    /// `referencia`, tells whether an emission whose answer was lost created
    /// the document.
    pub async fn listar_nfe(
        &self,
        cpf_cnpj: &str,
        ambiente: Ambiente,
        referencia: Option<&str>,
    ) -> Result<DfeListagem> {
        self.listar(&NFE, cpf_cnpj, ambiente, referencia).await
    }

    /// `POST /nfe/{id}/cancelamento`. The justification needs 15 to 255
    /// characters (checked here, before anything is sent).
    pub async fn cancelar_nfe(&self, id: &str, justificativa: &str) -> Result<DfeCancelamento> {
        let pedido =
            NfePedidoCancelamento { justificativa: Some(checked_justificativa(justificativa)?) };
        self.evento(&paths::fill(NFE.cancelamento, id), &pedido)
            .await
    }

    /// `POST /nfe/{id}/carta-correcao`. The correction needs 15 to 1000
    /// characters.
    pub async fn carta_correcao_nfe(&self, id: &str, correcao: &str) -> Result<DfeCartaCorrecao> {
        let correcao = checked_len(
            correcao,
            CORRECAO,
            "A correção da carta de correção deve ter entre 15 e 1000 caracteres.",
        )?;
        let pedido = NfePedidoCartaCorrecao { correcao: Some(correcao) };
        self.evento(&paths::fill(paths::NFE_CARTA_CORRECAO, id), &pedido)
            .await
    }

    /// `POST /nfe/{id}/sincronizar`: asks the provider to check the document
    /// with the SEFAZ.
    pub async fn sincronizar_nfe(&self, id: &str) -> Result<DfeSincronizacao> {
        self.sincronizar(&NFE, id).await
    }

    /// `GET /nfe/{id}/xml`: the authorised XML (`nfeProc`).
    pub async fn baixar_xml_nfe(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_xml(&NFE, id).await
    }

    /// `GET /nfe/{id}/pdf`: the DANFE.
    pub async fn baixar_pdf_nfe(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_pdf(&NFE, id).await
    }

    // --- CT-e -----------------------------------------------------------

    /// `POST /cte`.
    pub async fn emitir_cte(&self, pedido: &CtePedidoEmissao) -> Result<Dfe> {
        self.emitir(&CTE, pedido).await
    }

    /// `GET /cte/{id}`.
    pub async fn consultar_cte(&self, id: &str) -> Result<Dfe> {
        self.consultar(&CTE, id).await
    }

    /// `GET /cte?cpf_cnpj=&ambiente=&referencia=`.
    pub async fn listar_cte(
        &self,
        cpf_cnpj: &str,
        ambiente: Ambiente,
        referencia: Option<&str>,
    ) -> Result<DfeListagem> {
        self.listar(&CTE, cpf_cnpj, ambiente, referencia).await
    }

    /// `POST /cte/{id}/cancelamento` (justification of 15 to 255 characters).
    pub async fn cancelar_cte(&self, id: &str, justificativa: &str) -> Result<DfeCancelamento> {
        let pedido =
            CtePedidoCancelamento { justificativa: Some(checked_justificativa(justificativa)?) };
        self.evento(&paths::fill(CTE.cancelamento, id), &pedido)
            .await
    }

    /// `POST /cte/{id}/sincronizar`.
    pub async fn sincronizar_cte(&self, id: &str) -> Result<DfeSincronizacao> {
        self.sincronizar(&CTE, id).await
    }

    /// `GET /cte/{id}/xml`.
    pub async fn baixar_xml_cte(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_xml(&CTE, id).await
    }

    /// `GET /cte/{id}/pdf`: the DACTE.
    pub async fn baixar_pdf_cte(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_pdf(&CTE, id).await
    }

    // --- MDF-e ----------------------------------------------------------

    /// `POST /mdfe`.
    pub async fn emitir_mdfe(&self, pedido: &MdfePedidoEmissao) -> Result<Dfe> {
        self.emitir(&MDFE, pedido).await
    }

    /// `GET /mdfe/{id}`.
    pub async fn consultar_mdfe(&self, id: &str) -> Result<Dfe> {
        self.consultar(&MDFE, id).await
    }

    /// `GET /mdfe?cpf_cnpj=&ambiente=&referencia=`.
    pub async fn listar_mdfe(
        &self,
        cpf_cnpj: &str,
        ambiente: Ambiente,
        referencia: Option<&str>,
    ) -> Result<DfeListagem> {
        self.listar(&MDFE, cpf_cnpj, ambiente, referencia).await
    }

    /// `POST /mdfe/{id}/cancelamento` (justification of 15 to 255 characters).
    pub async fn cancelar_mdfe(&self, id: &str, justificativa: &str) -> Result<DfeCancelamento> {
        let pedido =
            MdfePedidoCancelamento { justificativa: Some(checked_justificativa(justificativa)?) };
        self.evento(&paths::fill(MDFE.cancelamento, id), &pedido)
            .await
    }

    /// `POST /mdfe/{id}/encerramento`: closes the manifest at the end of the
    /// trip (`uf` and `codigo_municipio` of the place where it ended).
    pub async fn encerrar_mdfe(
        &self,
        id: &str,
        pedido: &MdfePedidoEncerramento,
    ) -> Result<MdfeEncerramento> {
        if pedido.uf.trim().len() != 2 || pedido.codigo_municipio.trim().len() != 7 {
            return Err(Error::Invalid(
                "Informe a UF (2 letras) e o código IBGE do município (7 dígitos) de encerramento."
                    .into(),
            ));
        }
        self.evento(&paths::fill(paths::MDFE_ENCERRAMENTO, id), pedido)
            .await
    }

    /// `POST /mdfe/{id}/sincronizar`.
    pub async fn sincronizar_mdfe(&self, id: &str) -> Result<DfeSincronizacao> {
        self.sincronizar(&MDFE, id).await
    }

    /// `GET /mdfe/{id}/xml`.
    pub async fn baixar_xml_mdfe(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_xml(&MDFE, id).await
    }

    /// `GET /mdfe/{id}/pdf`: the DAMDFE.
    pub async fn baixar_pdf_mdfe(&self, id: &str) -> Result<Vec<u8>> {
        self.baixar_pdf(&MDFE, id).await
    }

    // --- shared by the three ---------------------------------------------

    /// `POST` of a document's request (`root`), sent once.
    pub(crate) async fn emitir<T: Serialize>(&self, p: &DocPaths, pedido: &T) -> Result<Dfe> {
        self.call(Method::POST, p.root, &[], Body::json(pedido)?, Replay::Once)
            .await
    }

    pub(crate) async fn consultar(&self, p: &DocPaths, id: &str) -> Result<Dfe> {
        let path = paths::fill(p.id, id);
        self.call(Method::GET, &path, &[], Body::Empty, Replay::Safe)
            .await
    }

    pub(crate) async fn listar(
        &self,
        p: &DocPaths,
        cpf_cnpj: &str,
        ambiente: Ambiente,
        referencia: Option<&str>,
    ) -> Result<DfeListagem> {
        let mut query = vec![("cpf_cnpj", cpf_cnpj), ("ambiente", ambiente.as_str())];
        if let Some(r) = referencia {
            query.push(("referencia", r));
        }
        self.call(Method::GET, p.root, &query, Body::Empty, Replay::Safe)
            .await
    }

    pub(crate) async fn sincronizar(&self, p: &DocPaths, id: &str) -> Result<DfeSincronizacao> {
        let path = paths::fill(p.sincronizar, id);
        self.call(Method::POST, &path, &[], Body::Empty, Replay::Safe)
            .await
    }

    /// `GET` of a document's XML.
    pub(crate) async fn baixar_xml(&self, p: &DocPaths, id: &str) -> Result<Vec<u8>> {
        self.download(&paths::fill(p.xml, id)).await
    }

    /// `GET` of a document's PDF (DANFE, DACTE, DAMDFE).
    pub(crate) async fn baixar_pdf(&self, p: &DocPaths, id: &str) -> Result<Vec<u8>> {
        self.download(&paths::fill(p.pdf, id)).await
    }

    async fn evento<T: Serialize, R: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        pedido: &T,
    ) -> Result<R> {
        self.call(Method::POST, path, &[], Body::json(pedido)?, Replay::Once)
            .await
    }
}

fn checked_justificativa(text: &str) -> Result<String> {
    checked_len(
        text,
        JUSTIFICATIVA,
        "A justificativa do cancelamento deve ter entre 15 e 255 caracteres.",
    )
}

fn checked_len(text: &str, (min, max): (usize, usize), message: &str) -> Result<String> {
    let text = text.trim();
    let len = text.chars().count();
    if len < min || len > max {
        return Err(Error::Invalid(message.to_string()));
    }
    Ok(text.to_string())
}

/// CT-e calls beyond the ones shared with the NF-e and the MDF-e.
impl NuvemFiscal {
    /// `POST /cte/{id}/carta-correcao`: one or more corrections (group, field
    /// and the right value); the last letter sent is the one that counts.
    pub async fn carta_correcao_cte(
        &self,
        id: &str,
        pedido: &super::types::CtePedidoCartaCorrecao,
    ) -> Result<super::types::CteCartaCorrecao> {
        if pedido.correcoes.is_empty() {
            return Err(Error::Invalid(
                "Informe ao menos uma correção (grupo, campo e valor).".into(),
            ));
        }
        self.evento(&paths::fill(paths::CTE_CARTA_CORRECAO, id), pedido)
            .await
    }

    /// `GET /cte?cpf_cnpj=&ambiente=&chave=&$top=&$skip=&$inlinecount=true`: a
    /// page of the company's CT-e at the provider, newest first.
    pub async fn listar_cte_pagina(
        &self,
        cpf_cnpj: &str,
        ambiente: Ambiente,
        chave: Option<&str>,
        top: u32,
        skip: u32,
    ) -> Result<DfeListagem> {
        let (top, skip) = (top.clamp(1, 100).to_string(), skip.to_string());
        let mut query = vec![
            ("cpf_cnpj", cpf_cnpj),
            ("ambiente", ambiente.as_str()),
            ("$top", top.as_str()),
            ("$skip", skip.as_str()),
            ("$inlinecount", "true"),
        ];
        if let Some(c) = chave {
            query.push(("chave", c));
        }
        self.call(Method::GET, CTE.root, &query, Body::Empty, Replay::Safe)
            .await
    }
}
