# Sourced by build_cost.sh and robot_build_cost.sh: times rebuilds of two crates after touching
# src/main.rs, alternating their order, and prints a Markdown table of every run, the medians
# and the ratio of the first to the second.
#
#   rebuild_pair RUNS TITLE LABEL_A DIR_A LABEL_B DIR_B
#
# Each crate is built once first to warm its dependencies; every build has CARGO_INCREMENTAL=0
# (debug profile). Wall-clock seconds and CPU seconds (user + sys, rustc included) are both
# given: on a busy machine the CPU time is the steadier of the two.

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

rebuild_pair() {
    local runs="$1" title="$2" label_a="$3" a="$4" label_b="$5" b="$6"
    local crate run t r u s c
    for crate in "$a" "$b"; do
        echo "warming $(basename "$crate")..." >&2
        (cd "$crate" && CARGO_INCREMENTAL=0 cargo build --quiet)
    done
    local -A wall cpu
    local TIMEFORMAT='%R %U %S'
    local order
    for run in $(seq 1 "$runs"); do
        # Alternate the order so that drift in the machine's speed hits both alike.
        if ((run % 2)); then order=("$a" "$b"); else order=("$b" "$a"); fi
        for crate in "${order[@]}"; do
            touch "$crate/src/main.rs"
            t=$({ time ( { cd "$crate" && CARGO_INCREMENTAL=0 cargo build --quiet; } >/dev/null 2>&1); } 2>&1)
            read -r r u s <<<"$t"
            c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
            wall[$crate]="${wall[$crate]:-} $r"
            cpu[$crate]="${cpu[$crate]:-} $c"
            echo "run $run $(basename "$crate"): wall $r s, cpu $c s" >&2
        done
    done
    med() { tr ' ' '\n' <<<"$1" | grep . | median; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
    local wa wb ca cb
    wa=$(med "${wall[$a]}"); wb=$(med "${wall[$b]}")
    ca=$(med "${cpu[$a]}"); cb=$(med "${cpu[$b]}")
    echo "| $title | wall-clock rebuilds, s | median | CPU (user+sys) rebuilds, s | median |"
    echo "|---|---|---|---|---|"
    echo "| $label_a |${wall[$a]} | $wa |${cpu[$a]} | $ca |"
    echo "| $label_b |${wall[$b]} | $wb |${cpu[$b]} | $cb |"
    echo "| ratio | | $(ratio "$wa" "$wb")× | | $(ratio "$ca" "$cb")× |"
}
