// Package helmvalues lays one set of Helm values over another, as
// helm-controller merges a HelmRelease's valuesFrom and spec.values.
package helmvalues
