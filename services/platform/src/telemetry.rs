//! Telemetry: `tracing` logs, OTLP trace export when `OTEL_EXPORTER_OTLP_ENDPOINT`
//! is set, Prometheus metrics (rendered on each role's `/metrics`) and W3C trace
//! context carried across gRPC metadata and bus message headers.

use std::collections::HashMap;
use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

static METRICS: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
static PROVIDER: OnceLock<opentelemetry_sdk::trace::SdkTracerProvider> = OnceLock::new();

/// Installs the global subscriber (once per process). `service` names the role in
/// exported traces.
pub fn init(service: &str, otlp_endpoint: Option<&str>) {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        EnvFilter::new("info,sqlx=warn,tower_http=warn,h2=warn,async_nats=warn")
    });
    let fmt = tracing_subscriber::fmt::layer().with_target(false);
    let otel = otlp_endpoint.and_then(|ep| match build_provider(service, ep) {
        Ok(p) => {
            let tracer = p.tracer("erp");
            opentelemetry::global::set_tracer_provider(p.clone());
            let _ = PROVIDER.set(p);
            Some(tracing_opentelemetry::layer().with_tracer(tracer))
        }
        Err(e) => {
            eprintln!("OTLP exporter disabled: {e}");
            None
        }
    });
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel)
        .try_init();
    metrics_handle();
}

fn build_provider(
    service: &str,
    endpoint: &str,
) -> Result<opentelemetry_sdk::trace::SdkTracerProvider, Box<dyn std::error::Error>> {
    use opentelemetry_otlp::WithExportConfig;
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint)
        .build()?;
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(service.to_string())
        .build();
    Ok(opentelemetry_sdk::trace::SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build())
}

/// Flushes exported spans on shutdown.
pub fn shutdown() {
    if let Some(p) = PROVIDER.get() {
        let _ = p.shutdown();
    }
}

/// The process-wide Prometheus recorder (installed on first use).
pub fn metrics_handle() -> Option<&'static PrometheusHandle> {
    METRICS
        .get_or_init(|| {
            let buckets = [
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0,
            ];
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &buckets)
                .and_then(|b| b.install_recorder())
                .map_err(|e| eprintln!("metrics recorder not installed: {e}"))
                .ok()
        })
        .as_ref()
}

pub fn render_metrics() -> String {
    crate::db::record_pool_metrics();
    metrics_handle().map(|h| h.render()).unwrap_or_default()
}

struct MapCarrier<'a>(&'a mut HashMap<String, String>);

impl Injector for MapCarrier<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
}

struct MapReader<'a>(&'a HashMap<String, String>);

impl Extractor for MapReader<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(|s| s.as_str())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

/// `traceparent`/`tracestate` of the current span, for bus headers and gRPC metadata.
pub fn current_trace_headers() -> HashMap<String, String> {
    let mut map = HashMap::new();
    let cx = tracing::Span::current().context();
    TraceContextPropagator::new().inject_context(&cx, &mut MapCarrier(&mut map));
    map
}

/// Makes `span` a child of the trace described by `headers`.
pub fn set_parent_from(span: &tracing::Span, headers: &HashMap<String, String>) {
    let cx = TraceContextPropagator::new().extract(&MapReader(headers));
    span.set_parent(cx);
}

/// Interceptor for gRPC clients: copies the current trace context into metadata.
pub fn inject_grpc(mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
    for (k, v) in current_trace_headers() {
        if let (Ok(k), Ok(v)) = (
            tonic::metadata::MetadataKey::from_bytes(k.as_bytes()),
            tonic::metadata::MetadataValue::try_from(v.as_str()),
        ) {
            req.metadata_mut().insert(k, v);
        }
    }
    Ok(req)
}

/// Span for an incoming gRPC request, parented on the caller's trace context.
pub fn grpc_server_span(req: &http::Request<()>) -> tracing::Span {
    let span = tracing::info_span!("grpc", path = %req.uri().path());
    let headers: HashMap<String, String> = ["traceparent", "tracestate"]
        .iter()
        .filter_map(|k| {
            req.headers()
                .get(*k)
                .and_then(|v| v.to_str().ok())
                .map(|v| (k.to_string(), v.to_string()))
        })
        .collect();
    if !headers.is_empty() {
        set_parent_from(&span, &headers);
    }
    span
}
