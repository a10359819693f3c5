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
FORMAT_FLAGS := --enable-experimental-feature CoroutineAccessors
FORMAT_PATHS := Package.swift Packages Tests tools Benchmarks Generated
KIND ?= state

.PHONY: help setup generate check lint format build standalone test run domain linkgen bench

help: ## Show this list.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{ printf "  make %-10s %s\n", $$1, $$2 }'
	@echo "  make build PKG=Menu   build one package on its own"
	@echo "  make domain NAME=Loyalty [KIND=state|service]   add a domain"

setup: ## Install what the build needs (libyaml-dev) when it is missing.
	@command -v $(SWIFT) >/dev/null || { echo "error: swift is not on PATH (Swift 6.3.1 is required)"; exit 1; }
	@pkg-config --exists yaml-0.1 || { \
	  echo "setup: installing libyaml-dev"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libyaml-dev pkg-config; }

linkgen: setup ## Build the linkgen tool.
	@mkdir -p .build
	@$(SWIFT) build --product linkgen > .build/linkgen-build.log 2>&1 || { cat .build/linkgen-build.log; exit 1; }

generate: linkgen ## Write Generated/ from codegen.yaml.
	@$(LINKGEN) generate

check: linkgen ## Fail on stale Generated/, a perimeter leak, or lint findings.
	@$(LINKGEN) check
	@$(MAKE) --no-print-directory lint

lint: ## swift format lint --strict over every source and generated file.
	@$(SWIFT) format lint --strict --recursive $(FORMAT_FLAGS) $(FORMAT_PATHS) && echo "lint: clean"

format: ## Reformat the sources in place.
	@$(SWIFT) format format --in-place --recursive $(FORMAT_FLAGS) Package.swift Packages Tests tools Benchmarks

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

test: setup ## Run every package's tests in one build; ends with one total line.
	@mkdir -p .build
	@$(SWIFT) build --build-tests
	@status=0; $(SWIFT) test --skip-build 2>&1 | tee .build/test.log || status=$$?; \
	 total=$$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' .build/test.log | tail -1); \
	 failed=$$(grep '^✘ Test .* failed after' .build/test.log | grep -vc '^✘ Test run with' || true); \
	 xpassed=$$(sed -n "s/.*Executed \([0-9]*\) tests\{0,1\}, with \([0-9]*\) failures\{0,1\}.*/\1 \2/p" .build/test.log | tail -1); \
	 xtotal=$${xpassed% *}; xfailed=$${xpassed#* }; \
	 total=$$(( $${total:-0} + $${xtotal:-0} )); failed=$$(( failed + $${xfailed:-0} )); \
	 if [ $$status -ne 0 ] && [ $$failed -eq 0 ]; then failed=1; fi; \
	 echo "$$(( total - failed )) passed, $$failed failed"; \
	 exit $$status

run: setup ## Build the kiosk and run its demo.
	@mkdir -p .build
	@$(SWIFT) build --product kiosk > .build/kiosk-build.log 2>&1 || { cat .build/kiosk-build.log; exit 1; }
	@$(BIN)/kiosk demo

bench: setup ## Benchmarks in release; writes docs/benchmarks.md (a few minutes).
	@scripts/bench.sh

domain: linkgen ## Add a domain: make domain NAME=Loyalty [KIND=state|service].
	@test -n "$(NAME)" || { echo "error: make domain needs NAME=..., e.g. make domain NAME=Loyalty"; exit 2; }
	@$(LINKGEN) new-domain $(NAME) --kind $(KIND)
