//! A stand-in for the services that own the documents a message names: one
//! `erp.v1.ResourceService` answering the declared calls messaging runs (finance's
//! `boletos.titulo`, `boletos.pdf`, `contasreceber.baixas`, `contasreceber.recibo`;
//! fiscal's `pedidofatxml.danfe`, `pedidofatxml.xml`; reports'
//! `vendas.relatorio_{name}`; orders' `orcamento.pdf`, `pedido.pdf`) the way those
//! calls answer, from documents a test files per client, and identity's
//! `GetPrincipal` with the users' grants (every user consults `contasareceber`,
//! `pedidos`, `orcamentos` and `relatoriodevendas` unless a test takes it away),
//! reached as in `erp run` (`link_routes`). The real finance, fiscal, reports,
//! orders and identity would pull those services into this binary; this
//! one records every call as it arrived (the caller from the metadata, the
//! parameters, the body, the companies) so a test can check what was asked and
//! as whom.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::service::Peers;
use erp_platform::transport::{link_routes, GrpcLink};
use erp_proto::erp::v1::resource_service_server::{ResourceService, ResourceServiceServer};
use erp_proto::erp::v1::{
    ActionReply, ActionRequest, CountReply, DeleteReply, FileReply, KeyRequest, ListRequest,
    RowReply, RowsReply, SearchRequest, WriteRequest,
};
use erp_proto::identity::v1::identity_service_server::{IdentityService, IdentityServiceServer};
use erp_proto::identity::v1::{
    CompanyLogo, CompanyLogoKey, CompanyRequest, Empty, FavoriteRequest, GrantKey, GrantRequest,
    JsonReply, LoginRequest, Principal, PrincipalRequest, UserProgram, UserRequest,
    UserSelfRequest, ValidateUserRequest,
};
use serde_json::{json, Value};
use tonic::{Request, Response, Status};

/// One call as the owner received it.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub service: &'static str,
    pub caller: Caller,
    pub resource: String,
    pub action: String,
    pub params: BTreeMap<String, String>,
    pub body: Value,
    pub companies: Vec<i64>,
}

impl Asked {
    /// `service resource.action {params}`, for comparing.
    pub fn call(&self) -> (String, BTreeMap<String, String>) {
        (
            format!("{} {}.{}", self.service, self.resource, self.action),
            self.params.clone(),
        )
    }
}

/// A receivable's slip in collection.
#[derive(Clone, Debug)]
pub struct Slip {
    pub id: i64,
    pub line: Option<String>,
    pub pix: Option<String>,
    pub pdf: Vec<u8>,
}

/// A document's key: client, company, id.
type Key = (i64, i64, i64);

/// A report's PDF and XLSX, or none (no rows in the period).
type ReportFiles = Option<(Vec<u8>, Vec<u8>)>;

#[derive(Default)]
struct Books {
    /// By title.
    slips: HashMap<Key, Slip>,
    /// By title: the settlements as finance lists them.
    settlements: HashMap<Key, Vec<Value>>,
    /// By settlement.
    receipts: HashMap<Key, Vec<u8>>,
    /// By PEXM_ID: DANFE and XML.
    nfes: HashMap<Key, (Vec<u8>, Vec<u8>)>,
    /// By (client, report name): its PDF and XLSX, or none (no rows).
    reports: HashMap<(i64, String), ReportFiles>,
    /// By ORCA_ID: the quote's PDF.
    quotes: HashMap<Key, Vec<u8>>,
    /// By (PEDF_ID, PEDF_SERIE): the order's PDF.
    orders: HashMap<(Key, String), Vec<u8>>,
    asked: Vec<Asked>,
    /// Answers nothing for this long.
    hang: Option<Duration>,
    /// (client, program) whose consult the client's users lack.
    denied: HashSet<(i64, String)>,
    /// The principals identity was asked for, as (caller, request).
    principals: Vec<(Caller, PrincipalRequest)>,
}

/// The owners' documents and what they were asked. Clones share them.
#[derive(Clone, Default)]
pub struct Owners(Arc<Mutex<Books>>);

impl Owners {
    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        self.0.lock().expect("owners' books")
    }

    pub fn slip(&self, client: i64, title: i64, slip: Slip) {
        self.books().slips.insert((client, 1, title), slip);
    }

    pub fn settlements(&self, client: i64, title: i64, rows: Vec<Value>) {
        self.books().settlements.insert((client, 1, title), rows);
    }

    pub fn receipt(&self, client: i64, settlement: i64, pdf: &[u8]) {
        self.books()
            .receipts
            .insert((client, 1, settlement), pdf.to_vec());
    }

    pub fn nfe(&self, client: i64, id: i64, danfe: &[u8], xml: &[u8]) {
        self.books()
            .nfes
            .insert((client, 1, id), (danfe.to_vec(), xml.to_vec()));
    }

    /// Report `name` of client `c` (company 1): its PDF and XLSX, or none when
    /// it has no rows.
    pub fn report(&self, client: i64, name: &str, files: Option<(&[u8], &[u8])>) {
        self.books().reports.insert(
            (client, name.to_string()),
            files.map(|(p, x)| (p.to_vec(), x.to_vec())),
        );
    }

    pub fn quote(&self, client: i64, id: i64, pdf: &[u8]) {
        self.books().quotes.insert((client, 1, id), pdf.to_vec());
    }

    pub fn order(&self, client: i64, id: i64, series: &str, pdf: &[u8]) {
        self.books()
            .orders
            .insert(((client, 1, id), series.to_string()), pdf.to_vec());
    }

    pub fn hang(&self, d: Duration) {
        self.books().hang = Some(d);
    }

    pub fn asked(&self) -> Vec<Asked> {
        self.books().asked.clone()
    }

    /// Client `client`'s users may not consult `program`.
    pub fn deny(&self, client: i64, program: &str) {
        self.books().denied.insert((client, program.to_string()));
    }

    pub fn principals(&self) -> Vec<(Caller, PrincipalRequest)> {
        self.books().principals.clone()
    }

    fn link(&self, service: &'static str) -> GrpcLink {
        link_routes(tonic::service::Routes::new(ResourceServiceServer::new(
            Owner { service, owners: self.clone() },
        )))
    }

    pub fn identity(&self) -> GrpcLink {
        link_routes(tonic::service::Routes::new(IdentityServiceServer::new(
            Identity(self.clone()),
        )))
    }

    /// Finance, fiscal, reports, orders and identity, answered by these books.
    pub fn peers(&self) -> Peers {
        Peers::new(HashMap::from([
            ("finance".to_string(), self.link("finance")),
            ("fiscal".to_string(), self.link("fiscal")),
            ("reports".to_string(), self.link("reports")),
            ("orders".to_string(), self.link("orders")),
            ("identity".to_string(), self.identity()),
        ]))
    }
}

struct Owner {
    service: &'static str,
    owners: Owners,
}

fn json_reply(v: Value) -> Result<Response<ActionReply>, Status> {
    let json = serde_json::to_vec(&v).map_err(|e| Status::internal(e.to_string()))?;
    Ok(Response::new(ActionReply {
        empty: json == b"[]",
        json: json.into(),
        file: None,
        discarded: Vec::new(),
    }))
}

fn file_reply(
    content_type: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Response<ActionReply>, Status> {
    Ok(Response::new(ActionReply {
        json: Default::default(),
        empty: false,
        file: Some(FileReply {
            content_type: content_type.into(),
            name: name.into(),
            bytes: bytes.to_vec(),
        }),
        discarded: Vec::new(),
    }))
}

fn int(params: &HashMap<String, String>, name: &str) -> Result<i64, Status> {
    params
        .get(name)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Status::invalid_argument(format!("Parâmetro {name} inválido.")))
}

fn unimplemented<T>() -> Result<Response<T>, Status> {
    Err(Status::unimplemented("only declared calls"))
}

#[tonic::async_trait]
impl ResourceService for Owner {
    async fn list(&self, _: Request<ListRequest>) -> Result<Response<RowsReply>, Status> {
        unimplemented()
    }
    async fn count(&self, _: Request<ListRequest>) -> Result<Response<CountReply>, Status> {
        unimplemented()
    }
    async fn get(&self, _: Request<KeyRequest>) -> Result<Response<RowReply>, Status> {
        unimplemented()
    }
    async fn create(&self, _: Request<WriteRequest>) -> Result<Response<RowReply>, Status> {
        unimplemented()
    }
    async fn update(&self, _: Request<WriteRequest>) -> Result<Response<RowReply>, Status> {
        unimplemented()
    }
    async fn delete(&self, _: Request<KeyRequest>) -> Result<Response<DeleteReply>, Status> {
        unimplemented()
    }
    async fn search(&self, _: Request<SearchRequest>) -> Result<Response<RowsReply>, Status> {
        unimplemented()
    }

    async fn action(&self, req: Request<ActionRequest>) -> Result<Response<ActionReply>, Status> {
        // As the real engine: the caller only from the metadata.
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let body: Value = if r.body_json.is_empty() {
            json!({})
        } else {
            serde_json::from_slice(&r.body_json)
                .map_err(|e| Status::invalid_argument(e.to_string()))?
        };
        let hang = {
            let mut books = self.owners.books();
            books.asked.push(Asked {
                service: self.service,
                caller,
                resource: r.resource.clone(),
                action: r.action.clone(),
                params: r.params.clone().into_iter().collect(),
                body: body.clone(),
                companies: r.companies.clone(),
            });
            books.hang
        };
        if let Some(d) = hang {
            tokio::time::sleep(d).await;
        }
        let emp = int(&r.params, "emp")?;
        if !r.companies.contains(&emp) {
            return Err(Status::permission_denied(format!(
                "Acesso negado à empresa {emp}."
            )));
        }
        let c = caller.client_id;
        let books = self.owners.books();
        match (self.service, r.resource.as_str(), r.action.as_str()) {
            ("finance", "boletos", "titulo") => {
                let title = int(&r.params, "id")?;
                let slip = books.slips.get(&(c, emp, title)).map(|s| {
                    json!({"BOL_ID": s.id, "BOL_EMP_ID": emp, "BOL_CRCB_ID": title, "BOL_SITUACAO": "R",
                           "BOL_LINHA_DIGITAVEL": s.line, "BOL_PIX_COPIA_COLA": s.pix})
                });
                json_reply(slip.unwrap_or(Value::Null))
            }
            ("finance", "boletos", "pdf") => {
                let id = body["BOL_ID"].as_i64();
                let slip = books
                    .slips
                    .iter()
                    .find(|((client, e, _), s)| *client == c && *e == emp && Some(s.id) == id)
                    .map(|(_, s)| s)
                    .ok_or_else(|| Status::not_found("Boleto não encontrado."))?;
                file_reply("application/pdf", "boleto-00000123.pdf", &slip.pdf)
            }
            ("finance", "contasreceber", "baixas") => {
                let title = int(&r.params, "id")?;
                let rows = books
                    .settlements
                    .get(&(c, emp, title))
                    .cloned()
                    .ok_or_else(|| Status::not_found(format!("Título {title} não encontrado.")))?;
                json_reply(Value::Array(rows))
            }
            ("finance", "contasreceber", "recibo") => {
                let id = int(&r.params, "id")?;
                let pdf = books
                    .receipts
                    .get(&(c, emp, id))
                    .ok_or_else(|| Status::not_found(format!("Baixa {id} não encontrada.")))?;
                file_reply("application/pdf", &format!("recibo-{id}.pdf"), pdf)
            }
            ("fiscal", "pedidofatxml", file @ ("danfe" | "xml")) => {
                let id = int(&r.params, "PEXM_ID")?;
                let (danfe, xml) = books
                    .nfes
                    .get(&(c, emp, id))
                    .ok_or_else(|| Status::not_found("NF-e não encontrada."))?;
                match file {
                    "danfe" => file_reply("application/pdf", "4326-nfe.pdf", danfe),
                    _ => file_reply("application/xml", "4326-nfe.xml", xml),
                }
            }
            ("reports", "vendas", action) if action.starts_with("relatorio_") => {
                // As the engine: the body's company is one of the call's.
                if body["EMP_ID"].as_i64() != Some(emp) {
                    return Err(Status::permission_denied("Acesso negado à empresa."));
                }
                let name = &action["relatorio_".len()..];
                let files = books
                    .reports
                    .get(&(c, name.to_string()))
                    .ok_or_else(|| Status::not_found(format!("Ação '{action}' não encontrada.")))?;
                let format = body["FORMATO"].as_str().unwrap_or("json");
                match (files, format) {
                    // No rows: the engine's empty answer.
                    (None, _) => json_reply(json!([])),
                    (Some((pdf, _)), "pdf") => file_reply(
                        "application/pdf",
                        &format!("{name}-20260601-20260630.pdf"),
                        pdf,
                    ),
                    (Some((_, xlsx)), "xlsx") => file_reply(
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                        &format!("{name}-20260601-20260630.xlsx"),
                        xlsx,
                    ),
                    _ => json_reply(json!({"dados": [], "totais": {}, "filtros": {}})),
                }
            }
            ("orders", "orcamento", "pdf") => {
                let id = int(&r.params, "ORCA_ID")?;
                let pdf = books
                    .quotes
                    .get(&(c, emp, id))
                    .ok_or_else(|| Status::not_found("Orçamento não encontrado."))?;
                file_reply("application/pdf", &format!("orcamento-{id}.pdf"), pdf)
            }
            ("orders", "pedido", "pdf") => {
                let id = int(&r.params, "PEDF_ID")?;
                let series =
                    r.params.get("PEDF_SERIE").cloned().ok_or_else(|| {
                        Status::invalid_argument("Parâmetro PEDF_SERIE inválido.")
                    })?;
                let pdf = books
                    .orders
                    .get(&((c, emp, id), series))
                    .ok_or_else(|| Status::not_found("Pedido não encontrado."))?;
                file_reply("application/pdf", &format!("pedido-{id}.pdf"), pdf)
            }
            (_, res, action) => Err(Status::not_found(format!(
                "Ação '{action}' de {res} não encontrada."
            ))),
        }
    }
}

struct Identity(Owners);

fn no<T>() -> Result<Response<T>, Status> {
    Err(Status::unimplemented("only GetPrincipal"))
}

#[tonic::async_trait]
impl IdentityService for Identity {
    async fn get_principal(
        &self,
        req: Request<PrincipalRequest>,
    ) -> Result<Response<Principal>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let mut books = self.0.books();
        books.principals.push((caller, r));
        let programs = [
            ("contasareceber", "Contas a Receber"),
            ("pedidos", "Pedidos"),
            ("orcamentos", "Orçamentos"),
            ("relatoriodevendas", "Relatório de Vendas"),
        ]
        .into_iter()
        .map(|(name, description)| UserProgram {
            name: name.into(),
            description: description.into(),
            can_view: !books.denied.contains(&(r.client_id, name.to_string())),
            ..UserProgram::default()
        })
        .collect();
        Ok(Response::new(Principal {
            client_id: r.client_id,
            programs,
            active: true,
            ..Principal::default()
        }))
    }
    async fn login(&self, _: Request<LoginRequest>) -> Result<Response<Principal>, Status> {
        no()
    }
    async fn get_company(&self, _: Request<CompanyRequest>) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn user_programs(&self, _: Request<UserRequest>) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn toggle_favorite(
        &self,
        _: Request<FavoriteRequest>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn programs_for_registration(
        &self,
        _: Request<Empty>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn grant_program(&self, _: Request<GrantRequest>) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn revoke_program(&self, _: Request<GrantKey>) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn update_user_self(
        &self,
        _: Request<UserSelfRequest>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn validate_user(
        &self,
        _: Request<ValidateUserRequest>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn set_company_logo(
        &self,
        _: Request<CompanyLogo>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
    async fn delete_company_logo(
        &self,
        _: Request<CompanyLogoKey>,
    ) -> Result<Response<JsonReply>, Status> {
        no()
    }
}
