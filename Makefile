# navnode: make deps (as root, once), then make test. See README.md.
SHELL := bash
GO ?= go
FUZZTIME ?= 30000x
FOXGLOVE := test/interop/foxglove

# Debian packages the build and tests need, beyond Go, which the machine has.
# Node.js and npm come from apt only when they are not already installed.
APT_PACKAGES :=

.PHONY: deps build test vet generate check-generated fuzz bench

## deps: install every apt and npm package and Go module the build and tests need (idempotent, as root)
deps:
	@need="$(APT_PACKAGES)"; \
	command -v node >/dev/null && command -v npm >/dev/null || need="$$need nodejs npm"; \
	need=$$(for p in $$need; do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$need" ]; then \
		echo "deps: apt-get install" $$need; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$need; \
	fi
	cd $(FOXGLOVE) && npm ci --no-audit --no-fund --loglevel=error
	$(GO) mod download

## build: compile everything
build:
	$(GO) build ./...

## vet: go vet
vet:
	$(GO) vet ./...

## generate: regenerate msgs/ from ../shared/ros2-interfaces
generate:
	$(GO) generate ./msgs/...

## check-generated: fail if regenerating msgs/ changes any file
check-generated:
	scripts/check-generated

## test: the README's test command: regeneration check, vet, all tests with -race, fuzz smoke
test: check-generated vet
	$(GO) test -race -count=1 ./...
	FUZZTIME=$(FUZZTIME) scripts/fuzz

## fuzz: run every fuzz target for FUZZTIME executions or seconds (e.g. make fuzz FUZZTIME=2000000x)
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz

## bench: the benchmark command; results go in README.md
bench:
	$(GO) test -run '^$$' -bench . -benchtime 2s -count 3 ./msgs/
