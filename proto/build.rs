//! Compiles every `.proto` under this folder with the vendored `protoc`, so a fresh
//! machine needs no system protobuf compiler.
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protoc = protoc_bin_vendored::protoc_bin_path()?;
    // SAFETY: build scripts are single-threaded; prost reads PROTOC from the env.
    unsafe { std::env::set_var("PROTOC", protoc) };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = [
        "erp/v1/resources.proto",
        "erp/v1/events.proto",
        "identity/v1/rpc.proto",
        "identity/v1/events.proto",
        "orders/v1/events.proto",
        "stock/v1/events.proto",
        "finance/v1/rpc.proto",
        "finance/v1/events.proto",
        "fiscal/v1/events.proto",
        "messaging/v1/rpc.proto",
        "messaging/v1/events.proto",
    ];
    for f in &files {
        println!("cargo:rerun-if-changed={f}");
    }
    tonic_prost_build::configure()
        // A list's filter and rows cross the gateway-service hop as `Bytes`: the
        // gateway forwards the body it received and the rows it got without a copy.
        .bytes(".erp.v1.ListRequest.filter_json")
        .bytes(".erp.v1.RowsReply.rows_json")
        // A declared call's body and answer, likewise.
        .bytes(".erp.v1.ActionRequest.body_json")
        .bytes(".erp.v1.ActionReply.json")
        .build_server(true)
        .build_client(true)
        .compile_protos(&files.map(|f| root.join(f)), &[root])?;
    Ok(())
}
