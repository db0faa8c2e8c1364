// Package e2e is the end-to-end harness of make e2e: the five-cluster
// fixture reconciled by a real API server and the real Flux controllers,
// offline, everything listening on 127.0.0.1.
//
// For each fixture cluster in turn, on a fresh etcd and kube-apiserver (no
// kubelet, scheduler or controller-manager), the harness renders the
// config with the opencenter binary (its repository URLs pointed at the
// harness's git server), pushes the render with what flux bootstrap would
// commit in flux-system/ to a git server on HTTPS (git http-backend, behind
// a test CA the controllers trust through SSL_CERT_FILE), applies the
// bootstrap objects and the sops-age Secret of the fixture's TEST-ONLY
// key, and runs source-controller, kustomize-controller and
// helm-controller as processes. The base repository is served from the
// same git server: a checkout given in OPENCENTER_E2E_BASE, or else a
// stand-in synthesized from the project's index of it
// (descriptors/base-index). Helm charts come from stand-ins served through
// an HTTPS proxy that source-controller alone is given: the same names and
// versions, a ConfigMap as their only template, and the real CRDs where
// later units create custom resources.
//
// It then asserts that every Kustomization is Ready except the listed
// exceptions (each with its reason), that every HelmRelease is installed
// from its stand-in chart with the values the overlay gives it, that every
// Secret opencenter encrypted is decrypted in the cluster, and that no
// Kustomization applied before its dependencies were Ready; then it
// disables a service and enables it again (day 2).
//
// The components are built by the Makefile from tools/e2e; the test runs
// only with OPENCENTER_E2E=1 (make e2e), so go test ./... skips it.
package e2e
