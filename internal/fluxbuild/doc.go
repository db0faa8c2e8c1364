// Package fluxbuild builds the path of a Flux Kustomization the way Flux's
// kustomize-controller does, in memory: kustomize (krusty) with no load
// restrictions and no plugins, a kustomization generated from the path's
// manifests when it has none, spec.targetNamespace set as the root
// kustomization's namespace, and spec.patches added after its own patches. Remote resources (URLs) cannot be fetched offline:
// they are left out of the build and reported, never failed.
//
// Every object says where it comes from (kustomize's origin annotations,
// turned on for the build and taken off the object again): the manifest file
// it was read from, or the kustomization whose generator made it.
package fluxbuild
