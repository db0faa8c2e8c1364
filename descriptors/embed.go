// Package descriptors holds the overlay-unit descriptors (*.yaml, compiled by
// opencenter-gen into zz_generated) and embeds the overlay file templates
// under files/ for the renderer. See README.md for the descriptor format.
package descriptors

import "embed"

// Files holds every overlay template and static file, under "files/".
//
//go:embed all:files
var Files embed.FS
