// Package fluxorder orders a cluster's Flux units and gives each object one
// owner. Given what every active Flux unit applies, it orders each after the
// units that install the CRDs of the objects it applies (and the custom
// resources its chart creates), takes out of a unit the base objects that
// another active unit applies as its own, and reports an object applied by
// two units or a custom resource whose CRD no active unit installs.
package fluxorder
