//! What the manifest's calls read and write: the company's CNPJ and
//! distribution settings, the rows (a distributed summary or a whole NF-e
//! becomes one row per key) and the whole NF-e of a distributed document.

use std::time::Duration;

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use crate::nfe_xml::{AccessKey, NfeHeader};
use crate::nuvemfiscal::types::{Ambiente, DistribuicaoNfeDocumento};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::provider_error;

/// How long one distribution request may stay `processando`.
pub(super) const DIST_WAIT: Duration = Duration::from_secs(30);

const NO_CNPJ: &str =
    "A empresa não tem CNPJ: informe-o em Empresas para buscar as NF-e emitidas contra ela.";

/// The company's CNPJ and UF, and its distribution settings (environment,
/// automatic ciência).
pub(super) struct Company {
    pub(super) cnpj: String,
    pub(super) uf: Option<String>,
    pub(super) ambiente: Ambiente,
    pub(super) ciencia_aut: bool,
}

pub(super) async fn company_settings(tx: &mut Tx, client: i64, emp: i64) -> Result<Company> {
    let (cnpj, uf): (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT cnpj, uf FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or_default();
    let cnpj: String = cnpj
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if cnpj.len() != 14 && cnpj.len() != 11 {
        return Err(Error::validation(NO_CNPJ));
    }
    let (ambiente, ciencia_aut): (i32, bool) = sqlx::query_as(
        "SELECT emps_dist_ambiente, emps_dist_ciencia_aut FROM fiscal.empresas_servicos
         WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or((2, false));
    Ok(Company {
        cnpj,
        uf,
        ambiente: if ambiente == 1 {
            Ambiente::Producao
        } else {
            Ambiente::Homologacao
        },
        ciencia_aut,
    })
}

pub(super) async fn next_id(tx: &mut Tx, client: i64, emp: i64) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO fiscal.id_counters (client_id, emp_id, resource, last_id)
         VALUES ($1, $2, 'manifestonfe',
                 (SELECT coalesce(max(man_id), 0) + 1 FROM fiscal.manifestonfe
                  WHERE client_id = $1 AND man_emp_id = $2))
         ON CONFLICT (client_id, emp_id, resource) DO UPDATE
         SET last_id = greatest(fiscal.id_counters.last_id + 1, EXCLUDED.last_id) RETURNING last_id",
    )
    .bind(client)
    .bind(emp)
    .fetch_one(&mut **tx)
    .await?)
}

/// What a row is written from: a distributed summary or a whole NF-e.
pub(super) struct Incoming {
    pub(super) key: AccessKey,
    nsu: Option<i64>,
    emit_cnpj: Option<String>,
    emit_nome: Option<String>,
    emit_ie: Option<String>,
    valor: Option<Decimal>,
    data: Option<chrono::NaiveDate>,
    tipo: Option<i32>,
    protocolo: Option<String>,
    /// The whole NF-e and the provider's id of it (none for an upload).
    xml: Option<Vec<u8>>,
    doc_id: Option<String>,
    origem: &'static str,
}

impl Incoming {
    pub(super) fn from_summary(doc: &DistribuicaoNfeDocumento, key: AccessKey) -> Incoming {
        Incoming {
            key,
            nsu: doc.nsu,
            emit_cnpj: doc.emitente_cpf_cnpj.clone(),
            emit_nome: doc.emitente_nome_razao_social.clone(),
            emit_ie: doc.emitente_inscricao_estadual.clone(),
            valor: doc.valor_nfe,
            data: doc.data_evento.map(|d| d.date_naive()),
            tipo: doc.tipo_nfe,
            protocolo: doc.numero_protocolo.clone(),
            xml: None,
            doc_id: Some(doc.id.clone()),
            origem: "DISTRIBUICAO",
        }
    }

    pub(super) fn from_xml(
        h: NfeHeader,
        xml: Vec<u8>,
        nsu: Option<i64>,
        doc_id: Option<String>,
        origem: &'static str,
    ) -> Incoming {
        Incoming {
            nsu,
            emit_cnpj: Some(h.emitente_cnpj),
            emit_nome: Some(h.emitente_nome),
            emit_ie: Some(h.emitente_ie).filter(|s| !s.is_empty()),
            valor: Some(h.valor),
            data: h.emissao.map(|d| d.date_naive()),
            tipo: h.tipo,
            protocolo: h.protocolo,
            xml: Some(xml),
            doc_id,
            origem,
            key: h.key,
        }
    }
}

/// Writes the NF-e: a new key is a new row; a known one keeps what it had and
/// takes the whole XML when it comes. True when the row is new.
pub(super) async fn upsert(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    i: &Incoming,
) -> Result<bool> {
    let existing: Option<i64> = sqlx::query_scalar(
        "SELECT man_id FROM fiscal.manifestonfe WHERE client_id = $1 AND man_emp_id = $2 AND man_chave = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(&i.key.key)
    .fetch_optional(&mut **tx)
    .await?;
    let complete = i.xml.is_some();
    match existing {
        Some(id) => {
            if complete {
                sqlx::query(
                    "UPDATE fiscal.manifestonfe SET man_xml = $4, man_completa = true,
                         man_doc_id = coalesce($5, man_doc_id), man_nsu = coalesce($6, man_nsu),
                         man_protocolo = coalesce(man_protocolo, $7), man_emit_ie = coalesce(man_emit_ie, $8)
                     WHERE client_id = $1 AND man_emp_id = $2 AND man_id = $3",
                )
                .bind(client)
                .bind(emp)
                .bind(id)
                .bind(&i.xml)
                .bind(&i.doc_id)
                .bind(i.nsu)
                .bind(&i.protocolo)
                .bind(&i.emit_ie)
                .execute(&mut **tx)
                .await?;
            }
            Ok(false)
        }
        None => {
            let id = next_id(tx, client, emp).await?;
            sqlx::query(
                "INSERT INTO fiscal.manifestonfe (client_id, man_emp_id, man_id, man_chave, man_numero, man_serie,
                     man_data, man_origem, man_nsu, man_emit_cnpj, man_emit_nome, man_emit_ie, man_valor, man_tipo_nfe,
                     man_protocolo, man_completa, man_doc_id, man_xml, man_usr_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(&i.key.key)
            .bind(i.key.numero)
            .bind(i.key.serie)
            .bind(i.data)
            .bind(i.origem)
            .bind(i.nsu)
            .bind(i.emit_cnpj.clone().unwrap_or_else(|| i.key.cnpj.clone()))
            .bind(&i.emit_nome)
            .bind(&i.emit_ie)
            .bind(i.valor)
            .bind(i.tipo)
            .bind(&i.protocolo)
            .bind(complete)
            .bind(&i.doc_id)
            .bind(&i.xml)
            .bind(user)
            .execute(&mut **tx)
            .await?;
            Ok(true)
        }
    }
}

/// The whole NF-e of a distributed document, when it is one; `None` for a
/// summary or an event.
pub(super) async fn whole(
    nf: &NuvemFiscal,
    doc: &DistribuicaoNfeDocumento,
) -> Result<Option<Incoming>> {
    if doc.resumo != Some(false) || doc.tipo_documento.as_deref() == Some("evento") {
        return Ok(None);
    }
    let xml = nf
        .baixar_xml_documento_distribuicao(&doc.id)
        .await
        .map_err(provider_error)?;
    let h = NfeHeader::read(&xml).map_err(|e| {
        Error::Unavailable(format!(
            "A SEFAZ distribuiu um XML que não é de NF-e ({e})."
        ))
    })?;
    Ok(Some(Incoming::from_xml(
        h,
        xml,
        doc.nsu,
        Some(doc.id.clone()),
        "DISTRIBUICAO",
    )))
}
