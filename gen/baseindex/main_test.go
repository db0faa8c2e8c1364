package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

// TestRefKind: the index records whether its ref is a branch, read from the
// checkout, since a config must name a tag as a release and a branch as a
// branch for Flux to find it.
func TestRefKind(t *testing.T) {
	repo, out := t.TempDir(), t.TempDir()
	dir := filepath.Join(repo, filepath.FromSlash(baseindex.Root), "services", "demo")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: [cm.yaml]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n"), 0o644)
	gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
	gitrepotest.Git(t, repo, "add", ".")
	gitrepotest.Git(t, repo, "commit", "-q", "-m", "base")
	gitrepotest.Git(t, repo, "tag", "2026.01")
	for ref, branch := range map[string]bool{"2026.01": false, "main": true} {
		if err := run(repo, ref, "https://example.com/base.git", out); err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		x, err := baseindex.Load(filepath.Join(out, ref+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if x.Branch != branch || len(x.Dirs) != 1 {
			t.Errorf("%s: branch %v, want %v; %d dirs", ref, x.Branch, branch, len(x.Dirs))
		}
	}
	if err := run(repo, "HEAD~0", "https://example.com/base.git", out); err == nil || !strings.Contains(err.Error(), "neither a tag nor a branch") {
		t.Errorf("a ref that is no tag or branch: %v", err)
	}
}
