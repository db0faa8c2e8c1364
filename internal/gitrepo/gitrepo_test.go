package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestReadAtRef(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
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
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "first")
	run(t, dir, "tag", "v1")
	first := run(t, dir, "rev-parse", "HEAD")
	write("a/one.yaml", "v2")
	write("a/new.yaml", "n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "second")
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
