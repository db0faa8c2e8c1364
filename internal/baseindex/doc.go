// Package baseindex is the compact index of a base repository
// (openCenter-gitops-base) at one ref: for every directory under
// applications/base holding a kustomization, the objects its build creates,
// the valuesFrom and chart source of each HelmRelease, and the remote
// resources it names. Indexes are extracted from a real checkout (gen/baseindex)
// and committed with their provenance; the generator checks descriptors
// against them and compiles them into the runtime tables.
package baseindex
