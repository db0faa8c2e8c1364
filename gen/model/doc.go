// Package model loads the Go packages the generator compiles against
// (internal/config and internal/catalog) with go/packages and walks the config
// types with go/types into a tree of fields keyed by YAML path.
package model
