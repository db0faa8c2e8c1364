package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
	"github.com/opencenter-dev/opencenter/internal/standinbase"
)

// indexedBase makes a base repository of the stand-ins (standinbase) of
// the indexed releases, tag 2026.01 then branch main. Tests cannot reach
// the real repository; the docs show a diff against it. Each of later
// edits the work tree, which is then committed on main.
func indexedBase(t testing.TB, later ...func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	for i, ref := range []string{"2026.01", "main"} {
		x, err := baseindex.Load(filepath.Join("..", "..", "descriptors", "base-index", ref+".json"))
		if err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "applications"))
		files, err := standinbase.Files(x)
		if err != nil {
			t.Fatal(err)
		}
		for p, data := range files {
			f := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gitrepotest.Git(t, dir, "add", "-A")
		gitrepotest.Git(t, dir, "commit", "-q", "-m", "base as indexed at "+ref)
		if i == 0 {
			gitrepotest.Git(t, dir, "tag", ref)
		}
	}
	for _, edit := range later {
		edit(dir)
		gitrepotest.Git(t, dir, "add", "-A")
		gitrepotest.Git(t, dir, "commit", "-q", "-m", "later on main")
	}
	return dir
}

// veleroUpgrade is a change the base makes on main after 2026.01 (made
// up): velero's chart, and with it its values, move to 10.2.0.
func veleroUpgrade(t testing.TB) func(dir string) {
	return func(dir string) {
		files, _ := filepath.Glob(filepath.Join(dir, "applications/base/services/velero", "*", "*.yaml"))
		top, _ := filepath.Glob(filepath.Join(dir, "applications/base/services/velero", "*.yaml"))
		changed := 0
		for _, p := range append(top, files...) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "10.1.1") {
				os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "10.1.1", "10.2.0")), 0o644)
				changed++
			}
		}
		if changed < 2 {
			t.Fatalf("velero 10.1.1 in %d files of the base, want its HelmRelease and its values", changed)
		}
	}
}
