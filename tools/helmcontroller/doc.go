// Package helmcontroller holds opencenter's reading of HelmRelease values
// (internal/chartvalues) to helm-controller's own code: the tests compose
// the values of generated HelmReleases with both and compare. It is a
// module of its own so that the main module does not depend on Helm; its
// tests run with `make test`.
package helmcontroller
