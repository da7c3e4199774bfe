//! The fake Nuvem Fiscal on its own, for demos and checks with curl:
//!
//! ```sh
//! cargo run -p erp-fiscal --features fake --bin fake-nuvemfiscal -- 127.0.0.1:8765
//! NUVEMFISCAL_CLIENT_ID=erp-demo NUVEMFISCAL_CLIENT_SECRET=erp-demo-secret \
//! NUVEMFISCAL_BASE_URL=http://127.0.0.1:8765 \
//! NUVEMFISCAL_AUTH_URL=http://127.0.0.1:8765/oauth/token erp run --demo
//! ```
//!
//! After the address, a CPF/CNPJ and NF-e XML files: each NF-e is issued
//! against that recipient at start-up, for the NF-e manifest's distribution
//! (`fake-nuvemfiscal 127.0.0.1:8765 11222333000181 nfe1.xml nfe2.xml`).

use erp_fiscal::nuvemfiscal::fake;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8765".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let (app, handle) = fake::router();
    let mut rest = std::env::args().skip(2);
    if let Some(recipient) = rest.next() {
        for file in rest {
            let xml = std::fs::read_to_string(&file)?;
            match handle.issue_against(&recipient, &xml) {
                Ok(key) => println!("NF-e {key} emitida contra {recipient} ({file})"),
                Err(e) => eprintln!("{file}: {e}"),
            }
        }
    }
    println!(
        "Nuvem Fiscal falsa em http://{}: NUVEMFISCAL_CLIENT_ID={} NUVEMFISCAL_CLIENT_SECRET={} \
         NUVEMFISCAL_BASE_URL=http://{0} NUVEMFISCAL_AUTH_URL=http://{0}{}",
        listener.local_addr()?,
        fake::CLIENT_ID,
        fake::CLIENT_SECRET,
        fake::TOKEN_PATH
    );
    axum::serve(listener, app).await
}
