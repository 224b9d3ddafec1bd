//! The parts-catalogue MCP server: `cargo run --example parts_catalog` serves it over stdio;
//! `… -- serve --http 127.0.0.1:8101 --redis redis://127.0.0.1:6379/0` as one replica of
//! several behind a load balancer (the reference, `toolwright::reference`, "Replicas").

use toolwright_examples::parts_catalog;

#[tokio::main]
async fn main() {
    std::process::exit(parts_catalog::server().run_cli().await);
}
