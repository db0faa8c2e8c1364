// Package gitrepo reads the files of a git repository at one ref through the
// git CLI, the way Flux's source-controller sees a GitRepository artifact:
// committed content only, never the work tree.
package gitrepo
