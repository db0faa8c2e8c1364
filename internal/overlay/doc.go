// Package overlay writes an overlay tree the renderer owns: it compares a
// tree in memory with the files under the repository's overlay directory,
// refuses to overwrite what it did not write or what was edited by hand,
// and applies the changes so that a failed write changes nothing a reader
// could see. It owns the ownership header every rendered file starts with
// and never reads, writes or deletes flux-system/ or a unit's local/.
package overlay
