#!/usr/bin/env bash
# `make setup`, run by every target that builds: checks for what the build
# needs and, when something is missing, prints the exact command it runs to
# install it before running it. Silent when everything is there.
set -euo pipefail

command -v swift >/dev/null || { echo "setup: error: swift is not on PATH (Swift 6.3.1 is required)" >&2; exit 1; }

missing=()
command -v pkg-config >/dev/null || missing+=(pkg-config)
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
# The head office's database: libpq to build, the server for the tests that start one.
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v psql >/dev/null || missing+=(postgresql-client)
# SQLite, which the benchmarks compare the journal's group commit with.
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
# sqlite3's shell: the start-up benchmark times one insert as a process against one till command.
command -v sqlite3 >/dev/null || missing+=(sqlite3)
command -v python3 >/dev/null || missing+=(python3)
# A browser for the test that renders the head office's report page (and the
# bench that times it). Wanted, not needed: where it cannot be installed, that
# test is counted as skipped and everything else goes on.
browser=()
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || browser=(chromium)
[ ${#missing[@]} -eq 0 ] && [ ${#browser[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo "
update="${sudo}apt-get update -qq"
if [ ${#missing[@]} -gt 0 ]; then
  install="${sudo}apt-get install -y -qq ${missing[*]}"
  echo "setup: missing ${missing[*]}; running:"
  echo "  $update"
  echo "  $install"
  $update
  $install
  updated=1
fi
if [ ${#browser[@]} -gt 0 ]; then
  install="${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${browser[*]}"
  echo "setup: missing ${browser[*]} (for the report page's browser test); running:"
  echo "  $install"
  { [ -n "${updated:-}" ] || $update; } && $install >/dev/null \
    || echo "setup: warning: ${browser[*]} could not be installed; the browser test will be counted as skipped" >&2
fi
exit 0
