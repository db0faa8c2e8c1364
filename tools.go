//go:build tools

// Package opencenter's tools.go pins the build-time tools the generator runs
// with, so `go generate` uses the versions in go.mod (never @latest).
package opencenter

import (
	_ "github.com/dave/jennifer/jen"
	_ "golang.org/x/tools/go/packages"
)
