// Package generate runs the generator pipeline, load -> check -> emit, as a
// pure function returning files (path -> bytes), and writes them separately:
// only changed files, deleting stale files that carry the generated header.
package generate
