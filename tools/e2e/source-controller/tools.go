//go:build tools

// Package tools pins Flux's source-controller for the e2e harness (make e2e), in a
// module of its own: each controller builds with its own client-go.
package tools

import (
	_ "github.com/fluxcd/source-controller"
)
