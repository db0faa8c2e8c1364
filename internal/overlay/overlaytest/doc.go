// Package overlaytest holds what the tests of packages that write overlay
// trees share: a hash of a whole tree on disk, to compare two writes.
package overlaytest
