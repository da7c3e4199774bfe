//! The fake Nuvem Fiscal on its own, for demos and checks with curl:
//!
//! ```sh
//! cargo run -p erp-fiscal --bin fake-nuvemfiscal -- 127.0.0.1:8765
//! NUVEMFISCAL_CLIENT_ID=erp-demo NUVEMFISCAL_CLIENT_SECRET=erp-demo-secret \
//! NUVEMFISCAL_BASE_URL=http://127.0.0.1:8765 \
//! NUVEMFISCAL_AUTH_URL=http://127.0.0.1:8765/oauth/token erp run --demo
//! ```

use erp_fiscal::nuvemfiscal::fake;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8765".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!(
        "Nuvem Fiscal falsa em http://{}: NUVEMFISCAL_CLIENT_ID={} NUVEMFISCAL_CLIENT_SECRET={} \
         NUVEMFISCAL_BASE_URL=http://{0} NUVEMFISCAL_AUTH_URL=http://{0}{}",
        listener.local_addr()?,
        fake::CLIENT_ID,
        fake::CLIENT_SECRET,
        fake::TOKEN_PATH
    );
    fake::serve(listener).await
}
