package worktree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

// TestLinkedWorktree: from a subdirectory of a repository and of a linked
// worktree, the root and the git directory are the ones git reports.
func TestLinkedWorktree(t *testing.T) {
	repo, linked := t.TempDir(), filepath.Join(t.TempDir(), "linked")
	gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
	gitrepotest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
	gitrepotest.Git(t, repo, "worktree", "add", "-q", linked)
	for _, top := range []string{repo, linked} {
		sub := filepath.Join(top, "a", "b")
		os.MkdirAll(sub, 0o755)
		root, ok := Root(sub)
		want, _ := filepath.EvalSymlinks(gitrepotest.Git(t, top, "rev-parse", "--show-toplevel"))
		if got, _ := filepath.EvalSymlinks(root); !ok || got != want {
			t.Errorf("Root(%s) = %s, %v; git says %s", sub, root, ok, want)
		}
		dir, ok := GitDir(sub)
		wantDir, _ := filepath.EvalSymlinks(gitrepotest.Git(t, top, "rev-parse", "--absolute-git-dir"))
		if got, _ := filepath.EvalSymlinks(dir); !ok || got != wantDir {
			t.Errorf("GitDir(%s) = %s, %v; git says %s", sub, dir, ok, wantDir)
		}
	}
	if _, ok := Root(t.TempDir()); ok {
		t.Error("a directory outside any repository has a root")
	}
}
