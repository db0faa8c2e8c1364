// Package chartvalues computes the values helm-controller passes to a
// HelmRelease's chart: each spec.valuesFrom reference read in order from
// the Secrets and ConfigMaps the cluster has and merged over the ones
// before, then spec.values merged over all of them. It follows
// fluxcd/pkg/chartutil.ChartValuesFromReferences (what helm-controller
// v1.6 calls), missing and optional references, missing keys and
// unreadable values included; tools/helmcontroller holds the two to the
// same results.
//
// Values read from a Secret that holds secret material come back wrapped
// as Secret leaves, which compare by value but never print it.
package chartvalues
