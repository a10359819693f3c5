#!/usr/bin/env bash
# `make test` / `make test-fast`: build every test once, run them all, and end
# with one total line counted from `swift test`'s machine-readable (xUnit)
# reports, never from its human-readable text. A test that `swift test list`
# knows but no report mentions (the runner crashed first) counts as failed.
# `make test-fast` sets SKIP_NESTED_BUILDS=1; the skipped tests are counted.
set -uo pipefail
cd "$(dirname "$0")/.."

results=.build/test-results
mkdir -p "$results"
rm -f "$results"/*

swift build --build-tests || { echo "test: the build failed; no test ran" >&2; exit 1; }
swift test list --skip-build > "$results/list.txt" || { echo "test: 'swift test list' failed" >&2; exit 1; }

status=0
swift test --skip-build --xunit-output "$results/xunit.xml" 2>&1 | tee .build/test.log || status=$?
python3 scripts/test_summary.py --status "$status" --list "$results/list.txt" \
  "$results/xunit.xml" "$results/xunit-swift-testing.xml"
