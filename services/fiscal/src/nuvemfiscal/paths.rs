//! The endpoints of the Nuvem Fiscal API that the client calls and the fake
//! server answers, as the OpenAPI description writes them (axum 0.8 uses the
//! same `{param}` syntax, so the fake routes on these very strings). A test
//! checks every one against the spec's `paths`.

/// Routes of one document type (NF-e, CT-e or MDF-e).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocPaths {
    /// `GET` (list by `cpf_cnpj`, `ambiente`, `referencia`) and `POST` (emit).
    pub root: &'static str,
    /// `GET`: consult.
    pub id: &'static str,
    /// `POST`: cancel.
    pub cancelamento: &'static str,
    /// `POST`: synchronise with the SEFAZ.
    pub sincronizar: &'static str,
    /// `GET`: the authorised XML (with the protocol).
    pub xml: &'static str,
    /// `GET`: the DANFE / DACTE / DAMDFE.
    pub pdf: &'static str,
}

pub const NFE: DocPaths = DocPaths {
    root: "/nfe",
    id: "/nfe/{id}",
    cancelamento: "/nfe/{id}/cancelamento",
    sincronizar: "/nfe/{id}/sincronizar",
    xml: "/nfe/{id}/xml",
    pdf: "/nfe/{id}/pdf",
};
pub const NFE_CARTA_CORRECAO: &str = "/nfe/{id}/carta-correcao";

pub const CTE: DocPaths = DocPaths {
    root: "/cte",
    id: "/cte/{id}",
    cancelamento: "/cte/{id}/cancelamento",
    sincronizar: "/cte/{id}/sincronizar",
    xml: "/cte/{id}/xml",
    pdf: "/cte/{id}/pdf",
};

pub const MDFE: DocPaths = DocPaths {
    root: "/mdfe",
    id: "/mdfe/{id}",
    cancelamento: "/mdfe/{id}/cancelamento",
    sincronizar: "/mdfe/{id}/sincronizar",
    xml: "/mdfe/{id}/xml",
    pdf: "/mdfe/{id}/pdf",
};
pub const MDFE_ENCERRAMENTO: &str = "/mdfe/{id}/encerramento";

/// Distribuição de NF-e: the documents issued against a company.
pub const DISTRIBUICAO_NFE: &str = "/distribuicao/nfe";
pub const DISTRIBUICAO_NFE_ID: &str = "/distribuicao/nfe/{id}";
pub const DISTRIBUICAO_NFE_DOCUMENTO_XML: &str = "/distribuicao/nfe/documentos/{id}/xml";
pub const DISTRIBUICAO_NFE_MANIFESTACOES: &str = "/distribuicao/nfe/manifestacoes";

pub const EMPRESAS: &str = "/empresas";
pub const EMPRESA: &str = "/empresas/{cpf_cnpj}";
pub const EMPRESA_NFE: &str = "/empresas/{cpf_cnpj}/nfe";
pub const EMPRESA_NFCE: &str = "/empresas/{cpf_cnpj}/nfce";
pub const EMPRESA_CTE: &str = "/empresas/{cpf_cnpj}/cte";
pub const EMPRESA_MDFE: &str = "/empresas/{cpf_cnpj}/mdfe";
pub const EMPRESA_NFSE: &str = "/empresas/{cpf_cnpj}/nfse";
pub const EMPRESA_CTEOS: &str = "/empresas/{cpf_cnpj}/cteos";
pub const EMPRESA_DCE: &str = "/empresas/{cpf_cnpj}/dce";
pub const EMPRESA_DISTNFE: &str = "/empresas/{cpf_cnpj}/distnfe";
pub const EMPRESA_NFCOM: &str = "/empresas/{cpf_cnpj}/nfcom";
pub const EMPRESA_CERTIFICADO: &str = "/empresas/{cpf_cnpj}/certificado";
pub const EMPRESA_LOGOTIPO: &str = "/empresas/{cpf_cnpj}/logotipo";

/// Every (method, path) the client uses.
pub const USED: &[(&str, &str)] = &[
    ("GET", NFE.root),
    ("POST", NFE.root),
    ("GET", NFE.id),
    ("POST", NFE.cancelamento),
    ("POST", NFE.sincronizar),
    ("GET", NFE.xml),
    ("GET", NFE.pdf),
    ("POST", NFE_CARTA_CORRECAO),
    ("GET", CTE.root),
    ("POST", CTE.root),
    ("GET", CTE.id),
    ("POST", CTE.cancelamento),
    ("POST", CTE.sincronizar),
    ("GET", CTE.xml),
    ("GET", CTE.pdf),
    ("POST", CTE_CARTA_CORRECAO),
    ("GET", MDFE.root),
    ("POST", MDFE.root),
    ("GET", MDFE.id),
    ("POST", MDFE.cancelamento),
    ("POST", MDFE.sincronizar),
    ("GET", MDFE.xml),
    ("GET", MDFE.pdf),
    ("POST", MDFE_ENCERRAMENTO),
    ("POST", DISTRIBUICAO_NFE),
    ("GET", DISTRIBUICAO_NFE_ID),
    ("GET", DISTRIBUICAO_NFE_DOCUMENTO_XML),
    ("POST", DISTRIBUICAO_NFE_MANIFESTACOES),
    ("GET", EMPRESAS),
    ("POST", EMPRESAS),
    ("GET", EMPRESA),
    ("PUT", EMPRESA),
    ("DELETE", EMPRESA),
    ("GET", EMPRESA_NFE),
    ("PUT", EMPRESA_NFE),
    ("PUT", EMPRESA_NFCE),
    ("PUT", EMPRESA_CTE),
    ("PUT", EMPRESA_MDFE),
    ("PUT", EMPRESA_NFSE),
    ("PUT", EMPRESA_CTEOS),
    ("PUT", EMPRESA_DCE),
    ("PUT", EMPRESA_DISTNFE),
    ("PUT", EMPRESA_NFCOM),
    ("GET", EMPRESA_CERTIFICADO),
    ("PUT", EMPRESA_CERTIFICADO),
    ("DELETE", EMPRESA_CERTIFICADO),
    ("PUT", EMPRESA_LOGOTIPO),
    ("DELETE", EMPRESA_LOGOTIPO),
];

/// `template` with its one `{param}` replaced by `value`, percent-encoded as a
/// path segment (ids and CNPJs are plain, but a stray `/` must not change the
/// route).
pub fn fill(template: &str, value: &str) -> String {
    let Some(start) = template.find('{') else {
        return template.to_string();
    };
    let end = template[start..]
        .find('}')
        .map_or(template.len(), |i| start + i + 1);
    let mut out = String::with_capacity(template.len() + value.len());
    out.push_str(&template[..start]);
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.push_str(&template[end..]);
    out
}

/// `POST`: a CT-e's correction letter (`CtePedidoCartaCorrecao`).
pub const CTE_CARTA_CORRECAO: &str = "/cte/{id}/carta-correcao";
