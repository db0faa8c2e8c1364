# opencenter: every target runs with only Go and the module proxy.
GO ?= go
FIXTURE := testdata/fixture

.PHONY: all build test lint cross generate verify-generated golden fuzz bench stress render-example

all: verify-generated lint test

build:
	$(GO) build -o bin/opencenter ./cmd/opencenter

## test: the whole test suite (what .ci/run runs after verify-generated),
## with the pinned sops CLI for the internal/sops interop tests.
test: bin/sops
	OPENCENTER_SOPS=$(abspath bin/sops) $(GO) test ./...

## bin/sops: the sops CLI pinned in tools/sops (a separate module, so the
## main module never depends on sops); rebuilt only when the pin changes.
bin/sops: tools/sops/go.mod tools/sops/go.sum
	cd tools/sops && $(GO) build -o ../../bin/sops github.com/getsops/sops/v3/cmd/sops
	@touch $@

## lint: go vet, gofmt must list nothing, and the binary builds elsewhere.
lint: cross
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## cross: the binary builds for macOS on arm64 (most platform engineers'
## laptops) and for 32-bit Linux (an int of 32 bits). Windows is left to WSL:
## its build stops at internal/posixonly's one error.
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/opencenter
	GOOS=linux GOARCH=386 $(GO) build -o /dev/null ./cmd/opencenter

## generate: compile descriptors/ and internal/config into zz_generated/.
generate:
	$(GO) generate ./...

## verify-generated: regenerate, then fail if git sees any change, untracked files included.
verify-generated: generate
	@status=$$(git status --porcelain); \
	if [ -n "$$status" ]; then echo "the tree differs after go generate (stale generated files, or uncommitted work):"; echo "$$status"; git --no-pager diff --stat; exit 1; fi

## golden: refresh every golden file (then read each changed golden before committing).
## -update is goldie's flag, so only the packages whose tests use goldie take it:
## go test ./... -update refreshes the same goldens, but fails in the others.
GOLDEN_PKGS = $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/sebdah\/goldie/ {print $$1}')
golden:
	$(GO) test $(GOLDEN_PKGS) -update

FUZZTIME ?= 30s
FUZZ_TARGETS = FuzzLoad:./internal/config FuzzScanBlock:./internal/yamlfile FuzzScanDocument:./internal/sops \
	FuzzRoundTrip:./internal/sops FuzzScalarForm:./internal/sops FuzzScalar:./internal/yamlenc \
	FuzzRoundTrip:./internal/yamlenc FuzzEscapers:./internal/escape FuzzCompiledTemplate:./internal/plan

## fuzz: every fuzz target in turn, FUZZTIME (30s) each: the config loader,
## the YAML scanners, sops, the YAML writer, the escapers, compiled templates.
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== $${t%%:*} ($${t#*:}, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz="^$${t%%:*}$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=5s $${t#*:}; \
	done

## bench: the performance benchmarks (see docs/PERFORMANCE.md); a few minutes on 2 cores.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/config ./internal/plan ./cmd/opencenter

## stress: the crash and concurrency harness, longer than in CI: real renders
## killed (kill -9) at random points and run concurrently, and a write stopped
## after every one of its operations.
stress:
	OPENCENTER_STRESS_ROUNDS=$${ROUNDS:-100} $(GO) test -count=1 -run 'TestKilledRenders|TestCrashConverges' -v ./cmd/opencenter ./internal/overlay

## render-example: render the five-cluster fixture into out/example (see README),
## decrypting its configs with the fixture's TEST-ONLY age key.
render-example:
	rm -rf out/example && mkdir -p out/example && cp $(FIXTURE)/.*-config.yaml $(FIXTURE)/.sops.yaml out/example/
	SOPS_AGE_KEY_FILE=$(abspath testdata/keys/fixture.TEST-ONLY.agekey) $(GO) run ./cmd/opencenter render --repo out/example
