#!/usr/bin/env bash
# `make bench`: every benchmark in one run, written to docs/benchmarks.md.
# Figures are ratios against a baseline measured in the same run, with the
# absolute numbers beside them. Never a pass/fail threshold: this is a report.
set -euo pipefail
cd "$(dirname "$0")/.."

out=docs/benchmarks.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "bench: building release" >&2
swift build -c release --product kiosk-bench > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
bench=.build/release/kiosk-bench

{
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC'). Machine: $(nproc) cores,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/ {print $2}') GiB,"
  echo "$(swift --version 2>&1 | head -1), Linux $(uname -r). Shared machine: read ratios, not absolutes."
  echo
} > "$tmp/report.md"

echo "bench: timing (access, snapshots, journal, linkgen)" >&2
"$bench" --manifest codegen.yaml >> "$tmp/report.md"

if command -v valgrind >/dev/null; then
  echo "bench: callgrind" >&2
  {
    echo
    echo "## Access cost in instructions (callgrind)"
    echo
    echo "Instructions per workload, from \`valgrind --tool=callgrind\` runs of N and 2N"
    echo "iterations (the difference divided by N, so set-up cancels out). Counts, not"
    echo "seconds: repeatable on a noisy machine. Allocations are calls to"
    echo "\`malloc\` from anywhere; coroutine frames are calls to the runtime's coroutine-frame"
    echo "allocators (\`_swift_coro_malloc\`, \`swift_coroFrameAlloc\`): a heap-allocated accessor frame,"
    echo "which must read 0; witness-thunk calls are calls into protocol witness thunks (\`…TW\` symbols):"
    echo "capability accesses that were not inlined into the specialized code. Goal: (a) within"
    echo "1.01x of (b) in instructions, with the same allocations; \`make bench\` fails loudly otherwise."
    echo
    echo "| variant | instructions per workload | ratio to (b) | allocations per workload | of which coroutine frames | witness-thunk calls per workload |"
    echo "|---|---|---|---|---|---|"
  } >> "$tmp/report.md"
  n=4000
  # valgrind 3.19 cannot read the DWARF 5 the toolchain emits; the symbol table
  # is enough for callgrind, so profile a copy without debug info.
  objcopy --strip-debug "$bench" "$tmp/kiosk-bench"
  declare -A ir allocs witness coro
  for v in a b c d; do
    for k in 1 2; do
      valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$v.$k" "$tmp/kiosk-bench" --workload $v --iterations $((n * k)) \
        > /dev/null 2>&1
    done
    total() { awk '/^(summary|totals):/ {print $2; exit}' "$1"; }
    # calls=N lines that follow a cfn= naming the callee.
    calls() {
      # Names are compressed: `fn=(id) name` or `cfn=(id) name` the first time, `(id)` after.
      awk -v pattern="$2" '
        /^c?fn=\(/ { line = $0; callee = (line ~ /^cfn=/); sub(/^c?fn=/, "", line)
                      id = line; sub(/\).*/, ")", id); name = line; sub(/^\([0-9]+\) ?/, "", name)
                      if (name != "") names[id] = name; if (callee) current = names[id] }
        /^calls=/ { split($0, parts, /[= ]/); if (current ~ pattern) sum += parts[2] }
        END { print sum + 0 }' "$1"
    }
    ir[$v]=$(( ($(total "$tmp/cg.$v.2") - $(total "$tmp/cg.$v.1")) / n ))
    allocs[$v]=$(( ($(calls "$tmp/cg.$v.2" '^malloc$') - $(calls "$tmp/cg.$v.1" '^malloc$')) / n ))
    frames='^(_swift_coro_malloc|swift_coroFrameAlloc)$'
    coro[$v]=$(( ($(calls "$tmp/cg.$v.2" "$frames") - $(calls "$tmp/cg.$v.1" "$frames")) / n ))
    witness[$v]=$(( ($(calls "$tmp/cg.$v.2" 'TW$') - $(calls "$tmp/cg.$v.1" 'TW$')) / n ))
  done
  for v in a b c d; do
    ratio=$(awk -v x="${ir[$v]}" -v y="${ir[b]}" 'BEGIN { printf "%.3f", x / y }')
    echo "| ($v) | ${ir[$v]} | $ratio | ${allocs[$v]} | ${coro[$v]} | ${witness[$v]} |" >> "$tmp/report.md"
  done
  # The zero-cost guard: generic capabilities (a) against hand-written code (b).
  if [ "${allocs[a]}" -gt "${allocs[b]}" ] || [ "${coro[a]}" -ne 0 ]; then
    zero_cost="FAILED: (a) makes ${allocs[a]} allocations per workload (${coro[a]} coroutine frames) against ${allocs[b]} for (b)"
  elif awk -v x="${ir[a]}" -v y="${ir[b]}" 'BEGIN { exit !(x / y > 1.01) }'; then
    zero_cost="FAILED: (a) costs more than 1.01x the instructions of (b)"
  else
    zero_cost="held: (a) is within 1.01x of (b) in instructions, with ${allocs[a]} allocations against ${allocs[b]} and no coroutine frames"
  fi
  printf '\nZero-cost guard: %s.\n' "$zero_cost" >> "$tmp/report.md"
else
  printf '\n## Access cost in instructions\n\nvalgrind is not installed; skipped.\n' >> "$tmp/report.md"
fi

echo "bench: build times (a clean clone)" >&2
git clone -q . "$tmp/clone"
start=$(date +%s.%N)
(cd "$tmp/clone" && make test > "$tmp/clean-test.log" 2>&1)
clean=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
touch "$tmp/clone/Packages/Stock/Sources/Stock/StockState.swift"
start=$(date +%s.%N)
(cd "$tmp/clone" && swift build --build-tests > "$tmp/incremental.log" 2>&1)
incremental=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
{
  echo
  echo "## Build"
  echo
  echo "| measure | seconds |"
  echo "|---|---|"
  printf '| clean `make test` in a fresh clone (build and run every test) | %.1f |\n' "$clean"
  printf '| incremental `swift build --build-tests` after touching `Packages/Stock/Sources/Stock/StockState.swift` | %.1f |\n' "$incremental"
  echo
  echo "Result of that \`make test\`: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/clean-test.log" | tail -1)."
} >> "$tmp/report.md"

cp "$tmp/report.md" "$out"
echo "bench: wrote $out" >&2
cat "$out"
case "${zero_cost:-}" in
  FAILED*) echo "bench: ZERO-COST GUARD $zero_cost" >&2; exit 1 ;;
esac
