//! The NF-e of billing orders (`pedidofatxml`, spec data-and-calls §7 "Billing
//! orders": list, registros, filtrocontador, create, delete): one NF-e (model
//! 55) per invoiced order, issued through the Nuvem Fiscal from fiscal's copies
//! (`crate::copies`, `crate::facts`) and registers (tax rules, operation
//! natures, numbering, the company's fiscal settings).
//!
//! Calls (besides the generic list, count and get):
//! - `POST /pedidofatxml` {PEXM_PEDF_ID, PEXM_EMP_ID, PEXM_SERIE, NATO_ID?}:
//!   emits and waits for the SEFAZ (`emission`); a rejection answers its
//!   `cStat`, `xMotivo` and the plain explanation (`crate::rejections`);
//! - `GET /pedidofatxml/previa/{id}/{emp}/{serie}`: the `NfePedidoEmissao` that
//!   would be sent, unsent;
//! - `GET /pedidofatxml/consultar/{PEXM_ID}/{emp}`: synchronise and wait;
//! - `POST /pedidofatxml/cancelar/{PEXM_ID}/{emp}` {JUSTIFICATIVA} and
//!   `POST /pedidofatxml/cartacorrecao/{PEXM_ID}/{emp}` {CORRECAO};
//! - `GET /pedidofatxml/xml/{PEXM_ID}/{emp}`, `GET /pedidofatxml/danfe/{PEXM_ID}/{emp}`;
//! - `POST /pedidofatxml/filtrocontador/{emp}` {DATA_INI, DATA_FIM};
//! - `DELETE /pedidofatxml/{PEXM_ID}/{emp}` (generic): only a rejected NF-e or
//!   one the provider refused (a database trigger guards it for every path).
//!
//! Rows are written by these calls only: the generic create and update are
//! refused.
//!
//! Layout: here the descriptor; `calls`: the declared calls; `emission`: the
//! step particular to it and the preview (the provider's steps are every
//! document's, `dfe`); `sources`: what an NF-e is read from; `request`: the
//! request built from it; `item_taxes`: an item's taxes; `store`: the rows,
//! its `dfe::Kind` and the facts for orders.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{ActionPerm, DbType, Field, Hooks, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use self::store::Nfe;
use super::dfe::calls::{Consult, Download};
use super::dfe::files::File;
use super::taxes::codes::ENVIRONMENTS;

pub(crate) mod calls;
pub mod emission;
pub mod item_taxes;
pub mod request;
pub mod sources;
pub(crate) mod store;

pub const NAME: &str = "pedidofatxml";
const SCHEMA: &str = crate::SCHEMA;

/// What the calls share (the provider's client, the service's pool).
pub type Ctx = super::dfe::Ctx;

const STATUSES: [(&str, &str); 7] = [
    ("enviando", "Enviando"),
    ("pendente", "Aguardando a SEFAZ"),
    ("autorizado", "Autorizada"),
    ("rejeitado", "Rejeitada"),
    ("denegado", "Denegada"),
    ("cancelado", "Cancelada"),
    ("erro", "Erro no envio"),
];

pub fn all(ctx: Arc<Ctx>) -> Vec<Resource> {
    vec![pedidofatxml(ctx)]
}

fn fields() -> Vec<Field> {
    vec![
        Field::id("PEXM_ID", "Código"),
        Field::int("PEXM_EMP_ID", "Empresa"),
        Field::int("PEXM_PEDF_ID", "Pedido")
            .required()
            .list()
            .width(2),
        Field::text("PEXM_SERIE", "Série do Pedido")
            .required()
            .len(10)
            .list()
            .width(2),
        Field::int("PEXM_USR_ID", "Usuário").server(),
        Field::timestamp("PEXM_DTA_CAD", "Cadastro").read_only(),
        Field::text("PEXM_MODELO", "Modelo").len(2).read_only(),
        Field::int("PEXM_NFE_SERIE", "Série")
            .read_only()
            .list()
            .width(2),
        Field::int("PEXM_NUMERO", "Número")
            .read_only()
            .list()
            .width(2),
        Field::options("PEXM_AMBIENTE", "Ambiente", DbType::Int, &ENVIRONMENTS).read_only(),
        Field::int("PEXM_TENTATIVA", "Tentativa").read_only(),
        Field::text("PEXM_REFERENCIA", "Referência na Nuvem Fiscal").read_only(),
        Field::text("PEXM_NUVEM_ID", "Id na Nuvem Fiscal").read_only(),
        Field::options("PEXM_SITUACAO", "Situação", DbType::Text, &STATUSES)
            .read_only()
            .list()
            .width(3),
        Field::access_key("PEXM_CHAVE", "Chave de Acesso")
            .read_only()
            .searchable()
            .list(),
        Field::text("PEXM_PROTOCOLO", "Protocolo").read_only(),
        Field::int("PEXM_CSTAT", "cStat").read_only(),
        Field::text("PEXM_MOTIVO", "Motivo").read_only(),
        Field::textarea("PEXM_EXPLICACAO", "Explicação").read_only(),
        Field::money("PEXM_VALOR", "Valor").read_only().list(),
        Field::timestamp("PEXM_DTA_EMISSAO", "Emissão")
            .read_only()
            .list(),
        Field::timestamp("PEXM_DTA_AUTORIZACAO", "Autorização").read_only(),
        Field::text("PEXM_CANCEL_JUSTIFICATIVA", "Justificativa do Cancelamento").read_only(),
        Field::text("PEXM_CANCEL_PROTOCOLO", "Protocolo do Cancelamento").read_only(),
        Field::timestamp("PEXM_DTA_CANCELAMENTO", "Cancelamento").read_only(),
        Field::int("PEXM_CCE_SEQ", "Cartas de Correção").read_only(),
        Field::textarea("PEXM_CCE_CORRECAO", "Última Correção").read_only(),
        Field::text("PEXM_CCE_PROTOCOLO", "Protocolo da Carta de Correção").read_only(),
        Field::timestamp("PEXM_DTA_CCE", "Carta de Correção em").read_only(),
    ]
}

fn pedidofatxml(ctx: Arc<Ctx>) -> Resource {
    Resource::new(NAME, "NF-e do Pedido", SCHEMA, "pedidofatxml", "pedidos")
        .key(&["PEXM_ID"])
        .company("PEXM_EMP_ID")
        .label("PEXM_CHAVE")
        .order("PEXM_ID DESC")
        .constraint("pedidofatxml_pedido_key", "Este pedido já tem NF-e.")
        .constraint(
            "pedidofatxml_exclusao_check",
            "Só se exclui uma NF-e rejeitada ou não enviada: uma NF-e autorizada é cancelada.",
        )
        .hooks(Arc::new(CallsOnly))
        // No sample: a row is an emission, never a demo or round-trip register row.
        .fields(fields())
        .action(
            "POST",
            "/pedidofatxml",
            "emitir",
            ActionPerm::Create,
            "NF-e do pedido: emitir a NF-e de um pedido faturado (PEXM_PEDF_ID, PEXM_EMP_ID, PEXM_SERIE, NATO_ID opcional)",
            Arc::new(calls::Emit(ctx.clone())),
        )
        .action(
            "GET",
            "/pedidofatxml/previa/{id}/{emp}/{serie}",
            "previa",
            ActionPerm::View,
            "NF-e do pedido: o JSON que seria enviado à Nuvem Fiscal (NfePedidoEmissao), sem enviar",
            Arc::new(calls::Preview),
        )
        .action(
            "GET",
            "/pedidofatxml/consultar/{PEXM_ID}/{emp}",
            "consultar",
            ActionPerm::View,
            "NF-e do pedido: consultar na SEFAZ (sincronizar e aguardar a situação final)",
            Arc::new(Consult { ctx: ctx.clone(), doc: &Nfe, locate: calls::locate }),
        )
        .action(
            "POST",
            "/pedidofatxml/cancelar/{PEXM_ID}/{emp}",
            "cancelar",
            ActionPerm::Update,
            "NF-e do pedido: cancelar (JUSTIFICATIVA de 15 a 255 caracteres)",
            Arc::new(calls::Cancel(ctx.clone())),
        )
        .action(
            "POST",
            "/pedidofatxml/cartacorrecao/{PEXM_ID}/{emp}",
            "cartacorrecao",
            ActionPerm::Update,
            "NF-e do pedido: carta de correção (CORRECAO de 15 a 1000 caracteres)",
            Arc::new(calls::Correct(ctx.clone())),
        )
        .action(
            "GET",
            "/pedidofatxml/xml/{PEXM_ID}/{emp}",
            "xml",
            ActionPerm::View,
            "NF-e do pedido: baixar o XML",
            Arc::new(Download { ctx: ctx.clone(), doc: &Nfe, file: File::Xml, locate: calls::locate }),
        )
        .action(
            "GET",
            "/pedidofatxml/danfe/{PEXM_ID}/{emp}",
            "danfe",
            ActionPerm::View,
            "NF-e do pedido: baixar o DANFE (PDF)",
            Arc::new(Download { ctx, doc: &Nfe, file: File::Pdf, locate: calls::locate }),
        )
        .action(
            "POST",
            "/pedidofatxml/filtrocontador/{emp}",
            "filtrocontador",
            ActionPerm::View,
            "NF-e do pedido: as autorizadas e canceladas de um período, para o contador (DATA_INI, DATA_FIM)",
            Arc::new(calls::Accountant),
        )
}

/// The generic create and update would write an NF-e that was never issued.
struct CallsOnly;

#[async_trait]
impl Hooks for CallsOnly {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Err(Error::validation(
            "A NF-e do pedido é emitida pela emissão (POST /pedidofatxml), não incluída nem alterada à mão.",
        ))
    }
}
