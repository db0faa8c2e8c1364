package overlay

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffOutsideTheWalk: a plan file where the walk of the owned paths
// does not look is looked at on its own, and a file there that opencenter
// did not write is refused as anywhere else.
func TestDiffOutsideTheWalk(t *testing.T) {
	for rel, want := range map[string]bool{
		"kustomization.yaml": true, ".sops.yaml": true, "services/a/b.yaml": true, "customer-managed/x.yaml": true,
		"services": false, "notes/x.yaml": false, "x.yaml": false, "services/local/x.yaml": false,
		"services/a/" + tmpPrefix + "1" + tmpSuffix: false,
	} {
		if got := inOwnedWalk(rel); got != want {
			t.Errorf("inOwnedWalk(%q) = %v, want %v", rel, got, want)
		}
	}
	repo := t.TempDir()
	p := &Tree{Overlay: Dir("outside"), Files: []File{{Path: "notes/x.yaml", Data: []byte("a: b\n"), Unit: "notes"}}}
	full := filepath.Join(repo, p.Overlay, "notes/x.yaml")
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("hand: written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Diff(repo, p, WriteOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(re.Error(), "notes/x.yaml: foreign (not written by opencenter), would update") {
		t.Fatalf("want the foreign file refused, got %v", err)
	}
}

// TestIsLocal holds IsLocal to its definition, the path's directories
// looked at one by one with path.Dir, over clean paths.
func TestIsLocal(t *testing.T) {
	segs := []string{"local", "a", "locals", "services", "l", "xlocal", "local.yaml"}
	var paths []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, s := range segs {
			p := s
			if prefix != "" {
				p = prefix + "/" + s
			}
			paths = append(paths, p)
			gen(p, depth-1)
		}
	}
	gen("", 4)
	for _, p := range paths {
		want := false
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if path.Base(d) == LocalDir {
				want = true
			}
		}
		if got := IsLocal(p); got != want {
			t.Errorf("IsLocal(%q) = %v, want %v", p, got, want)
		}
	}
}
