//! What a CT-e is read from (its header and rows, the company and its CT-e
//! settings) and the `CtePedidoEmissao` built from it, without a database:
//! every missing piece is a pt-BR message naming the field to fill, before
//! anything is numbered or sent.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use crate::nuvemfiscal::types::*;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::order_nfe::sources::{self, Company};
use crate::resources::taxes::codes::uf_code;

/// The header as stored (`fiscal.cte`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Header {
    pub cte_id: i64,
    pub cte_tipo_cte: i32,
    pub cte_tipo_servico: i32,
    pub cte_ambiente: i32,
    pub cte_cfop: Option<String>,
    pub cte_natureza: Option<String>,
    pub cte_tomador: i32,
    pub cte_cnpjcpf: Option<String>,
    pub cte_mun_env_ibge: Option<String>,
    pub cte_mun_env_nome: Option<String>,
    pub cte_mun_env_uf: Option<String>,
    pub cte_mun_ini_ibge: Option<String>,
    pub cte_mun_ini_nome: Option<String>,
    pub cte_mun_ini_uf: Option<String>,
    pub cte_mun_fim_ibge: Option<String>,
    pub cte_mun_fim_nome: Option<String>,
    pub cte_mun_fim_uf: Option<String>,
    pub cte_rem_cnpjcpf: Option<String>,
    pub cte_rem_nome: Option<String>,
    pub cte_rem_ie: Option<String>,
    pub cte_rem_endereco: Option<String>,
    pub cte_rem_numero: Option<String>,
    pub cte_rem_bairro: Option<String>,
    pub cte_rem_mun_ibge: Option<String>,
    pub cte_rem_municipio: Option<String>,
    pub cte_rem_uf: Option<String>,
    pub cte_rem_cep: Option<String>,
    pub cte_dest_cnpjcpf: Option<String>,
    pub cte_dest_nome: Option<String>,
    pub cte_dest_ie: Option<String>,
    pub cte_dest_endereco: Option<String>,
    pub cte_dest_numero: Option<String>,
    pub cte_dest_bairro: Option<String>,
    pub cte_dest_mun_ibge: Option<String>,
    pub cte_dest_municipio: Option<String>,
    pub cte_dest_uf: Option<String>,
    pub cte_dest_cep: Option<String>,
    pub cte_toma_nome: Option<String>,
    pub cte_toma_ie: Option<String>,
    pub cte_toma_endereco: Option<String>,
    pub cte_toma_numero: Option<String>,
    pub cte_toma_bairro: Option<String>,
    pub cte_toma_mun_ibge: Option<String>,
    pub cte_toma_municipio: Option<String>,
    pub cte_toma_uf: Option<String>,
    pub cte_toma_cep: Option<String>,
    pub cte_vlr_frete: Decimal,
    pub cte_vlr_receber: Option<Decimal>,
    pub cte_cst: String,
    pub cte_perc_red_bc: Decimal,
    pub cte_vlr_bc_icms: Option<Decimal>,
    pub cte_aliq_icms: Decimal,
    pub cte_vlr_icms: Option<Decimal>,
    pub cte_vlr_carga: Option<Decimal>,
    pub cte_produto_predominante: Option<String>,
    pub cte_outras_caracteristicas: Option<String>,
    pub cte_unidade: String,
    pub cte_tipo_medida: Option<String>,
    pub cte_qtde: Option<Decimal>,
    pub cte_rntrc: Option<String>,
    pub cte_obs: Option<String>,
}

/// An NF-e the CT-e carries.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Note {
    pub cten_chave: String,
    pub cten_pin: Option<String>,
    pub cten_dta_prevista: Option<NaiveDate>,
}

/// A new vehicle carried.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Vehicle {
    pub ctvn_chassi: String,
    pub ctvn_cor: String,
    pub ctvn_desc_cor: String,
    pub ctvn_modelo: String,
    pub ctvn_vlr_unit: Decimal,
    pub ctvn_vlr_frete: Decimal,
}

/// The company's CT-e settings (`empresasservicos`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Settings {
    pub regime: Option<i32>,
    pub serie: Option<i32>,
}

/// Everything the request is built from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub header: Header,
    pub notes: Vec<Note>,
    pub route: Vec<String>,
    pub vehicles: Vec<Vehicle>,
    pub company: Company,
    pub settings: Settings,
}

const HEADER_COLS: &str = "cte_id, cte_tipo_cte, cte_tipo_servico, cte_ambiente, cte_cfop, cte_natureza, cte_tomador,
    cte_cnpjcpf, cte_mun_env_ibge, cte_mun_env_nome, cte_mun_env_uf, cte_mun_ini_ibge, cte_mun_ini_nome,
    cte_mun_ini_uf, cte_mun_fim_ibge, cte_mun_fim_nome, cte_mun_fim_uf, cte_rem_cnpjcpf, cte_rem_nome, cte_rem_ie,
    cte_rem_endereco, cte_rem_numero, cte_rem_bairro, cte_rem_mun_ibge, cte_rem_municipio, cte_rem_uf, cte_rem_cep,
    cte_dest_cnpjcpf, cte_dest_nome, cte_dest_ie, cte_dest_endereco, cte_dest_numero, cte_dest_bairro,
    cte_dest_mun_ibge, cte_dest_municipio, cte_dest_uf, cte_dest_cep, cte_toma_nome, cte_toma_ie, cte_toma_endereco,
    cte_toma_numero, cte_toma_bairro, cte_toma_mun_ibge, cte_toma_municipio, cte_toma_uf, cte_toma_cep,
    cte_vlr_frete, cte_vlr_receber, cte_cst, cte_perc_red_bc, cte_vlr_bc_icms, cte_aliq_icms, cte_vlr_icms,
    cte_vlr_carga, cte_produto_predominante, cte_outras_caracteristicas, cte_unidade, cte_tipo_medida, cte_qtde,
    cte_rntrc, cte_obs";

/// The sources of CT-e `id` (its parties filled from the copies first).
pub async fn load(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Sources> {
    super::hooks::fill(tx, client, emp, id).await?;
    let header: Header = sqlx::query_as(&format!(
        "SELECT {HEADER_COLS} FROM fiscal.cte WHERE client_id = $1 AND cte_emp_id = $2 AND cte_id = $3"
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(super::MISSING.into()))?;
    let notes: Vec<Note> = sqlx::query_as(
        "SELECT cten_chave, cten_pin, cten_dta_prevista FROM fiscal.cte_notas
         WHERE client_id = $1 AND cten_emp_id = $2 AND cten_cte_id = $3 ORDER BY cten_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let route: Vec<String> = sqlx::query_scalar(
        "SELECT cufp_uf FROM fiscal.cte_uf_percursos
         WHERE client_id = $1 AND cufp_emp_id = $2 AND cufp_cte_id = $3 ORDER BY cufp_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let vehicles: Vec<Vehicle> = sqlx::query_as(
        "SELECT ctvn_chassi, ctvn_cor, ctvn_desc_cor, ctvn_modelo, ctvn_vlr_unit, ctvn_vlr_frete
         FROM fiscal.cte_veiculos_novos
         WHERE client_id = $1 AND ctvn_emp_id = $2 AND ctvn_cte_id = $3 ORDER BY ctvn_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let company = sources::company(tx, client, emp).await?;
    let settings: Settings = sqlx::query_as(
        "SELECT emps_cte_regime AS regime, emps_cte_serie AS serie
         FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or_default();
    Ok(Sources { header, notes, route, vehicles, company, settings })
}

fn blank(v: &Option<String>) -> Option<String> {
    v.as_ref()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn need(v: &Option<String>, message: &str) -> Result<String> {
    blank(v).ok_or_else(|| Error::validation(message))
}

fn cut(s: String, n: usize) -> String {
    s.chars().take(n).collect()
}

fn digits(v: &Option<String>) -> Option<String> {
    blank(v)
        .map(|s| s.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|s| !s.is_empty())
}

fn ie_of(v: &Option<String>) -> Option<String> {
    let raw = blank(v)?;
    if raw.eq_ignore_ascii_case("ISENTO") {
        return Some("ISENTO".into());
    }
    digits(&Some(raw))
}

/// The company's CRT: the CT-e settings' regime, else its register's.
pub fn crt(s: &Sources) -> i32 {
    s.settings
        .regime
        .unwrap_or(match s.company.regime.as_deref() {
            Some("SIMPLES NACIONAL") => 1,
            Some("MEI") => 4,
            _ => 3,
        })
}

/// A party of the CT-e as the request's parts take it.
struct Party {
    cnpj: Option<String>,
    cpf: Option<String>,
    ie: Option<String>,
    nome: String,
    ender: CteSefazEndereco,
}

#[allow(clippy::too_many_arguments)]
fn party(
    who: &str,
    doc: &Option<String>,
    nome: &Option<String>,
    ie: &Option<String>,
    endereco: &Option<String>,
    numero: &Option<String>,
    bairro: &Option<String>,
    mun_ibge: &Option<String>,
    municipio: &Option<String>,
    uf: &Option<String>,
    cep: &Option<String>,
) -> Result<Party> {
    let nome = need(
        nome,
        &format!("Informe o {who} do CT-e: escolha o cliente ou digite o nome e o endereço."),
    )?;
    let doc = digits(doc)
        .ok_or_else(|| Error::validation(format!("Informe o CPF ou o CNPJ do {who} do CT-e.")))?;
    let (cnpj, cpf) = match doc.len() {
        14 => (Some(doc), None),
        11 => (None, Some(doc)),
        _ => {
            return Err(Error::validation(format!(
                "CPF/CNPJ do {who} do CT-e inválido: {doc}."
            )))
        }
    };
    let c_mun = digits(mun_ibge).filter(|m| m.len() == 7).ok_or_else(|| {
        Error::validation(format!(
            "Informe o município (código IBGE) do {who} do CT-e."
        ))
    })?;
    let uf = blank(uf)
        .map(|u| u.to_uppercase())
        .filter(|u| uf_code(u).is_some())
        .ok_or_else(|| Error::validation(format!("Informe a UF do {who} do CT-e.")))?;
    Ok(Party {
        cnpj,
        cpf,
        ie: ie_of(ie),
        nome: cut(nome, 60),
        ender: CteSefazEndereco {
            xLgr: cut(
                need(endereco, &format!("Informe o endereço do {who} do CT-e."))?,
                255,
            ),
            nro: cut(blank(numero).unwrap_or_else(|| "S/N".into()), 60),
            xCpl: None,
            xBairro: cut(
                need(bairro, &format!("Informe o bairro do {who} do CT-e."))?,
                60,
            ),
            cMun: c_mun,
            xMun: cut(
                need(municipio, &format!("Informe o município do {who} do CT-e."))?,
                60,
            ),
            CEP: digits(cep).filter(|c| c.len() == 8),
            UF: uf,
            cPais: Some("1058".into()),
            xPais: Some("BRASIL".into()),
        },
    })
}

fn sender(h: &Header) -> Result<Party> {
    party(
        "remetente",
        &h.cte_rem_cnpjcpf,
        &h.cte_rem_nome,
        &h.cte_rem_ie,
        &h.cte_rem_endereco,
        &h.cte_rem_numero,
        &h.cte_rem_bairro,
        &h.cte_rem_mun_ibge,
        &h.cte_rem_municipio,
        &h.cte_rem_uf,
        &h.cte_rem_cep,
    )
}

fn recipient(h: &Header) -> Result<Party> {
    party(
        "destinatário",
        &h.cte_dest_cnpjcpf,
        &h.cte_dest_nome,
        &h.cte_dest_ie,
        &h.cte_dest_endereco,
        &h.cte_dest_numero,
        &h.cte_dest_bairro,
        &h.cte_dest_mun_ibge,
        &h.cte_dest_municipio,
        &h.cte_dest_uf,
        &h.cte_dest_cep,
    )
}

fn taker(h: &Header) -> Result<Party> {
    party(
        "tomador",
        &h.cte_cnpjcpf,
        &h.cte_toma_nome,
        &h.cte_toma_ie,
        &h.cte_toma_endereco,
        &h.cte_toma_numero,
        &h.cte_toma_bairro,
        &h.cte_toma_mun_ibge,
        &h.cte_toma_municipio,
        &h.cte_toma_uf,
        &h.cte_toma_cep,
    )
}

/// A place of the service: IBGE code, name and state.
fn place(
    ibge: &Option<String>,
    nome: &Option<String>,
    uf: &Option<String>,
    what: &str,
) -> Result<(String, String, String)> {
    let message = format!("Informe o município {what} do CT-e (código IBGE, nome e UF).");
    let ibge = digits(ibge)
        .filter(|m| m.len() == 7)
        .ok_or_else(|| Error::validation(message.clone()))?;
    let nome = need(nome, &message)?;
    let uf = blank(uf)
        .map(|u| u.to_uppercase())
        .filter(|u| uf_code(u).is_some())
        .ok_or_else(|| Error::validation(message))?;
    Ok((ibge, cut(nome, 60), uf))
}

/// indIEToma of a party: 1 with an IE, 2 exempt, 9 otherwise.
fn ind_ie(p: &Party) -> i32 {
    match p.ie.as_deref() {
        Some("ISENTO") => 2,
        Some(_) => 1,
        None => 9,
    }
}

/// The ICMS group of the CST; the value is the typed one, else base × rate.
fn icms(h: &Header, crt: i32) -> Result<CteSefazImp> {
    if matches!(crt, 1 | 4) {
        return Ok(CteSefazImp {
            ICMSSN: Some(CteSefazICMSSN { CST: "90".into(), indSN: 1 }),
            ..Default::default()
        });
    }
    let cst = h.cte_cst.clone();
    let hundred = Decimal::ONE_HUNDRED;
    let base = |reduced: bool| -> Result<(Decimal, Decimal, Decimal)> {
        let full = h.cte_vlr_frete;
        let v_bc = match h.cte_vlr_bc_icms {
            Some(b) => b,
            None if reduced => (full * (hundred - h.cte_perc_red_bc) / hundred).round_dp(2),
            None => full,
        };
        if v_bc <= Decimal::ZERO || h.cte_aliq_icms <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe a base de cálculo e a alíquota do ICMS do CT-e (CST {cst})."
            )));
        }
        let v_icms = h
            .cte_vlr_icms
            .unwrap_or_else(|| (v_bc * h.cte_aliq_icms / hundred).round_dp(2));
        Ok((v_bc, h.cte_aliq_icms.normalize(), v_icms))
    };
    Ok(match cst.as_str() {
        "00" => {
            let (v_bc, p_icms, v_icms) = base(false)?;
            CteSefazImp {
                ICMS00: Some(CteSefazICMS00 {
                    CST: cst.clone(),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                }),
                ..Default::default()
            }
        }
        "20" => {
            if h.cte_perc_red_bc <= Decimal::ZERO {
                return Err(Error::validation(
                    "Informe o percentual de redução da base do ICMS do CT-e (CST 20).",
                ));
            }
            let (v_bc, p_icms, v_icms) = base(true)?;
            CteSefazImp {
                ICMS20: Some(CteSefazICMS20 {
                    CST: cst.clone(),
                    pRedBC: h.cte_perc_red_bc.normalize(),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        "40" | "41" | "51" => CteSefazImp {
            ICMS45: Some(CteSefazICMS45 { CST: cst.clone(), ..Default::default() }),
            ..Default::default()
        },
        "60" => {
            let (v_bc, p_icms, v_icms) = base(false)?;
            CteSefazImp {
                ICMS60: Some(CteSefazICMS60 {
                    CST: cst.clone(),
                    vBCSTRet: v_bc,
                    vICMSSTRet: v_icms,
                    pICMSSTRet: p_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        "90" => {
            let (v_bc, p_icms, v_icms) = base(h.cte_perc_red_bc > Decimal::ZERO)?;
            CteSefazImp {
                ICMS90: Some(CteSefazICMS90 {
                    CST: cst.clone(),
                    pRedBC: (h.cte_perc_red_bc > Decimal::ZERO)
                        .then(|| h.cte_perc_red_bc.normalize()),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        other => {
            return Err(Error::validation(format!(
                "CST do ICMS do CT-e inválido: {other}."
            )))
        }
    })
}

/// The request of CT-e `s` numbered `n`.
pub fn build(s: &Sources, n: &Numbering) -> Result<CtePedidoEmissao> {
    let h = &s.header;
    if h.cte_tipo_cte != 1 {
        return Err(Error::validation(
            "Só o CT-e normal é emitido: o complemento, a anulação e o substituto precisam do CT-e de origem, que ainda não é informado.",
        ));
    }
    let cfop = digits(&h.cte_cfop)
        .filter(|c| c.len() == 4)
        .ok_or_else(|| Error::validation("Informe o CFOP do CT-e."))?;
    let nat_op = need(&h.cte_natureza, "Informe a natureza da operação do CT-e.")?;
    let c = &s.company;
    let company_uf = need(&c.uf, "Informe a UF da empresa em Empresas.")?.to_uppercase();
    let c_uf = uf_code(&company_uf)
        .ok_or_else(|| Error::validation(format!("UF da empresa inválida: {company_uf}.")))?;
    let cnpj = digits(&c.cnpj)
        .filter(|d| d.len() == 14)
        .ok_or_else(|| Error::validation("Informe o CNPJ da empresa em Empresas."))?;
    let ie = ie_of(&c.ie)
        .filter(|ie| ie != "ISENTO")
        .ok_or_else(|| Error::validation("Informe a inscrição estadual da empresa em Empresas."))?;
    let env = place(
        &h.cte_mun_env_ibge,
        &h.cte_mun_env_nome,
        &h.cte_mun_env_uf,
        "de emissão",
    )?;
    let ini = place(
        &h.cte_mun_ini_ibge,
        &h.cte_mun_ini_nome,
        &h.cte_mun_ini_uf,
        "de início da prestação",
    )?;
    let fim = place(
        &h.cte_mun_fim_ibge,
        &h.cte_mun_fim_nome,
        &h.cte_mun_fim_uf,
        "de término da prestação",
    )?;
    let rem = sender(h)?;
    let dest = recipient(h)?;
    let (toma3, toma4, ind_ie_toma) = match h.cte_tomador {
        0 => (Some(CteSefazToma3 { toma: 0 }), None, ind_ie(&rem)),
        3 => (Some(CteSefazToma3 { toma: 3 }), None, ind_ie(&dest)),
        _ => {
            let t = taker(h)?;
            let ind = ind_ie(&t);
            (
                None,
                Some(CteSefazToma4 {
                    toma: 4,
                    CNPJ: t.cnpj,
                    CPF: t.cpf,
                    IE: t.ie,
                    xNome: t.nome,
                    enderToma: t.ender,
                    ..Default::default()
                }),
                ind,
            )
        }
    };
    if h.cte_vlr_frete <= Decimal::ZERO {
        return Err(Error::validation(
            "Informe o valor da prestação (frete) do CT-e.",
        ));
    }
    let v_rec = h.cte_vlr_receber.unwrap_or(h.cte_vlr_frete);
    if v_rec > h.cte_vlr_frete {
        return Err(Error::validation(
            "O valor a receber do CT-e não pode passar do valor da prestação.",
        ));
    }
    let crt = crt(s);
    let imp = icms(h, crt)?;
    let pro_pred = need(
        &h.cte_produto_predominante,
        "Informe o produto predominante da carga do CT-e.",
    )?;
    let q_carga = h
        .cte_qtde
        .filter(|q| *q > Decimal::ZERO)
        .ok_or_else(|| Error::validation("Informe a quantidade da carga do CT-e."))?;
    let v_carga = h
        .cte_vlr_carga
        .filter(|v| *v > Decimal::ZERO)
        .ok_or_else(|| Error::validation("Informe o valor da carga do CT-e."))?;
    let rntrc = digits(&h.cte_rntrc)
        .filter(|r| r.len() == 8)
        .ok_or_else(|| Error::validation("Informe o RNTRC da empresa no CT-e (8 dígitos)."))?;
    if s.notes.is_empty() {
        return Err(Error::validation(
            "Informe ao menos uma NF-e transportada (chave de acesso) nas notas do CT-e.",
        ));
    }
    let numero =
        i32::try_from(n.numero).map_err(|_| Error::validation("Número do CT-e fora do limite."))?;
    let ambiente = if h.cte_ambiente == 1 {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    };
    let mut obs_cont = Vec::new();
    if !s.route.is_empty() {
        obs_cont.push(CteSefazObsCont {
            xCampo: "UFPercurso".into(),
            xTexto: cut(s.route.join("-"), 160),
        });
    }
    let compl = (blank(&h.cte_obs).is_some() || !obs_cont.is_empty()).then(|| CteSefazCompl {
        xObs: blank(&h.cte_obs).map(|o| cut(o, 2000)),
        ObsCont: obs_cont,
        ..Default::default()
    });
    Ok(CtePedidoEmissao {
        infCte: CteSefazInfCte {
            versao: "4.00".into(),
            ide: CteSefazIde {
                cUF: c_uf,
                CFOP: cfop,
                natOp: cut(nat_op, 60),
                r#mod: Some(57),
                serie: n.serie,
                nCT: numero,
                dhEmi: n.dh_emi,
                tpImp: 1,
                tpEmis: 1,
                tpAmb: Some(ambiente.tp_amb()),
                tpCTe: h.cte_tipo_cte - 1,
                procEmi: 0,
                verProc: concat!("erp ", env!("CARGO_PKG_VERSION")).into(),
                cMunEnv: env.0,
                xMunEnv: env.1,
                UFEnv: env.2,
                modal: "01".into(),
                tpServ: h.cte_tipo_servico,
                cMunIni: ini.0,
                xMunIni: ini.1,
                UFIni: ini.2,
                cMunFim: fim.0,
                xMunFim: fim.1,
                UFFim: fim.2,
                retira: 1,
                indIEToma: ind_ie_toma,
                toma3,
                toma4,
                ..Default::default()
            },
            compl,
            emit: CteSefazEmit {
                CNPJ: Some(cnpj),
                IE: Some(ie),
                xNome: Some(cut(
                    need(
                        &c.descricao,
                        "Informe a razão social da empresa em Empresas.",
                    )?,
                    60,
                )),
                xFant: blank(&c.fantasia).map(|f| cut(f, 60)),
                enderEmit: Some(CteSefazEndeEmi {
                    xLgr: Some(need(
                        &c.endereco,
                        "Informe o endereço da empresa em Empresas.",
                    )?),
                    nro: Some(blank(&c.numero).unwrap_or_else(|| "S/N".into())),
                    xCpl: blank(&c.complemento),
                    xBairro: Some(need(&c.bairro, "Informe o bairro da empresa em Empresas.")?),
                    cMun: Some(
                        digits(&c.cid_ibge)
                            .filter(|m| m.len() == 7)
                            .ok_or_else(|| {
                                Error::validation("Informe a cidade (IBGE) da empresa em Empresas.")
                            })?,
                    ),
                    xMun: Some(need(&c.cidade, "Informe a cidade da empresa em Empresas.")?),
                    CEP: digits(&c.cep).filter(|c| c.len() == 8),
                    UF: Some(company_uf),
                    fone: digits(&c.fone).filter(|f| (7..=12).contains(&f.len())),
                }),
                CRT: Some(crt),
                ..Default::default()
            },
            rem: Some(CteSefazRem {
                CNPJ: rem.cnpj,
                CPF: rem.cpf,
                IE: rem.ie,
                xNome: rem.nome,
                enderReme: rem.ender,
                ..Default::default()
            }),
            dest: Some(CteSefazDest {
                CNPJ: dest.cnpj,
                CPF: dest.cpf,
                IE: dest.ie,
                xNome: dest.nome,
                enderDest: dest.ender,
                ..Default::default()
            }),
            vPrest: CteSefazVPrest {
                vTPrest: h.cte_vlr_frete,
                vRec: v_rec,
                Comp: vec![CteSefazComp { xNome: "FRETE VALOR".into(), vComp: h.cte_vlr_frete }],
            },
            imp: CteSefazInfCte_Imp { ICMS: imp, ..Default::default() },
            infCTeNorm: Some(CteSefazInfCTeNorm {
                infCarga: CteSefazInfCarga {
                    vCarga: Some(v_carga),
                    proPred: cut(pro_pred, 60),
                    xOutCat: blank(&h.cte_outras_caracteristicas).map(|x| cut(x, 30)),
                    infQ: vec![CteSefazInfQ {
                        cUnid: h.cte_unidade.clone(),
                        tpMed: cut(
                            blank(&h.cte_tipo_medida).unwrap_or_else(|| "PESO BRUTO".into()),
                            20,
                        ),
                        qCarga: q_carga.normalize(),
                    }],
                    ..Default::default()
                },
                infDoc: Some(CteSefazInfDoc {
                    infNFe: s
                        .notes
                        .iter()
                        .map(|nt| CteSefazInfNFe {
                            chave: nt.cten_chave.clone(),
                            PIN: blank(&nt.cten_pin),
                            dPrev: nt.cten_dta_prevista,
                        })
                        .collect(),
                    ..Default::default()
                }),
                infModal: CteSefazInfModal {
                    versaoModal: "4.00".into(),
                    rodo: Some(CteSefazRodo { RNTRC: rntrc }),
                },
                veicNovos: s
                    .vehicles
                    .iter()
                    .map(|v| CteSefazVeicNovos {
                        chassi: v.ctvn_chassi.clone(),
                        cCor: v.ctvn_cor.clone(),
                        xCor: v.ctvn_desc_cor.clone(),
                        cMod: v.ctvn_modelo.clone(),
                        vUnit: v.ctvn_vlr_unit,
                        vFrete: v.ctvn_vlr_frete,
                    })
                    .collect(),
            }),
            ..Default::default()
        },
        ambiente,
        referencia: Some(n.referencia.clone()),
        ..Default::default()
    })
}
