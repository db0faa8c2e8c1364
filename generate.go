// Package opencenter renders a FluxCD GitOps overlay tree from a typed cluster
// config. The generator compiles descriptors/ and internal/config into
// zz_generated; see README.md.
package opencenter

//go:generate go run ./gen
