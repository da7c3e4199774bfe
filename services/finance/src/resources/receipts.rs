//! Receipts as PDF files (see `crate::receipts`): the free-form receipts of the
//! `/reciboavulso` screen (`recibos`: the receipts issued, numbered per company,
//! read-only through the generic calls; guarded by the screen's program
//! `reciboavulso`) and the receipt of a settlement, declared on the title
//! registers.
//!
//! Calls (each answers the PDF file `recibo-<n>.pdf`):
//! - `POST /reciboavulso/{emp}` with `{VALOR, PAGADOR, PAGADOR_DOC?, RECEBEDOR?,
//!   RECEBEDOR_DOC?, REFERENTE, CIDADE, DATA (yyyy-MM-dd)}`: issues a receipt (400
//!   with the pt-BR message of the first invalid value);
//! - `GET /reciboavulso/{id}/{emp}`: issued receipt `id` again;
//! - `GET /contasreceber/recibo/{id}/{emp}`, `GET /contaspagar/recibo/{id}/{emp}`:
//!   the receipt of settlement (baixa) `id`.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, File, Operation};
use erp_platform::resource::{ActionPerm, Field, Resource, Role};
use erp_platform::Result;

use super::IdIn;
use crate::receipts::{self, FreeReceipt, FreeReceiptIn};
use crate::titles::Side;
use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub const READ_ONLY: &str =
    "Recibos: emita um recibo avulso; um recibo emitido não é alterado nem excluído.";

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
        .call(
            "POST",
            "/reciboavulso/{emp}",
            "reciboavulso",
            ActionPerm::Create,
            "Recibo avulso: emitir (VALOR, PAGADOR, PAGADOR_DOC, RECEBEDOR, REFERENTE, CIDADE, DATA) e baixar o PDF",
            IssueFree { uploads: uploads.clone() },
        )
        .call(
            "GET",
            "/reciboavulso/{id}/{emp}",
            "reimprimir",
            ActionPerm::View,
            "Recibo avulso: o PDF de um recibo emitido",
            PrintFree { uploads },
        )
}

/// A receipt as a PDF file (`recibo-<n>.pdf`).
fn pdf(id: i64, bytes: Vec<u8>) -> File {
    File::new("application/pdf", &format!("recibo-{id}.pdf"), bytes)
}

/// `POST /reciboavulso/{emp}`: issues a free-form receipt and answers its PDF.
struct IssueFree {
    uploads: PathBuf,
}

#[async_trait]
impl Operation for IssueFree {
    type In = FreeReceiptIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: FreeReceiptIn) -> Result<File> {
        let emp = cx.emp()?;
        let client = cx.client();
        let r = FreeReceipt::parse(i)?;
        let id = receipts::issue(cx.tx, client, emp, cx.user(), &r).await?;
        let bytes = receipts::free(cx.tx, client, emp, id, &r, &self.uploads).await?;
        Ok(pdf(id, bytes))
    }
}

/// `GET /reciboavulso/{id}/{emp}`: issued receipt `id` again.
struct PrintFree {
    uploads: PathBuf,
}

#[async_trait]
impl Operation for PrintFree {
    type In = IdIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<File> {
        let emp = cx.emp()?;
        let client = cx.client();
        let r = receipts::issued(cx.tx, client, emp, i.id).await?;
        let bytes = receipts::free(cx.tx, client, emp, i.id, &r, &self.uploads).await?;
        Ok(pdf(i.id, bytes))
    }
}

/// `GET /{contasreceber|contaspagar}/recibo/{id}/{emp}`: the receipt of
/// settlement `id`.
pub struct SettlementReceipt {
    pub side: Side,
    pub uploads: PathBuf,
}

#[async_trait]
impl Operation for SettlementReceipt {
    type In = IdIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<File> {
        let emp = cx.emp()?;
        let bytes =
            receipts::settlement(cx.tx, cx.client(), emp, self.side, i.id, &self.uploads).await?;
        Ok(pdf(i.id, bytes))
    }
}
