// Package gitrepotest builds git repositories for tests: git run with a
// hermetic configuration, and test data copied into a work tree.
package gitrepotest
