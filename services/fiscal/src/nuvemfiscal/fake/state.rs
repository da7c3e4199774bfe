//! What the fake server remembers, in memory: issued tokens, documents,
//! companies, the requests it received and the failures it was told to
//! inject.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use axum::http::Method;

use crate::nuvemfiscal::paths::{DocPaths, CTE, MDFE, NFE};
use crate::nuvemfiscal::types::{
    Dfe, Empresa, EmpresaCertificado, EmpresaConfigCte, EmpresaConfigCteOs, EmpresaConfigDce,
    EmpresaConfigDistribuicaoNfe, EmpresaConfigMdfe, EmpresaConfigNfce, EmpresaConfigNfcom,
    EmpresaConfigNfe, EmpresaConfigNfse,
};

/// Document type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Nfe,
    Cte,
    Mdfe,
}

impl Kind {
    pub fn paths(self) -> &'static DocPaths {
        match self {
            Kind::Nfe => &NFE,
            Kind::Cte => &CTE,
            Kind::Mdfe => &MDFE,
        }
    }

    pub fn modelo(self) -> u32 {
        match self {
            Kind::Nfe => 55,
            Kind::Cte => 57,
            Kind::Mdfe => 58,
        }
    }

    /// "NF-e", "CT-e", "MDF-e", for messages.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Nfe => "NF-e",
            Kind::Cte => "CT-e",
            Kind::Mdfe => "MDF-e",
        }
    }

    /// The id prefix, like the provider's (`nfe_...`).
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Nfe => "nfe",
            Kind::Cte => "cte",
            Kind::Mdfe => "mdfe",
        }
    }
}

/// What the SEFAZ will answer when a pending document is next looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Authorize,
    Reject { c_stat: i32, x_motivo: String },
}

#[derive(Debug, Clone)]
pub struct StoredDoc {
    pub kind: Kind,
    /// Emitter, digits only.
    pub cpf_cnpj: String,
    pub dfe: Dfe,
    pub outcome: Outcome,
    /// Order of creation, for listings (newest first).
    pub seq: u64,
    /// Last `numero_sequencial` of its correction letters.
    pub cartas: i32,
    /// Looks (consults, synchronisations...) still answered `pendente`
    /// before the SEFAZ's answer is given.
    pub pending_looks: u32,
}

#[derive(Debug, Clone, Default)]
pub struct StoredEmpresa {
    pub empresa: Empresa,
    pub nfe: Option<EmpresaConfigNfe>,
    pub nfce: Option<EmpresaConfigNfce>,
    pub cte: Option<EmpresaConfigCte>,
    pub mdfe: Option<EmpresaConfigMdfe>,
    pub nfse: Option<EmpresaConfigNfse>,
    pub cteos: Option<EmpresaConfigCteOs>,
    pub dce: Option<EmpresaConfigDce>,
    pub distnfe: Option<EmpresaConfigDistribuicaoNfe>,
    pub nfcom: Option<EmpresaConfigNfcom>,
    pub certificado: Option<EmpresaCertificado>,
    /// MIME type and bytes.
    pub logotipo: Option<(&'static str, Vec<u8>)>,
}

/// A rule that makes the SEFAZ reject an NF-e with one of its items' NCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NcmRejection {
    pub ncm: String,
    pub c_stat: i32,
    pub x_motivo: String,
}

/// Answers to inject instead of the real ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Injected {
    /// Requests still to answer with `status` before reaching the handler.
    pub before: usize,
    /// Requests still to handle and then answer with `status` (the work is
    /// done, the answer is lost: an emission creates its document).
    pub after: usize,
    pub status: u16,
    pub retry_after: Option<Duration>,
}

#[derive(Debug)]
pub struct State {
    pub client_id: String,
    pub client_secret: String,
    pub token_ttl: Duration,
    pub tokens: HashMap<String, Instant>,
    pub token_requests: usize,
    /// Method and path of every API request received (token requests apart).
    pub requests: Vec<(Method, String)>,
    pub injected: Injected,
    pub ncm_rejections: Vec<NcmRejection>,
    /// How many looks the documents emitted from now on stay `pendente`.
    pub pending_looks: u32,
    pub docs: HashMap<String, StoredDoc>,
    pub empresas: BTreeMap<String, StoredEmpresa>,
    pub next_seq: u64,
    /// Distribuição de NF-e and manifestations.
    pub dist: super::distribution::DistState,
}

impl State {
    pub fn new(client_id: &str, client_secret: &str) -> State {
        State {
            client_id: client_id.to_string(),
            client_secret: client_secret.to_string(),
            token_ttl: Duration::from_secs(3600),
            tokens: HashMap::new(),
            token_requests: 0,
            requests: Vec::new(),
            injected: Injected::default(),
            ncm_rejections: vec![NcmRejection {
                ncm: "00000000".into(),
                c_stat: 778,
                x_motivo: "Rejeição: Informado NCM inexistente".into(),
            }],
            pending_looks: 0,
            docs: HashMap::new(),
            empresas: BTreeMap::new(),
            next_seq: 1,
            dist: Default::default(),
        }
    }

    pub fn next_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }
}
