//! `erp.v1.ResourceService` over the registers of one service.

use std::sync::Arc;

use erp_proto::erp::v1::resource_service_server::ResourceService;
use erp_proto::erp::v1::{
    ActionReply, ActionRequest, CountReply, DeleteReply, FileReply, KeyRequest, ListRequest,
    RowReply, RowsReply, SearchRequest, WriteRequest,
};
use serde_json::{Map, Value};
use tonic::{Request, Response, Status};

use super::call;
use super::model::{Registry, Resource};
use super::query;
use crate::db::Db;
use crate::grpc::Caller;
use crate::{Error, Result};

#[derive(Clone)]
pub struct ResourceGrpc {
    db: Db,
    registry: Arc<Registry>,
}

impl ResourceGrpc {
    pub fn new(db: Db, registry: Arc<Registry>) -> Self {
        ResourceGrpc { db, registry }
    }

    pub fn server(
        self,
    ) -> erp_proto::erp::v1::resource_service_server::ResourceServiceServer<Self> {
        erp_proto::erp::v1::resource_service_server::ResourceServiceServer::new(self)
            .max_decoding_message_size(32 * 1024 * 1024)
            .max_encoding_message_size(64 * 1024 * 1024)
    }

    fn resource(&self, name: &str) -> Result<Arc<Resource>> {
        self.registry
            .get(name)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("Cadastro '{name}' não encontrado.")))
    }
}

fn object(bytes: &[u8]) -> Result<Map<String, Value>> {
    if bytes.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(bytes)? {
        Value::Object(m) => Ok(m),
        _ => Err(Error::validation(
            "O corpo da requisição deve ser um objeto JSON.",
        )),
    }
}

/// The company a request works in, as the gateway resolved it (the engine refuses
/// a company-scoped call without one: 'emp_id não informado.').
fn company(res: &Resource, emp: Option<i64>, _caller: &Caller) -> Option<i64> {
    res.company.as_ref().and(emp)
}

fn encode(v: &impl serde::Serialize) -> Result<Vec<u8>> {
    Ok(serde_json::to_vec(v)?)
}

#[tonic::async_trait]
impl ResourceService for ResourceGrpc {
    async fn list(
        &self,
        req: Request<ListRequest>,
    ) -> std::result::Result<Response<RowsReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let body = object(&r.filter_json)?;
        let emp = company(&res, r.emp, &caller);
        let mut conn = self.db.read(caller.client_id).await?;
        let read = async {
            let rows_json = query::list_json(&mut conn, &res, &caller, emp, &body).await?;
            let total = if r.with_total {
                Some(query::count(&mut conn, &res, &caller, emp, &body).await?)
            } else {
                None
            };
            Ok(RowsReply { rows_json: rows_json.into(), total })
        }
        .await;
        Ok(Response::new(conn.finish(read)?))
    }

    async fn count(
        &self,
        req: Request<ListRequest>,
    ) -> std::result::Result<Response<CountReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let body = object(&r.filter_json)?;
        let mut conn = self.db.read(caller.client_id).await?;
        let emp = company(&res, r.emp, &caller);
        let total = query::count(&mut conn, &res, &caller, emp, &body).await;
        Ok(Response::new(CountReply { total: conn.finish(total)? }))
    }

    async fn get(
        &self,
        req: Request<KeyRequest>,
    ) -> std::result::Result<Response<RowReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let mut row = query::get(
            &mut tx,
            &res,
            &caller,
            company(&res, r.emp, &caller),
            &r.key,
        )
        .await?;
        tx.commit().await.map_err(Error::from)?;
        query::decorate(&res, std::slice::from_mut(&mut row));
        Ok(Response::new(RowReply { row_json: encode(&row)? }))
    }

    async fn create(
        &self,
        req: Request<WriteRequest>,
    ) -> std::result::Result<Response<RowReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let body = object(&r.body_json)?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let row =
            query::create(&mut tx, &res, &caller, company(&res, r.emp, &caller), &body).await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(RowReply { row_json: encode(&row)? }))
    }

    async fn update(
        &self,
        req: Request<WriteRequest>,
    ) -> std::result::Result<Response<RowReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let body = object(&r.body_json)?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let row = query::update(
            &mut tx,
            &res,
            &caller,
            company(&res, r.emp, &caller),
            &r.key,
            &body,
        )
        .await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(RowReply { row_json: encode(&row)? }))
    }

    async fn delete(
        &self,
        req: Request<KeyRequest>,
    ) -> std::result::Result<Response<DeleteReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        query::delete(
            &mut tx,
            &res,
            &caller,
            company(&res, r.emp, &caller),
            &r.key,
        )
        .await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(DeleteReply { deleted: 1 }))
    }

    async fn search(
        &self,
        req: Request<SearchRequest>,
    ) -> std::result::Result<Response<RowsReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let mut conn = self.db.read(caller.client_id).await?;
        let emp = company(&res, r.emp, &caller);
        let rows =
            query::search(&mut conn, &res, &caller, emp, &r.filter, i64::from(r.limit)).await;
        let rows = conn.finish(rows)?;
        Ok(Response::new(RowsReply {
            rows_json: encode(&rows)?.into(),
            total: None,
        }))
    }

    async fn action(
        &self,
        req: Request<ActionRequest>,
    ) -> std::result::Result<Response<ActionReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let res = self.resource(&r.resource)?;
        let action = res
            .actions
            .iter()
            .find(|a| a.name == r.action)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("Ação '{}' não encontrada.", r.action)))?;
        let body: Value = if r.body_json.iter().all(u8::is_ascii_whitespace) {
            Value::Object(Map::new())
        } else {
            serde_json::from_slice(&r.body_json).map_err(Error::from)?
        };
        // The tenant guard of the body, where the body is parsed: every company it
        // names is one of the caller's, and so is the call's company.
        call::check_body_companies(&body, &r.companies)?;
        let emp = call::company_of(
            &res,
            &caller,
            r.params.get("emp").map(String::as_str),
            &body,
        )?;
        if let Some(e) = emp.filter(|e| !r.companies.contains(e) && *e != caller.emp_id) {
            return Err(Error::Forbidden(format!("Acesso negado à empresa {e}.")).into());
        }
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let mut cx = call::Ctx::new(&mut tx, &res, &caller, emp).for_companies(r.companies.clone());
        let reply = action.handler.run(&mut cx, &r.params, &body).await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(ActionReply {
            json: reply.json.into(),
            empty: reply.empty,
            file: reply.file.map(|f| FileReply {
                content_type: f.content_type,
                name: f.name,
                bytes: f.bytes,
            }),
            discarded: reply.discarded,
        }))
    }
}
