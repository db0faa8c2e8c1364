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

func TestDefaultBranchAndMergeBase(t *testing.T) {
	dir := t.TempDir()
	gitrepotest.Git(t, dir, "init", "-q", "-b", "trunk")
	commit := func(msg string) string {
		gitrepotest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
		return gitrepotest.Git(t, dir, "rev-parse", "HEAD")
	}
	fork := commit("one")
	if b, err := DefaultBranch(dir); err == nil {
		t.Errorf("no main, master or origin: got %q", b)
	}
	gitrepotest.Git(t, dir, "branch", "master")
	if b, err := DefaultBranch(dir); err != nil || b != "master" {
		t.Errorf("DefaultBranch = %q, %v; want master", b, err)
	}
	gitrepotest.Git(t, dir, "branch", "main")
	if b, err := DefaultBranch(dir); err != nil || b != "main" {
		t.Errorf("DefaultBranch = %q, %v; want main before master", b, err)
	}
	// A clone's origin/HEAD wins.
	gitrepotest.Git(t, dir, "update-ref", "refs/remotes/origin/trunk", "HEAD")
	gitrepotest.Git(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	if b, err := DefaultBranch(dir); err != nil || b != "origin/trunk" {
		t.Errorf("DefaultBranch = %q, %v; want origin/trunk", b, err)
	}

	gitrepotest.Git(t, dir, "checkout", "-q", "-b", "topic")
	commit("topic")
	gitrepotest.Git(t, dir, "checkout", "-q", "main")
	commit("main moves on")
	if mb, err := MergeBase(dir, "topic", "main"); err != nil || mb != fork {
		t.Errorf("MergeBase = %s, %v; want %s", mb, err, fork)
	}
	gitrepotest.Git(t, dir, "checkout", "-q", "--orphan", "unrelated")
	commit("no history in common")
	if mb, err := MergeBase(dir, "unrelated", "main"); err == nil || !strings.Contains(err.Error(), "no common ancestor") {
		t.Errorf("unrelated histories: %s, %v", mb, err)
	}
}
