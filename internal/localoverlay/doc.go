// Package localoverlay reads and wires in the user's escape hatch of every
// unit, its local/ directory in the overlay: a kustomization there (a
// kustomize Component, which can patch the unit's objects, or a
// kustomization of more objects) is listed by the unit's kustomization,
// and a values.yaml is laid over the unit's generated Helm values. The
// renderer never writes, deletes or compares anything in local/, and reads
// it only through the repository (package inrepo), never through a link
// that leaves it. Errors about a user's file never quote it: it may hold
// secrets.
package localoverlay
