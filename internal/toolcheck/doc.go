// Package toolcheck is a test helper: it checks rendered overlays with the real tools:
// kustomize builds (krusty, in memory) and validation of Flux objects and of
// the other custom resources templates write against their CRDs (OpenAPI
// schema, unknown fields and CEL rules). The Flux CRDs come from the
// controllers' modules at the version of their API modules; the others are
// those the catalog's charts name (crds.schemas in the descriptors): from
// their project's Go module at the version the base repository installs,
// located through the Go module system, or kept under descriptors/schemas/.
package toolcheck
