#!/usr/bin/env python3
"""Where two callgrind profiles differ: instructions per iteration by function, B minus A.

    tests/bench-scripts/callgrind_diff.py A.callgrind B.callgrind ITERS [--inclusive] [--top N]

A and B come from tests/bench-scripts/instructions.sh (target/bench-scripts/callgrind/); ITERS is
the number of iterations counted in each (instructions.sh prints it; the warm-up of cold scenarios
is counted too). Functions are matched by name across the two binaries; generic instances of one
function are summed. Prints the functions whose cost changed most, per iteration.
"""

import re
import subprocess
import sys
from collections import defaultdict


def costs(path, inclusive):
    args = ["callgrind_annotate", "--threshold=100", "--show-percs=no", "--auto=no"]
    if inclusive:
        args.append("--inclusive=yes")
    out = subprocess.run(args + [path], capture_output=True, text=True, check=True).stdout
    table = defaultdict(int)
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(\S.*)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        name = m.group(2)
        name = re.sub(r" \[[^\]]*\]$", "", name)  # the object file
        name = name.split(":", 1)[-1] if ":" in name.split("::", 1)[0] else name
        name = re.sub(r"'\d+", "", name)  # recursion levels
        table[name] += int(m.group(1).replace(",", ""))
    return table


def main():
    argv = sys.argv[1:]
    inclusive = "--inclusive" in argv
    top = 40
    if "--top" in argv:
        top = int(argv[argv.index("--top") + 1])
    files = [a for a in argv if not a.startswith("--") and not a.isdigit()]
    iters = [int(a) for a in argv if a.isdigit() and argv[argv.index(a) - 1] != "--top"]
    if len(files) != 2 or not iters:
        sys.exit(__doc__)
    a, b = costs(files[0], inclusive), costs(files[1], inclusive)
    n = iters[0]
    delta = {k: (b.get(k, 0) - a.get(k, 0)) / n for k in set(a) | set(b)}
    print(f"{'B - A':>10} {'A':>10} {'B':>10}  function (instructions per iteration)")
    for k, d in sorted(delta.items(), key=lambda kv: -abs(kv[1]))[:top]:
        print(f"{d:>10.0f} {a.get(k, 0) / n:>10.0f} {b.get(k, 0) / n:>10.0f}  {k[:150]}")


if __name__ == "__main__":
    main()
