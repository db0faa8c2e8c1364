//go:build tools

// Package tools pins the sops CLI that the internal/sops interop tests run
// against. It is a separate module so the main module never depends on sops;
// the Makefile builds bin/sops from here.
package tools

import (
	_ "github.com/getsops/sops/v3/cmd/sops"
)
