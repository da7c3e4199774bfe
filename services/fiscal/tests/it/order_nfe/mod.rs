//! The NF-e of billing orders (`pedidofatxml`) against a fake Nuvem Fiscal
//! started in-process (over real HTTP; it reads every body with the spec's
//! types): the copies and the invoiced orders arrive as the facts the other
//! services publish, the tax registers through their generic calls.

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_proto::orders::v1::{LineCharges, PedidoFaturado, SaleLine};
use prost::Message as _;
use serde_json::{json, Value};

use super::create;
pub use super::env::record;
use super::env::{self, apply};

mod emission;
mod events;

pub const RES: &str = "pedidofatxml";

/// The area's register in the shared environment.
pub struct OrderNfe;

impl env::Register for OrderNfe {
    const RES: &'static str = RES;
    const TAG: &'static str = "nfe";
}

pub type Env = env::On<OrderNfe>;

pub async fn env(with_provider: bool) -> Env {
    Env::new(with_provider).await
}

impl env::On<OrderNfe> {
    pub async fn emit(&self, me: &Caller, pedido: i64) -> erp_platform::Result<Value> {
        self.call(
            me,
            "emitir",
            &[],
            json!({"PEXM_PEDF_ID": pedido, "PEXM_EMP_ID": 1, "PEXM_SERIE": "1"}),
        )
        .await
    }

    pub async fn on(
        &self,
        me: &Caller,
        action: &str,
        doc: &Value,
        body: Value,
    ) -> erp_platform::Result<Value> {
        let id = doc["PEXM_ID"].to_string();
        self.call(me, action, &[("PEXM_ID", &id), ("emp", "1")], body)
            .await
    }
}

/// Company 1 (Simples Nacional, São Paulo), customer 7 (a company in São
/// Paulo), products 1 (NCM 7318.15.00) and 2 (NCM 0000.00.00, which the fake
/// SEFAZ rejects), payment method 3 (boleto), the tax rule, operation nature
/// and numbering of series 1.
pub async fn seed(db: &Db, c: i64) {
    use erp_fiscal::copies::{CLIENTES, EMPRESAS, FORMAS, PRODUTOS};
    record(db, c, &EMPRESAS, 1, json!({"EMP_ID": 1, "EMP_DESCRICAO": "EMPRESA TESTE LTDA",
        "EMP_CGC": "11.222.333/0001-81", "EMP_IE": "123.456.789.110", "EMP_REGIME": "SIMPLES NACIONAL",
        "EMP_ENDERECO": "Rua A", "EMP_NUMERO": "10", "EMP_BAIRRO": "Centro", "EMP_CID_IBGE": 3550308,
        "EMP_CIDADE": "São Paulo", "EMP_UF": "sp", "EMP_CEP": "01001-000"})).await;
    record(db, c, &CLIENTES, 1, json!({"CLI_ID": 7, "CLI_TIPO_PESSOA": "J",
        "CLI_DESCRICAO": "CLIENTE TESTE LTDA", "CLI_CGC": "11.444.777/0001-61", "CLI_IND_IE": 1,
        "CLI_IE": "111.222.333.444", "CLI_ENDERECO": "Avenida Paulista", "CLI_NUMERO": "1000",
        "CLI_BAIRRO": "Bela Vista", "CLI_CID_IBGE": "3550308", "CLI_CIDADE": "São Paulo", "CLI_UF": "SP",
        "CLI_CEP": "01310-100"})).await;
    for (id, ncm) in [(1, "7318.15.00"), (2, "0000.00.00")] {
        record(db, c, &PRODUTOS, 1, json!({"PROD_ID": id, "PROD_DESCRICAO": format!("PRODUTO {id}"),
            "PROD_NCM": ncm, "UNID_ABREVIADA": "un", "PROD_ORIGEM": 0, "PROD_CBAR": "7891000315507"})).await;
    }
    record(
        db,
        c,
        &FORMAS,
        0,
        json!({"FRMP_ID": 3, "FRMP_DESCRICAO": "BOLETO", "FRMP_TIPO": "15"}),
    )
    .await;
    let rule = create(
        db,
        c,
        "tributacao",
        json!({"TICM_DESCRICAO": "SIMPLES - SEM CRÉDITO",
        "TICM_CSOSN": "102", "TICM_CST_PIS": "49", "TICM_CST_COFINS": "49"}),
    )
    .await
    .expect("tax rule");
    create(db, c, "natureza", json!({"NATO_DESCRICAO": "VENDA DE MERCADORIA", "NATO_TIPO": "S",
        "NATO_CFOP_ESTADUAL": "5.102", "NATO_CFOP_INTERESTADUAL": "6.102", "NATO_TICM_ID": rule["TICM_ID"]}))
    .await
    .expect("nature");
    create(
        db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "55", "NUM_SERIE": 1, "NUM_PROXIMO": 101}),
    )
    .await
    .expect("numbering");
}

fn line(item: i64, product: i64, qty: &str, unit: &str, discount: &str, total: &str) -> SaleLine {
    SaleLine {
        kind: "P".into(),
        item,
        item_id: product,
        quantity: qty.into(),
        unit_price: unit.into(),
        discount: discount.into(),
        total: total.into(),
    }
}

/// Order `id` of customer 7 invoiced: 2 × product `product` at 50.00 less
/// 10.00, with 5.00 of freight; a service line, which the NF-e leaves out.
pub async fn invoiced(db: &Db, c: i64, id: i64, product: i64) {
    let ev = PedidoFaturado {
        client_id: c,
        emp_id: 1,
        pedido_id: id,
        serie: "1".into(),
        customer_id: 7,
        customer_name: "CLIENTE TESTE LTDA".into(),
        total: "145.00".into(),
        products_total: "100.00".into(),
        services_total: "50.00".into(),
        issued_on: "2026-01-15".into(),
        payment_method_id: 3,
        sale_lines: vec![
            line(1, product, "2", "50", "10", "90.00"),
            SaleLine { kind: "S".into(), ..line(1, 5, "1", "50", "0", "50.00") },
        ],
        line_charges: vec![LineCharges {
            kind: "P".into(),
            item: 1,
            surcharge: "0".into(),
            freight: "5".into(),
        }],
        ..Default::default()
    };
    apply(
        db,
        c,
        &erp_fiscal::facts::InvoicedOrder,
        "erp.orders.pedido.faturado",
        ev.encode_to_vec(),
    )
    .await;
}

/// The next number of the NF-e numbering of company 1.
pub async fn next_number(db: &Db, c: i64) -> i64 {
    super::env::next_number(db, c, "55").await
}
