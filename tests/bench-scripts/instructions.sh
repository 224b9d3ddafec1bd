#!/usr/bin/env bash
# Instruction counts per iteration of every benchmark scenario, under valgrind's callgrind, and the
# same ratios as the criterion summary. Instruction counts do not depend on the machine's load (the
# wall-clock figures do), so they are the ones to trust on a busy or shared machine; they do not
# see cache misses or syscalls' time.
#
#   tests/bench-scripts/instructions.sh [filter]     (filter: a substring of group/id)
#
# Each scenario runs alone (TOOLWRIGHT_BENCH_PROFILE=<group>/<id>): set up, warmed, then N
# iterations inside `tw_bench_measured` (warm scenarios) or the cold start's
# `tw_bench_cold_build`/`tw_bench_cold_first_list` (cold ones), the only code counted
# (`--toggle-collect`). The callgrind files stay in target/bench-scripts/callgrind/ for
# `callgrind_annotate --inclusive=yes <file>`. For tools/call it also reports `<scenario>@server`:
# the server's part alone (rmcp's `handle_request`, inclusive), next to the whole round trip.
set -euo pipefail

filter="${1:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/target/bench-scripts/callgrind"
mkdir -p "$out"

# Build the benchmarks (bench profile = release + debug line info) and find the executables.
# TOOLWRIGHT_BENCH_FEATURES (e.g. `--features otel`) is passed to cargo; the telemetry runs of
# BENCHMARKS.md set it with TOOLWRIGHT_BENCH_TELEMETRY (read by the protocol benchmark).
log="$out/build.log"
# shellcheck disable=SC2086
(cd "$root" && cargo bench -p toolwright-tests ${TOOLWRIGHT_BENCH_FEATURES:-} --no-run) >"$log" 2>&1 || { cat "$log"; exit 1; }
exe() { sed -n "s|.*Executable benches/$1.rs (\(.*\))|\1|p" "$log" | tail -1; }

iters_for() {
    case "$1" in
        call_*) echo 2000 ;;
        list_4_*) echo 400 ;;
        list_40_*) echo 40 ;;
        first_list_* | build_and_first_list_*) echo 20 ;;
        validate_*) echo 20000 ;;
        robot_call) echo 200 ;;
        robot_*) echo 2000 ;;
        *) echo 100 ;;
    esac
}

declare -A ir
results="$out/results.tsv"
: >"$results"
for bench in protocol validate robot; do
    bin="$root/$(exe "$bench")"
    [[ -x "$bin" ]] || bin="$(exe "$bench")"
    mapfile -t names < <(TOOLWRIGHT_BENCH_SCENARIOS=1 "$bin")
    for name in "${names[@]}"; do
        [[ -z "$filter" || "$name" == *"$filter"* ]] || continue
        group="${name%%/*}"
        n=$(iters_for "$group")
        case "$group" in
            first_list_*) toggles=(--toggle-collect='*tw_bench_cold_first_list*'); div=$((n + n / 10 + 1)) ;;
            build_and_first_list_*) toggles=(--toggle-collect='*tw_bench_cold_first_list*' --toggle-collect='*tw_bench_cold_build*'); div=$((n + n / 10 + 1)) ;;
            *) toggles=(--toggle-collect='*tw_bench_measured*'); div=$n ;;
        esac
        file="$out/${name//\//__}.callgrind"
        TOOLWRIGHT_BENCH_PROFILE="$name" TOOLWRIGHT_BENCH_ITERS="$n" \
            valgrind --tool=callgrind --collect-atstart=no "${toggles[@]}" \
            --callgrind-out-file="$file" "$bin" >/dev/null 2>"$file.log"
        total=$(sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$file" | head -1)
        if [[ -z "$total" || "$total" == 0 ]]; then
            echo "$name: nothing counted; see $file.log" >&2
            exit 1
        fi
        per=$((total / div))
        ir[$name]=$per
        printf '%s\t%s\n' "$name" "$per" | tee -a "$results" >&2
        if [[ "$group" == call_* || "$group" == robot_call ]]; then
            # The server's part alone: rmcp's `handle_request` for a tools/call, inclusive (the
            # handler, validation, the tool and the result; not the transport, the JSON text
            # or the client).
            handler=$(callgrind_annotate --inclusive=yes "$file" 2>/dev/null | awk '
                !found && /\/src\/handler\/server\.rs:rmcp::handler::server::<impl rmcp::service::Service<rmcp::service::server::RoleServer> for H>::handle_request::\{\{closure\}\} \[/ {
                    gsub(",", "", $1); print $1; found = 1
                }')
            if [[ -n "$handler" ]]; then
                ir["$name@server"]=$((handler / div))
                printf '%s\t%s\n' "$name@server" "$((handler / div))" | tee -a "$results" >&2
            fi
        fi
    done
done

ratio() {
    local a="${ir[$1]:-}" b="${ir[$2]:-}"
    [[ -n "$a" && -n "$b" ]] || return 0
    awk -v a="$a" -v b="$b" -v n="$1" -v d="$2" -v t="$3" 'BEGIN {
        r = a / b
        verdict = (t == "") ? "" : (r <= t ? "≤ " t " met" : "≤ " t " **missed**")
        printf "| %s | %s | %d | %d | %.3f× | %s |\n", n, d, a, b, r, verdict
    }'
}

echo
echo "| measured | baseline | instructions | baseline instructions | ratio | target |"
echo "|---|---|---|---|---|---|"
for t in 4 40; do
    ratio "call_${t}_tools/toolwright" "call_${t}_tools/rmcp_router" 1.05
    ratio "call_${t}_tools/rmcp_macros" "call_${t}_tools/rmcp_router" ""
    ratio "call_${t}_tools/rmcp_router_trace_meta" "call_${t}_tools/rmcp_router" ""
    ratio "call_${t}_tools/toolwright" "call_${t}_tools/rmcp_router_trace_meta" ""
    ratio "call_${t}_tools/toolwright@server" "call_${t}_tools/rmcp_router@server" ""
    ratio "call_${t}_tools/toolwright@server" "call_${t}_tools/rmcp_router_trace_meta@server" ""
    ratio "call_${t}_tools/rmcp_macros@server" "call_${t}_tools/rmcp_router@server" ""
    ratio "list_${t}_tools/toolwright" "list_${t}_tools/rmcp_router" 1.0
    ratio "list_${t}_tools/toolwright" "list_${t}_tools/rmcp_router_same_defs" 1.0
    ratio "list_${t}_tools/rmcp_macros" "list_${t}_tools/rmcp_router" ""
    for p in first_list build_and_first_list; do
        ratio "${p}_${t}_tools/toolwright" "${p}_${t}_tools/rmcp_router" 1.0
        ratio "${p}_${t}_tools/toolwright" "${p}_${t}_tools/rmcp_router_own_types" 1.0
        ratio "${p}_${t}_tools/rmcp_macros" "${p}_${t}_tools/rmcp_router" ""
    done
done
ratio "robot_call/swept" "robot_call/no_check" ""
ratio "robot_call/swept@server" "robot_call/no_check@server" ""
ratio "robot_check/swept_7_joints" "robot_check/forward_kinematics" ""
ratio "robot_check/swept_7_joints" "robot_check/one_configuration" ""
for g in validate_grasp validate_plan_10; do
    ratio "$g/toolwright" "$g/serde" 1.3
    ratio "$g/toolwright" "$g/jsonschema_serde" 0.2
    ratio "$g/jsonschema_serde" "$g/serde" ""
    ratio "$g/toolwright_validate_only" "$g/jsonschema_validate_only" ""
done
