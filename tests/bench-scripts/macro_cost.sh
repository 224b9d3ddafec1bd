#!/usr/bin/env bash
# What the macros cost the build, against rmcp's macros (the same tools written with
# `#[tool_router]`, `#[tool]` and schemars derives, as in build_cost.sh):
#
#   1. expanded lines per tool: each crate's macro expansion (`-Zunpretty=expanded`, on the
#      pinned toolchain with RUSTC_BOOTSTRAP=1), its lines counted by rustfmt's layout, less the
#      lines the crate has without its tools, divided by the number of tools;
#   2. the macros crate's compile time and its share of the crate's clean build
#      (`cargo build --timings`, read from its JSON lines);
#   3. `cargo check` after editing one tool's body in a crate of N tools (default 200): a
#      warm check, one body touched, checked again (median of 3).
#
#   tests/bench-scripts/macro_cost.sh [tools]
#   MACRO_COST_PARTS="lines check" tests/bench-scripts/macro_cost.sh   # some of the three
#
# Crates and their target directory are generated under target/bench-scripts/macro_cost/ (not in
# git), each with the workspace's Cargo.lock.
set -euo pipefail

n="${1:-200}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$root/target/bench-scripts/macro_cost"
export CARGO_TARGET_DIR="$work/target"
mkdir -p "$work"

deps='serde = { version = "1", features = ["derive"] }
serde_json = { version = "1", features = ["preserve_order"] }
schemars = { version = "1.2.3", features = ["preserve_order"] }
tokio = { version = "1", features = ["rt", "macros", "sync", "time", "io-std", "io-util"] }'

# toolwright: tool i moves to a point with a speed and a mode; rmcp: the same, with a Parameters
# struct per tool (rmcp takes one argument struct).
gen_toolwright() { # dir tools
    local dir="$1" count="$2"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOT
[package]
name = "macro-cost-toolwright"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolwright = { path = "$root/runtime" }
$deps
EOT
    {
        cat <<'EOT'
use toolwright::{ToolError, Toolbox, toolbox};

/// The server's state.
pub struct Server;

#[toolbox]
impl Server {
EOT
        for i in $(seq 1 "$count"); do
            cat <<EOT
    /// Tool $i: move the tool point to a target in the robot base frame.
    #[tool(idempotent, open_world = false)]
    async fn tool_$i(
        &self,
        /// Target X.
        #[param(unit = "mm", range = -850.0..=850.0)]
        x: f64,
        /// Target Z.
        #[param(unit = "mm", range = 0.0..=950.0)]
        z: f64,
        /// Fraction of the maximum speed.
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
        /// A label for the log.
        #[param(min_length = 1, max_length = 32)]
        label: Option<String>,
    ) -> Result<String, ToolError> {
        if z < 1.0 {
            return Err(ToolError::new("too low"));
        }
        Ok(format!("{x} {z} {speed} {}", label.unwrap_or_default()))
    }

EOT
        done
        cat <<'EOT'
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Toolbox::new(Server).serve_stdio().await?;
    Ok(())
}
EOT
    } >"$dir/src/main.rs"
}

gen_rmcp() { # dir tools
    local dir="$1" count="$2"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOT
[package]
name = "macro-cost-rmcp"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "3.11.0", default-features = false, features = ["server", "macros", "transport-io"] }
$deps
EOT
    {
        cat <<'EOT'
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, ServiceExt as _, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

fn default_speed() -> f64 {
    0.5
}
EOT
        for i in $(seq 1 "$count"); do
            cat <<EOT

/// Arguments of tool_$i.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Params$i {
    /// Target X, mm.
    #[schemars(range(min = -850.0, max = 850.0), extend("x-unit" = "mm"))]
    pub x: f64,
    /// Target Z, mm.
    #[schemars(range(min = 0.0, max = 950.0), extend("x-unit" = "mm"))]
    pub z: f64,
    /// Fraction of the maximum speed.
    #[serde(default = "default_speed")]
    #[schemars(range(min = 0.1, max = 1.0))]
    pub speed: f64,
    /// A label for the log.
    #[serde(default)]
    #[schemars(length(min = 1, max = 32))]
    pub label: Option<String>,
}
EOT
        done
        cat <<'EOT'

/// The server.
#[derive(Debug, Clone)]
pub struct Server;

#[tool_router]
impl Server {
EOT
        for i in $(seq 1 "$count"); do
            cat <<EOT
    /// Tool $i: move the tool point to a target in the robot base frame.
    #[tool(annotations(idempotent_hint = true, open_world_hint = false))]
    async fn tool_$i(&self, Parameters(p): Parameters<Params$i>) -> Result<String, String> {
        if p.z < 1.0 {
            return Err("too low".to_owned());
        }
        Ok(format!("{} {} {} {}", p.x, p.z, p.speed, p.label.unwrap_or_default()))
    }

EOT
        done
        cat <<'EOT'
}

#[tool_handler]
impl ServerHandler for Server {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Server.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
EOT
    } >"$dir/src/main.rs"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# 1. Expanded lines per tool: the expansion of 10 tools less that of 0, over 10.
expanded_lines() { # generator name
    local gen="$1" name="$2" lines=()
    for count in 0 10; do
        local dir="$work/${name}_expand_$count"
        "$gen" "$dir" "$count"
        cp "$root/Cargo.lock" "$dir/Cargo.lock"
        (cd "$dir" && RUSTC_BOOTSTRAP=1 cargo rustc --quiet --profile=check -- -Zunpretty=expanded \
            >"$dir/expanded.rs" 2>/dev/null || true)
        rustfmt --edition 2024 "$dir/expanded.rs" 2>/dev/null || true
        lines+=("$(grep -cv '^\s*$' "$dir/expanded.rs")")
    done
    echo $(((lines[1] - lines[0]) / 10))
}
parts="${MACRO_COST_PARTS:-lines timings check}"
tw_lines=- rm_lines=- tw_own=- tw_share=- rm_own=- rm_share=- tw_check=- rm_check=-
if [[ $parts == *lines* ]]; then
    tw_lines=$(expanded_lines gen_toolwright toolwright)
    rm_lines=$(expanded_lines gen_rmcp rmcp)
    echo "expanded lines per tool: toolwright $tw_lines, rmcp $rm_lines" >&2
fi

# 2. The macros crate in a clean build of a 40-tool crate (`--timings`' JSON units).
macro_time() { # generator name macros-crate
    local gen="$1" name="$2" crate="$3"
    local dir="$work/${name}_timings"
    "$gen" "$dir" 40
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    local target="$work/timings_$name"
    rm -rf "$target"
    (cd "$dir" && CARGO_TARGET_DIR="$target" CARGO_INCREMENTAL=0 cargo build --quiet --timings)
    # The report embeds each unit's duration (`const UNIT_DATA = [..]`).
    python3 - "$target/cargo-timings/cargo-timing.html" "$crate" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S).group(1))
total = sum(u["duration"] for u in units)
own = sum(u["duration"] for u in units if u["name"] == sys.argv[2])
print(f"{own:.2f} {total:.2f} {100 * own / total:.1f}")
PY
}
if [[ $parts == *timings* ]]; then
    read -r tw_own tw_total tw_share <<<"$(macro_time gen_toolwright toolwright toolwright-macros)"
    read -r rm_own rm_total rm_share <<<"$(macro_time gen_rmcp rmcp rmcp-macros)"
    echo "macros crate: toolwright-macros $tw_own s of $tw_total s ($tw_share %), rmcp-macros $rm_own s of $rm_total s ($rm_share %)" >&2
fi

# 3. `cargo check` after editing one tool body, N tools.
edit_check() { # generator name
    local gen="$1" name="$2"
    local dir="$work/${name}_$n" times=()
    "$gen" "$dir" "$n"
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    (cd "$dir" && cargo check --quiet)
    for run in 1 2 3; do
        # One body edited: tool 1's answer.
        sed -i "0,/too low/s/too low[^\"]*/too low $run/" "$dir/src/main.rs"
        local t
        t=$({ TIMEFORMAT='%R'; time (cd "$dir" && cargo check --quiet) >/dev/null 2>&1; } 2>&1)
        times+=("$t")
    done
    printf '%s\n' "${times[@]}" | median
}
if [[ $parts == *check* ]]; then
    tw_check=$(edit_check gen_toolwright toolwright)
    rm_check=$(edit_check gen_rmcp rmcp)
    echo "cargo check after one body edit, $n tools: toolwright $tw_check s, rmcp $rm_check s" >&2
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f", a / b }'; }
echo "| figure | toolwright | rmcp twin | ratio |"
echo "|---|---|---|---|"
echo "| expanded lines per tool | $tw_lines | $rm_lines | $(ratio "$tw_lines" "$rm_lines")× |"
echo "| macros crate, s (share of a clean 40-tool build) | $tw_own ($tw_share %) | $rm_own ($rm_share %) | $(ratio "$tw_own" "$rm_own")× |"
echo "| \`cargo check\` after one body edit, $n tools, s | $tw_check | $rm_check | $(ratio "$tw_check" "$rm_check")× |"
