// Package toolcheck is a test helper: it checks rendered overlays with the real tools:
// kustomize builds (krusty, in memory) and validation of Flux objects against
// the Flux CRDs (OpenAPI schema, unknown fields and CEL rules). The CRDs come
// from the Flux controller modules at the version of their API modules,
// located through the Go module system.
package toolcheck
