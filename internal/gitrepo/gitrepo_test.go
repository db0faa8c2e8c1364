package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

func TestReadAtRef(t *testing.T) {
	dir := t.TempDir()
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/one.yaml", "v1")
	write("b/two.yaml", "b")
	gitrepotest.Git(t, dir, "add", ".")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "first")
	gitrepotest.Git(t, dir, "tag", "v1")
	first := gitrepotest.Git(t, dir, "rev-parse", "HEAD")
	write("a/one.yaml", "v2")
	write("a/new.yaml", "n")
	gitrepotest.Git(t, dir, "add", ".")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "second")
	write("a/one.yaml", "uncommitted")

	s, err := Read(dir, "v1", "a")
	if err != nil {
		t.Fatal(err)
	}
	if s.Commit != first || string(s.Files["a/one.yaml"]) != "v1" || len(s.Files) != 1 {
		t.Errorf("at v1: commit %s files %v", s.Commit, s.Files)
	}
	s, err = Read(dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Files["a/one.yaml"]) != "v2" || len(s.Files) != 3 {
		t.Errorf("at main: the committed tree, not the work tree: %q", s.Files)
	}
	if _, err := Read(dir, "2026.99"); err == nil || !strings.Contains(err.Error(), `"2026.99"`) {
		t.Errorf("unknown ref: %v", err)
	}
}
