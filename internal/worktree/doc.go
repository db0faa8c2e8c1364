// Package worktree finds the git work tree holding a directory, and its
// git directory, as git finds them: the nearest directory at or above it
// with a .git entry, a directory or a file naming one (a linked worktree,
// a submodule). The commands use the work tree as the repository's root;
// the renderer keeps its ledger, and its lock, in the git directory, which
// git never tracks.
package worktree
