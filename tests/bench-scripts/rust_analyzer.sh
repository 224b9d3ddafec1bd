#!/usr/bin/env bash
# How rust-analyzer sees toolwright's macros while a user types: its `diagnostics` command on
# small crates, each with one mistake, counting what it reports (goal: one per mistake).
#
#   tests/bench-scripts/rust_analyzer.sh [path/to/rust-analyzer]
#
# rust-analyzer is built from crates.io (`ra_ap_rust-analyzer` 0.0.349; on 1.95 its `ra_ap_tt`
# uses the unstable `assert_matches`, so with the nightly toolchain) into
# target/ra/install/bin when no path is given. Proc macros expand through the pinned 1.95
# toolchain's own server, `libexec/rust-analyzer-proc-macro-srv`, as an editor would run them.
# Slow (the build takes tens of minutes on 2 cores; each crate's analysis about a minute), so
# not in .ci/run; BENCHMARKS.md records the counts.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ra="${1:-$root/target/ra/install/bin/rust-analyzer}"
if [ ! -x "$ra" ]; then
    cargo +nightly install ra_ap_rust-analyzer --version 0.0.349 --locked \
        --root "$root/target/ra/install" --target-dir "$root/target/ra/build"
fi
srv="$(rustc +1.95.0 --print sysroot)/libexec/rust-analyzer-proc-macro-srv"
# rust-analyzer adds the toolchain's `rust-src` when it is missing; with it rustc prints core's
# source in some errors, and the UI tests' .stderr files (written without it) would differ. It
# is removed again when this script added it.
had_src=$(rustup component list --installed --toolchain 1.95.0 | grep -c '^rust-src' || true)
restore_src() {
    if [ "$had_src" = 0 ]; then
        rustup component remove rust-src --toolchain 1.95.0 >/dev/null 2>&1 || true
    fi
}
trap restore_src EXIT
work="$root/target/bench-scripts/ra"
mkdir -p "$work"
# One target directory for the crates' dependencies, which rust-analyzer's own `cargo check`
# (for build scripts and proc macros) shares.
export CARGO_TARGET_DIR="$work/target"

# One crate per case: its name, then its main.rs.
case_crate() { # name source
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOT
[package]
name = "ra-$1"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolwright = { path = "$root/runtime" }
serde = { version = "1", features = ["derive"] }
EOT
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    printf '%s\n' "$2" >"$dir/src/main.rs"
}

case_crate slip_in_a_toolbox_method '
use toolwright::{Toolbox, toolbox};

struct Sim;

impl Sim {
    fn belt_speed(&self) -> f64 {
        120.0
    }
}

struct Cell {
    sim: Sim,
}

#[toolbox(resource(name = "belt", safe_stop = halt_belt))]
impl Cell {
    /// Stops the belt.
    fn halt_belt(&self) -> String {
        "belt stopped".into()
    }

    /// Run the conveyor belt at a speed.
    #[tool(resource = "belt", confirm = "Run the belt at {speed} mm/s?")]
    async fn run_belt(
        &self,
        /// Belt speed.
        #[param(unit = "mm/s", range = 0.0..=500.0)]
        speed: f64,
    ) -> String {
        let half = self.sim.
        format!("{speed}")
    }

    /// The belt speed now.
    #[tool(read_only)]
    fn belt_state(&self) -> f64 {
        self.sim.belt_speed()
    }
}

fn main() {
    let _ = Toolbox::new(Cell { sim: Sim });
}'

# The same slip without toolwright (a plain impl): what rust-analyzer reports of the slip itself.
case_crate slip_in_a_plain_method '
struct Sim;

struct Cell {
    sim: Sim,
}

impl Cell {
    /// Run the conveyor belt at a speed.
    async fn run_belt(&self, speed: f64) -> String {
        let half = self.sim.
        format!("{speed}")
    }
}

fn main() {
    let _ = Cell { sim: Sim }.run_belt(1.0);
}'

case_crate slip_in_a_free_tool '
use toolwright::{tool, tools};

/// Read the vacuum gripper pressure.
#[tool(read_only)]
fn read_vacuum(
    /// Which suction cup.
    #[param(range = 0..=3)]
    cup: u8,
) -> f64 {
    let pressure = cup as f64 *
    pressure
}

fn main() {
    let _ = tools![read_vacuum];
}'

case_crate misspelt_resource '
use toolwright::{Toolbox, toolbox};

struct Cell;

#[toolbox(resource(name = "belt"))]
impl Cell {
    /// Run the conveyor belt.
    #[tool(resource = "blet", confirm = "Run the belt?")]
    async fn run_belt(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Toolbox::new(Cell);
}'

echo "| crate (one mistake) | rust-analyzer diagnostics |"
echo "|---|---|"
for c in slip_in_a_plain_method slip_in_a_toolbox_method slip_in_a_free_tool misspelt_resource; do
    out="$work/$c.diagnostics.txt"
    # Warm: the dependencies built (the crate itself fails, as it should).
    (cd "$work/$c" && cargo check --quiet >/dev/null 2>&1 || true)
    "$ra" diagnostics "$work/$c" --proc-macro-srv "$srv" >"$out" 2>&1 || true
    # The crate's own errors (rust-analyzer also lists warnings and toolwright's inactive code).
    count=$(grep '^at crate ra_' "$out" | grep -c ': Error ' || true)
    echo "| $c | $count |"
done
echo "(the diagnostics themselves: $work/*.diagnostics.txt)" >&2
