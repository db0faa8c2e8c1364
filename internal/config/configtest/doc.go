// Package configtest reads the config types by reflection, for tests: every
// YAML path of config.Config with its Go type, and the value at a path. The
// program never reads a field by its path: it reads fields through the
// typed code opencenter-gen writes where they are needed, and the field
// index (zz_generated/fields.go) holds no accessors. Tests that need a
// field by its path, or check the index against the types, use this
// package, independent of the generator.
package configtest
