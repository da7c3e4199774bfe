//! Purchases (`compra`, screen /compras): the supplier's invoice keyed by id per
//! company, with its items (`compraproduto`, CMPP_*) as the document's lines and,
//! as rows of the document, the items' size/colour grid (`compraprodutograde`,
//! CMPG_*), freight documents (`comprafrete`, CMPF_*), the apportionment to stock
//! locations and cost centres (`compraestatistica`, CMPE_*) and the instalments
//! (`comprapagamentos`, CMPD_*); returns of items (`compraprodutodevolucao`,
//! CMPR_*) belong to a finalized purchase and are a register of their own.
//!
//! Totals (the engine's, in decimals, after every line change): COMP_VLR_PRODUTOS
//! (gross of the items), COMP_VLR_DESCONTO, COMP_VLR_FRETE, COMP_VLR_ACRESCIMOS
//! (insurance + other expenses + IPI + ST of the items: each item's
//! CMPP_VLR_ACRESCIMOS is a generated column, the engine's surcharge of a line) and
//! COMP_VLR_TOTAL = products − discount + freight + insurance + other + IPI + ST,
//! the invoice total (vNF). The items' hook keeps each addition and the ICMS base
//! and value summed on the header too (COMP_VLR_SEGURO ... COMP_VLR_ICMS).
//!
//! Situation: A aberta, F finalizada, C cancelada; only an open purchase (and its
//! items, grid, freight, apportionment and instalments) accepts changes ('Compra já
//! finalizada.').
//!
//! Calls beyond the generic ones (the purchase id of `{COMP_ID}` paths may also come
//! base64-encoded, spec §5):
//! - `POST /compra/filtrocontador/{emp}`: the list body; answers `{dados, count}`.
//! - `POST /compra/completa`: header, `itens` and `pagamentos` in one body and one
//!   transaction (`{"compra": {...}, "itens": [...], "pagamentos": [...]}`, or the
//!   header's fields at the top); with COMP_ID, replaces the items and instalments of
//!   that open purchase.
//! - `POST /compra/finalizar/{COMP_ID}/{emp}`: once (row-locked; again: 409 'Compra já
//!   finalizada.'); items without a product block it, naming them, and so do grid
//!   rows whose size and colour are no variant of the item's product in catalog's
//!   grid (orders' copy); each item's
//!   landed cost is stored and `erp.orders.compra.finalizada` goes to the outbox with
//!   the items at landed cost in the stock unit (each with its grid's quantities
//!   per catalog variant, PRGR_ID, which stock enters per variant), the instalments and the
//!   apportionment (its percentages must add up to 100%; its values are recomputed on
//!   the invoice total, the remainder cent on the last row, and written back).
//! - `POST /compra/cancelar/{COMP_ID}/{emp}`: a finalized purchase becomes C and
//!   `erp.orders.compra.cancelada` reverses its stock entries; refused (409) when
//!   finance paid anything of it (`crate::payables` keeps what finance's
//!   `erp.finance.titulo.situacao` says: CMPD_BAIXADO, CMPD_VLR_PAGO) or a return
//!   became a billing order. An open purchase is cancelled without a fact.
//! - `POST /compra/totalizadoresmanual/{COMP_ID}/{emp}`: totals typed from the paper
//!   invoice (COMP_MAN_*; `{"COMP_TOTALIZADOR_MANUAL": false}` turns them off):
//!   finalizing apportions what they exceed the items by, the invoice total is the
//!   typed one and COMP_VLR_DIFERENCA shows the difference.
//! - `POST /compra/uploads/{emp}` (multipart `file`: an NF-e XML): an open purchase
//!   from the supplier's NF-e; answers `{"compra", "itens" (each with VINCULO
//!   fornecedor | gtin | novo), "avisos"}` (see `import`).
//! - `POST /comprareplicar` (body COMP_ID, COMP_EMP_ID, DESTINO_EMP_ID): a copy of the
//!   purchase, open, in another company of the user.
//! - `GET /compraproduto/ultimacompra/{prodId}/{emp}`: the product's last finalized
//!   purchase (supplier, date, quantity, price and landed cost); 204 when none.
//! - `POST /compraproduto/atualizacaogeral`: the landed cost of the purchase's items
//!   becomes their products' cost and, by margin, their sale price, in catalog (see
//!   `price_update`); answers what changed, product by product.
//! - `GET /compraprodutograde/estoque/{CMPG_COMP_ID}/{emp}`: the grid in the stock
//!   unit, by product, size and colour.
//! - `POST /comprapagamentos/filtros/{emp}`: instalments of the company's purchases
//!   with the supplier (DTA_VCTO_INI, DTA_VCTO_FIM, FORN_ID, BAIXADO, COMP_SITUACAO,
//!   LIMIT, OFFSET); answers `{dados, count}`.
//! - `POST /compraprodutodevolucao/gerarpedido/{CMPR_COMP_ID}/{emp}`: the returns of
//!   a finalized purchase not yet ordered become one billing order for the supplier
//!   (the customer with the supplier's CPF/CNPJ); invoicing it takes them out of stock.
//!
//! Layout:
//! - `mod` (here): the descriptors and the document.
//! - `hooks`: the registers' hooks (supplier and product copies, matching, checks).
//! - `transitions`: finalize, cancel, typed totals; the landed cost of the items.
//! - `totals`: the header's components summed from the items and the invoice total.
//! - `import`: the NF-e XML import (an unknown supplier is created in catalog).
//! - `price_update`: the products' cost and sale price from the purchase.
//! - `complete`: the whole purchase in one body; replication to another company.
//! - `queries`: the read calls.
//! - `returns`: returns and their billing order.

use std::path::Path;

use erp_platform::resource::document::{DocPart, Part};
use erp_platform::resource::{
    ActionPerm, Button, DbType, Document, Field, Kind, Lines, Resource, Role, Total,
};
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use serde_json::json;

use crate::SCHEMA;

mod complete;
mod hooks;
mod import;
mod price_update;
mod queries;
mod returns;
mod totals;
mod transitions;

pub use transitions::PurchaseId;

pub const MISSING: &str = "Compra não encontrada.";
pub const ISSUED: &str = "Compra já finalizada.";
pub const DUPLICATE_KEY: &str = "Chave de acesso já lançada em outra compra desta empresa.";

/// The instalments' place among the document's rows (as `all` declares them).
const INSTALMENTS: usize = 3;

/// The purchase and its items, with the rows that belong to it, as one document,
/// plus the returns. `data_dir`: where the gateway keeps uploaded files
/// (`<data dir>/uploads/<client>/<emp>/`), which the XML import reads.
pub fn all(data_dir: &Path, peers: Peers) -> std::result::Result<Vec<Resource>, String> {
    let mut out = Document::new(compra(data_dir, peers.clone()))
        .status("COMP_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("F", "done"), ("C", "cancelled")])
        .missing(MISSING)
        .date("COMP_DTA_ENTRADA")
        .breadcrumbs(&["Início", "Compras"])
        .line(
            compraproduto(peers),
            Lines::products(&["CMPP_COMP_ID"])
                .title("Itens", "item")
                .editable(&[Role::Quantity, Role::UnitPrice, Role::Discount]),
        )
        .child(compraprodutograde(), &["CMPG_COMP_ID"])
        .child(comprafrete(), &["CMPF_COMP_ID"])
        .child(compraestatistica(), &["CMPE_COMP_ID"])
        .child(comprapagamentos(), &["CMPD_COMP_ID"])
        .build()?;
    out.push(compraprodutodevolucao());
    Ok(out)
}

/// A register of the purchase document as part of it (calls that write items or
/// instalments go through the same path as the generic writes).
fn part_of(header: &Resource, mut res: Resource, part: Part) -> Result<Resource> {
    let doc = header
        .document
        .as_ref()
        .filter(|d| d.part == Part::Header)
        .ok_or_else(|| Error::internal(format!("{} is not the purchase", header.name)))?;
    res.document = Some(DocPart { def: doc.def.clone(), part });
    Ok(res)
}

fn items_of(header: &Resource) -> Result<Resource> {
    part_of(header, compraproduto(Peers::default()), Part::Line(0))
}

fn instalments_of(header: &Resource) -> Result<Resource> {
    part_of(header, comprapagamentos(), Part::Child(INSTALMENTS))
}

fn situation() -> Field {
    Field::options(
        "COMP_SITUACAO",
        "Situação",
        DbType::Text,
        &[("A", "Aberta"), ("F", "Finalizada"), ("C", "Cancelada")],
    )
    .read_only()
    .list()
    .width(2)
}

fn compra(data_dir: &Path, peers: Peers) -> Resource {
    let uploads = data_dir.join("uploads");
    Resource::new("compra", "Compras", SCHEMA, "compras", "compras")
        .screen("/compras")
        .key(&["COMP_ID"])
        .company("COMP_EMP_ID")
        .label("COMP_FORN_DESC")
        .order("COMP_DTA_ENTRADA DESC, COMP_ID DESC")
        .record_hooks(hooks::PurchaseHooks)
        .constraint("compras_chave_key", DUPLICATE_KEY)
        .sample(json!({
            "COMP_MODELO": "55", "COMP_SERIE": "1", "COMP_NUMERO": 4471,
            "COMP_CHAVE": "31250611222333000181550010000044711528391741",
            "COMP_FORN_DESC": "METALURGICA FIXA FORTE LTDA", "COMP_FORN_CNPJ": "11222333000181",
            "COMP_DTA_EMISSAO": "2026-11-20", "COMP_DTA_ENTRADA": "2026-11-22",
            "COMP_NATUREZA": "Compra para comercialização", "COMP_CFOP": "1102", "COMP_MOD_FRETE": "0"
        }))
        .call("POST", "/compra/filtrocontador/{emp}", "filtrocontador", ActionPerm::View, "Compras: a lista e o total do filtro ({dados, count})", queries::ListWithCount)
        .call("POST", "/compra/completa", "completa", ActionPerm::Create, "Compra completa: cabeçalho, itens e parcelas numa transação (corpo: compra, itens, pagamentos)", complete::Complete)
        .call("POST", "/compra/finalizar/{COMP_ID}/{emp}", "finalizar", ActionPerm::Update, "Finalizar a compra (uma vez): custo de entrada dos itens, estoque e contas a pagar", transitions::Finalize)
        .button(Button::new("Finalizar").primary().open_when(&["A"]).confirm(
            "Finalizar compra",
            "Deseja finalizar a compra {COMP_ID}? Os itens entram no estoque pelo custo de entrada e a compra não poderá mais ser alterada.",
            "Finalizar",
        ))
        .call("POST", "/compra/cancelar/{COMP_ID}/{emp}", "cancelar", ActionPerm::Update, "Cancelar a compra (estorna as entradas de estoque de uma compra finalizada)", transitions::Cancel)
        .button(Button::new("Cancelar").open_when(&["A", "F"]).confirm(
            "Cancelar compra",
            "Deseja cancelar a compra {COMP_ID}? As entradas de estoque serão estornadas.",
            "Cancelar compra",
        ))
        .call("POST", "/compra/totalizadoresmanual/{COMP_ID}/{emp}", "totalizadoresmanual", ActionPerm::Update, "Totais digitados da nota (COMP_MAN_*): usados ao finalizar, diferença visível", transitions::ManualTotals)
        .upload_call("POST", "/compra/uploads/{emp}", "uploads", &["xml"], "Importar o XML da NF-e do fornecedor como compra em aberto", import::XmlImport { uploads, peers })
        .call("POST", "/comprareplicar", "replicar", ActionPerm::Create, "Replicar a compra para outra empresa do usuário (corpo: COMP_ID, COMP_EMP_ID, DESTINO_EMP_ID)", complete::Replicate)
        .fields(vec![
            Field::id("COMP_ID", "Código"),
            Field::int("COMP_EMP_ID", "Empresa"),
            Field::options("COMP_MODELO", "Modelo", DbType::Text, &[("55", "NF-e"), ("65", "NFC-e"), ("01", "Nota fiscal em papel (1/1A)"), ("04", "Nota fiscal de produtor"), ("00", "Sem documento fiscal")]).default(json!("55")).width(3),
            Field::text("COMP_SERIE", "Série").len(3).list().width(1),
            Field::int("COMP_NUMERO", "Número").min("0").list().width(2),
            Field::access_key("COMP_CHAVE", "Chave de Acesso").searchable(),
            Field::reference("COMP_FORN_ID", "Fornecedor", "fornecedor", Kind::Autocomplete).width(6),
            Field::text("COMP_FORN_DESC", "Fornecedor").len(150).searchable().list(),
            Field::text("COMP_FORN_CNPJ", "CPF/CNPJ do Fornecedor").len(18).searchable().width(3),
            Field::text("COMP_FORN_IE", "IE do Fornecedor").len(20).width(3),
            Field::text("COMP_FORN_CIDADE", "Cidade do Fornecedor").len(60).width(3),
            Field::text("COMP_FORN_UF", "UF do Fornecedor").len(2).width(1),
            Field::text("COMP_FORN_IBGE", "Município (IBGE)").len(7).width(2),
            Field::date("COMP_DTA_EMISSAO", "Emissão").required().list(),
            Field::date("COMP_DTA_ENTRADA", "Entrada").required().list(),
            Field::text("COMP_NATUREZA", "Natureza da Operação").len(60).width(6),
            Field::text("COMP_CFOP", "CFOP").len(4).width(2),
            Field::reference("COMP_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox).width(4),
            Field::reference("COMP_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(4),
            Field::reference("COMP_HISP_ID", "Centro de Custo", "historicopadrao", Kind::Combobox).width(4),
            Field::reference("COMP_TRANSP_ID", "Transportadora", "fornecedor", Kind::Autocomplete).width(4),
            Field::text("COMP_TRANSP_DESC", "Transportadora").len(150).width(4),
            Field::text("COMP_TRANSP_CNPJ", "CNPJ da Transportadora").len(18).width(3),
            Field::options("COMP_MOD_FRETE", "Modalidade do Frete", DbType::Text, &[("0", "Por conta do emitente (CIF)"), ("1", "Por conta do destinatário (FOB)"), ("2", "Por conta de terceiros"), ("3", "Transporte próprio do remetente"), ("4", "Transporte próprio do destinatário"), ("9", "Sem frete")]).default(json!("9")).width(3),
            Field::textarea("COMP_OBS", "Observações").len(5000),
            Field::money("COMP_VLR_PRODUTOS", "Total Produtos").total(Total::Products).width(2),
            Field::money("COMP_VLR_DESCONTO", "Descontos").total(Total::Discounts).width(2),
            Field::money("COMP_VLR_FRETE", "Frete").total(Total::Freight).width(2),
            Field::money("COMP_VLR_ACRESCIMOS", "Seguro, Outras, IPI e ST").total(Total::Surcharges).width(2),
            Field::money("COMP_VLR_SEGURO", "Seguro").read_only().width(2),
            Field::money("COMP_VLR_OUTRAS", "Outras Despesas").read_only().width(2),
            Field::money("COMP_VLR_IPI", "IPI").read_only().width(2),
            Field::money("COMP_VLR_ST", "ICMS ST").read_only().width(2),
            Field::money("COMP_VLR_BC_ICMS", "Base do ICMS").read_only().width(2),
            Field::money("COMP_VLR_ICMS", "ICMS").read_only().width(2),
            Field::money("COMP_VLR_TOTAL", "Total da Nota").total(Total::Grand).list().width(2),
            Field::boolean("COMP_TOTALIZADOR_MANUAL", "Totais Digitados").read_only().width(2),
            Field::money("COMP_MAN_DESCONTO", "Descontos (digitado)").read_only().width(2),
            Field::money("COMP_MAN_FRETE", "Frete (digitado)").read_only().width(2),
            Field::money("COMP_MAN_SEGURO", "Seguro (digitado)").read_only().width(2),
            Field::money("COMP_MAN_OUTRAS", "Outras Despesas (digitado)").read_only().width(2),
            Field::money("COMP_MAN_IPI", "IPI (digitado)").read_only().width(2),
            Field::money("COMP_MAN_ST", "ICMS ST (digitado)").read_only().width(2),
            Field::money("COMP_MAN_TOTAL", "Total da Nota (digitado)").read_only().width(2),
            Field::decimal("COMP_VLR_DIFERENCA", "Diferença (digitado − calculado)").scale(2).read_only().width(2),
            situation(),
            Field::text("COMP_XML_ARQUIVO", "Arquivo XML").read_only(),
            Field::int("COMP_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::timestamp("COMP_DTA_CAD", "Cadastro"),
            Field::int("COMP_USR_FINALIZACAO", "Finalizada por").read_only(),
            Field::timestamp("COMP_DTA_FINALIZACAO", "Finalizada em"),
            Field::int("COMP_USR_CANCELAMENTO", "Cancelada por").read_only(),
            Field::timestamp("COMP_DTA_CANCELAMENTO", "Cancelada em"),
        ])
}

fn compraproduto(peers: Peers) -> Resource {
    Resource::new("compraproduto", "Itens da Compra", SCHEMA, "compra_produtos", "compras")
        .key(&["CMPP_COMP_ID", "CMPP_ID"])
        .seq_key()
        .company("CMPP_EMP_ID")
        .label("CMPP_DESCRICAO")
        .order("CMPP_ID")
        .record_hooks(hooks::ItemHooks)
        .list_path("/compraproduto/{CMPP_COMP_ID}/{emp}")
        .count_path("/compraproduto/registros/{CMPP_COMP_ID}/{emp}")
        .sample(json!({"CMPP_COMP_ID": 1, "CMPP_COD_FORNECEDOR": "PAR-M8-CX12", "CMPP_DESCRICAO": "PARAFUSO SEXTAVADO M8 X 40 CX C/12", "CMPP_UNIDADE": "CX", "CMPP_FATOR": "12", "CMPP_QTDE": "10", "CMPP_VLR_UNIT": "45", "CMPP_VLR_IPI": "46.20"}))
        .call("GET", "/compraproduto/ultimacompra/{prodId}/{emp}", "ultimacompra", ActionPerm::View, "A última compra finalizada do produto: fornecedor, data, quantidade e custo", queries::LastPurchase)
        .call("POST", "/compraproduto/atualizacaogeral", "atualizacaogeral", ActionPerm::Update, "Atualizar o custo e, pela margem, o preço de venda dos produtos da compra (corpo: CMPP_COMP_ID, CMPP_EMP_ID, MARGEM, ATUALIZAR_PRECO, itens)", price_update::PriceUpdate { peers })
        .fields(vec![
            Field::int("CMPP_COMP_ID", "Compra").required(),
            Field::int("CMPP_EMP_ID", "Empresa"),
            Field::int("CMPP_ID", "Item").read_only().list().width(1),
            Field::int("CMPP_N_ITEM", "Item na NF-e").read_only().width(1),
            Field::reference("CMPP_PROD_ID", "Produto", "produtos", Kind::Autocomplete).list().width(4).role(Role::Item),
            Field::text("CMPP_COD_FORNECEDOR", "Código no Fornecedor").len(60).searchable().list().width(2),
            Field::text("CMPP_DESCRICAO", "Descrição").required().len(200).searchable().list().role(Role::Description),
            Field::text("CMPP_NCM", "NCM").len(8).width(2),
            Field::text("CMPP_CEST", "CEST").len(7).width(2),
            Field::text("CMPP_CFOP", "CFOP").len(4).width(1),
            Field::text("CMPP_CST", "CST/CSOSN").len(4).width(1),
            Field::text("CMPP_GTIN", "GTIN").len(14).width(3),
            Field::text("CMPP_UNIDADE", "Un. de Compra").len(6).list().width(1).role(Role::UnitName),
            Field::text("CMPP_UNIDADE_ESTOQUE", "Un. de Estoque").len(6).width(1),
            Field::decimal("CMPP_FATOR", "Fator de Conversão").scale(4).min("0.0001").default(json!("1")).width(2),
            Field::decimal("CMPP_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2).role(Role::Quantity),
            Field::money("CMPP_VLR_UNIT", "Valor Unitário").scale(10).list().width(2).role(Role::UnitPrice),
            Field::money("CMPP_VLR_DESC", "Desconto").width(2).role(Role::Discount),
            Field::money("CMPP_VLR_FRETE", "Frete").width(2).role(Role::Freight),
            Field::money("CMPP_VLR_SEGURO", "Seguro").width(2),
            Field::money("CMPP_VLR_OUTRAS", "Outras Despesas").width(2),
            Field::decimal("CMPP_PERC_IPI", "IPI (%)").scale(4).min("0").max("100").width(2),
            Field::money("CMPP_VLR_IPI", "Valor IPI").width(2),
            Field::decimal("CMPP_PERC_ICMS", "ICMS (%)").scale(4).min("0").max("100").width(2),
            Field::money("CMPP_VLR_BC_ICMS", "Base ICMS").width(2),
            Field::money("CMPP_VLR_ICMS", "Valor ICMS").width(2),
            Field::money("CMPP_VLR_ST", "ICMS ST").width(2),
            Field::money("CMPP_VLR_ACRESCIMOS", "Seguro, Outras, IPI e ST").role(Role::Surcharge).read_only().width(2),
            Field::money("CMPP_VLR_TOTAL", "Total").list().width(2).role(Role::LineTotal),
            Field::money("CMPP_CUSTO_TOTAL", "Custo de Entrada").read_only().width(2),
            Field::decimal("CMPP_CUSTO_UNIT", "Custo Unitário de Entrada").scale(4).read_only().list().width(2).role(Role::UnitCost),
            Field::options("CMPP_VINCULO", "Vínculo", DbType::Text, &[("fornecedor", "Código do fornecedor"), ("gtin", "GTIN"), ("manual", "Manual"), ("novo", "Novo")]).server().width(2),
            Field::reference("CMPP_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(3),
        ])
}

fn compraprodutograde() -> Resource {
    Resource::new("compraprodutograde", "Grade dos Itens da Compra", SCHEMA, "compra_produtos_grade", "compras")
        .key(&["CMPG_COMP_ID", "CMPG_ID"])
        .seq_key()
        .company("CMPG_EMP_ID")
        .label("CMPG_OBS")
        .order("CMPG_CMPP_ID, CMPG_ID")
        .record_hooks(hooks::GridCheck)
        .constraint("compra_produtos_grade_item_fkey", hooks::ITEM_MISSING)
        .list_path("/compraprodutograde/{CMPG_COMP_ID}/{emp}")
        .sample(json!({"CMPG_COMP_ID": 1, "CMPG_CMPP_ID": 1, "CMPG_TAM_ID": 1, "CMPG_COR_ID": 1, "CMPG_QTDE": "2", "CMPG_OBS": "Tamanho P, cor azul"}))
        .call("GET", "/compraprodutograde/estoque/{CMPG_COMP_ID}/{emp}", "estoque", ActionPerm::View, "A grade da compra na unidade de estoque, por produto, tamanho e cor", queries::GridStock)
        .fields(vec![
            Field::int("CMPG_COMP_ID", "Compra").required(),
            Field::int("CMPG_EMP_ID", "Empresa"),
            Field::int("CMPG_ID", "Sequência").read_only().list().width(1),
            Field::int("CMPG_CMPP_ID", "Item").required().list().width(2),
            Field::reference("CMPG_TAM_ID", "Tamanho", "tamanho", Kind::Combobox).list().width(3),
            Field::reference("CMPG_COR_ID", "Cor", "cor", Kind::Combobox).list().width(3),
            Field::decimal("CMPG_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2),
            Field::text("CMPG_OBS", "Observação").len(200).searchable(),
        ])
}

fn comprafrete() -> Resource {
    Resource::new("comprafrete", "Fretes da Compra", SCHEMA, "compra_fretes", "compras")
        .key(&["CMPF_COMP_ID", "CMPF_ID"])
        .seq_key()
        .company("CMPF_EMP_ID")
        .label("CMPF_TRANSP_DESC")
        .order("CMPF_ID")
        .list_path("/comprafrete/{CMPF_COMP_ID}/{emp}")
        .sample(json!({"CMPF_COMP_ID": 1, "CMPF_TRANSP_DESC": "TRANSPORTES EXEMPLO LTDA", "CMPF_NUMERO": 1234, "CMPF_DTA_EMISSAO": "2026-11-21", "CMPF_VALOR": "50.00", "CMPF_RATEAR": true}))
        .fields(vec![
            Field::int("CMPF_COMP_ID", "Compra").required(),
            Field::int("CMPF_EMP_ID", "Empresa"),
            Field::int("CMPF_ID", "Sequência").read_only().list().width(1),
            Field::reference("CMPF_TRANSP_ID", "Transportadora", "fornecedor", Kind::Autocomplete).width(4),
            Field::text("CMPF_TRANSP_DESC", "Transportadora").len(150).searchable().list(),
            Field::access_key("CMPF_CHAVE_CTE", "Chave do CT-e"),
            Field::int("CMPF_NUMERO", "Número do CT-e").min("0").list().width(2),
            Field::date("CMPF_DTA_EMISSAO", "Emissão").list(),
            Field::money("CMPF_VALOR", "Valor do Frete").required().list().width(2),
            Field::boolean("CMPF_RATEAR", "Ratear no custo dos itens").default(json!(true)).list().width(2),
        ])
}

fn compraestatistica() -> Resource {
    Resource::new("compraestatistica", "Rateio da Compra", SCHEMA, "compra_estatisticas", "compras")
        .key(&["CMPE_COMP_ID", "CMPE_ID"])
        .seq_key()
        .company("CMPE_EMP_ID")
        .label("CMPE_OBS")
        .order("CMPE_ID")
        .record_hooks(hooks::ApportionmentCheck)
        .list_path("/compraestatistica/{CMPE_COMP_ID}/{emp}")
        .sample(json!({"CMPE_COMP_ID": 1, "CMPE_LOCA_ID": 1, "CMPE_HISP_ID": 1, "CMPE_PERC": "100", "CMPE_OBS": "Depósito central"}))
        .fields(vec![
            Field::int("CMPE_COMP_ID", "Compra").required(),
            Field::int("CMPE_EMP_ID", "Empresa"),
            Field::int("CMPE_ID", "Sequência").read_only().list().width(1),
            Field::reference("CMPE_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).list().width(4),
            Field::reference("CMPE_HISP_ID", "Centro de Custo", "historicopadrao", Kind::Combobox).list().width(4),
            Field::decimal("CMPE_PERC", "Percentual").scale(4).min("0.0001").max("100").list().width(2),
            Field::money("CMPE_VALOR", "Valor").list().width(2),
            Field::text("CMPE_OBS", "Observação").len(200).searchable(),
        ])
}

fn comprapagamentos() -> Resource {
    Resource::new("comprapagamentos", "Parcelas da Compra", SCHEMA, "compra_pagamentos", "compras")
        .key(&["CMPD_COMP_ID", "CMPD_ID"])
        .seq_key()
        .company("CMPD_EMP_ID")
        .label("CMPD_NUMERO")
        .order("CMPD_DTA_VCTO, CMPD_ID")
        .record_hooks(hooks::InstalmentCheck)
        .list_path("/comprapagamentos/{CMPD_COMP_ID}/{emp}")
        .sample(json!({"CMPD_COMP_ID": 1, "CMPD_NUMERO": "001", "CMPD_DTA_VCTO": "2026-12-22", "CMPD_VLR_TITULO": "100.00"}))
        .call("POST", "/comprapagamentos/filtros/{emp}", "filtros", ActionPerm::View, "Parcelas das compras da empresa com o fornecedor ({dados, count})", queries::InstalmentFilter)
        .fields(vec![
            Field::int("CMPD_COMP_ID", "Compra").required(),
            Field::int("CMPD_EMP_ID", "Empresa"),
            Field::int("CMPD_ID", "Parcela").read_only().list().width(1),
            Field::text("CMPD_NUMERO", "Número").len(60).searchable().list().width(2),
            Field::date("CMPD_DTA_VCTO", "Vencimento").required().list(),
            Field::money("CMPD_VLR_TITULO", "Valor").required().min("0.01").list().width(2),
            Field::money("CMPD_VLR_JUROS", "Juros").width(2),
            Field::reference("CMPD_BCO_ID", "Banco", "banco", Kind::Combobox).width(3),
            Field::reference("CMPD_FRMP_ID", "Forma de Pagamento", "formapagamento", Kind::Combobox).width(3),
            Field::boolean("CMPD_BAIXADO", "Paga").read_only().list().width(1),
            Field::money("CMPD_VLR_PAGO", "Valor Pago").read_only().width(2),
            Field::date("CMPD_DTA_BAIXA", "Pagamento").read_only(),
            Field::text("CMPD_OBS", "Observação").len(200),
        ])
}

fn compraprodutodevolucao() -> Resource {
    Resource::new("compraprodutodevolucao", "Devoluções da Compra", SCHEMA, "compra_devolucoes", "compras")
        .key(&["CMPR_COMP_ID", "CMPR_ID"])
        .seq_key()
        .company("CMPR_EMP_ID")
        .label("CMPR_MOTIVO")
        .order("CMPR_ID")
        .record_hooks(returns::ReturnCheck)
        .constraint("compra_devolucoes_item_fkey", hooks::ITEM_MISSING)
        .list_path("/compraprodutodevolucao/{CMPR_COMP_ID}/{emp}")
        .sample(json!({"CMPR_COMP_ID": 1, "CMPR_CMPP_ID": 1, "CMPR_QTDE": "1", "CMPR_MOTIVO": "Avaria no transporte"}))
        .call("POST", "/compraprodutodevolucao/gerarpedido/{CMPR_COMP_ID}/{emp}", "gerarpedido", ActionPerm::Create, "Gerar o pedido de devolução ao fornecedor com as devoluções da compra (corpo opcional: PEDF_SERIE)", returns::ReturnOrder)
        .fields(vec![
            Field::int("CMPR_COMP_ID", "Compra").required(),
            Field::int("CMPR_EMP_ID", "Empresa"),
            Field::int("CMPR_ID", "Sequência").read_only().list().width(1),
            Field::int("CMPR_CMPP_ID", "Item").required().list().width(2),
            Field::decimal("CMPR_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2),
            Field::text("CMPR_MOTIVO", "Motivo").len(200).searchable().list(),
            Field::date("CMPR_DTA", "Data").list(),
            Field::int("CMPR_PEDF_ID", "Pedido").read_only().list().width(2),
            Field::text("CMPR_PEDF_SERIE", "Série do Pedido").read_only().width(1),
            Field::int("CMPR_USR_ID", "Usuário").role(Role::CreatedBy),
        ])
}
