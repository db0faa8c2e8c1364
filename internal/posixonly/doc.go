// Package posixonly stops a build of opencenter for a system without POSIX
// file semantics (Windows) with one readable error, instead of the type
// errors of every package written for them. The writer relies on renames
// over open files, directory fsync, umask and flock; on Windows, run
// opencenter under WSL. The packages that use those import this one.
package posixonly
