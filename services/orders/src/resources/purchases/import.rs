//! Importing a supplier's NF-e XML (`POST /compra/uploads/{emp}`) as an open
//! purchase.
//!
//! The gateway stored the uploaded file (`<data dir>/uploads/<client>/<emp>/<name>`,
//! the name its own) and passes its name as `arquivo`; the file is read from there
//! (bounded by `nfe_xml::MAX_XML_BYTES` before reading) and parsed by `nfe_xml`, which
//! refuses what is not an NF-e, malformed XML, DTD/entity declarations (XML bombs)
//! and a wrong access-key check digit. Any refusal answers 400 in Portuguese, writes
//! nothing and removes the stored file; an access key already imported in the
//! company answers 409 naming the purchase.
//!
//! What is read: `ide` (model, series, number, issue date, nature of operation), the
//! access key, `emit` (the supplier: matched by CPF/CNPJ in orders' copy of
//! catalog's suppliers; when unknown, created in catalog's supplier register from
//! `emit` — name, fantasy name, CPF/CNPJ, IE, address, IBGE city — and named on the
//! purchase, `avisos` saying so; when catalog cannot create it, its name, document,
//! IE and city are kept on the purchase and `avisos` says why), `det` (each item
//! with its per-item values),
//! `transp` (carrier and freight mode), `cobr/dup` (the instalments), `infAdic`
//! (remarks). Items are matched to products by the supplier's code (the links
//! written when a user linked an item before), then by GTIN (`cEAN`, then
//! `cEANTrib`, when exactly one product has it), else left `novo` for the user to
//! link or create. The conversion factor of a linked code is the one recorded; else
//! `qTrib / qCom` when the NF-e counts the taxable unit apart (a box of 12: 12).
//!
//! The purchase's totals are the engine's sums of the items; when they differ from
//! `ICMSTot` (an item outside the total, import duty, rounding) the NF-e's totals are
//! kept as the typed totals (COMP_MAN_*) with the difference shown, and `avisos`
//! says so. An NF-e addressed to another CPF/CNPJ than the company's, one from the
//! homologation environment or without its authorisation protocol is imported with a
//! warning.
//!
//! Answer: `{"compra": <header row>, "itens": [<item rows, each with "VINCULO":
//! "fornecedor" | "gtin" | "novo">], "avisos": [<pt-BR texts>]}`.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Date, Dec, Operation, Row, RowOf, Upload};
use erp_platform::resource::{query, record, Resource};
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::register_body;
use super::complete::{lines, CompraProduto};
use super::totals::header_components;
use super::{instalments_of, items_of};
use crate::copies::{self, gtin};
use crate::peer_registers::PeerRegisters;
use crate::purchases::nfe_xml::{self, ImportError, Item, NfeDocument};

pub(super) struct XmlImport {
    /// `<data dir>/uploads`, where the gateway stores uploaded files.
    pub uploads: PathBuf,
    /// Where catalog is reached (an unknown supplier is created there).
    pub peers: Peers,
}

/// A storage name the gateway generates: letters, digits, `.`, `_`, `-`, never a
/// path.
fn stored_name(name: &str) -> Result<&str> {
    let ok = !name.is_empty()
        && name.len() < 200
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-');
    if ok {
        Ok(name)
    } else {
        Err(Error::validation("Arquivo inválido."))
    }
}

/// `POST /compra/uploads/{emp}`: the NF-e XML the gateway stored.
#[derive(Deserialize, JsonSchema)]
pub struct XmlImportIn {
    #[serde(rename = "arquivo")]
    #[schemars(extend("x-missing" = "Arquivo é obrigatório!", "x-invalid" = "Arquivo é obrigatório!"))]
    pub file: Upload,
}

/// An item of the imported purchase: its row and how its product was matched.
#[derive(Serialize, JsonSchema)]
pub struct ImportedItem {
    #[serde(flatten)]
    pub row: RowOf<CompraProduto>,
    /// `fornecedor` (the supplier's code), `gtin` or `novo` (to link).
    #[serde(rename = "VINCULO")]
    pub link: Option<String>,
}

/// What importing answers: the purchase, its items and what a person should check.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "XmlImported")]
pub struct Imported {
    pub compra: Row,
    pub itens: Vec<ImportedItem>,
    pub avisos: Vec<String>,
}

#[async_trait]
impl Operation for XmlImport {
    type In = XmlImportIn;
    type Out = Imported;
    async fn run(&self, cx: &mut Ctx<'_>, i: XmlImportIn) -> Result<Imported> {
        let emp = cx.emp()?;
        if i.file.nome.is_empty() {
            return Err(Error::validation("Arquivo é obrigatório!"));
        }
        let name = stored_name(&i.file.nome)?;
        let path = self
            .uploads
            .join(cx.client().to_string())
            .join(emp.to_string())
            .join(name);
        let out = import(cx.tx, cx.res, cx.caller, &self.peers, emp, &path, name).await;
        if out.is_err() {
            // Nothing was kept of a refused file: its rows roll back, the file goes.
            if let Err(e) = tokio::fs::remove_file(&path).await {
                tracing::debug!(error = %e, "refused NF-e file not removed");
            }
        }
        out
    }
}

async fn read(path: &Path) -> Result<Vec<u8>> {
    let gone = |_| Error::validation("Arquivo enviado não encontrado.");
    let meta = tokio::fs::metadata(path).await.map_err(gone)?;
    if meta.len() > nfe_xml::MAX_XML_BYTES as u64 {
        return Err(Error::validation(ImportError::TooLarge.to_string()));
    }
    tokio::fs::read(path).await.map_err(gone)
}

/// CNPJ 00.000.000/0000-00 or CPF 000.000.000-00, as a person reads them.
fn formatted(doc: &str) -> String {
    let d = doc.as_bytes();
    let s = |a: usize, b: usize| doc.get(a..b).unwrap_or_default();
    match d.len() {
        14 => format!(
            "{}.{}.{}/{}-{}",
            s(0, 2),
            s(2, 5),
            s(5, 8),
            s(8, 12),
            s(12, 14)
        ),
        11 => format!("{}.{}.{}-{}", s(0, 3), s(3, 6), s(6, 9), s(9, 11)),
        _ => doc.to_string(),
    }
}

/// The entry CFOP a supplier's exit CFOP suggests (5xxx → 1xxx, 6xxx → 2xxx,
/// 7xxx → 3xxx); the user corrects the special cases.
fn entry_cfop(cfop: &str) -> Option<String> {
    let mut chars = cfop.chars();
    let first = match chars.next()? {
        '5' => '1',
        '6' => '2',
        '7' => '3',
        _ => return None,
    };
    Some(std::iter::once(first).chain(chars).collect())
}

/// How many stock units one purchase unit holds, as the NF-e tells it: `qTrib / qCom`
/// when it counts the taxable unit apart (10 CX = 120 UN: 12), else 1.
fn nfe_factor(item: &Item) -> Decimal {
    let p = &item.prod;
    if p.u_com.trim().eq_ignore_ascii_case(p.u_trib.trim()) || p.q_com <= Decimal::ZERO {
        return Decimal::ONE;
    }
    let f = (p.q_trib / p.q_com).round_dp(4);
    if f > Decimal::ZERO {
        f
    } else {
        Decimal::ONE
    }
}

/// The item's product: by the supplier's code (a link a user made), then by GTIN,
/// else none. Answers the product, how it was found and the conversion factor.
async fn match_item(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    supplier: &str,
    item: &Item,
) -> Result<(Option<i64>, &'static str, Decimal)> {
    let linked: Option<(i64, Decimal)> = sqlx::query_as(
        "SELECT v.prod_id, v.fator FROM orders.compra_vinculos v
         JOIN orders.produtos p ON p.client_id = v.client_id AND p.emp_id = v.emp_id
            AND p.prod_id = v.prod_id AND NOT p.excluido
         WHERE v.client_id = $1 AND v.emp_id = $2 AND v.forn_documento = $3 AND v.cod_fornecedor = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(supplier)
    .bind(item.prod.c_prod.trim())
    .fetch_optional(&mut **tx)
    .await?;
    if let Some((product, factor)) = linked {
        return Ok((Some(product), "fornecedor", factor));
    }
    for code in [&item.prod.c_ean, &item.prod.c_ean_trib]
        .into_iter()
        .flatten()
        .filter_map(|c| gtin(c.as_str()))
    {
        if let Some(product) = copies::product_by_gtin(tx, client, emp, &code).await? {
            return Ok((Some(product), "gtin", nfe_factor(item)));
        }
    }
    Ok((None, "novo", nfe_factor(item)))
}

/// An item of the NF-e as a body of `compraproduto`.
#[derive(Serialize)]
struct ItemBody<'a> {
    #[serde(rename = "CMPP_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPP_PROD_ID")]
    product: Option<i64>,
    #[serde(rename = "CMPP_COD_FORNECEDOR")]
    code: &'a str,
    #[serde(rename = "CMPP_DESCRICAO")]
    description: String,
    #[serde(rename = "CMPP_NCM")]
    ncm: &'a str,
    #[serde(rename = "CMPP_CEST")]
    cest: Option<&'a str>,
    #[serde(rename = "CMPP_CFOP")]
    cfop: &'a str,
    #[serde(rename = "CMPP_CST")]
    cst: Option<&'a str>,
    #[serde(rename = "CMPP_GTIN")]
    gtin: Option<String>,
    #[serde(rename = "CMPP_UNIDADE")]
    unit: &'a str,
    #[serde(rename = "CMPP_UNIDADE_ESTOQUE")]
    stock_unit: &'a str,
    #[serde(rename = "CMPP_FATOR")]
    factor: Dec,
    #[serde(rename = "CMPP_QTDE")]
    qty: Dec,
    #[serde(rename = "CMPP_VLR_UNIT")]
    price: Dec,
    #[serde(rename = "CMPP_VLR_DESC")]
    discount: Option<Dec>,
    #[serde(rename = "CMPP_VLR_FRETE")]
    freight: Option<Dec>,
    #[serde(rename = "CMPP_VLR_SEGURO")]
    insurance: Option<Dec>,
    #[serde(rename = "CMPP_VLR_OUTRAS")]
    other: Option<Dec>,
    #[serde(rename = "CMPP_PERC_IPI")]
    ipi_rate: Option<Dec>,
    #[serde(rename = "CMPP_VLR_IPI")]
    ipi: Option<Dec>,
    #[serde(rename = "CMPP_PERC_ICMS")]
    icms_rate: Option<Dec>,
    #[serde(rename = "CMPP_VLR_BC_ICMS")]
    icms_base: Option<Dec>,
    #[serde(rename = "CMPP_VLR_ICMS")]
    icms: Option<Dec>,
    #[serde(rename = "CMPP_VLR_ST")]
    st: Option<Dec>,
}

fn item_body(purchase: i64, item: &Item, product: Option<i64>, factor: Decimal) -> ItemBody<'_> {
    let p = &item.prod;
    let icms = item.taxes.icms.as_ref();
    let ipi = item.taxes.ipi.as_ref();
    let st = icms.and_then(|i| match (i.v_icms_st, i.v_fcp_st) {
        (None, None) => None,
        (st, fcp) => Some(st.unwrap_or_default() + fcp.unwrap_or_default()),
    });
    let code = [&p.c_ean, &p.c_ean_trib]
        .into_iter()
        .flatten()
        .find_map(|c| gtin(c.as_str()));
    let dec = |d: Option<Decimal>| d.map(|d| Dec(d.normalize()));
    // What one factor counts: the taxable unit when it counts apart, else the same.
    let stock_unit = if factor == Decimal::ONE {
        &p.u_com
    } else {
        &p.u_trib
    };
    ItemBody {
        purchase,
        product,
        code: p.c_prod.trim(),
        description: p.x_prod.chars().take(200).collect(),
        ncm: &p.ncm,
        cest: p.cest.as_deref(),
        cfop: &p.cfop,
        cst: icms.and_then(|i| i.cst.as_deref().or(i.csosn.as_deref())),
        gtin: code,
        unit: &p.u_com,
        stock_unit,
        factor: Dec(factor.normalize()),
        qty: Dec(p.q_com.normalize()),
        price: Dec(p.v_un_com.normalize()),
        discount: dec(p.v_desc),
        freight: dec(p.v_frete),
        insurance: dec(p.v_seg),
        other: dec(p.v_outro),
        ipi_rate: dec(ipi.and_then(|i| i.p_ipi)),
        ipi: dec(ipi.and_then(|i| i.v_ipi)),
        icms_rate: dec(icms.and_then(|i| i.p_icms)),
        icms_base: dec(icms.and_then(|i| i.v_bc)),
        icms: dec(icms.and_then(|i| i.v_icms)),
        st: dec(st),
    }
}

/// The NF-e's header as a body of `compra`.
#[derive(Serialize)]
struct HeaderBody<'a> {
    #[serde(rename = "COMP_MODELO")]
    model: String,
    #[serde(rename = "COMP_SERIE")]
    serie: String,
    #[serde(rename = "COMP_NUMERO")]
    number: u32,
    #[serde(rename = "COMP_CHAVE")]
    key: &'a str,
    #[serde(rename = "COMP_FORN_ID")]
    supplier: Option<i64>,
    #[serde(rename = "COMP_FORN_DESC")]
    supplier_name: &'a str,
    #[serde(rename = "COMP_FORN_CNPJ")]
    supplier_document: &'a str,
    #[serde(rename = "COMP_FORN_IE")]
    supplier_ie: &'a str,
    #[serde(rename = "COMP_FORN_CIDADE")]
    supplier_city: &'a str,
    #[serde(rename = "COMP_FORN_UF")]
    supplier_state: &'a str,
    #[serde(rename = "COMP_FORN_IBGE")]
    supplier_ibge: &'a str,
    #[serde(rename = "COMP_DTA_EMISSAO")]
    issued: Date,
    #[serde(rename = "COMP_DTA_ENTRADA")]
    entered: Date,
    #[serde(rename = "COMP_NATUREZA")]
    nature: String,
    #[serde(rename = "COMP_CFOP")]
    cfop: Option<String>,
    #[serde(rename = "COMP_TRANSP_DESC")]
    carrier: Option<&'a str>,
    #[serde(rename = "COMP_TRANSP_CNPJ")]
    carrier_document: Option<&'a str>,
    #[serde(rename = "COMP_MOD_FRETE")]
    freight_mode: String,
    #[serde(rename = "COMP_OBS")]
    remarks: Option<&'a str>,
}

fn header_body<'a>(
    doc: &'a NfeDocument,
    supplier: Option<&copies::SupplierCopy>,
    today: Date,
) -> HeaderBody<'a> {
    let e = &doc.emit;
    let carrier = doc.transp.transporta.as_ref();
    HeaderBody {
        model: format!("{:02}", doc.ide.model),
        serie: doc.ide.serie.to_string(),
        number: doc.ide.n_nf,
        key: doc.key(),
        supplier: supplier.map(|s| s.0),
        supplier_name: &e.x_nome,
        supplier_document: doc.emitter_document(),
        supplier_ie: &e.ie,
        supplier_city: &e.address.x_mun,
        supplier_state: &e.address.uf,
        supplier_ibge: &e.address.c_mun,
        issued: Date(doc.ide.dh_emi.date_naive()),
        entered: today,
        nature: doc.ide.nat_op.chars().take(60).collect(),
        cfop: doc.items.first().and_then(|i| entry_cfop(&i.prod.cfop)),
        carrier: carrier.and_then(|c| c.x_nome.as_deref()),
        carrier_document: carrier
            .and_then(|c| c.document.as_ref())
            .map(|d| d.number()),
        freight_mode: doc.transp.mod_frete.to_string(),
        remarks: doc.inf_adic.as_ref().and_then(|a| a.inf_cpl.as_deref()),
    }
}

/// Text of at most `n` characters, or nothing when blank.
fn clipped(s: &str, n: usize) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.chars().take(n).collect::<String>())
}

/// Catalog's supplier register body for the NF-e's `emit` (what the NF-e leaves
/// blank is left out).
#[derive(Serialize)]
struct SupplierBody {
    #[serde(rename = "FORN_DESCRICAO", skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(rename = "FORN_FANTASIA", skip_serializing_if = "Option::is_none")]
    fantasy: Option<String>,
    #[serde(rename = "FORN_CGC")]
    document: String,
    #[serde(rename = "FORN_IE", skip_serializing_if = "Option::is_none")]
    ie: Option<String>,
    #[serde(rename = "FORN_CEP", skip_serializing_if = "Option::is_none")]
    cep: Option<String>,
    #[serde(rename = "FORN_ENDERECO", skip_serializing_if = "Option::is_none")]
    street: Option<String>,
    #[serde(rename = "FORN_NUMERO", skip_serializing_if = "Option::is_none")]
    number: Option<String>,
    #[serde(rename = "FORN_COMPLEMENTO", skip_serializing_if = "Option::is_none")]
    complement: Option<String>,
    #[serde(rename = "FORN_BAIRRO", skip_serializing_if = "Option::is_none")]
    district: Option<String>,
    #[serde(rename = "FORN_CID_IBGE", skip_serializing_if = "Option::is_none")]
    ibge: Option<i64>,
    #[serde(rename = "FORN_CIDADE", skip_serializing_if = "Option::is_none")]
    city: Option<String>,
    #[serde(rename = "FORN_UF", skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(rename = "FORN_FONE", skip_serializing_if = "Option::is_none")]
    phone: Option<String>,
    #[serde(rename = "FORN_OBS")]
    notes: String,
}

fn supplier_body(doc: &NfeDocument) -> SupplierBody {
    let e = &doc.emit;
    let a = &e.address;
    // The register keeps mobile numbers (11 digits); another phone goes to the notes.
    let phone = a.fone.as_deref().map(copies::digits).unwrap_or_default();
    let mut notes = format!("Cadastrado pela importação da NF-e {}.", doc.key());
    if phone.len() != 11 && !phone.is_empty() {
        notes.push_str(&format!(" Telefone: {phone}."));
    }
    SupplierBody {
        name: clipped(&e.x_nome, 150),
        fantasy: e.x_fant.as_deref().and_then(|f| clipped(f, 150)),
        document: doc.emitter_document().to_string(),
        ie: clipped(&e.ie, 20),
        cep: a
            .cep
            .as_deref()
            .map(copies::digits)
            .filter(|c| c.len() == 8),
        street: clipped(&a.x_lgr, 150),
        number: clipped(&a.nro, 20),
        complement: a.x_cpl.as_deref().and_then(|c| clipped(c, 60)),
        district: clipped(&a.x_bairro, 60),
        ibge: a.c_mun.trim().parse::<i64>().ok(),
        city: clipped(&a.x_mun, 60),
        state: clipped(&a.uf, 2),
        phone: (phone.len() == 11).then_some(phone),
        notes,
    }
}

/// A supplier of catalog's register as the import reads it.
#[derive(Deserialize)]
struct CatalogSupplier {
    #[serde(rename = "FORN_ID")]
    id: i64,
    #[serde(rename = "FORN_DESCRICAO")]
    name: Option<String>,
    #[serde(rename = "FORN_CGC")]
    document: Option<String>,
}

/// The NF-e's supplier registered in catalog (created from `emit`; when catalog
/// already has that CPF/CNPJ and orders' copy has not caught up, the existing one):
/// the supplier and whether it was created.
async fn register_supplier(
    peers: &Peers,
    caller: &Caller,
    doc: &NfeDocument,
) -> Result<(copies::SupplierCopy, bool)> {
    let catalog = PeerRegisters::of(peers, "catalog", caller)?;
    let document = doc.emitter_document().to_string();
    let (row, created) = match catalog
        .create("fornecedor", None, &register_body(&supplier_body(doc))?)
        .await
    {
        Ok(row) => (record::from_row::<CatalogSupplier>(&row)?, true),
        Err(Error::Conflict(msg)) => {
            // The register keeps the document as it was typed: digits or masked.
            let mut found = None;
            for filter in [document.clone(), formatted(&document)] {
                for r in catalog.search("fornecedor", None, &filter, 20).await? {
                    let s: CatalogSupplier = record::from_row(&r)?;
                    if copies::digits(s.document.as_deref().unwrap_or_default()) == document {
                        found = Some(s);
                        break;
                    }
                }
                if found.is_some() {
                    break;
                }
            }
            (found.ok_or(Error::Conflict(msg))?, false)
        }
        Err(e) => return Err(e),
    };
    let name = row.name.as_deref().unwrap_or_default().trim().to_string();
    Ok(((row.id, name, Some(document)), created))
}

/// Orders' copy takes a supplier catalog just answered at once (the catalog event
/// that follows writes the same), so the next NF-e of it finds it.
async fn remember_supplier(tx: &mut Tx, client: i64, s: &copies::SupplierCopy) -> Result<()> {
    sqlx::query(
        "INSERT INTO orders.fornecedores (client_id, forn_id, descricao, documento) VALUES ($1, $2, $3, $4)
         ON CONFLICT (client_id, forn_id) DO NOTHING",
    )
    .bind(client)
    .bind(s.0)
    .bind(&s.1)
    .bind(&s.2)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn today(tx: &mut Tx) -> Result<Date> {
    let day: NaiveDate =
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
            .fetch_one(&mut **tx)
            .await?;
    Ok(Date(day))
}

/// The purchase's totals as the engine summed its items.
#[derive(sqlx::FromRow)]
struct Sums {
    products: Decimal,
    discount: Decimal,
    freight: Decimal,
    insurance: Decimal,
    other: Decimal,
    ipi: Decimal,
    st: Decimal,
    total: Decimal,
}

/// The item the engine wrote.
#[derive(Deserialize)]
struct WrittenItem {
    #[serde(rename = "CMPP_ID")]
    id: i64,
}

/// The purchase the engine wrote.
#[derive(Deserialize)]
struct WrittenPurchase {
    #[serde(rename = "COMP_ID")]
    id: i64,
}

/// An instalment of the NF-e as a body of `comprapagamentos`.
#[derive(Serialize)]
struct InstalmentBody {
    #[serde(rename = "CMPD_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPD_NUMERO")]
    number: String,
    #[serde(rename = "CMPD_DTA_VCTO")]
    due: Date,
    #[serde(rename = "CMPD_VLR_TITULO")]
    amount: Dec,
}

/// How an item's product was matched, as its row says.
#[derive(Deserialize)]
struct ItemLink {
    #[serde(rename = "CMPP_VINCULO")]
    link: Option<String>,
}

/// Keeps the NF-e's `ICMSTot` as the typed totals when the items' sums differ from
/// it; answers the components that differed.
async fn keep_nfe_totals(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    doc: &NfeDocument,
) -> Result<Vec<&'static str>> {
    let s: Sums = sqlx::query_as(
        "SELECT comp_vlr_produtos AS products, comp_vlr_desconto AS discount, comp_vlr_frete AS freight,
                comp_vlr_seguro AS insurance, comp_vlr_outras AS other, comp_vlr_ipi AS ipi,
                comp_vlr_st AS st, comp_vlr_total AS total
         FROM orders.compras WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    let t = &doc.icms_tot;
    let st = t.v_st + t.v_fcp_st;
    let differ: Vec<&'static str> = [
        ("produtos", s.products, t.v_prod),
        ("desconto", s.discount, t.v_desc),
        ("frete", s.freight, t.v_frete),
        ("seguro", s.insurance, t.v_seg),
        ("outras despesas", s.other, t.v_outro),
        ("IPI", s.ipi, t.v_ipi),
        ("ICMS ST", s.st, st),
        ("total da nota", s.total, t.v_nf),
    ]
    .into_iter()
    .filter(|(_, ours, theirs)| ours != theirs)
    .map(|(name, _, _)| name)
    .collect();
    if !differ.is_empty() {
        sqlx::query(
            "UPDATE orders.compras SET comp_totalizador_manual = true, comp_man_desconto = $4, comp_man_frete = $5,
                    comp_man_seguro = $6, comp_man_outras = $7, comp_man_ipi = $8, comp_man_st = $9,
                    comp_man_total = $10, comp_vlr_diferenca = $10 - comp_vlr_total
             WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(t.v_desc)
        .bind(t.v_frete)
        .bind(t.v_seg)
        .bind(t.v_outro)
        .bind(t.v_ipi)
        .bind(st)
        .bind(t.v_nf)
        .execute(&mut **tx)
        .await?;
    }
    Ok(differ)
}

async fn import(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    peers: &Peers,
    emp: i64,
    path: &Path,
    stored: &str,
) -> Result<Imported> {
    let client = caller.client_id;
    let bytes = read(path).await?;
    let doc = nfe_xml::parse(&bytes).map_err(|e| Error::validation(e.to_string()))?;
    let existing: Option<i64> = sqlx::query_scalar(
        "SELECT comp_id FROM orders.compras WHERE client_id = $1 AND comp_emp_id = $2 AND comp_chave = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(doc.key())
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(id) = existing {
        return Err(Error::Conflict(format!(
            "NF-e já importada: a chave de acesso {} está na compra {id}.",
            doc.key()
        )));
    }
    let mut avisos: Vec<String> = Vec::new();
    if doc.ide.tp_amb == 2 {
        avisos.push("NF-e emitida em ambiente de homologação: não tem valor fiscal.".into());
    }
    if !doc.is_authorized() {
        avisos.push(
            "O XML não traz o protocolo de autorização da SEFAZ: confira a situação da NF-e antes de finalizar."
                .into(),
        );
    }
    match (copies::company_document(tx, client, emp).await?, doc.recipient_document()) {
        (Some(ours), Some(theirs)) if ours != theirs => avisos.push(format!(
            "NF-e destinada a outro CPF/CNPJ ({}), não ao da empresa ({}).",
            formatted(theirs),
            formatted(&ours)
        )),
        (Some(_), None) => avisos.push("A NF-e não identifica o destinatário.".into()),
        (None, _) => avisos.push(
            "O CNPJ da empresa ainda não chegou ao cadastro de compras: o destinatário da NF-e não foi conferido."
                .into(),
        ),
        _ => {}
    }
    let emitter = doc.emitter_document().to_string();
    let supplier = match copies::supplier_by_document(tx, client, &emitter).await? {
        Some(known) => Some(known),
        None => match register_supplier(peers, caller, &doc).await {
            Ok((s, created)) => {
                remember_supplier(tx, client, &s).await?;
                avisos.push(if created {
                    format!(
                        "Fornecedor {} (CPF/CNPJ {}) cadastrado a partir da NF-e (código {}): confira o cadastro em Fornecedores.",
                        s.1,
                        formatted(&emitter),
                        s.0
                    )
                } else {
                    format!(
                        "Fornecedor {} (CPF/CNPJ {}) já estava no cadastro (código {}).",
                        s.1,
                        formatted(&emitter),
                        s.0
                    )
                });
                Some(s)
            }
            Err(e) => {
                tracing::warn!(error = %e, "supplier of an NF-e not registered in catalog");
                let why = match &e {
                    Error::Unavailable(_) | Error::Timeout(_) => {
                        "o cadastro de fornecedores não respondeu".to_string()
                    }
                    other => other.public_message().trim_end_matches('.').to_string(),
                };
                avisos.push(format!(
                    "Fornecedor {} (CPF/CNPJ {}) não cadastrado ({why}): cadastre-o em Fornecedores e informe-o na compra antes de finalizar.",
                    doc.emit.x_nome,
                    formatted(&emitter),
                ));
                None
            }
        },
    };
    let day = today(tx).await?;
    let head = query::create(
        tx,
        res,
        caller,
        Some(emp),
        &register_body(&header_body(&doc, supplier.as_ref(), day))?,
    )
    .await?;
    let id = record::from_row::<WrittenPurchase>(&head)?.id;
    sqlx::query("UPDATE orders.compras SET comp_xml_arquivo = $4 WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3")
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(stored)
        .execute(&mut **tx)
        .await?;
    let items_res = items_of(res)?;
    for item in &doc.items {
        let (product, link, factor) = match_item(tx, client, emp, &emitter, item).await?;
        let row = query::create(
            tx,
            &items_res,
            caller,
            Some(emp),
            &register_body(&item_body(id, item, product, factor))?,
        )
        .await
        .map_err(|e| match e {
            Error::Validation(m) => Error::Validation(format!("Item {} da NF-e: {m}", item.n_item)),
            other => other,
        })?;
        sqlx::query(
            "UPDATE orders.compra_produtos SET cmpp_vinculo = $5, cmpp_n_item = $6
             WHERE client_id = $1 AND cmpp_emp_id = $2 AND cmpp_comp_id = $3 AND cmpp_id = $4",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(record::from_row::<WrittenItem>(&row)?.id)
        .bind(link)
        .bind(i64::from(item.n_item))
        .execute(&mut **tx)
        .await?;
    }
    let instalments_res = instalments_of(res)?;
    let dups = doc.cobr.iter().flat_map(|c| &c.dup);
    for (n, dup) in dups.enumerate() {
        if dup.v_dup <= Decimal::ZERO {
            avisos.push(format!("Duplicata {} sem valor: não lançada.", n + 1));
            continue;
        }
        let due = dup.d_venc.unwrap_or_else(|| doc.ide.dh_emi.date_naive());
        let p = InstalmentBody {
            purchase: id,
            number: dup.n_dup.clone().unwrap_or_else(|| format!("{:03}", n + 1)),
            due: Date(due),
            amount: Dec(dup.v_dup.normalize()),
        };
        query::create(tx, &instalments_res, caller, Some(emp), &register_body(&p)?).await?;
    }
    header_components(tx, client, emp, id).await?;
    let differ = keep_nfe_totals(tx, client, emp, id, &doc).await?;
    if !differ.is_empty() {
        avisos.push(format!(
            "Os totais calculados dos itens diferem dos da NF-e ({}): os totais da nota foram mantidos como totais digitados.",
            differ.join(", ")
        ));
    }
    let compra = query::get(tx, res, caller, Some(emp), &[id.to_string()]).await?;
    let mut itens = Vec::new();
    for row in lines(tx, &items_res, caller, emp, id, "CMPP_COMP_ID").await? {
        let link = record::from_row::<ItemLink>(&row)?.link;
        itens.push(ImportedItem { row: RowOf::new(row), link });
    }
    Ok(Imported { compra: Row(compra), itens, avisos })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_cfop_and_documents_read_as_people_expect() {
        assert_eq!(entry_cfop("5102").as_deref(), Some("1102"));
        assert_eq!(entry_cfop("6403").as_deref(), Some("2403"));
        assert_eq!(entry_cfop("1102"), None);
        assert_eq!(formatted("11222333000181"), "11.222.333/0001-81");
        assert_eq!(formatted("52998224725"), "529.982.247-25");
        assert!(stored_name("0190a-b_c.xml").is_ok());
        assert!(stored_name("../x.xml").is_err());
        assert!(stored_name(".x").is_err());
    }
}
