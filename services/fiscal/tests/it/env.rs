//! The environment the tests of fiscal's calls share: fiscal's registry over
//! a fresh data dir, with a client of a fake Nuvem Fiscal started in-process
//! (over real HTTP; it reads every body with the spec's types) or none, the
//! service's pool the emissions commit their steps in, a declared call run
//! as the service runs it, and the facts the other services publish.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::path::PathBuf;

use erp_fiscal::nuvemfiscal::fake::{self, FakeHandle};
use erp_fiscal::nuvemfiscal::NuvemFiscal;
use erp_platform::bus::{Effect, Message, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::Registry;
use erp_proto::erp::v1::RecordChanged;
use prost::Message as _;
use serde_json::Value;

use super::{db, CTX};

pub struct Env {
    pub reg: Registry,
    pub fake: Option<FakeHandle>,
    pub client: Option<NuvemFiscal>,
    pub db: Db,
    pub dir: PathBuf,
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh environment (`tag` names its data dir), with the fake provider or
/// without credentials.
pub async fn env(tag: &str, with_provider: bool) -> Env {
    let dir = std::env::temp_dir().join(format!("erp-fiscal-{tag}-{}", uuid::Uuid::new_v4()));
    let (client, fake) = if with_provider {
        let (addr, handle) = fake::start().await.expect("fake Nuvem Fiscal");
        let client = NuvemFiscal::new(handle.config(addr)).expect("client");
        (Some(client), Some(handle))
    } else {
        (None, None)
    };
    // The emission's own pool, as the service gives it.
    let steps = CTX.db().await;
    let reg =
        erp_fiscal::resources::registry_in(client.clone(), &dir, Some(steps)).expect("registry");
    Env { reg, fake, client, db: db().await, dir }
}

impl Env {
    pub fn fake(&self) -> &FakeHandle {
        self.fake.as_ref().expect("with a provider")
    }

    /// Runs declared call `action` of register `res` for company 1.
    pub async fn call_on(
        &self,
        me: &Caller,
        res: &str,
        action: &str,
        params: &[(&str, &str)],
        body: Value,
    ) -> erp_platform::Result<Value> {
        run(&self.reg, &self.db, me, Some(1), res, action, params, body).await
    }
}

/// The register an area's tests call, and the tag of their data dirs.
pub trait Register {
    const RES: &'static str;
    const TAG: &'static str;
}

/// The environment of an area's tests: the shared one, whose [`On::call`]
/// goes to the area's register.
pub struct On<R: Register>(Env, PhantomData<R>);

impl<R: Register> std::ops::Deref for On<R> {
    type Target = Env;
    fn deref(&self) -> &Env {
        &self.0
    }
}

impl<R: Register> On<R> {
    pub async fn new(with_provider: bool) -> Self {
        On(env(R::TAG, with_provider).await, PhantomData)
    }

    /// Runs declared call `action` of the area's register for company 1.
    pub async fn call(
        &self,
        me: &Caller,
        action: &str,
        params: &[(&str, &str)],
        body: Value,
    ) -> erp_platform::Result<Value> {
        self.call_on(me, R::RES, action, params, body).await
    }
}

/// Runs declared call `action` of register `res` of `reg` for company `emp`
/// in a tenant transaction, committed when it succeeds.
#[allow(clippy::too_many_arguments)]
pub async fn run(
    reg: &Registry,
    db: &Db,
    me: &Caller,
    emp: Option<i64>,
    res: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let r = reg.get(res).expect("declared");
    let a = r
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action declared");
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(me.client_id).await?;
    let out = a.run(&mut tx, r, me, emp, &params, body).await?;
    tx.commit().await?;
    Ok(out)
}

fn message(c: i64, subject: &str, payload: Vec<u8>) -> Message {
    let mut m = Message::new(uuid::Uuid::new_v4().to_string(), subject, payload.into());
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    m
}

/// A fact of another service applied by fiscal's consumer `effect`.
pub async fn apply<E: Effect>(db: &Db, c: i64, effect: &E, subject: &str, payload: Vec<u8>) {
    let msg = message(c, subject, payload);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    effect.apply(&mut tx, c, &msg).await.expect("fact applied");
    tx.commit().await.expect("commit");
}

/// A register row as its service publishes it.
pub async fn record(db: &Db, c: i64, copy: &erp_platform::bus::copies::Copy, emp: i64, row: Value) {
    let ev = RecordChanged {
        resource: copy.table.into(),
        op: "criado".into(),
        client_id: c,
        emp_id: emp,
        key: vec![],
        row_json: serde_json::to_vec(&row).expect("row"),
    };
    apply(db, c, copy, "erp.x.y.criado", ev.encode_to_vec()).await;
}

/// The next number of company 1's numbering of document model `model`.
pub async fn next_number(db: &Db, c: i64, model: &str) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_scalar(
        "SELECT num_proximo FROM fiscal.numeracao WHERE client_id = $1 AND num_emp_id = 1 AND num_modelo = $2",
    )
    .bind(c)
    .bind(model)
    .fetch_one(&mut *tx)
    .await
    .expect("numbering")
}

/// Row `id` of register `res` of company 1 as the generic get answers `me`.
pub async fn get(db: &Db, me: &Caller, res: &str, id: i64) -> erp_platform::Result<Value> {
    let reg = erp_fiscal::resources::registry().expect("registry");
    let res = reg.get(res).expect("declared");
    let mut tx = db.begin_tenant(me.client_id).await?;
    erp_platform::resource::query::get(&mut tx, res, me, Some(1), &[id.to_string()]).await
}

/// The bytes of a download call's answer, of `content_type`.
pub fn file(out: &Value, content_type: &str) -> Vec<u8> {
    use base64::Engine as _;
    let f = &out["$arquivo"];
    assert_eq!(f["tipo"], content_type);
    base64::engine::general_purpose::STANDARD
        .decode(f["base64"].as_str().expect("base64"))
        .expect("bytes")
}
