//! GraphQL for the web client (async-graphql): session, menu, favourites, register
//! metadata and operations, notifications over WebSocket (graphql-transport-ws).
//! Every resolver goes through the same guard and permission checks as the legacy
//! REST calls (`crate::register_calls`, `crate::access`).

pub mod json;
pub mod limits;
pub mod types;

use std::pin::Pin;

use async_graphql::futures_util::Stream;
use async_graphql::{Context, ErrorExtensions, Object, Schema, Subscription};

use self::json::Json;
use erp_platform::Error;
use http::HeaderMap;
use serde_json::{Map, Value};
use tokio::sync::OnceCell;
use tokio_stream::StreamExt;

use crate::auth::{authenticate, Auth};
use crate::state::AppState;
use crate::{register_calls, session};
use types::*;

pub type ErpSchema = Schema<Query, Mutation, SubscriptionRoot>;

/// Per-request context: the state, the request headers and the caller, verified
/// once on first use.
pub struct Gql {
    pub st: AppState,
    pub headers: HeaderMap,
    pub auth: OnceCell<Auth>,
    /// Service calls this request may still make.
    pub budget: limits::Budget,
}

impl Gql {
    pub fn new(st: AppState, headers: HeaderMap) -> Self {
        Gql { st, headers, auth: OnceCell::new(), budget: limits::Budget::default() }
    }
}

fn gql_error(e: Error) -> async_graphql::Error {
    let status = e.http_status();
    let code = match status {
        400 => "BAD_USER_INPUT",
        401 => "UNAUTHENTICATED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        408 => "TIMEOUT",
        409 => "CONFLICT",
        429 => "TOO_MANY_REQUESTS",
        _ => "INTERNAL_SERVER_ERROR",
    };
    if status >= 500 {
        tracing::error!(error = %e, "graphql request failed");
    }
    async_graphql::Error::new(e.public_message()).extend_with(|_, ext| {
        ext.set("code", code);
        ext.set("status", status);
    })
}

type R<T> = async_graphql::Result<T>;

fn gql<'a>(ctx: &Context<'a>) -> R<&'a Gql> {
    ctx.data::<Gql>()
}

/// The state for a resolver about to call a service, once the call is paid for
/// from the request's budget.
fn upstream<'a>(ctx: &Context<'a>) -> R<&'a AppState> {
    let g = gql(ctx)?;
    g.budget.spend().map_err(gql_error)?;
    Ok(&g.st)
}

async fn auth<'a>(ctx: &'a Context<'_>) -> R<&'a Auth> {
    let g = gql(ctx)?;
    if let Some(a) = ctx.data_opt::<Auth>() {
        return Ok(a);
    }
    g.auth
        .get_or_try_init(|| async { authenticate(&g.st, &g.headers, false).await })
        .await
        .map_err(gql_error)
}

/// A record id from the web client: the key value, a list of key values, or an
/// object of the key columns (composite keys).
fn key_of(st: &AppState, name: &str, id: &Value) -> R<Vec<String>> {
    let text = |v: &Value| {
        v.as_str()
            .map(String::from)
            .unwrap_or_else(|| v.to_string())
    };
    Ok(match id {
        Value::Array(a) => a.iter().map(text).collect(),
        Value::Object(m) => {
            let res = register_calls::resource(st, name).map_err(gql_error)?;
            res.key
                .iter()
                .map(|k| {
                    m.get(k).map(text).ok_or_else(|| {
                        gql_error(Error::validation(format!("Chave {k} não informada.")))
                    })
                })
                .collect::<R<Vec<_>>>()?
        }
        Value::String(s) => vec![s.clone()],
        other => vec![other.to_string()],
    })
}

/// A row the service serialized, for a GraphQL answer.
fn parse(bytes: &[u8]) -> R<Value> {
    serde_json::from_slice(bytes).map_err(|e| gql_error(Error::from(e)))
}

fn object(v: Value) -> R<Map<String, Value>> {
    match v {
        Value::Object(m) => Ok(m),
        _ => Err(gql_error(Error::validation("Informe um objeto JSON."))),
    }
}

pub struct Query;

#[Object]
impl Query {
    async fn me(&self, ctx: &Context<'_>) -> R<Session> {
        Ok(session(&auth(ctx).await?.principal))
    }

    async fn menu(&self, ctx: &Context<'_>) -> R<Vec<MenuNode>> {
        Ok(menu(&auth(ctx).await?.principal.programs))
    }

    async fn server_version(&self) -> String {
        erp_platform::VERSION.into()
    }

    async fn resource_metas(&self, ctx: &Context<'_>) -> R<Vec<ResourceMeta>> {
        let a = auth(ctx).await?;
        let g = gql(ctx)?;
        let visible = |program: &str| {
            a.principal.privileged
                || a.principal
                    .programs
                    .iter()
                    .any(|p| p.name == program && p.can_view)
        };
        g.st.registry
            .all()
            .iter()
            .filter(|r| r.screen.is_some() && visible(&r.program))
            .map(|r| serde_json::from_value(r.meta()).map_err(|e| gql_error(Error::internal(e))))
            .collect()
    }

    async fn resource_meta(&self, ctx: &Context<'_>, name: String) -> R<ResourceMeta> {
        auth(ctx).await?;
        let res = register_calls::resource(&gql(ctx)?.st, &name).map_err(gql_error)?;
        serde_json::from_value(res.meta()).map_err(|e| gql_error(Error::internal(e)))
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_list(
        &self,
        ctx: &Context<'_>,
        name: String,
        emp: i64,
        input: Option<ListInput>,
    ) -> R<ResourcePage> {
        let a = auth(ctx).await?;
        let st = upstream(ctx)?;
        let input = input.unwrap_or_default();
        let mut body = match input.where_.map(|w| w.0) {
            Some(Value::Object(m)) => m,
            Some(Value::Null) | None => Map::new(),
            Some(_) => return Err(gql_error(Error::validation("Filtro inválido."))),
        };
        if let Some(f) = input.filter.filter(|f| !f.trim().is_empty()) {
            body.insert("FILTRO".into(), Value::from(f));
        }
        if let Some(o) = input.order.filter(|o| !o.trim().is_empty()) {
            body.insert("ORDENACAO".into(), Value::from(o));
        }
        let limit = input.limit.unwrap_or(20);
        body.insert("LIMIT".into(), Value::from(limit));
        body.insert(
            "PAGINATION".into(),
            Value::from(input.page.unwrap_or(1).max(1) - 1),
        );
        // Rows and total in one call (one transaction in the service).
        let body = register_calls::Body::from_map(body).map_err(gql_error)?;
        let rows = register_calls::list(st, a, &name, Some(emp), body, true)
            .await
            .map_err(gql_error)?;
        Ok(ResourcePage {
            total: rows.total.unwrap_or_default(),
            rows: rows
                .parse()
                .map_err(gql_error)?
                .into_iter()
                .map(Json)
                .collect(),
        })
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_get(
        &self,
        ctx: &Context<'_>,
        name: String,
        emp: i64,
        id: Json,
    ) -> R<Option<Json>> {
        let a = auth(ctx).await?;
        let st = upstream(ctx)?;
        match register_calls::get(st, a, &name, Some(emp), key_of(st, &name, &id.0)?).await {
            Ok(v) => Ok(Some(Json(parse(&v)?))),
            Err(Error::NotFound(_)) => Ok(None),
            Err(e) => Err(gql_error(e)),
        }
    }
}

pub struct Mutation;

#[Object]
impl Mutation {
    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn login(&self, ctx: &Context<'_>, input: LoginInput) -> R<LoginResult> {
        let st = upstream(ctx)?;
        let s = session::login(
            st,
            &input.cpfcnpj,
            &input.login,
            &input.password,
            input.company_id,
        )
        .await
        .map_err(gql_error)?;
        ctx.append_http_header("set-cookie", session::cookie(&s));
        Ok(LoginResult { token: s.token.clone(), session: types::session(&s.principal) })
    }

    async fn logout(&self, ctx: &Context<'_>) -> R<bool> {
        let a = auth(ctx).await?;
        session::logout(&gql(ctx)?.st, a).await.map_err(gql_error)?;
        Ok(true)
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn toggle_favorite(&self, ctx: &Context<'_>, program_id: i64) -> R<UserProgram> {
        let a = auth(ctx).await?;
        let st = upstream(ctx)?;
        let req = crate::upstream::request(
            &a.caller,
            erp_proto::identity::v1::FavoriteRequest { user_id: a.caller.user_id, program_id },
        );
        let reply = crate::upstream::call(st.up.identity.clone().toggle_favorite(req))
            .await
            .map_err(gql_error)?;
        let v: Value = serde_json::from_slice(&reply.json).map_err(|e| gql_error(e.into()))?;
        let fav = v.get("PRGU_FAVORITO").and_then(Value::as_i64) == Some(1);
        // The event evicts the cached principal; answer from identity's reply now.
        let mut p = a
            .principal
            .programs
            .iter()
            .find(|p| p.id == program_id)
            .cloned()
            .ok_or_else(|| gql_error(Error::NotFound("Programa não encontrado.".into())))?;
        p.favorite = fav;
        crate::auth::evict(st, a.caller.client_id, a.caller.user_id)
            .await
            .map_err(gql_error)?;
        Ok(types::program(&p))
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_create(
        &self,
        ctx: &Context<'_>,
        name: String,
        emp: i64,
        data: Json,
    ) -> R<Json> {
        let a = auth(ctx).await?;
        let body = register_calls::Body::from_map(object(data.0)?).map_err(gql_error)?;
        let row = register_calls::create(upstream(ctx)?, a, &name, Some(emp), body)
            .await
            .map_err(gql_error)?;
        Ok(Json(parse(&row)?))
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_update(
        &self,
        ctx: &Context<'_>,
        name: String,
        emp: i64,
        id: Json,
        data: Json,
    ) -> R<Json> {
        let a = auth(ctx).await?;
        let body = register_calls::Body::from_map(object(data.0)?).map_err(gql_error)?;
        let st = upstream(ctx)?;
        let row = register_calls::update(st, a, &name, Some(emp), key_of(st, &name, &id.0)?, body)
            .await
            .map_err(gql_error)?;
        Ok(Json(parse(&row)?))
    }

    /// A register's declared call (invoice an order, convert a quote...): `params`
    /// are the call's path parameters by name (`emp` included), `body` its JSON body.
    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_action(
        &self,
        ctx: &Context<'_>,
        name: String,
        action: String,
        params: Json,
        body: Option<Json>,
    ) -> R<Json> {
        let a = auth(ctx).await?;
        let params = match params.0 {
            Value::Object(m) => m
                .into_iter()
                .map(|(k, v)| {
                    let v = match v {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (k, v)
                })
                .collect(),
            _ => return Err(gql_error(Error::validation("Parâmetros inválidos."))),
        };
        let body = body.map(|b| b.0).unwrap_or(Value::Object(Map::new()));
        let body = bytes::Bytes::from(serde_json::to_vec(&body).map_err(|e| gql_error(e.into()))?);
        let reply = register_calls::action(upstream(ctx)?, a, &name, &action, params, body)
            .await
            .map_err(gql_error)?;
        match reply.file {
            // A file reaches the web client as the legacy JSON view of it.
            Some(f) => Ok(Json(erp_platform::resource::file_reply(
                &f.content_type,
                &f.name,
                &f.bytes,
            ))),
            None => parse(&reply.json).map(Json),
        }
    }

    #[graphql(complexity = "limits::UPSTREAM_COMPLEXITY + child_complexity")]
    async fn resource_delete(
        &self,
        ctx: &Context<'_>,
        name: String,
        emp: i64,
        id: Json,
    ) -> R<bool> {
        let a = auth(ctx).await?;
        let st = upstream(ctx)?;
        register_calls::delete(st, a, &name, Some(emp), key_of(st, &name, &id.0)?)
            .await
            .map_err(gql_error)?;
        Ok(true)
    }
}

pub struct SubscriptionRoot;

type NoticeStream = Pin<Box<dyn Stream<Item = R<Notification>> + Send>>;
type FiguresStream = Pin<Box<dyn Stream<Item = R<Vec<String>>> + Send>>;
type MovedStream = Pin<Box<dyn Stream<Item = R<bool>> + Send>>;

#[Subscription]
impl SubscriptionRoot {
    /// Notifications for the connected user: addressed to them, to every user
    /// of a company they may use, or to everyone (a new version).
    async fn notifications(&self, ctx: &Context<'_>) -> NoticeStream {
        let (Ok(a), Ok(st)) = (ctx.data::<Auth>(), ctx.data::<AppState>()) else {
            let e = gql_error(Error::Unauthenticated("Token não informado.".into()));
            let s: NoticeStream = Box::pin(tokio_stream::once(Err(e)));
            return s;
        };
        let (cid, uid) = (a.caller.client_id, a.caller.user_id);
        let companies: Vec<i64> = a.companies().collect();
        let rx = tokio_stream::wrappers::BroadcastStream::new(st.notices.subscribe());
        let s: NoticeStream = Box::pin(rx.filter_map(move |n| match n {
            Ok(n) if n.reaches(cid, uid, &companies) => Some(Ok(Notification {
                id: n.id,
                message: n.message,
                created_at: n.created_at,
                kind: n.kind,
                link: Some(n.link).filter(|l| !l.is_empty()),
            })),
            _ => None,
        }));
        s
    }

    /// The dashboard calls (`/dasboard/{nome}`) of company `emp` whose figures
    /// moved since the subscription began: the screen asks them again.
    async fn dashboard_changed(&self, ctx: &Context<'_>, emp: i64) -> FiguresStream {
        let (Ok(a), Ok(st)) = (ctx.data::<Auth>(), ctx.data::<AppState>()) else {
            let e = gql_error(Error::Unauthenticated("Token não informado.".into()));
            let s: FiguresStream = Box::pin(tokio_stream::once(Err(e)));
            return s;
        };
        let cid = a.caller.client_id;
        let rx = tokio_stream::wrappers::BroadcastStream::new(st.figures.subscribe());
        let s: FiguresStream = Box::pin(rx.filter_map(move |c| match c {
            Ok(c) if c.client_id == cid && c.emp_id == emp => Some(Ok(c.widgets)),
            _ => None,
        }));
        s
    }

    /// Company `emp`'s message queue moved (a message was queued, sent,
    /// delivered, read or failed): the Mensagens screen asks the queue again.
    async fn messages_changed(&self, ctx: &Context<'_>, emp: i64) -> MovedStream {
        let (Ok(a), Ok(st)) = (ctx.data::<Auth>(), ctx.data::<AppState>()) else {
            let e = gql_error(Error::Unauthenticated("Token não informado.".into()));
            let s: MovedStream = Box::pin(tokio_stream::once(Err(e)));
            return s;
        };
        if let Err(e) = crate::access::check_companies(a, &[emp]) {
            let s: MovedStream = Box::pin(tokio_stream::once(Err(gql_error(e))));
            return s;
        }
        let cid = a.caller.client_id;
        let rx = tokio_stream::wrappers::BroadcastStream::new(st.queues.subscribe());
        let s: MovedStream = Box::pin(rx.filter_map(move |c| match c {
            Ok(c) if c.client_id == cid && c.emp_id == emp => Some(Ok(true)),
            _ => None,
        }));
        s
    }
}

/// The schema as served: depth, complexity, alias and call limits; introspection
/// only when configured (GraphiQL in development).
pub fn schema(introspection: bool) -> ErpSchema {
    let b = Schema::build(Query, Mutation, SubscriptionRoot)
        .limit_depth(limits::MAX_DEPTH)
        .limit_complexity(limits::MAX_COMPLEXITY)
        .extension(limits::Limits);
    if introspection {
        b.finish()
    } else {
        b.disable_introspection().finish()
    }
}

/// Auth for a WebSocket connection from the `connection_init` payload
/// (`{"authorization": "Bearer ..."}`).
pub async fn ws_init(st: AppState, payload: Value) -> async_graphql::Result<async_graphql::Data> {
    let token = payload
        .get("authorization")
        .or_else(|| payload.get("Authorization"))
        .and_then(Value::as_str)
        .map(|s| {
            s.trim_start_matches("Bearer ")
                .trim_start_matches("bearer ")
                .to_string()
        })
        .ok_or_else(|| async_graphql::Error::new("Token não informado."))?;
    let auth = crate::auth::authenticate_token(&st, &token, &HeaderMap::new())
        .await
        .map_err(gql_error)?;
    let mut data = async_graphql::Data::default();
    data.insert(auth);
    data.insert(st);
    Ok(data)
}

#[cfg(test)]
mod tests {
    /// web/schema.graphql is what the web client generates its types from: it must
    /// be the schema the gateway serves (`make schema` regenerates it).
    #[test]
    fn the_web_clients_schema_file_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/schema.graphql");
        let file = std::fs::read_to_string(path).unwrap_or_default();
        let body: String = file
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            body.trim(),
            super::schema(false).sdl().trim(),
            "run `make schema`"
        );
    }
}
