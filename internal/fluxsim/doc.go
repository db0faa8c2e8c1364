// Package fluxsim simulates, offline, what Flux does with a cluster's GitOps
// repository after `flux bootstrap git --path=<overlay>`: starting from the
// bootstrap Kustomization, every Flux Kustomization any build yields is
// reconciled in turn, each GitRepository is resolved to a tree (a repository
// given in memory, or a git checkout read at the GitRepository's ref, with
// spec.include applied), and each Kustomization's path is built as
// kustomize-controller would (package fluxbuild).
//
// What the cluster would apply is then checked for what makes Flux fail or
// misbehave: paths that do not build, references to sources, dependencies,
// health-check objects, HelmRelease values and chart sources that no build
// produces, values Helm cannot read, values that reach a HelmRelease only
// after its first install (a unit its own does not depend on applies
// them), dependency cycles, CRD and namespace
// ordering (the namespace a HelmRelease installs into too), objects with two
// owners, SOPS-encrypted Secret manifests applied without decryption, source
// URLs Flux refuses or cannot fetch (ssh without credentials), object
// metadata the API server refuses (MetadataProblems), and HTTPRoutes and
// Envoy Gateway SecurityPolicies that would not take effect (a route its
// Gateway does not accept, a backend without its ReferenceGrant, a policy
// without its target or Secret, an HTTPS listener without its certificate,
// cert-manager's gateway-shim off under a Gateway that asks it for one), and
// a cert-manager with Gateway API support not ordered after the Gateway API
// CRDs, without which it stops at start.
//
// Info, never failures: repositories the simulation has no copy of, and
// remote kustomize resources (not checked); values helm-controller ignores
// (all but the first YAML document of a values key); OLM Subscriptions with
// Manual approval; plaintext Secret manifests; a checkout whose ref is not at
// the commit opencenter's index of it holds; an HTTPRoute whose Gateway no
// build produces; a cert-manager with Gateway API support and no unit
// installing the Gateway API CRDs.
//
// The package knows nothing of cluster configs or the renderer: it takes
// trees and git checkouts, and returns findings.
package fluxsim
