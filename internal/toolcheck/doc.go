// Package toolcheck is a test helper: it checks rendered overlays with the real tools:
// kustomize builds (krusty, in memory) and validation of Flux objects and of
// the other custom resources templates write (MetalLB, cert-manager, the
// Gateway API, Envoy Gateway, Strimzi and rbac-manager) against their CRDs
// (OpenAPI schema, unknown fields and CEL rules). The CRDs come from the
// projects' modules, the Flux controllers at the version of their API
// modules, the others at the version the base repository installs, located
// through the Go module system; those of projects that are not Go modules
// (Strimzi, rbac-manager) are kept in crds/.
package toolcheck
