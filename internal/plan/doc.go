// Package plan builds a cluster's overlay in memory from a checked config:
// it executes the compiled unit tables, reads the units' local/ overlays,
// orders the Flux units (fluxorder), encrypts secret material and validates
// the whole tree. The result, a Plan, is an overlay.Tree that package
// overlay compares with the disk and writes.
package plan
