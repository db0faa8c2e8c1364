// Package inrepo reads the files a user keeps in a GitOps repository
// without following a symbolic link out of it. A pull request can make
// local/values.yaml, or local/ itself, a link to ~/.kube/config; read
// through the link, that file would be rendered into the overlay, shown
// by --diff and quoted in errors. Every read goes through an os.Root of
// the repository, which refuses a path that leaves it by a link or by
// "..", and the refusal is an *EscapeError naming the path.
package inrepo
