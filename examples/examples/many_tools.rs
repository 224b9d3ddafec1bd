//! 200 tools of a device controller, for measuring `export` and its page at that scale:
//! `cargo run --release --example many_tools -- export --out /tmp/many` (BENCHMARKS.md).

fn main() {
    std::process::exit(toolwright_examples::many_tools::server().run_cli_main());
}
