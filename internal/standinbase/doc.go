// Package standinbase makes a stand-in of the base repository,
// openCenter-gitops-base, from opencenter's index of a release of it
// (descriptors/base-index): every directory the index lists, building
// the objects it lists, with HelmReleases as indexed (chart, version,
// source, valuesFrom), the values Secrets they read with their keys, and
// the remote resources it names, which fail offline as the real ones do.
// Spec content the index does not hold is minimal or made up.
//
// Tests and the end-to-end harness run against it, offline: they cannot
// reach the real repository.
package standinbase
