//! A bank account as collection sees it: the settings of its 'Cobrança' tab, the
//! 25-digit free field of its bank, the printed 'nosso número' and the CNAB layout
//! it exchanges files in.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use sqlx::Row;

use crate::collection::barcode::{
    bradesco_nosso_numero_dv, caixa_dv, itau_nosso_numero_dv, santander_nosso_numero_dv,
    sicoob_nosso_numero_dv, FreeFieldInput,
};
use crate::collection::cnab::{Beneficiary, CnabLayout};

/// The collection settings of an account.
#[derive(Clone, Debug, Default)]
pub struct Account {
    pub id: i64,
    pub description: String,
    pub compe: String,
    pub agency: String,
    pub agency_dv: String,
    pub account: String,
    pub account_dv: String,
    pub wallet: String,
    pub variation: String,
    pub agreement: String,
    pub beneficiary_code: String,
    /// Santander's IOS or Sicoob's modality.
    pub modality: String,
    pub pix_key: Option<String>,
    pub layout: Option<String>,
    pub fine_percent: Option<rust_decimal::Decimal>,
    pub interest_percent_month: Option<rust_decimal::Decimal>,
    pub protest_days: Option<i32>,
    pub instructions: Option<String>,
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Account `bank` of the company, locked when `lock` (the sequences' lock).
pub async fn load(tx: &mut Tx, client: i64, emp: i64, bank: i64, lock: bool) -> Result<Account> {
    let sql = format!(
        "SELECT bco_id, bco_descricao, coalesce(bco_compe, ''), coalesce(bco_agencia, ''),
                coalesce(bco_agencia_dv, ''), coalesce(bco_conta, ''), coalesce(bco_conta_dv, ''),
                coalesce(bco_carteira, ''), coalesce(bco_variacao_carteira, ''), coalesce(bco_convenio, ''),
                coalesce(bco_cod_beneficiario, ''), coalesce(bco_modalidade, ''), bco_chave_pix,
                bco_layout_cnab, bco_perc_multa, bco_perc_juros, bco_dias_protesto, bco_instrucoes
         FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    let r = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(bank)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::validation(crate::bank::UNKNOWN_ACCOUNT))?;
    Ok(Account {
        id: r.try_get(0)?,
        description: r.try_get(1)?,
        compe: r.try_get(2)?,
        agency: digits(&r.try_get::<String, _>(3)?),
        agency_dv: r.try_get(4)?,
        account: digits(&r.try_get::<String, _>(5)?),
        account_dv: r.try_get(6)?,
        wallet: digits(&r.try_get::<String, _>(7)?),
        variation: digits(&r.try_get::<String, _>(8)?),
        agreement: digits(&r.try_get::<String, _>(9)?),
        beneficiary_code: digits(&r.try_get::<String, _>(10)?),
        modality: digits(&r.try_get::<String, _>(11)?),
        pix_key: r
            .try_get::<Option<String>, _>(12)?
            .filter(|k| !k.trim().is_empty()),
        layout: r.try_get(13)?,
        fine_percent: r.try_get(14)?,
        interest_percent_month: r.try_get(15)?,
        protest_days: r.try_get(16)?,
        instructions: r.try_get(17)?,
    })
}

/// Banks whose slips this system draws.
pub const SLIP_BANKS: &str =
    "Banco do Brasil (001), Santander (033), Caixa (104), Bradesco (237), Itaú (341) e Sicoob (756)";

impl Account {
    fn need(&self, value: &str, label: &str) -> Result<()> {
        if value.is_empty() {
            return Err(Error::validation(format!(
                "Informe {label} na aba Cobrança da conta '{}'.",
                self.description
            )));
        }
        Ok(())
    }

    /// The beneficiary code (Caixa, Santander, Sicoob): the field of that name,
    /// else the agreement.
    fn beneficiary(&self) -> &str {
        if self.beneficiary_code.is_empty() {
            &self.agreement
        } else {
            &self.beneficiary_code
        }
    }

    /// The free-field inputs of slip number `seq` of this account.
    pub fn free_field(&self, seq: i64) -> Result<FreeFieldInput> {
        let nn = seq.to_string();
        match self.compe.as_str() {
            "001" => {
                self.need(&self.agreement, "o convênio")?;
                self.need(&self.wallet, "a carteira")?;
                Ok(FreeFieldInput::BancoDoBrasil {
                    convenio: self.agreement.clone(),
                    nosso_numero: nn,
                    agencia: self.agency.clone(),
                    conta: self.account.clone(),
                    carteira: self.wallet.clone(),
                })
            }
            "341" => {
                self.need(&self.wallet, "a carteira")?;
                self.need(&self.agency, "a agência")?;
                self.need(&self.account, "a conta")?;
                Ok(FreeFieldInput::Itau {
                    carteira: self.wallet.clone(),
                    nosso_numero: nn,
                    agencia: self.agency.clone(),
                    conta: self.account.clone(),
                })
            }
            "237" => {
                self.need(&self.wallet, "a carteira")?;
                Ok(FreeFieldInput::Bradesco {
                    agencia: self.agency.clone(),
                    carteira: self.wallet.clone(),
                    nosso_numero: nn,
                    conta: self.account.clone(),
                })
            }
            "104" => {
                self.need(self.beneficiary(), "o código do beneficiário")?;
                Ok(FreeFieldInput::Caixa {
                    beneficiario: self.beneficiary().to_string(),
                    nosso_numero: nn,
                    registrada: true,
                })
            }
            "033" => {
                self.need(self.beneficiary(), "o código do beneficiário")?;
                self.need(&self.wallet, "a carteira")?;
                Ok(FreeFieldInput::Santander {
                    beneficiario: self.beneficiary().to_string(),
                    nosso_numero: nn,
                    ios: if self.modality.is_empty() {
                        "0".into()
                    } else {
                        self.modality.clone()
                    },
                    carteira: self.wallet.clone(),
                })
            }
            "756" => {
                self.need(self.beneficiary(), "o código do beneficiário")?;
                Ok(FreeFieldInput::Sicoob {
                    carteira: if self.wallet.is_empty() {
                        "1".into()
                    } else {
                        self.wallet.clone()
                    },
                    agencia: self.agency.clone(),
                    modalidade: if self.modality.is_empty() {
                        "01".into()
                    } else {
                        self.modality.clone()
                    },
                    cliente: self.beneficiary().to_string(),
                    nosso_numero: nn,
                    parcela: "001".into(),
                })
            }
            "" => Err(Error::validation(format!(
                "Informe o banco (código COMPE) da conta '{}' para emitir boletos.",
                self.description
            ))),
            other => Err(Error::validation(format!(
                "O banco {other} não emite boletos neste sistema; bancos disponíveis: {SLIP_BANKS}."
            ))),
        }
    }

    /// 'Nosso número' of slip `seq` as the bank prints it (with its check digit
    /// where the bank has one).
    pub fn printed_nosso_numero(&self, seq: i64) -> Result<String> {
        let err = |e: crate::collection::barcode::BarcodeError| Error::validation(e.to_string());
        Ok(match self.compe.as_str() {
            "001" if self.agreement.len() == 7 => format!("{}{seq:010}", self.agreement),
            "001" if self.agreement.len() == 4 => format!("{}{seq:07}", self.agreement),
            "001" => format!("{}{seq:05}", self.agreement),
            "341" => {
                let dv = itau_nosso_numero_dv(
                    &self.agency,
                    &self.account,
                    &self.wallet,
                    &seq.to_string(),
                )
                .map_err(err)?;
                format!("{}/{seq:08}-{dv}", self.wallet)
            }
            "237" => {
                let dv = bradesco_nosso_numero_dv(&self.wallet, &seq.to_string()).map_err(err)?;
                format!("{:0>2}/{seq:011}-{dv}", self.wallet)
            }
            "104" => {
                let nn = format!("14{seq:015}");
                format!("{nn}-{}", caixa_dv(&nn).map_err(err)?)
            }
            "033" => {
                let dv = santander_nosso_numero_dv(&seq.to_string()).map_err(err)?;
                format!("{seq:012}-{dv}")
            }
            "756" => {
                let dv = sicoob_nosso_numero_dv(&self.agency, self.beneficiary(), &seq.to_string())
                    .map_err(err)?;
                format!("{seq:07}-{dv}")
            }
            _ => seq.to_string(),
        })
    }

    /// 'Agência / Código do Beneficiário' as printed on the slip.
    pub fn agency_code(&self) -> String {
        let with_dv = |n: &str, dv: &str| {
            if dv.trim().is_empty() {
                n.to_string()
            } else {
                format!("{n}-{}", dv.trim())
            }
        };
        let code = match self.compe.as_str() {
            "104" | "033" | "756" => self.beneficiary().to_string(),
            _ => with_dv(&self.account, &self.account_dv),
        };
        format!("{} / {code}", with_dv(&self.agency, &self.agency_dv))
    }

    /// The CNAB layout of the account's files. Sicoob remits in CNAB 400 and
    /// returns in CNAB 240: an account is set to the layout of the file it
    /// exchanges next (the parser refuses the other).
    pub fn cnab_layout(&self) -> Result<CnabLayout> {
        let layout = self.layout.as_deref().unwrap_or("");
        match (self.compe.as_str(), layout) {
            ("033", "240") => Ok(CnabLayout::Santander240),
            ("104", "240") => Ok(CnabLayout::Caixa240),
            ("748", "240") => Ok(CnabLayout::Sicredi240),
            ("085", "240") => Ok(CnabLayout::Ailos240),
            ("001", "240") => Ok(CnabLayout::BancoDoBrasil240),
            ("756", "240") => Ok(CnabLayout::Sicoob240),
            ("001", "400") => Ok(CnabLayout::BancoDoBrasil400),
            ("341", "400") => Ok(CnabLayout::Itau400),
            ("237", "400") => Ok(CnabLayout::Bradesco400),
            ("756", "400") => Ok(CnabLayout::Sicoob400),
            ("136", "400") => Ok(CnabLayout::Unicred400),
            (_, "") => Err(Error::validation(format!(
                "Informe o leiaute CNAB (240 ou 400) na aba Cobrança da conta '{}'.",
                self.description
            ))),
            (bank, l) => Err(Error::validation(format!(
                "Leiaute CNAB {l} do banco {bank} não disponível. Leiautes disponíveis: Santander, Caixa, Sicredi e Ailos (240); Banco do Brasil e Sicoob (240, só retorno); Banco do Brasil, Itaú e Bradesco (400); Sicoob (400, só remessa) e Unicred (400, só retorno)."
            ))),
        }
    }

    /// The wallet code of the CNAB files: CNAB 240 has one digit where the slip
    /// prints three (Santander 101 'Cobrança Simples Rápida com Registro' is 5,
    /// 201 'Penhor' is 3, 102 is 1; Caixa's registered collection is 1).
    pub fn cnab_wallet(&self) -> String {
        match (self.compe.as_str(), self.wallet.as_str()) {
            ("033", "101") => "5".into(),
            ("033", "201") => "3".into(),
            ("033", "102") | ("033", "104") => "1".into(),
            ("104", w) | ("748", w) | ("085", w) if w.len() != 1 => "1".into(),
            (_, w) => w.to_string(),
        }
    }

    /// The beneficiary of the account's remittance files. Santander's files carry
    /// the transmission code (the agreement field, 15 digits) where the slip has
    /// the beneficiary code; Caixa's and Sicoob's the beneficiary code.
    pub fn beneficiary_of(&self, company: &str, document: &str, file_sequence: u64) -> Beneficiary {
        let agreement = match self.compe.as_str() {
            "033" if !self.agreement.is_empty() => self.agreement.clone(),
            "104" | "033" | "756" => self.beneficiary().to_string(),
            _ => self.agreement.clone(),
        };
        Beneficiary {
            company_name: company.to_string(),
            document: digits(document),
            agency: self.agency.clone(),
            agency_dv: self.agency_dv.trim().to_string(),
            account: self.account.clone(),
            account_dv: self.account_dv.trim().to_string(),
            wallet: self.cnab_wallet(),
            wallet_variation: (!self.variation.is_empty()).then(|| self.variation.clone()),
            agreement,
            file_sequence,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn santander() -> Account {
        Account {
            description: "SANTANDER COBRANÇA".into(),
            compe: "033".into(),
            agency: "1234".into(),
            beneficiary_code: "0707077".into(),
            wallet: "101".into(),
            layout: Some("240".into()),
            ..Account::default()
        }
    }

    #[test]
    fn santander_prints_twelve_digits_and_its_check_digit() {
        // pyboleto's Santander vector: nosso número 000001234567 has digit 9.
        let a = santander();
        assert_eq!(a.printed_nosso_numero(1234567).unwrap(), "000001234567-9");
        assert_eq!(a.cnab_layout().unwrap(), CnabLayout::Santander240);
        assert_eq!(a.agency_code(), "1234 / 0707077");
    }

    #[test]
    fn bradesco_and_sicoob_accounts_get_their_layouts() {
        let account = |compe: &str, layout: &str| Account {
            description: "COBRANÇA".into(),
            compe: compe.into(),
            layout: Some(layout.into()),
            ..Account::default()
        };
        for (compe, layout, expected) in [
            ("237", "400", CnabLayout::Bradesco400),
            ("756", "240", CnabLayout::Sicoob240),
            ("756", "400", CnabLayout::Sicoob400),
            ("001", "240", CnabLayout::BancoDoBrasil240),
            ("001", "400", CnabLayout::BancoDoBrasil400),
            ("341", "400", CnabLayout::Itau400),
        ] {
            let layout_of = account(compe, layout).cnab_layout().unwrap();
            assert_eq!(layout_of, expected, "{compe}/{layout}");
            assert_eq!(layout_of.bank_code(), compe);
        }
        let e = account("237", "240").cnab_layout().unwrap_err().to_string();
        assert!(e.contains("Leiaute CNAB 240 do banco 237"), "{e}");
    }

    #[test]
    fn missing_settings_are_named() {
        let mut a = santander();
        a.wallet.clear();
        let e = a.free_field(1).unwrap_err().to_string();
        assert!(e.contains("a carteira"), "{e}");
        a.compe = "999".into();
        let e = a.free_field(1).unwrap_err().to_string();
        assert!(e.contains("O banco 999 não emite boletos"), "{e}");
        a.compe = "104".into();
        a.layout = Some("400".into());
        let e = a.cnab_layout().unwrap_err().to_string();
        assert!(e.contains("Leiaute CNAB 400 do banco 104"), "{e}");
    }
}
