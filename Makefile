# The single entry point. `make help` lists the targets.
#
# One umbrella build at the root (Package.swift) holds every package's targets,
# so `make test` builds each module once; `make build PKG=X` builds one package
# on its own, with its own manifest, as a user of that package would.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := help

SWIFT ?= swift
BIN := .build/debug
LINKGEN := $(BIN)/linkgen
FORMAT_PATHS := Package.swift Packages Tests tools Benchmarks Generated
KIND ?= state
RELEASE_PRODUCTS := kiosk kiosk-hq kiosk-replay linkgen
STATIC_PRODUCTS := kiosk kiosk-hq linkgen

.PHONY: help setup generate check rooms lint format build standalone test test-fast run domain remove-domain linkgen bench docs map record replay release

help: ## Show this list.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{ printf "  make %-10s %s\n", $$1, $$2 }'
	@echo "  make build PKG=Menu   build one package on its own"
	@echo "  make domain NAME=Loyalty [KIND=state|service] [WORLD=KioskWorld[,World2[:Fake]]] [USES=Menu]   add a domain (to worlds)"

setup: ## Check for what the build needs; print, then run, the command that installs what is missing.
	@scripts/setup.sh

linkgen: setup ## Build the linkgen tool.
	@mkdir -p .build
	@$(SWIFT) build --product linkgen > .build/linkgen-build.log 2>&1 || { cat .build/linkgen-build.log; exit 1; }

generate: linkgen ## Write Generated/ from codegen.yaml.
	@$(LINKGEN) generate

check: linkgen ## Fail on stale Generated/, a perimeter leak, a framework import of the app, umbrella drift, or lint findings.
	@$(LINKGEN) check
	@python3 scripts/check_framework.py
	@python3 scripts/check_framework_test.py | sed 's/^/framework check self-test: /'
	@python3 scripts/check_umbrella.py
	@python3 scripts/check_umbrella_test.py | sed 's/^/umbrella check self-test: /'
	@python3 scripts/docs_test.py | sed 's/^/docs check self-test: /'
	@python3 scripts/rooms.py --check
	@python3 scripts/rooms_test.py | sed 's/^/rooms check self-test: /'
	@$(MAKE) --no-print-directory lint
	@python3 scripts/test_summary_test.py 2>&1 | tail -1 | sed 's/^/test counting: /'

rooms: ## Write the rooms' line counts into docs/ARCHITECTURE.md (make check fails when they are stale).
	@python3 scripts/rooms.py --write

lint: ## swift format lint --strict over every source and generated file.
	@$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS) && echo "lint: clean"

format: linkgen ## Reformat the sources in place (Generated/ is linkgen's: it is rewritten, not reformatted).
	@$(SWIFT) format format --in-place --recursive Package.swift Packages Tests tools Benchmarks
	@$(LINKGEN) generate > /dev/null

build: setup ## Build everything, or one package alone with PKG=Name.
ifdef PKG
	@if [ -d Packages/$(PKG) ]; then dir=Packages/$(PKG); \
	 elif [ -d tools/$(PKG) ]; then dir=tools/$(PKG); \
	 elif [ -f $(PKG)/Package.swift ]; then dir=$(PKG); \
	 else echo "error: no package '$(PKG)' in Packages/ or tools/"; exit 2; fi; \
	 $(SWIFT) build --package-path $$dir
else
	$(SWIFT) build --build-tests
endif

standalone: setup ## Build every package on its own manifest, as its users would (CI runs this).
	@mkdir -p .build
	@for dir in Packages/*/ tools/*/ Benchmarks/; do \
	  printf '%-22s ' "$$dir"; \
	  $(SWIFT) build --package-path $$dir > .build/standalone.log 2>&1 || { echo failed; cat .build/standalone.log; exit 1; }; \
	  echo ok; \
	done

test: setup ## Every test, nested SwiftPM builds included (CI runs this); ends with one total line.
	@scripts/test.sh

test-fast: setup ## The inner loop: every test but the nested SwiftPM builds, which it counts as skipped.
	@SKIP_NESTED_BUILDS=1 scripts/test.sh

run: setup ## Build the kiosk and run its demo.
	@mkdir -p .build
	@$(SWIFT) build --product kiosk > .build/kiosk-build.log 2>&1 || { cat .build/kiosk-build.log; exit 1; }
	@$(BIN)/kiosk demo

record: linkgen ## Run every scenario and (re)write its recording under Tests/Recordings (review the diff).
	@mkdir -p .build
	@$(SWIFT) build --build-tests > .build/record-build.log 2>&1 || { cat .build/record-build.log; exit 1; }
	@RECORD_SCENARIOS=1 $(SWIFT) test --skip-build --filter ScenarioRecordingTests > .build/record.log 2>&1; status=$$?; \
	  grep -E '^(✘|↳ [^TH/])|Test run with' .build/record.log | grep -v 'known issue' ; \
	  git status --short -- Tests/Recordings | sed 's/^/record: /'; \
	  if [ $$status -ne 0 ]; then echo "record: a scenario failed (above); its leaf was not recorded"; exit 1; fi
	@$(LINKGEN) check > /dev/null || { echo "record: list the new fixtures in codegen.yaml's features (see above)"; exit 1; }

replay: setup ## Send every recorded step through a fresh kiosk-replay server and compare the bytes (CI runs this).
	@mkdir -p .build
	@$(SWIFT) build --product kiosk-replay > .build/replay-build.log 2>&1 || { cat .build/replay-build.log; exit 1; }
	@python3 Packages/ServiceLinker/Tools/replay_lane.py --server $(BIN)/kiosk-replay --recordings Tests/Recordings

map: linkgen ## Build, then write docs/access-map.md (who reads and writes each slice) from the symbol graphs.
	@$(SWIFT) build --build-tests > .build/map-build.log 2>&1 || { cat .build/map-build.log; exit 1; }
	@$(LINKGEN) map

docs: setup ## Build, then fail on an undocumented public symbol of the framework or a domain; DocC archives in .build/docs.
	@$(SWIFT) build --build-tests > .build/docs-build.log 2>&1 || { cat .build/docs-build.log; exit 1; }
	@python3 scripts/docs.py

release: setup ## The shipped binaries (kiosk, kiosk-hq, kiosk-replay, linkgen) in .build/release, the Swift runtime linked in where it can be.
	@mkdir -p .build
	@# kiosk-replay links the generated payment mock, which imports Testing, and the
	@# toolchain has no static Testing: it alone keeps the runtime as shared libraries.
	@$(SWIFT) build -c release --product kiosk-replay > .build/release-build.log 2>&1 \
	  || { cat .build/release-build.log; exit 1; }
	@for product in $(STATIC_PRODUCTS); do \
	  $(SWIFT) build -c release --static-swift-stdlib --product $$product > .build/release-build.log 2>&1 \
	    || { cat .build/release-build.log; exit 1; }; \
	done
	@for product in $(RELEASE_PRODUCTS); do \
	  printf 'release: .build/release/%-13s %3d shared libraries\n' "$$product" "$$(ldd .build/release/$$product | wc -l)"; \
	done
	@if ldd .build/release/kiosk | grep libpq > /dev/null; then echo "release: error: kiosk links libpq" >&2; exit 1; fi
	@# The command path uses FoundationEssentials alone: any use of Foundation's own
	@# types (NSString, FileHandle, String(format:), a String's contains("=")) links
	@# Foundation, ICU and 50 MB more. The symbols go to a file first: `grep -m1` on
	@# nm's pipe would end nm by SIGPIPE, and under pipefail the check would pass.
	@nm .build/release/kiosk > .build/release-kiosk.nm
	@if grep -E -q '\$$s(10Foundation|31FoundationInternationalization)' .build/release-kiosk.nm; then \
	  echo "release: error: kiosk links Foundation beyond FoundationEssentials (nm .build/release/kiosk | grep 10Foundation names what)" >&2; exit 1; fi
	@printf 'release: .build/release/kiosk links FoundationEssentials alone (%s MB)\n' "$$(( $$(stat -c %s .build/release/kiosk) / 1000000 ))"

bench: setup ## Benchmarks in release; writes docs/benchmarks.md (a few minutes).
	@scripts/bench.sh

domain: linkgen ## Add a domain, then rebuild and rewrite the access map and the rooms' sizes: make domain NAME=Loyalty [KIND=state|service] [WORLD=KioskWorld] [USES=Menu,Stock].
	@test -n "$(NAME)" || { echo "error: make domain needs NAME=..., e.g. make domain NAME=Loyalty"; exit 2; }
	@$(LINKGEN) new-domain $(NAME) --kind $(KIND) $(if $(WORLD),--world $(WORLD)) $(if $(USES),--uses "$(USES)")
	@$(MAKE) --no-print-directory map rooms

remove-domain: linkgen ## Undo make domain (and its access map lines): make remove-domain NAME=Loyalty (refused while anything uses it).
	@test -n "$(NAME)" || { echo "error: make remove-domain needs NAME=..., e.g. make remove-domain NAME=Loyalty"; exit 2; }
	@$(LINKGEN) remove-domain $(NAME)
	@$(MAKE) --no-print-directory map rooms
