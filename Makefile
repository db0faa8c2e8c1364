# opencenter: every target runs with only Go and the module proxy.
GO ?= go
FIXTURE := testdata/fixture

.PHONY: all build test lint cross generate verify-generated golden fuzz bench stress render-example example-service e2e e2e-tools

all: verify-generated lint test e2e

build:
	$(GO) build -o bin/opencenter ./cmd/opencenter

## test: the whole test suite (what .ci/run runs after verify-generated),
## with the pinned sops CLI for the internal/sops interop tests, and the
## comparison of internal/chartvalues with helm-controller's own code
## (tools/helmcontroller, a module of its own: the main one does not depend on Helm).
test: bin/sops
	OPENCENTER_SOPS=$(abspath bin/sops) $(GO) test ./...
	cd tools/helmcontroller && $(GO) test ./...

## example-service: add the example service (testdata/example-service) to a
## copy of the project and show that generation, the build and the config,
## plan and CLI tests pass with no other file changed; a few minutes.
example-service: bin/sops
	OPENCENTER_SOPS=$(abspath bin/sops) OPENCENTER_EXAMPLE_SERVICE=1 $(GO) test -count=1 -timeout 30m -run '^TestExampleService$$' ./gen/generate

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
FUZZ_TARGETS = FuzzLoad:./internal/config FuzzScanBlock:./internal/yamlfile \
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

## e2e: the five-cluster fixture reconciled by a real etcd, kube-apiserver
## and the real Flux controllers, all on 127.0.0.1 and offline (see e2e/doc.go).
## OPENCENTER_E2E_BASE=DIR uses a checkout of the base repository instead of
## the stand-in built from descriptors/base-index; E2E_RUN=REGEXP picks clusters.
## Logs stay in out/e2e; on a failure the last 200 lines of each are printed.
E2E_TOOLS := etcd kube-apiserver source-controller kustomize-controller helm-controller
E2E_BINS := $(addprefix bin/e2e/,$(E2E_TOOLS))
e2e: $(E2E_BINS) build
	@OPENCENTER_E2E=1 OPENCENTER_E2E_BIN=$(abspath bin) $(GO) test -count=1 -timeout 30m -v -run 'TestFixtureOnRealFlux/clusters/$(or $(E2E_RUN),.)' ./e2e || { \
		for f in $$(find out/e2e/logs -type f -name '*.log' 2>/dev/null | sort); do echo "=== $$f (last 200 lines)"; tail -n 200 "$$f"; done; \
		[ ! -f out/e2e/report.txt ] || cat out/e2e/report.txt; exit 1; }

## e2e-tools: the components of make e2e, each built from its own pinned
## module in tools/e2e/ (they need different client-go versions), rebuilt
## only when its pin changes. A cold build takes about 15 minutes on 2 cores.
e2e-tools: $(E2E_BINS)

bin/e2e/etcd: tools/e2e/etcd/go.mod tools/e2e/etcd/go.sum tools/e2e/etcd/main.go
	cd tools/e2e/etcd && $(GO) build -o ../../../$@ .

# Without the version stamps kube-apiserver reports v0.0.0-master, which
# clients (kubectl, Helm's capabilities) cannot parse.
bin/e2e/kube-apiserver: tools/e2e/kube-apiserver/go.mod tools/e2e/kube-apiserver/go.sum
	cd tools/e2e/kube-apiserver && v=$$($(GO) list -m -f '{{.Version}}' k8s.io/kubernetes) && \
	minor=$$(echo $$v | cut -d. -f2) && \
	$(GO) build -o ../../../$@ -ldflags "-X k8s.io/component-base/version.gitVersion=$$v \
		-X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$$minor" \
		k8s.io/kubernetes/cmd/kube-apiserver

bin/e2e/%-controller: tools/e2e/%-controller/go.mod tools/e2e/%-controller/go.sum
	cd tools/e2e/$*-controller && $(GO) build -o ../../../$@ github.com/fluxcd/$*-controller
