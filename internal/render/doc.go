// Package render executes the compiled unit tables for one config: it builds
// the whole overlay tree in memory (a Plan), validates it, and only then
// compares it with the disk and writes what changed, safely.
package render
