package provenance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

const overlay = "applications/overlays/c"

func write(t *testing.T, repo, rel, text string) []byte {
	t.Helper()
	p := filepath.Join(repo, overlay, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return []byte(text)
}

func open(t *testing.T, repo string) *Overlay {
	t.Helper()
	o, err := Open(repo, overlay)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestInGit: in a git repository, what opencenter wrote, what git holds
// (committed, staged, or being merged) is no hand edit; a change of the
// work tree that git does not hold, on a tracked file or a new one, is.
func TestInGit(t *testing.T) {
	repo := t.TempDir()
	gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
	written := write(t, repo, "a.yaml", "a: 1\n")
	ledger := open(t, repo)
	if err := ledger.Begin(map[string][]byte{"a.yaml": written}); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "opencenter", "ledger")); err != nil {
		t.Fatalf("the ledger is not in the git directory: %v", err)
	}
	write(t, repo, "b.yaml", "b: 1\n")
	gitrepotest.Git(t, repo, "add", "-A")
	gitrepotest.Git(t, repo, "commit", "-qm", "one")

	staged := write(t, repo, "b.yaml", "b: staged\n")
	gitrepotest.Git(t, repo, "add", "-A")
	edited := write(t, repo, "a.yaml", "a: edited\n")
	untracked := write(t, repo, "new.yaml", "new: 1\n")
	o := open(t, repo)
	for _, c := range []struct {
		rel    string
		data   []byte
		edited bool
	}{
		{"a.yaml", written, false},    // what opencenter wrote
		{"b.yaml", staged, false},     // in git's index
		{"a.yaml", edited, true},      // changed in the work tree
		{"new.yaml", untracked, true}, // a file git does not hold
	} {
		if got := o.HandEdited(c.rel, c.data); got != c.edited {
			t.Errorf("%s %q: hand edited %v, want %v", c.rel, c.data, got, c.edited)
		}
	}
}

// TestOutsideGit: without git, a file the ledger records is a hand edit
// when its content is not one recorded; a file it does not record cannot
// be told, and counts as opencenter's.
func TestOutsideGit(t *testing.T) {
	repo := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(repo)) // no repository above the test's either
	first := write(t, repo, "a.yaml", "a: 1\n")
	ledger := open(t, repo)
	if err := ledger.Begin(map[string][]byte{"a.yaml": first}); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Commit(); err != nil {
		t.Fatal(err)
	}
	o := open(t, repo)
	if o.HandEdited("a.yaml", first) || !o.HandEdited("a.yaml", []byte("a: 2\n")) || o.HandEdited("other.yaml", []byte("x\n")) {
		t.Error("outside git, only a recorded file whose content changed is a hand edit")
	}
}

// TestInterruptedWrite: between Begin and Commit, both the old and the
// new content count as opencenter's (a render stopped half way); after
// Commit only the new one does, and a deleted file is forgotten.
func TestInterruptedWrite(t *testing.T) {
	repo := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	old, gone := []byte("v: 1\n"), []byte("g: 1\n")
	l := open(t, repo)
	if err := l.Begin(map[string][]byte{"a.yaml": old, "gone.yaml": gone}); err != nil {
		t.Fatal(err)
	}
	if err := l.Commit(); err != nil {
		t.Fatal(err)
	}
	next := []byte("v: 2\n")
	writing := open(t, repo)
	if err := writing.Begin(map[string][]byte{"a.yaml": next, "gone.yaml": nil}); err != nil {
		t.Fatal(err)
	}
	mid := open(t, repo) // what a render finds after one stopped here
	if !mid.Wrote("a.yaml", old) || !mid.Wrote("a.yaml", next) || !mid.Wrote("gone.yaml", gone) {
		t.Error("a write under way: the old and the new content are both opencenter's")
	}
	if err := writing.Commit(); err != nil {
		t.Fatal(err)
	}
	done := open(t, repo)
	if done.Wrote("a.yaml", old) || !done.Wrote("a.yaml", next) || done.Wrote("gone.yaml", gone) {
		t.Error("after the write, only the new content is opencenter's")
	}
	if err := done.Forget(); err != nil {
		t.Fatal(err)
	}
	if open(t, repo).Wrote("a.yaml", next) {
		t.Error("Forget kept the ledger")
	}
}
