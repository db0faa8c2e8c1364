package render

import (
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDirMaker gives dirMaker random trees of file paths: in path order it
// must make each directory exactly once, and in any order make every
// directory a file needs, and nothing else.
func TestDirMaker(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Names that sort around the separator ('-' and '.' before it, '0'
	// after), so a directory's files are not always next to each other
	// in a careless order.
	names := []string{"a", "a-b", "a.yaml", "a0", "b", "ab", "c"}
	for round := range 200 {
		var files []string
		for range 1 + rng.IntN(30) {
			var parts []string
			for range 1 + rng.IntN(4) {
				parts = append(parts, names[rng.IntN(len(names))])
			}
			files = append(files, strings.Join(parts, "/"))
		}
		// A path that is both a file and a directory cannot be written.
		files = noFileIsADir(files)
		sorted := round%2 == 0
		if sorted {
			slices.Sort(files)
		}
		want := map[string]bool{}
		for _, f := range files {
			for d := filepath.Dir(f); d != "."; d = filepath.Dir(d) {
				want[d] = true
			}
		}
		for _, rootExists := range []bool{true, false} {
			root := filepath.Join(t.TempDir(), "root")
			if rootExists {
				if err := os.Mkdir(root, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			mkdirs := 0
			step = func(op string) error {
				if op == "mkdir" {
					mkdirs++
				}
				return nil
			}
			m := newDirMaker(root, rootExists)
			buf := make([]byte, 0, 64) // one buffer for every path, as applyFresh does
			for _, f := range files {
				buf = append(append(buf[:0], root...), "/"+f...)
				if err := m.parentOf(string(buf)); err != nil {
					t.Fatalf("%v: %v", files, err)
				}
			}
			step = func(string) error { return nil }
			got := map[string]bool{}
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					t.Fatal(err)
				}
				if rel, _ := filepath.Rel(root, p); rel != "." {
					got[rel] = true
				}
				return nil
			})
			if !maps.Equal(got, want) {
				t.Fatalf("files %q (sorted %v): made %v, want %v", files, sorted, got, want)
			}
			// In path order each directory is tried once, after the root
			// when it is not known to exist.
			if !rootExists {
				mkdirs--
			}
			if sorted && mkdirs != len(want) {
				t.Errorf("files %q (root made: %v): %d mkdirs for %d directories", files, !rootExists, mkdirs, len(want))
			}
		}
	}
}

// noFileIsADir drops the files whose path is another file's directory.
func noFileIsADir(files []string) []string {
	dirs := map[string]bool{}
	for _, f := range files {
		for d := filepath.Dir(f); d != "."; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	return slices.DeleteFunc(files, func(f string) bool { return dirs[f] })
}
