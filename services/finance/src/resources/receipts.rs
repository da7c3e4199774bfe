//! Receipts as PDF files (see `crate::receipts`): the free-form receipts of the
//! `/reciboavulso` screen (`recibos`: the receipts issued, numbered per company,
//! read-only through the generic calls; guarded by the screen's program
//! `reciboavulso`) and the receipt of a settlement, declared on the title
//! registers.
//!
//! Calls (each answers `file_reply("application/pdf", "recibo-<n>.pdf", …)`):
//! - `POST /reciboavulso/{emp}` with `{VALOR, PAGADOR, PAGADOR_DOC?, RECEBEDOR?,
//!   RECEBEDOR_DOC?, REFERENTE, CIDADE, DATA (yyyy-MM-dd)}`: issues a receipt (400
//!   with the pt-BR message of the first invalid value);
//! - `GET /reciboavulso/{id}/{emp}`: issued receipt `id` again;
//! - `GET /contasreceber/recibo/{id}/{emp}`, `GET /contaspagar/recibo/{id}/{emp}`:
//!   the receipt of settlement (baixa) `id`.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, id_param};
use erp_platform::resource::{file_reply, ActionHandler, ActionPerm, Call, Field, Resource, Role};
use erp_platform::Result;
use serde_json::Value;

use crate::receipts::{self, FreeReceipt};
use crate::titles::Side;
use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub const READ_ONLY: &str =
    "Recibos: emita um recibo avulso; um recibo emitido não é alterado nem excluído.";

fn pdf(id: i64, bytes: &[u8]) -> Value {
    file_reply("application/pdf", &format!("recibo-{id}.pdf"), bytes)
}

/// `uploads`: where the gateway keeps uploaded files (the company's logo).
pub fn all(uploads: PathBuf) -> Vec<Resource> {
    vec![recibos(uploads)]
}

pub fn recibos(uploads: PathBuf) -> Resource {
    Resource::new("recibos", "Recibos", SCHEMA, "recibos", "reciboavulso")
        .key(&["REC_ID"])
        .company("REC_EMP_ID")
        .label("REC_PAGADOR")
        .order("REC_ID DESC")
        .hooks(Arc::new(ReadOnly(READ_ONLY)))
        .fields(vec![
            Field::id("REC_ID", "Número"),
            Field::int("REC_EMP_ID", "Empresa"),
            Field::date("REC_DATA", "Data").list().read_only(),
            Field::money("REC_VALOR", "Valor").list().read_only(),
            Field::text("REC_PAGADOR", "Pagador")
                .searchable()
                .list()
                .read_only()
                .width(6),
            Field::cpf_cnpj("REC_PAGADOR_DOC", "CPF/CNPJ do Pagador").read_only(),
            Field::text("REC_RECEBEDOR", "Recebedor").read_only().width(6),
            Field::cpf_cnpj("REC_RECEBEDOR_DOC", "CPF/CNPJ do Recebedor").read_only(),
            Field::text("REC_REFERENTE", "Referente")
                .searchable()
                .list()
                .read_only()
                .width(12),
            Field::text("REC_CIDADE", "Cidade").read_only(),
            Field::int("REC_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::timestamp("REC_DTA_CAD", "Data de Cadastro"),
        ])
        .action(
            "POST",
            "/reciboavulso/{emp}",
            "reciboavulso",
            ActionPerm::Create,
            "Recibo avulso: emitir (VALOR, PAGADOR, PAGADOR_DOC, RECEBEDOR, REFERENTE, CIDADE, DATA) e baixar o PDF",
            Arc::new(IssueFree { uploads: uploads.clone() }),
        )
        .action(
            "GET",
            "/reciboavulso/{id}/{emp}",
            "reimprimir",
            ActionPerm::View,
            "Recibo avulso: o PDF de um recibo emitido",
            Arc::new(PrintFree { uploads }),
        )
}

/// `POST /reciboavulso/{emp}`.
struct IssueFree {
    uploads: PathBuf,
}

#[async_trait]
impl ActionHandler for IssueFree {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let r = FreeReceipt::parse(&body_map(call.body))?;
        let id = receipts::issue(tx, client, emp, call.caller.user_id, &r).await?;
        let bytes = receipts::free(tx, client, emp, id, &r, &self.uploads).await?;
        Ok(pdf(id, &bytes))
    }
}

/// `GET /reciboavulso/{id}/{emp}`.
struct PrintFree {
    uploads: PathBuf,
}

#[async_trait]
impl ActionHandler for PrintFree {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        let client = call.caller.client_id;
        let r = receipts::issued(tx, client, emp, id).await?;
        let bytes = receipts::free(tx, client, emp, id, &r, &self.uploads).await?;
        Ok(pdf(id, &bytes))
    }
}

/// `GET /{contasreceber|contaspagar}/recibo/{id}/{emp}`: the receipt of
/// settlement `id`.
pub struct SettlementReceipt {
    pub side: Side,
    pub uploads: PathBuf,
}

#[async_trait]
impl ActionHandler for SettlementReceipt {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        let bytes =
            receipts::settlement(tx, call.caller.client_id, emp, self.side, id, &self.uploads)
                .await?;
        Ok(pdf(id, &bytes))
    }
}
