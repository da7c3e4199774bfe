# ERP: the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := run

export CARGO_TARGET_DIR ?= $(HOME)/.cache/erp-target
export ERP_DATA_DIR ?= $(CURDIR)/data
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/erp
ERP_DEBUG := $(CARGO_TARGET_DIR)/debug/erp
ERP_RELEASE := $(CARGO_TARGET_DIR)/release/erp
E2E_PORT ?= 8091

.PHONY: run dev test test-rust test-web test-k8s e2e lint fmt schema web web-deps deps browser bench build release clean-data

## Run the product with demo data on http://localhost:8080.
run: deps web release
	@$(MAKE) --no-print-directory -s run-only

run-only:
	@source deploy/dev-env.sh && exec $(ERP_RELEASE) run --demo

## Same, with a debug build (faster to compile).
dev: deps web build
	@source deploy/dev-env.sh && exec $(ERP_DEBUG) run --demo

## Every test: Rust (unit + integration on real PostgreSQL, NATS, Redis), lint,
## web unit tests and build, Kubernetes manifests, browser journey.
test: deps lint test-rust test-web test-k8s
	@echo "make test: all suites passed"

deps:
	@deploy/ensure-postgres.sh
	@deploy/ensure-nats.sh
	@deploy/ensure-redis.sh

build:
	cargo build -p erp-gateway --bin erp

release:
	cargo build --release -p erp-gateway --bin erp

test-rust:
	cargo test --workspace

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

fmt:
	cargo fmt --all

web-deps:
	@cd web && if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi

web: web-deps
	cd web && npm run build

test-web: web-deps
	cd web && npm run typecheck && npm test && npm run build

test-k8s:
	deploy/test-k8s.sh

browser:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## The Playwright journey against a fresh server with demo data.
e2e: browser build web
	@deploy/e2e.sh $(E2E_PORT)

## Regenerate web/schema.graphql from the gateway's GraphQL schema.
schema: build
	$(ERP_DEBUG) schema > web/schema.graphql
	cd web && npm run codegen

clean-data:
	rm -rf data
