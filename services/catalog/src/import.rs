//! Importers of the official code tables no registry package ships: the NCM table
//! of Receita Federal/Siscomex and IBGE's CNAE 2.3 subclasses. Both read a CSV file
//! (UTF-8 or Windows-1252, `;`, `,` or tab separated; the delimiter and the header
//! row are detected) and upsert by code, so importing a newer table updates the
//! descriptions and adds the new codes without touching what refers to them.
//!
//! Accepted layouts (details in services/catalog/data/README.md):
//! - NCM: the "Tabela NCM" export, header `Código;Descrição;Data Início;Data Fim;
//!   Ato Legal Início;Número;Ano` (only the first two are required). Chapters,
//!   positions and subpositions (codes with fewer than 8 digits) are skipped.
//! - CNAE: the subclasses table, either the detailed structure
//!   `Seção;Divisão;Grupo;Classe;Subclasse;Denominação` (rows above subclass level
//!   are skipped) or a flat `Subclasse;Denominação` / `Código;Descrição` file; a file
//!   without a header is read as code, description.

use std::collections::BTreeMap;
use std::path::Path;

use erp_platform::db::Db;
use erp_platform::{Error, Result};

use crate::resources::reference::{cnae_section, digits_only};

/// Rows per INSERT statement.
const BATCH: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NcmRow {
    pub codigo: String,
    pub descricao: String,
    /// ISO dates (yyyy-MM-dd).
    pub data_inicio: Option<String>,
    pub data_fim: Option<String>,
    pub ato_legal: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnaeRow {
    pub codigo: String,
    pub descricao: String,
}

/// Text of the file: UTF-8 when valid, else Windows-1252 (IBGE and Receita files).
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| cp1252(b)).collect(),
    }
}

fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[(b - 0x80) as usize],
        _ => char::from(b),
    }
}

/// Header names compared without accents, case, spaces or punctuation.
fn norm(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            let c = match c.to_lowercase().next().unwrap_or(c) {
                'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
                'é' | 'ê' | 'è' => 'e',
                'í' | 'î' => 'i',
                'ó' | 'ô' | 'õ' | 'ö' => 'o',
                'ú' | 'ü' => 'u',
                'ç' => 'c',
                other => other,
            };
            c.is_ascii_alphanumeric().then_some(c)
        })
        .collect()
}

fn records(text: &str) -> Result<Vec<Vec<String>>> {
    let sample: String = text.lines().take(20).collect::<Vec<_>>().join("\n");
    let delimiter = [b';', b'\t', b',']
        .into_iter()
        .max_by_key(|d| sample.matches(char::from(*d)).count())
        .unwrap_or(b';');
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec
            .map_err(|e| Error::validation(format!("Linha {} do arquivo inválida: {e}", i + 1)))?;
        out.push(rec.iter().map(str::to_string).collect());
    }
    Ok(out)
}

/// Index of the header row and the position of each wanted column (by the first
/// name of `names[i]` that matches a cell, compared normalised).
fn header(rows: &[Vec<String>], names: &[&[&str]]) -> Option<(usize, Vec<Option<usize>>)> {
    rows.iter().take(30).enumerate().find_map(|(i, row)| {
        let cells: Vec<String> = row.iter().map(|c| norm(c)).collect();
        let cols: Vec<Option<usize>> = names
            .iter()
            .map(|alts| alts.iter().find_map(|n| cells.iter().position(|c| c == n)))
            .collect();
        (cols[0].is_some() && cols[1].is_some()).then_some((i, cols))
    })
}

fn cell(row: &[String], col: Option<usize>) -> Option<String> {
    col.and_then(|c| row.get(c))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Leaf descriptions start with the dashes of their level (`-- Reprodutores`).
fn clean_description(s: &str) -> String {
    s.trim_start_matches(|c: char| c == '-' || c == '–' || c.is_whitespace())
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// dd/MM/yyyy or yyyy-MM-dd; 31/12/9999 (no end) becomes none.
fn iso_date(s: Option<String>) -> Option<String> {
    let s = s?;
    let d = if s.contains('/') {
        erp_platform::validators::parse_br_date(&s).ok()?
    } else {
        erp_platform::validators::parse_api_date(s.get(..10)?).ok()?
    };
    let iso = d.to_string();
    (!iso.starts_with("9999")).then_some(iso)
}

pub fn parse_ncm(bytes: &[u8]) -> Result<Vec<NcmRow>> {
    let rows = records(&decode(bytes))?;
    let names: &[&[&str]] = &[
        &["codigo", "ncm", "codigoncm", "cod"],
        &["descricao", "descricaoncm", "desc"],
        &["datainicio", "iniciovigencia", "datainiciovigencia"],
        &["datafim", "fimvigencia", "datafimvigencia"],
        &["atolegalinicio", "atolegal", "tipoatoini", "tipoato"],
        &["numero", "numeroato", "numeroatoini"],
        &["ano", "anoato", "anoatoini"],
    ];
    let (start, cols) = match header(&rows, names) {
        Some((i, cols)) => (i + 1, cols),
        None => (0, vec![Some(0), Some(1), None, None, None, None, None]),
    };
    let mut by_code = BTreeMap::new();
    for row in &rows[start..] {
        let Some(code) = cell(row, cols[0]).map(|c| digits_only(&c)) else {
            continue;
        };
        if code.len() != 8 {
            continue;
        }
        let descricao = clean_description(&cell(row, cols[1]).unwrap_or_default());
        if descricao.is_empty() {
            continue;
        }
        let ato = match (cell(row, cols[4]), cell(row, cols[5]), cell(row, cols[6])) {
            (Some(t), Some(n), Some(a)) => Some(format!("{t} {n}/{a}")),
            (Some(t), Some(n), None) => Some(format!("{t} {n}")),
            (Some(t), None, _) => Some(t),
            _ => None,
        };
        by_code.insert(
            code.clone(),
            NcmRow {
                codigo: code,
                descricao,
                data_inicio: iso_date(cell(row, cols[2])),
                data_fim: iso_date(cell(row, cols[3])),
                ato_legal: ato,
            },
        );
    }
    if by_code.is_empty() {
        return Err(Error::validation(
            "Nenhum NCM de 8 dígitos encontrado no arquivo: confira o formato (Código;Descrição).",
        ));
    }
    Ok(by_code.into_values().collect())
}

pub fn parse_cnae(bytes: &[u8]) -> Result<Vec<CnaeRow>> {
    let rows = records(&decode(bytes))?;
    let names: &[&[&str]] = &[
        &["subclasse", "codigosubclasse", "cnae", "codigo", "cod"],
        &[
            "denominacao",
            "descricao",
            "descricaosubclasse",
            "atividade",
        ],
    ];
    let (start, cols) = match header(&rows, names) {
        Some((i, cols)) => (i + 1, cols),
        None => (0, vec![Some(0), Some(1)]),
    };
    let mut by_code = BTreeMap::new();
    for row in &rows[start..] {
        let Some(code) = cell(row, cols[0]).map(|c| digits_only(&c)) else {
            continue;
        };
        if code.len() != 7 || cnae_section(&code[..2]).is_none() {
            continue;
        }
        let descricao = clean_description(&cell(row, cols[1]).unwrap_or_default());
        if descricao.is_empty() {
            continue;
        }
        by_code.insert(code.clone(), CnaeRow { codigo: code, descricao });
    }
    if by_code.is_empty() {
        return Err(Error::validation(
            "Nenhuma subclasse CNAE de 7 dígitos encontrada no arquivo: confira o formato (Subclasse;Denominação).",
        ));
    }
    Ok(by_code.into_values().collect())
}

async fn read(path: &Path) -> Result<Vec<u8>> {
    tokio::fs::read(path).await.map_err(|e| {
        Error::validation(format!(
            "Não foi possível ler o arquivo {}: {e}",
            path.display()
        ))
    })
}

/// Imports the NCM table from `path`; returns how many codes were written.
pub async fn import_ncm(db: &Db, path: &Path) -> Result<usize> {
    let rows = parse_ncm(&read(path).await?)?;
    let mut tx = db.begin().await?;
    for chunk in rows.chunks(BATCH) {
        let col = |f: fn(&NcmRow) -> Option<String>| chunk.iter().map(f).collect::<Vec<_>>();
        sqlx::query(
            "INSERT INTO catalog.ncm (ncm_codigo, ncm_descricao, ncm_data_inicio, ncm_data_fim, ncm_ato_legal)
             SELECT c, d, i::date, f::date, a
             FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(c, d, i, f, a)
             ON CONFLICT (ncm_codigo) DO UPDATE SET
                 ncm_descricao = EXCLUDED.ncm_descricao,
                 ncm_data_inicio = EXCLUDED.ncm_data_inicio,
                 ncm_data_fim = EXCLUDED.ncm_data_fim,
                 ncm_ato_legal = EXCLUDED.ncm_ato_legal",
        )
        .bind(col(|r| Some(r.codigo.clone())))
        .bind(col(|r| Some(r.descricao.clone())))
        .bind(col(|r| r.data_inicio.clone()))
        .bind(col(|r| r.data_fim.clone()))
        .bind(col(|r| r.ato_legal.clone()))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    tracing::info!(rows = rows.len(), "NCM importado");
    Ok(rows.len())
}

/// Imports the CNAE subclasses from `path`; returns how many codes were written.
pub async fn import_cnae(db: &Db, path: &Path) -> Result<usize> {
    let rows = parse_cnae(&read(path).await?)?;
    let mut tx = db.begin().await?;
    for chunk in rows.chunks(BATCH) {
        let codes: Vec<&str> = chunk.iter().map(|r| r.codigo.as_str()).collect();
        let descs: Vec<&str> = chunk.iter().map(|r| r.descricao.as_str()).collect();
        let sections: Vec<Option<&str>> =
            chunk.iter().map(|r| cnae_section(&r.codigo[..2])).collect();
        sqlx::query(
            "INSERT INTO catalog.cnaes (cnae_codigo, cnae_descricao, cnae_secao, cnae_divisao, cnae_grupo, cnae_classe)
             SELECT c, d, s, left(c, 2), left(c, 3), left(c, 5)
             FROM UNNEST($1::text[], $2::text[], $3::text[]) AS t(c, d, s)
             ON CONFLICT (cnae_codigo) DO UPDATE SET
                 cnae_descricao = EXCLUDED.cnae_descricao,
                 cnae_secao = EXCLUDED.cnae_secao,
                 cnae_divisao = EXCLUDED.cnae_divisao,
                 cnae_grupo = EXCLUDED.cnae_grupo,
                 cnae_classe = EXCLUDED.cnae_classe",
        )
        .bind(codes)
        .bind(descs)
        .bind(sections)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    tracing::info!(rows = rows.len(), "CNAE importado");
    Ok(rows.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ncm_export_keeps_only_eight_digit_codes() {
        let csv = "Data da última atualização: 01/01/2026\n\
                   \"Código\";\"Descrição\";\"Data Início\";\"Data Fim\";\"Ato Legal Início\";\"Número\";\"Ano\"\n\
                   \"01\";\"Animais vivos.\";\"01/04/2022\";\"31/12/9999\";\"Res Camex\";\"272\";\"2021\"\n\
                   \"0101.2\";\"- Cavalos:\";\"01/04/2022\";\"31/12/9999\";\"Res Camex\";\"272\";\"2021\"\n\
                   \"0101.21.00\";\"-- Reprodutores de raça pura\";\"01/04/2022\";\"31/12/9999\";\"Res Camex\";\"272\";\"2021\"\n";
        let rows = parse_ncm(csv.as_bytes()).expect("parse");
        assert_eq!(
            rows,
            vec![NcmRow {
                codigo: "01012100".into(),
                descricao: "Reprodutores de raça pura".into(),
                data_inicio: Some("2022-04-01".into()),
                data_fim: None,
                ato_legal: Some("Res Camex 272/2021".into()),
            }]
        );
    }

    #[test]
    fn cnae_detailed_structure_and_windows_1252() {
        let mut bytes =
            b"Se\xe7\xe3o;Divis\xe3o;Grupo;Classe;Subclasse;Denomina\xe7\xe3o\n".to_vec();
        bytes.extend_from_slice(b"A;;;;;AGRICULTURA, PECU\xc1RIA\n;01;;;;PRODU\xc7\xc3O\n");
        bytes
            .extend_from_slice(b";;;01.11-3;;Cultivo de cereais\n;;;;0111-3/01;Cultivo de arroz\n");
        let rows = parse_cnae(&bytes).expect("parse");
        assert_eq!(
            rows,
            vec![CnaeRow { codigo: "0111301".into(), descricao: "Cultivo de arroz".into() }]
        );
    }

    #[test]
    fn headerless_files_are_code_then_description() {
        let rows = parse_cnae(b"\"0111301\";\"Cultivo de arroz\"\n\"4711302\";\"Supermercados\"\n")
            .expect("parse");
        assert_eq!(rows.len(), 2);
        assert!(parse_ncm(b"nada;aqui\n").is_err());
    }
}
