package overlay

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/inrepo"
)

// Dir is the overlay directory of a cluster, relative to the repository
// root.
func Dir(cluster string) string { return "applications/overlays/" + cluster }

// LocalDir is the user-owned escape hatch of every unit: <unit root>/local/.
// A write never writes, deletes or compares anything in it. The plan wires
// it in: a kustomization.yaml there is listed by the unit's kustomization,
// as a component when it is a kustomize Component (which can patch the
// unit's own objects) or else as a resource (more objects); a values.yaml
// is laid over the unit's generated Helm values, after them.
const LocalDir = "local"

// Tree is an overlay in memory: the files a render writes under Overlay.
type Tree struct {
	// Overlay is the overlay directory, relative to the repository root.
	Overlay string
	// Files are sorted by path.
	Files []File
	// tidy: Diff found nothing under the overlay for Tidy to remove, so a
	// write that deletes nothing need not call it.
	tidy bool
}

// File is one file of a tree.
type File struct {
	// Path relative to the overlay root, slash-separated.
	Path string
	// Data is the full content, header included.
	Data []byte
	// Secret marks secret material (written 0600).
	Secret bool
	// Unit produced the file.
	Unit string
	// Aggregate marks computed kustomization.yaml files (root and
	// aggregates), which every unit's render writes.
	Aggregate bool
	// Recipients are the age keys an encrypted file is (to be) encrypted
	// for; none for a file that is not encrypted.
	Recipients []string
	// Unverified marks a secret file of a config whose secrets no key
	// opened: its content is unknown, and only its presence and recipients
	// can be checked.
	Unverified bool
	// Unconfirmed marks an encrypted file that nothing could compare with
	// the file on disk: the config's secrets are plaintext, so it has no
	// seal, and no age key of the user's opens the file on disk. A write
	// replaces the file; --check cannot say whether it differs.
	Unconfirmed bool
}

// File returns the tree's file at path p.
func (t *Tree) File(p string) (File, bool) {
	i, ok := slices.BinarySearchFunc(t.Files, p, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return File{}, false
	}
	return t.Files[i], true
}

// IsLocal reports whether an overlay path lies in a unit's local
// directory: whether a directory on it is named LocalDir. It looks at the
// segments as written (every plan path is clean), without path.Dir's
// cleaning per level.
func IsLocal(p string) bool {
	dir := p[:max(strings.LastIndexByte(p, '/'), 0)]
	for dir != "" {
		var seg string
		seg, dir, _ = strings.Cut(dir, "/")
		if seg == LocalDir {
			return true
		}
	}
	return false
}

// LocalFiles reads the files of every local/ directory of a tree's overlay
// on disk, keyed by their path in the repository, for tools that need the
// whole tree Flux will see (verify); never through a symbolic link that
// leaves the repository (an *inrepo.EscapeError).
func LocalFiles(repo string, p *Tree) (map[string][]byte, error) {
	out := map[string][]byte{}
	root := filepath.Join(repo, filepath.FromSlash(p.Overlay))
	err := walkOwned(root, func(rel string, e fs.DirEntry) error {
		if e.IsDir() || !IsLocal(rel) {
			return nil
		}
		if e.Type()&fs.ModeSymlink != 0 {
			info, err := inrepo.Stat(repo, p.Overlay+"/"+rel)
			if err != nil || info.IsDir() {
				return err // a link to a directory is walked where it points
			}
		}
		data, err := inrepo.ReadFile(repo, p.Overlay+"/"+rel)
		out[p.Overlay+"/"+rel] = data
		return err
	})
	return out, err
}
