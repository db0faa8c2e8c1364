// Package check validates the descriptors against the config types and each
// other, expands the standard service pattern, and resolves everything into
// the units the emitter writes. Every problem is a diagnostic at the
// descriptor's (or template's) file:line:col, all reported at once. It also
// checks the struct tags of the config types the descriptors cannot see
// (required_when, format, key_format), at the field's declaration.
package check
