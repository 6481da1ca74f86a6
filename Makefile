# ponto — the two commands a developer needs are `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Every module of the workspace (go.work).
MODULES := pkg services/auth services/auth/internalapi services/company-billing services/company-billing/internalapi \
	services/employee services/employee/internalapi services/media services/timekeeping services/timekeeping/internalapi \
	services/web tools
PACKAGES := $(addprefix ./,$(addsuffix /...,$(MODULES)))

# Development servers, built from source with `go install` at pinned
# versions into the ignored bin/ and reused afterwards.
MINIO_VERSION       := v0.0.0-20260212201848-7aac2a2c5b7c
STRIPE_MOCK_VERSION := v0.203.0
HELM_VERSION        := v3.22.0
KUBECONFORM_VERSION := v0.8.0

BIN := $(CURDIR)/bin

# make bench BENCH_SCALE=10: ten times the punches (docs/performance.md).
BENCH_SCALE ?= 1
STACK := go run ./tools/cmd/stack

.PHONY: help
help: ## List the targets.
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

.PHONY: run
run: services dev-tools ## Start the whole stack on 127.0.0.1 (gateway :8080); Ctrl-C stops it.
	$(STACK)

.PHONY: test
test: services dev-tools web-test-deps fmt-check vet openapi-lint k8s-check bench-short ## gofmt check, go vet and go test -race over every module, against real PostgreSQL, Redis, MinIO and stripe-mock, and the web client in Chromium.
	$(STACK) deps -- go test -race -count=1 -timeout 45m $(PACKAGES)

.PHONY: bench
bench: services dev-tools ## Benchmark against this machine's own floors: seeds 100 companies × 100 employees and a month of punches, prints req/s, p50, p99 and ratios, saves JSON in .data/bench (docs/performance.md). BENCH_FLAGS=-pprof saves CPU profiles; BENCH_SCALE=10 seeds ten times the punches and compares with the last 1× run.
	go run ./tools/cmd/bench -scale $(BENCH_SCALE) $(BENCH_FLAGS)

.PHONY: bench-short
bench-short: services dev-tools ## The benchmark on a small seed, ~2 s per workload: fails only if a request fails; asserts no speed.
	go run ./tools/cmd/bench -short

.PHONY: fmt-check
fmt-check: ## Fail when a Go file is not gofmt-formatted.
	@unformatted=$$(gofmt -l $(MODULES)); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi

.PHONY: fmt
fmt: ## Format every Go file.
	gofmt -w $(MODULES)

.PHONY: vet
vet: ## go vet every module.
	go vet $(PACKAGES)

.PHONY: services
services: ## Start PostgreSQL and Redis if they are down (installing them with apt if missing).
	@bash deploy/local/ensure-services.sh

# OpenAPI lint: Redocly CLI at the version tools/openapilint/package-lock.json
# pins, installed there by npm ci (git-ignored node_modules); its rules and
# the few documented exceptions are beside it.
OPENAPILINT := tools/openapilint

.PHONY: openapi-lint
openapi-lint: ## Lint api/openapi.yaml with the pinned Redocly CLI: no error, no warning (tools/openapilint).
	@bash deploy/local/ensure-npm-packages.sh $(OPENAPILINT)
	$(OPENAPILINT)/node_modules/.bin/redocly lint api/openapi.yaml --config $(OPENAPILINT)/redocly.yaml

.PHONY: deps-check
deps-check: ## List the workspace's direct dependencies that have a newer version (go list -m -u); changes nothing.
	@GOPROXY=https://proxy.golang.org go list -m -u -e \
		-f '{{if and .Update (not .Indirect)}}{{.Path}} {{.Version}} -> {{.Update.Version}}{{end}}{{with .Error}}{{.Path}}: {{.Err}}{{end}}' all \
		| sed '/^$$/d'

.PHONY: openapi-docs
openapi-docs: ## Copy api/openapi.yaml into auth, which serves it (/openapi.yaml) and its reference page (/openapi.html).
	cp api/openapi.yaml services/auth/internal/apidoc/openapi.yaml

.PHONY: web-test-deps
web-test-deps: ## Install chromium, Node.js and tools/webtest's pinned npm packages for the browser test (apt-get, npm ci).
	@bash deploy/local/ensure-webtest.sh

.PHONY: dev-tools
dev-tools: $(BIN)/minio $(BIN)/stripe-mock ## Build MinIO and stripe-mock into bin/ (once).

.PHONY: k8s-tools
k8s-tools: $(BIN)/helm $(BIN)/kubeconform ## Build helm and kubeconform into bin/ (once).

# Kubernetes delivery checks. Schemas: the shared copy beside the repository
# (../shared/schemas) when present, else kubeconform's default location.
# The custom resources (HTTPRoute, ServiceMonitor, PrometheusRule) are
# skipped by kubeconform and validated by tools/k8scheck against their CRDs.
K8S_CUSTOM_KINDS := HTTPRoute,ServiceMonitor,PrometheusRule
K8S_VERSION := 1.33.6
CHART := charts/ponto
K8S_SCHEMA_DIR := ../shared/schemas/kubernetes
K8S_SCHEMA_LOCATION := $(if $(wildcard $(K8S_SCHEMA_DIR)/v$(K8S_VERSION)-standalone-strict),$(K8S_SCHEMA_DIR)/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/{{.ResourceKind}}{{.KindSuffix}}.json,default)

.PHONY: k8s-check
k8s-check: k8s-tools ## helm lint --strict, helm template | kubeconform -strict (default, dev, production values), go test ./tools/k8scheck.
	@set -euo pipefail; \
	for values in "" $(CHART)/values-dev.yaml $(CHART)/values-production.yaml; do \
		flags=$${values:+-f $$values}; \
		echo "== $(CHART) with $${values:-default values}"; \
		$(BIN)/helm lint --strict --kube-version $(K8S_VERSION) $(CHART) $$flags; \
		$(BIN)/helm template ponto $(CHART) --namespace ponto --kube-version $(K8S_VERSION) $$flags \
			| $(BIN)/kubeconform -strict -summary -kubernetes-version $(K8S_VERSION) -skip $(K8S_CUSTOM_KINDS) \
				-schema-location '$(K8S_SCHEMA_LOCATION)'; \
	done
	go test -count=1 -timeout 30m ./tools/k8scheck/...

# Each tool is installed under a versioned name, and the plain name links
# to it, so changing a pinned version rebuilds it.
define pinned-tool
$(BIN)/$(1)-$(3):
	@echo "building $(1) $(3) into bin/ (the first time can take a few minutes)"
	@mkdir -p $(BIN)/.install
	GOBIN=$(BIN)/.install GOFLAGS=-buildvcs=false go install $(2)@$(3)
	mv $(BIN)/.install/$(1) $$@
$(BIN)/$(1): $(BIN)/$(1)-$(3)
	ln -sf $(1)-$(3) $$@
endef
$(eval $(call pinned-tool,minio,github.com/minio/minio,$(MINIO_VERSION)))
$(eval $(call pinned-tool,stripe-mock,github.com/stripe/stripe-mock,$(STRIPE_MOCK_VERSION)))
$(eval $(call pinned-tool,helm,helm.sh/helm/v3/cmd/helm,$(HELM_VERSION)))
$(eval $(call pinned-tool,kubeconform,github.com/yannh/kubeconform/cmd/kubeconform,$(KUBECONFORM_VERSION)))

.PHONY: clean
clean: ## Remove built binaries and local stack data.
	rm -rf bin .data

# The development Kubernetes cluster (tools/cluster, docs in its README):
# components built from their Go modules into the ignored .cache/cluster
# (the first build takes long, niced), containerd, runc and the CNI plugins
# from Debian's packages; it lives in its own network namespace.
.PHONY: cluster
cluster: ## Build (once) and start the development Kubernetes cluster in its own network namespace; kubectl --kubeconfig .cache/cluster/state/kubeconfig/admin.yaml.
	@bash deploy/local/ensure-cluster-packages.sh
	@tools/cluster/build.sh
	go run ./tools/cmd/cluster up

.PHONY: cluster-down
cluster-down: ## Stop the development cluster: every process, cgroup, link and namespace it made goes; its cache stays.
	go run ./tools/cmd/cluster down

.PHONY: cluster-test
cluster-test: ## Build the cluster (once) and test that it starts, runs a pod and, stopped, leaves the host as it found it (root; not yet in make test).
	@bash deploy/local/ensure-cluster-packages.sh
	@tools/cluster/build.sh
	CLUSTER_TEST=1 go test -count=1 -v -run TestUpAndDownLeaveTheHostAsFound ./tools/cluster/
