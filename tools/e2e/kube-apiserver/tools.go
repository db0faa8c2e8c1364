//go:build tools

// Package tools pins kube-apiserver for the e2e harness (make e2e). It is
// a module of its own: Kubernetes' staging modules need replaces, and its
// client-go is not the controllers'.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
