//! The files the fake serves for an authorised document: a minimal
//! `nfeProc` / `cteProc` / `mdfeProc` XML carrying the key and the protocol,
//! and a one-page PDF standing in for the DANFE / DACTE / DAMDFE.

use std::fmt::Write;

use super::state::{Kind, StoredDoc};

/// The processed XML: the document (identification, emitter, total, with
/// the layout's tag names) and its authorisation protocol.
pub fn xml(doc: &StoredDoc) -> String {
    struct Layout {
        root: &'static str,
        inner: &'static str,
        inf: &'static str,
        prot: &'static str,
        key: &'static str,
        ns: &'static str,
        versao: &'static str,
        number: &'static str,
        total: (&'static str, &'static str, &'static str),
    }
    let l = match doc.kind {
        Kind::Nfe => Layout {
            root: "nfeProc",
            inner: "NFe",
            inf: "infNFe",
            prot: "protNFe",
            key: "chNFe",
            ns: "nfe",
            versao: "4.00",
            number: "nNF",
            total: ("total", "ICMSTot", "vNF"),
        },
        Kind::Cte => Layout {
            root: "cteProc",
            inner: "CTe",
            inf: "infCte",
            prot: "protCTe",
            key: "chCTe",
            ns: "cte",
            versao: "4.00",
            number: "nCT",
            total: ("vPrest", "", "vTPrest"),
        },
        Kind::Mdfe => Layout {
            root: "mdfeProc",
            inner: "MDFe",
            inf: "infMDFe",
            prot: "protMDFe",
            key: "chMDFe",
            ns: "mdfe",
            versao: "3.00",
            number: "nMDF",
            total: ("tot", "", "vCarga"),
        },
    };
    let dfe = &doc.dfe;
    let chave = dfe.chave.as_deref().unwrap_or_default();
    let aut = dfe.autorizacao.as_ref();
    let protocolo = aut
        .and_then(|a| a.numero_protocolo.as_deref())
        .unwrap_or_default();
    let c_stat = aut.and_then(|a| a.codigo_status).unwrap_or_default();
    let x_motivo = escape(
        aut.and_then(|a| a.motivo_status.as_deref())
            .unwrap_or_default(),
    );
    let recebido = aut
        .and_then(|a| a.data_recebimento)
        .map(|d| d.to_rfc3339())
        .unwrap_or_default();
    let tp_amb = dfe.ambiente.unwrap_or_default().tp_amb();
    let id_tag = if doc.cpf_cnpj.len() == 11 {
        "CPF"
    } else {
        "CNPJ"
    };
    let total = dfe.valor_total.unwrap_or_default();
    let (group, sub, value) = l.total;
    let total = if sub.is_empty() {
        format!("<{group}><{value}>{total}</{value}></{group}>")
    } else {
        format!("<{group}><{sub}><{value}>{total}</{value}></{sub}></{group}>")
    };
    let mut out = String::from(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = write!(
        out,
        r#"<{root} xmlns="http://www.portalfiscal.inf.br/{ns}" versao="{versao}"><{inner}><{inf} Id="{inner}{chave}" versao="{versao}"><ide><mod>{modelo}</mod><serie>{serie}</serie><{number}>{numero}</{number}><tpAmb>{tp_amb}</tpAmb></ide><emit><{id_tag}>{emit}</{id_tag}></emit>{total}</{inf}></{inner}>"#,
        root = l.root,
        ns = l.ns,
        versao = l.versao,
        inner = l.inner,
        inf = l.inf,
        number = l.number,
        modelo = dfe.modelo.unwrap_or_default(),
        serie = dfe.serie.unwrap_or_default(),
        numero = dfe.numero.unwrap_or_default(),
        emit = escape(&doc.cpf_cnpj),
    );
    let _ = write!(
        out,
        r#"<{prot} versao="{versao}"><infProt><tpAmb>{tp_amb}</tpAmb><{key}>{chave}</{key}><dhRecbto>{recebido}</dhRecbto><nProt>{protocolo}</nProt><cStat>{c_stat}</cStat><xMotivo>{x_motivo}</xMotivo></infProt></{prot}></{root}>"#,
        prot = l.prot,
        versao = l.versao,
        key = l.key,
        root = l.root,
    );
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A valid one-page PDF with the document's title, number, key and protocol.
pub fn pdf(doc: &StoredDoc) -> Vec<u8> {
    let title = match doc.kind {
        Kind::Nfe => "DANFE",
        Kind::Cte => "DACTE",
        Kind::Mdfe => "DAMDFE",
    };
    let dfe = &doc.dfe;
    let protocolo = dfe
        .autorizacao
        .as_ref()
        .and_then(|a| a.numero_protocolo.clone())
        .unwrap_or_default();
    let lines = [
        format!("{title} - documento de demonstracao (Nuvem Fiscal simulada)"),
        format!(
            "Numero {} Serie {}",
            dfe.numero.unwrap_or_default(),
            dfe.serie.unwrap_or_default()
        ),
        format!("Chave {}", dfe.chave.as_deref().unwrap_or_default()),
        format!("Protocolo {protocolo}"),
        format!("Situacao {}", dfe.status.as_str()),
    ];
    let mut text = String::from("BT /F1 11 Tf 50 780 Td 16 TL");
    for line in &lines {
        let _ = write!(text, " ({}) '", pdf_escape(line));
    }
    text.push_str(" ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{text}\nendstream", text.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = String::from("%PDF-1.4\n");
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        let _ = write!(out, "{} 0 obj\n{body}\nendobj\n", i + 1);
    }
    let xref = out.len();
    let _ = write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for o in offsets {
        let _ = writeln!(out, "{o:010} 00000 n ");
    }
    let _ = write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    out.into_bytes()
}

/// PDF literal strings: only ASCII here, with `\`, `(` and `)` escaped.
fn pdf_escape(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii)
        .flat_map(|c| match c {
            '\\' | '(' | ')' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}
