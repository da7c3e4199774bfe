//! Titles: receivables (`contasreceber`, screen /contasareceber, CRCB_*), payables
//! (`contaspagar`, screen /contasapagar, CMPD_*) and the register of the payables
//! settlement screen (`baixacontaspagar`, /baixacontaspagar: the payables under
//! that screen's program, read-only, with the settlement calls).
//!
//! The two title tables have the same columns (`tit_*`); each register maps the
//! legacy names onto them. What a title is worth (`*_VLR_CTA`/`*_VLR_TITULO` plus
//! the surcharge), what settlements took (`*_VLR_PAGO`) and charged (`*_VLR_JUROS`,
//! `*_VLR_MULTA`, `*_VLR_DESCONTO`), the balance (`SALDO`) and the status
//! (`*_SITUACAO`: A aberto, P parcialmente pago, Q pago, C cancelado) are kept by the
//! settlement calls; the balance and the status are derived by the database, so
//! they never disagree with the values. Titles are written by hand only while open
//! (no settlement): a settled or cancelled one refuses changes and deletion. A title
//! made from another service's document (an invoiced order, a finalized purchase)
//! cannot be deleted (its document is cancelled instead) and its value cannot be
//! changed alone (the document's instalments must still add up to what was made).
//!
//! Advances to suppliers are payables typed with `CMPD_ADIANTAMENTO` true (never a
//! purchase's instalment) and paid like any other; what they paid and was not yet
//! offset (`CMPD_VLR_PAGO` − `CMPD_VLR_COMPENSADO`) is listed by
//! `GET /comprapagamentos/adiantamentos/{supplierId}/{bankId}` (company of the
//! caller, account the advance was paid from, 0 = any) and settles the supplier's
//! other payables by `POST /contaspagar/compensar/{emp}` (see `crate::titles`).
//! Every title register also answers the receipt of a settlement
//! (`GET /{register}/recibo/{id}/{emp}`, `resources::receipts`).

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::Date;
use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Op, RecordHooks, Resource, Role};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::receipts::SettlementReceipt;
use super::settlement as calls;
use super::title_names::names;
use super::Loose;
use crate::titles::{brl, Side};
use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub const STATUS: [(&str, &str); 4] = [
    ("A", "Aberto"),
    ("P", "Parcialmente pago"),
    ("Q", "Pago"),
    ("C", "Cancelado"),
];

pub const ORIGINS: [(&str, &str); 4] = [
    ("MANUAL", "Manual"),
    ("PEDIDO", "Pedido"),
    ("COMPRA", "Compra"),
    ("ORDEMSERVICO", "Ordem de Serviço"),
];

/// `uploads`: where the gateway keeps uploaded files (the logo of receipts).
pub fn all(uploads: &Path) -> Vec<Resource> {
    vec![
        contasreceber(uploads),
        contaspagar(uploads),
        baixacontaspagar(uploads),
    ]
}

fn fields(side: Side) -> Vec<Field> {
    let n = names(side);
    let f = |s: &str| n.f(s);
    let mut fields = vec![
        Field::id(side.key(), "Código").column("tit_id"),
        Field::int(&f("EMP_ID"), "Empresa").column("tit_emp_id"),
        Field::reference(
            n.person,
            n.person_label,
            n.person_register,
            Kind::Autocomplete,
        )
        .required()
        .list()
        .width(6)
        .column("tit_pessoa_id"),
        Field::text(n.person_name, "Nome")
            .len(150)
            .searchable()
            .list()
            .width(6)
            .column("tit_pessoa_nome"),
        Field::text(&f("DOCUMENTO"), "Documento")
            .len(60)
            .searchable()
            .list()
            .width(3)
            .column("tit_documento"),
        Field::int(&f("PARCELA"), "Parcela")
            .min("1")
            .max("999")
            .default(1.into())
            .list()
            .width(2)
            .column("tit_parcela"),
        Field::int(&f("QTD_PARCELAS"), "Qtde. de Parcelas")
            .min("1")
            .max("999")
            .default(1.into())
            .width(2)
            .column("tit_parcelas"),
        Field::date(&f("DTA_EMIS"), "Emissão")
            .required()
            .list()
            .column("tit_dta_emis"),
        Field::date(&f("DTA_VCTO"), "Vencimento")
            .required()
            .list()
            .column("tit_dta_vcto"),
        Field::money(n.value, "Valor")
            .required()
            .min("0.01")
            .list()
            .width(3)
            .column("tit_valor"),
        Field::money(n.surcharge, "Acréscimo")
            .default("0".into())
            .width(3)
            .column("tit_acrescimo"),
        Field::money(&f("VLR_JUROS"), "Juros")
            .read_only()
            .width(3)
            .column("tit_juros"),
        Field::money(&f("VLR_MULTA"), "Multa")
            .read_only()
            .width(3)
            .column("tit_multa"),
        Field::money(&f("VLR_DESCONTO"), "Desconto")
            .read_only()
            .width(3)
            .column("tit_desconto"),
        Field::money(&f("VLR_PAGO"), "Valor Pago")
            .read_only()
            .list()
            .width(3)
            .column("tit_pago"),
        Field::money("SALDO", "Saldo")
            .read_only()
            .list()
            .width(3)
            .column("tit_saldo"),
        Field::date(n.paid_on, n.paid_on_label)
            .read_only()
            .list()
            .column("tit_dta_pag"),
        Field::reference(
            &f("FRMP_ID"),
            "Forma de Pagamento",
            "formapagamento",
            Kind::Combobox,
        )
        .width(4)
        .column("tit_frmp_id"),
        Field::reference(&f("BCO_ID"), "Conta Bancária", "banco", Kind::Combobox)
            .width(4)
            .column("tit_bco_id"),
        Field::reference(
            &f("HISP_ID"),
            "Centro de Custo",
            "historicopadrao",
            Kind::Combobox,
        )
        .width(4)
        .column("tit_hisp_id"),
        Field::options(&f("SITUACAO"), "Situação", DbType::Text, &STATUS)
            .read_only()
            .list()
            .width(3)
            .column("tit_situacao"),
        Field::options(&f("ORIGEM"), "Origem", DbType::Text, &ORIGINS)
            .read_only()
            .width(3)
            .column("tit_origem"),
        Field::int(n.origin_id, n.origin_label)
            .read_only()
            .width(2)
            .column("tit_origem_id"),
        Field::text(n.origin_serie, "Série")
            .read_only()
            .width(2)
            .column("tit_origem_serie"),
        Field::textarea(&f("OBS"), "Observação")
            .len(500)
            .column("tit_obs"),
        Field::int(&f("USR_ID"), "Usuário")
            .role(Role::CreatedBy)
            .column("tit_usr_id"),
        Field::timestamp(&f("DTA_CAD"), "Data de Cadastro").column("tit_dta_cad"),
    ];
    if side == Side::Payable {
        fields.push(
            Field::boolean("CMPD_ADIANTAMENTO", "Adiantamento ao Fornecedor")
                .default(false.into())
                .width(3)
                .column("tit_adiantamento"),
        );
        fields.push(
            Field::money("CMPD_VLR_COMPENSADO", "Valor Compensado")
                .read_only()
                .width(3)
                .column("tit_compensado"),
        );
    }
    fields
}

fn register(side: Side, name: &str, title: &str, program: &str) -> Resource {
    let n = names(side);
    Resource::new(name, title, SCHEMA, side.table(), program)
        .key(&[side.key()])
        .company(&n.f("EMP_ID"))
        .label(n.person_name)
        .order(&n.f("DTA_VCTO"))
        .constraint(
            &format!("{}_banco_fkey", side.table()),
            crate::bank::UNKNOWN_ACCOUNT,
        )
        .constraint(
            &format!("{}_forma_fkey", side.table()),
            "Forma de pagamento não encontrada.",
        )
        .constraint(
            &format!("{}_centro_fkey", side.table()),
            "Centro de custo não encontrado.",
        )
        .fields(fields(side))
}

/// The settlement calls every title register has.
fn settlement_calls(res: Resource, side: Side, uploads: &Path) -> Resource {
    let root = side.table();
    let what = match side {
        Side::Receivable => "Contas a Receber",
        Side::Payable => "Contas a Pagar",
    };
    res.call(
        "POST",
        &format!("/{root}/baixa/{{emp}}"),
        "baixa",
        ActionPerm::Update,
        &format!("{what}: baixar um ou mais títulos (valor, juros, multa, desconto, data, conta, forma de pagamento)"),
        calls::Settle { side, quick: false },
    )
    .call(
        "PUT",
        &format!("/{root}/estorno/{{id}}/{{emp}}"),
        "estorno",
        ActionPerm::Update,
        &format!("{what}: estornar uma baixa (o título reabre e o movimento bancário é estornado)"),
        calls::Reverse(side),
    )
    .call(
        "POST",
        &format!("/{root}/baixas/{{id}}/{{emp}}"),
        "baixas",
        ActionPerm::View,
        &format!("{what}: baixas de um título"),
        calls::Settlements(side),
    )
    .call(
        "GET",
        &format!("/{root}/verifica/{{id}}/{{emp}}"),
        "verifica",
        ActionPerm::View,
        &format!("{what}: o título pode ser baixado? situação, saldo, juros e multa de hoje"),
        calls::Check(side),
    )
    .call(
        "POST",
        &format!("/{root}/calculo/{{emp}}"),
        "calculo",
        ActionPerm::View,
        &format!("{what}: juros, multa e total da baixa de títulos numa data, antes de confirmar"),
        calls::Preview(side),
    )
    .call(
        "GET",
        &format!("/{root}/recibo/{{id}}/{{emp}}"),
        "recibo",
        ActionPerm::View,
        &format!("{what}: o recibo (PDF) de uma baixa"),
        SettlementReceipt { side, uploads: uploads.to_path_buf() },
    )
}

pub fn contasreceber(uploads: &Path) -> Resource {
    let side = Side::Receivable;
    let res = register(side, "contasreceber", "Contas a Receber", "contasareceber")
        .screen("/contasareceber")
        .record_hooks(TitleHooks(side))
        .sample(json!({
            "CRCB_CLI_ID": 1, "CLI_DESCRICAO": "CLIENTE EXEMPLO LTDA", "CRCB_DOCUMENTO": "NF 1001",
            "CRCB_DTA_EMIS": "2026-11-23", "CRCB_DTA_VCTO": "2026-12-23", "CRCB_VLR_CTA": "150.00",
            "CRCB_OBS": "Título de exemplo"
        }));
    settlement_calls(res, side, uploads)
        .call(
            "GET",
            "/contasreceber/cliente/{emp}/{cliId}/{type}",
            "cliente",
            ActionPerm::View,
            "Contas a Receber: títulos de um cliente (type: abertos, pagos, vencidos ou todos)",
            calls::CustomerTitles,
        )
        .call(
            "POST",
            "/contasreceberbaixadas/{emp}",
            "baixadas",
            ActionPerm::View,
            "Contas a Receber: baixas do período (DATA_INI, DATA_FIM, CRCB_CLI_ID, BCO_ID, FRMP_ID, ESTORNADAS)",
            calls::SettledReceivables,
        )
        .call(
            "DELETE",
            "/contasreceberparcelaspedidos/{id}/{emp}/{serie}",
            "parcelaspedido",
            ActionPerm::Delete,
            "Contas a Receber: excluir as parcelas de um pedido (recusado se alguma foi paga)",
            calls::RemoveOrderInstalments,
        )
        .call(
            "POST",
            "/contasreceber/simular/{emp}",
            "simular",
            ActionPerm::View,
            "Contas a Receber: parcelas de um valor por uma condição de pagamento ou de vencimento",
            calls::Simulate,
        )
}

pub fn contaspagar(uploads: &Path) -> Resource {
    let side = Side::Payable;
    let res = register(side, "contaspagar", "Contas a Pagar", "contasapagar")
        .screen("/contasapagar")
        .record_hooks(TitleHooks(side))
        .sample(json!({
            "CMPD_COMP_FORN_ID": 1, "FORN_DESCRICAO": "FORNECEDOR EXEMPLO LTDA", "CMPD_DOCUMENTO": "NF 5001",
            "CMPD_DTA_EMIS": "2026-11-23", "CMPD_DTA_VCTO": "2026-12-23", "CMPD_VLR_TITULO": "320.00",
            "CMPD_OBS": "Título de exemplo"
        }));
    settlement_calls(res, side, uploads)
        .call(
            "GET",
            "/comprapagamentos/adiantamentos/{supplierId}/{bankId}",
            "adiantamentos",
            ActionPerm::View,
            "Contas a Pagar: adiantamentos do fornecedor com saldo a compensar, pagos pela conta (0 = qualquer conta)",
            calls::Advances,
        )
        .call(
            "POST",
            "/contaspagar/compensar/{emp}",
            "compensar",
            ActionPerm::Update,
            "Contas a Pagar: baixar títulos do fornecedor com o saldo de um adiantamento (ADIANTAMENTO, DATA, TITULOS)",
            calls::OffsetAdvance,
        )
}

/// What the payables settlement screen lists and calls, under its own program.
pub const SETTLEMENT_SCREEN_READ_ONLY: &str =
    "Baixa de Contas a Pagar: inclua, altere e exclua títulos em Contas a Pagar.";

pub fn baixacontaspagar(uploads: &Path) -> Resource {
    let side = Side::Payable;
    register(side, "baixacontaspagar", "Baixa de Contas a Pagar", "baixacontaspagar")
        .screen("/baixacontaspagar")
        .hooks(Arc::new(ReadOnly(SETTLEMENT_SCREEN_READ_ONLY)))
        .call(
            "POST",
            "/baixacontaspagar/filtros/{emp}",
            "filtros",
            ActionPerm::View,
            "Baixa de Contas a Pagar: títulos a baixar ({dados, count}; fornecedor, vencimento, situação, conta; juros e multa em DATA_BAIXA)",
            calls::PayablesToSettle,
        )
        .call(
            "POST",
            "/baixacontaspagar/rapida/{emp}",
            "rapida",
            ActionPerm::Update,
            "Baixa de Contas a Pagar: baixar uma lista de títulos pelo saldo, tudo ou nada",
            calls::Settle { side, quick: true },
        )
        .call(
            "GET",
            "/baixacontaspagar/verifica/{id}/{emp}",
            "verifica",
            ActionPerm::View,
            "Baixa de Contas a Pagar: o título pode ser baixado? situação, saldo, juros e multa de hoje",
            calls::Check(side),
        )
        .call(
            "PUT",
            "/baixacontaspagar/estorno/{id}/{emp}",
            "estorno",
            ActionPerm::Update,
            "Baixa de Contas a Pagar: estornar uma baixa",
            calls::Reverse(side),
        )
        .call(
            "GET",
            "/baixacontaspagar/recibo/{id}/{emp}",
            "recibo",
            ActionPerm::View,
            "Baixa de Contas a Pagar: o recibo (PDF) de uma baixa",
            SettlementReceipt { side, uploads: uploads.to_path_buf() },
        )
}

/// What the registers' writes of a title check (see the module's doc).
struct TitleHooks(Side);

pub const SETTLED: &str =
    "Título com baixa não pode ser alterado nem excluído: estorne a baixa antes.";
pub const CANCELLED: &str = "Título cancelado não pode ser alterado nem excluído.";
pub const ADVANCE_MANUAL: &str =
    "Adiantamento é um título lançado em Contas a Pagar: parcela de compra não pode ser adiantamento.";

/// What the title hooks read of a body: the issue and due dates (either side's
/// names; a date that is no date is left for the engine to refuse).
#[derive(Deserialize, Serialize)]
pub struct TitleBody {
    #[serde(
        rename = "CRCB_DTA_EMIS",
        alias = "CMPD_DTA_EMIS",
        default,
        skip_serializing
    )]
    issued: Loose<Date>,
    #[serde(
        rename = "CRCB_DTA_VCTO",
        alias = "CMPD_DTA_VCTO",
        default,
        skip_serializing
    )]
    due: Loose<Date>,
}

/// What the title hooks read of a written title (either side's names).
#[derive(Deserialize)]
pub struct TitleRow {
    #[serde(rename = "CRCB_ID", alias = "CMPD_ID")]
    id: i64,
    #[serde(rename = "CRCB_EMP_ID", alias = "CMPD_EMP_ID")]
    emp: i64,
    #[serde(rename = "CRCB_CLI_ID", alias = "CMPD_COMP_FORN_ID", default)]
    person: Option<i64>,
    #[serde(rename = "CLI_DESCRICAO", alias = "FORN_DESCRICAO", default)]
    person_name: Option<String>,
    #[serde(rename = "CRCB_SITUACAO", alias = "CMPD_SITUACAO", default)]
    status: Option<String>,
    #[serde(rename = "CRCB_ORIGEM", alias = "CMPD_ORIGEM", default)]
    origin: Option<String>,
    #[serde(rename = "CRCB_PEDF_ID", alias = "CMPD_COMP_ID", default)]
    origin_id: Option<i64>,
    #[serde(rename = "CRCB_PEDF_SERIE", alias = "CMPD_COMP_SERIE", default)]
    origin_serie: Option<String>,
    /// Payables only.
    #[serde(rename = "CMPD_ADIANTAMENTO", default)]
    advance: Option<bool>,
}

impl TitleRow {
    fn origin(&self) -> &str {
        self.origin.as_deref().unwrap_or_default()
    }
}

#[async_trait]
impl RecordHooks for TitleHooks {
    type Body = TitleBody;
    type Row = TitleRow;

    async fn before_write(&self, _op: Op, _caller: &Caller, body: &mut TitleBody) -> Result<()> {
        if let (Loose(Some(issued)), Loose(Some(due))) = (body.issued, body.due) {
            if due < issued {
                return Err(Error::validation(
                    "A data de vencimento não pode ser anterior à data de emissão.",
                ));
            }
        }
        Ok(())
    }

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &TitleRow,
    ) -> Result<()> {
        self.check(tx, op, caller, row).await?;
        // What the reports keep of the title.
        let side = self.0;
        let (emp, id) = (row.emp, row.id);
        let (client, user) = (caller.client_id, caller.user_id);
        match op {
            Op::Delete => crate::facts::title_removed(tx, client, emp, side.code(), id, user).await,
            Op::Create | Op::Update => {
                self.fill_name(tx, client, row).await?;
                let change = if op == Op::Create {
                    "criado"
                } else {
                    "alterado"
                };
                crate::facts::titles(tx, client, emp, side.code(), &[id], change, 0, user).await
            }
        }
    }
}

impl TitleHooks {
    /// A title written without its person's name takes the name finance's copy
    /// of the register has: the settlements' bank history, the receipts and the
    /// reports name the person.
    async fn fill_name(&self, tx: &mut Tx, client: i64, row: &TitleRow) -> Result<()> {
        let named = row
            .person_name
            .as_deref()
            .is_some_and(|s| !s.trim().is_empty());
        let Some(person) = row.person.filter(|_| !named) else {
            return Ok(());
        };
        let party = match self.0 {
            Side::Receivable => crate::copies::customer(tx, client, row.emp, person).await?,
            Side::Payable => crate::copies::supplier(tx, client, person).await?,
        };
        if let Some(p) = party {
            sqlx::query(&format!(
                "UPDATE finance.{} SET tit_pessoa_nome = $4
                 WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3 AND coalesce(tit_pessoa_nome, '') = ''",
                self.0.table()
            ))
            .bind(client)
            .bind(row.emp)
            .bind(row.id)
            .bind(p.name)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// The checks of a title written by hand (see the module's doc).
    async fn check(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &TitleRow) -> Result<()> {
        let side = self.0;
        let origin = row.origin();
        if op != Op::Delete && row.advance == Some(true) && origin != "MANUAL" {
            return Err(Error::validation(ADVANCE_MANUAL));
        }
        if op == Op::Create {
            return Ok(());
        }
        match row.status.as_deref().unwrap_or_default() {
            "A" => {}
            "C" => return Err(Error::Conflict(CANCELLED.into())),
            _ => return Err(Error::Conflict(SETTLED.into())),
        }
        let client = caller.client_id;
        if op == Op::Delete {
            if origin != "MANUAL" {
                let what = ORIGINS
                    .iter()
                    .find(|(c, _)| *c == origin)
                    .map(|(_, t)| t.to_lowercase())
                    .unwrap_or_else(|| "outro documento".into());
                return Err(Error::Conflict(format!(
                    "Parcela gerada por {what} não pode ser excluída: cancele o documento de origem."
                )));
            }
            let settlements: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2
                   AND baix_tipo = $3 AND baix_tit_id = $4",
            )
            .bind(client)
            .bind(row.emp)
            .bind(side.code())
            .bind(row.id)
            .fetch_one(&mut **tx)
            .await?;
            if settlements > 0 {
                return Err(Error::Conflict(
                    "Título com baixas estornadas não pode ser excluído.".into(),
                ));
            }
            return Ok(());
        }
        if origin != "MANUAL" {
            // The document's instalments still add up to what was made from it.
            let sql = format!(
                "SELECT d.doc_total, coalesce((SELECT sum(t.tit_valor) FROM finance.{} t
                     WHERE t.client_id = d.client_id AND t.tit_emp_id = d.doc_emp_id AND t.tit_origem = d.doc_origem
                       AND t.tit_origem_id = d.doc_id AND t.tit_origem_serie = d.doc_serie AND NOT t.tit_cancelado), 0)
                 FROM finance.documentos d
                 WHERE d.client_id = $1 AND d.doc_emp_id = $2 AND d.doc_origem = $3 AND d.doc_id = $4 AND d.doc_serie = $5",
                side.table()
            );
            let sums: Option<(Decimal, Decimal)> = sqlx::query_as(&sql)
                .bind(client)
                .bind(row.emp)
                .bind(origin)
                .bind(row.origin_id)
                .bind(row.origin_serie.as_deref().unwrap_or_default())
                .fetch_optional(&mut **tx)
                .await?;
            if let Some((made, now)) = sums {
                if made != now {
                    return Err(Error::validation(format!(
                        "O valor de parcela gerada por documento não pode ser alterado: as parcelas devem somar {}.",
                        brl(made)
                    )));
                }
            }
        }
        Ok(())
    }
}
