//! The services orders asks over gRPC, in process: catalog's and stock's
//! registers, identity's `IdentityService` and finance's `FinanceService` — the
//! real ones,
//! over this binary's database (their schemas are migrated beside orders') — or,
//! where a test needs to set the answer, a finance answering the credit positions
//! the test gives it (recording what it was asked).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::grpc::ResourceGrpc;
use erp_platform::resource::query;
use erp_platform::service::Peers;
use erp_platform::transport::{link_routes, GrpcLink};
use erp_proto::finance::v1::finance_service_server::{FinanceService, FinanceServiceServer};
use erp_proto::finance::v1::{CreditReply, CreditRequest};
use erp_proto::identity::v1::identity_service_server::IdentityServiceServer;
use serde_json::{json, Value};
use tonic::{Request, Response, Status};

use crate::body;

/// Finance's credit positions by customer (none: no limit), and the questions it
/// was asked as (client, emp, customer).
#[derive(Clone, Default)]
pub struct Finance {
    positions: Arc<Mutex<HashMap<i64, CreditReply>>>,
    pub asked: Arc<Mutex<Vec<(i64, i64, i64)>>>,
}

impl Finance {
    /// Customer `customer` has `limit` and `open` (decimal strings).
    pub fn set(&self, customer: i64, limit: &str, open: &str) {
        let l: rust_decimal::Decimal = limit.parse().expect("limit");
        let o: rust_decimal::Decimal = open.parse().expect("open");
        if let Ok(mut m) = self.positions.lock() {
            m.insert(
                customer,
                CreditReply {
                    has_limit: true,
                    limit: format!("{l:.2}"),
                    open: format!("{o:.2}"),
                    available: format!("{:.2}", l - o),
                },
            );
        }
    }

    pub fn questions(&self) -> Vec<(i64, i64, i64)> {
        self.asked.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

#[tonic::async_trait]
impl FinanceService for Finance {
    async fn credit_position(
        &self,
        req: Request<CreditRequest>,
    ) -> Result<Response<CreditReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        if let Ok(mut a) = self.asked.lock() {
            a.push((caller.client_id, r.emp, r.customer_id));
        }
        let known = self
            .positions
            .lock()
            .ok()
            .and_then(|m| m.get(&r.customer_id).cloned());
        Ok(Response::new(known.unwrap_or(CreditReply {
            has_limit: false,
            limit: "0.00".into(),
            open: "0.00".into(),
            available: "0.00".into(),
        })))
    }
}

fn catalog(db: &Db) -> GrpcLink {
    let registry = Arc::new(erp_catalog::resources::registry().expect("catalog registry"));
    link_routes(tonic::service::Routes::new(
        ResourceGrpc::new(db.clone(), registry).server(),
    ))
}

fn stock(db: &Db) -> GrpcLink {
    let registry = Arc::new(erp_stock::resources::registry().expect("stock registry"));
    link_routes(tonic::service::Routes::new(
        ResourceGrpc::new(db.clone(), registry).server(),
    ))
}

fn identity(db: &Db) -> GrpcLink {
    let grpc = erp_identity::grpc::IdentityGrpc {
        db: db.clone(),
        operator_client: 1,
        registry: Arc::new(erp_identity::resources::registry().expect("identity registry")),
    };
    link_routes(tonic::service::Routes::new(IdentityServiceServer::new(
        grpc,
    )))
}

/// Catalog, identity, stock and finance's real services, reached the way `erp run` does.
pub fn real(db: &Db) -> Peers {
    Peers::new(HashMap::from([
        ("catalog".to_string(), catalog(db)),
        ("identity".to_string(), identity(db)),
        ("stock".to_string(), stock(db)),
        (
            "finance".to_string(),
            link_routes(tonic::service::Routes::new(
                erp_finance::grpc::FinanceGrpc::new(db.clone()).server(),
            )),
        ),
    ]))
}

/// Catalog, identity, stock and `finance` (when given), reached the way `erp run`
/// does.
pub fn peers(db: &Db, finance: Option<&Finance>) -> Peers {
    let mut map = HashMap::from([
        ("catalog".to_string(), catalog(db)),
        ("identity".to_string(), identity(db)),
        ("stock".to_string(), stock(db)),
    ]);
    if let Some(f) = finance {
        map.insert(
            "finance".to_string(),
            link_routes(tonic::service::Routes::new(FinanceServiceServer::new(
                f.clone(),
            ))),
        );
    }
    Peers::new(map)
}

/// Identity knows company 1 of client `c` and user `user` of it, with ALTERACAO on
/// the programs named in `updates` (CONSULTA only on the others in `views`).
pub async fn user(db: &Db, c: i64, user: i64, updates: &[&str], views: &[&str]) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "INSERT INTO identity.empresas (client_id, emp_id, emp_descricao, emp_cgc) VALUES ($1, 1, 'Empresa Teste', '44555666000181')
         ON CONFLICT DO NOTHING",
    )
    .bind(c)
    .execute(&mut *tx)
    .await
    .expect("company");
    sqlx::query(
        "INSERT INTO identity.usuarios (client_id, usr_id, usr_usuario, usr_nome, usr_senha_hash, usr_emp_id)
         VALUES ($1, $2, 'usuario' || $2, 'Usuário ' || $2, 'x', 1)",
    )
    .bind(c)
    .bind(user)
    .execute(&mut *tx)
    .await
    .expect("user");
    for (programs, update) in [(updates, 1), (views, 0)] {
        for p in programs.iter() {
            sqlx::query(
                "INSERT INTO identity.programas_usuario (client_id, prgu_usuario, prgu_prog_id, prgu_alteracao)
                 SELECT $1, $2, prog_id, $4 FROM identity.programas WHERE prog_nome = $3",
            )
            .bind(c)
            .bind(user)
            .bind(p)
            .bind(update)
            .execute(&mut *tx)
            .await
            .expect("grant");
        }
    }
    tx.commit().await.expect("commit");
}

/// A row of catalog's register `name` in company 1, written as its screen would.
pub async fn catalog_create(db: &Db, c: i64, name: &str, v: Value) -> Value {
    let reg = erp_catalog::resources::registry().expect("catalog registry");
    let res = reg.get(name).expect("catalog register");
    let emp = res.company.as_ref().map(|_| 1);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let row = query::create(&mut tx, res, &crate::caller(c), emp, &body(v))
        .await
        .expect("catalog row");
    tx.commit().await.expect("commit");
    row
}

pub async fn catalog_update(db: &Db, c: i64, name: &str, key: &str, v: Value) -> Value {
    let reg = erp_catalog::resources::registry().expect("catalog registry");
    let res = reg.get(name).expect("catalog register");
    let emp = res.company.as_ref().map(|_| 1);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let row = query::update(
        &mut tx,
        res,
        &crate::caller(c),
        emp,
        &[key.to_string()],
        &body(v),
    )
    .await
    .expect("catalog row");
    tx.commit().await.expect("commit");
    row
}

pub async fn catalog_get(db: &Db, c: i64, name: &str, key: &str) -> Value {
    let reg = erp_catalog::resources::registry().expect("catalog registry");
    let res = reg.get(name).expect("catalog register");
    let emp = res.company.as_ref().map(|_| 1);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let row = query::get(&mut tx, res, &crate::caller(c), emp, &[key.to_string()])
        .await
        .expect("catalog row");
    tx.commit().await.expect("commit");
    row
}

/// Catalog's products 1..4 of company 1 (a unit first), matching orders' copies of
/// `purchases::seed`: (description, GTIN, cost, margin, price).
pub async fn catalog_products(db: &Db, c: i64) {
    catalog_create(
        db,
        c,
        "unidade",
        json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
    )
    .await;
    for (desc, gtin, cost, margin, price) in [
        (
            "Parafuso sextavado M8 x 40",
            None,
            "0.40",
            Some("100"),
            "0.90",
        ),
        (
            "Arruela lisa 8 mm",
            Some("7891234567895"),
            "0.10",
            None,
            "0.20",
        ),
        (
            "Chave combinada 17 mm",
            None,
            "30.00",
            Some("99.6667"),
            "59.90",
        ),
        ("Caixa organizadora", None, "12.00", Some("40"), "25.00"),
    ] {
        catalog_create(
            db,
            c,
            "produtos",
            json!({"PROD_DESCRICAO": desc, "PROD_CBAR": gtin, "PROD_UNID_ID": 1, "PROD_CUSTO": cost,
                   "PROD_MARGEM": margin, "PROD_VALOR": price}),
        )
        .await;
    }
}
