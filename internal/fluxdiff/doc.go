// Package fluxdiff compares two states of what Flux applies to one cluster,
// as package fluxsim simulates them: the Kubernetes objects added, removed,
// changed or moved, grouped by the Flux unit (Kustomization) that applies
// them; for each HelmRelease, the values helm-controller would pass to its
// chart (package chartvalues); the remote resources of builds; and the
// units whose source is not available offline, which are not compared.
//
// No secret value is ever shown. The data of a Secret, the content of
// objects read from SOPS-encrypted files, values a HelmRelease reads from
// secret material and any leftover SOPS ciphertext compare by value (by
// ciphertext when no key decrypted them) and print as "(secret)", or as
// "(secret, changed)" on the side where they differ.
//
// The package knows nothing of configs, git or the command line: it takes
// the two simulations and returns a Cluster, which prints as text (colored
// or not) or Markdown, and marshals as the JSON of `opencenter diff -o json`.
package fluxdiff
