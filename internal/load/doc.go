// Package load turns a config file into a checked config: strict decoding,
// the generated defaults, the contract's validation and each service's own
// cross-field rules, every problem reported at once with file:line.
package load
