package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

// gitMay runs git in dir like gitrepotest.Git, returning a failure (a
// merge that stops on a conflict) instead of failing the test.
func gitMay(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// mustCLI runs the CLI and fails the test unless it exits 0.
func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("opencenter %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// TestMergedBranchesRender: two teammates each enable a service on a
// branch of their own and render it; git merges the branches. The config
// merges without a conflict (enable puts each service in its place), and
// a plain render, without --force, gives exactly what a fresh render of
// the merged config gives, whether git merged the generated files or left
// conflict markers in them. The merge then commits and --check is clean.
func TestMergedBranchesRender(t *testing.T) {
	for _, c := range []struct {
		a, b string
		// conflicts: the two renders touch neighbouring lines of the
		// aggregates, so git leaves markers there.
		conflicts bool
	}{
		{"headlamp", "kyverno", true},
		{"cert-manager", "sealed-secrets", false},
	} {
		t.Run(c.a+"+"+c.b, func(t *testing.T) {
			repo := t.TempDir()
			gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
			t.Chdir(repo)
			mustCLI(t, "init", "--cluster", "acme-dev", "--repository-url", "https://github.com/acme/gitops.git")
			mustCLI(t, "enable", "olm")
			mustCLI(t, "render")
			gitrepotest.Git(t, repo, "add", "-A")
			gitrepotest.Git(t, repo, "commit", "-qm", "olm")
			for _, branch := range []struct{ name, service string }{{"a", c.a}, {"b", c.b}} {
				gitrepotest.Git(t, repo, "checkout", "-q", "-b", branch.name, "main")
				mustCLI(t, "enable", branch.service)
				mustCLI(t, "render")
				gitrepotest.Git(t, repo, "add", "-A")
				gitrepotest.Git(t, repo, "commit", "-qm", branch.service)
			}
			gitrepotest.Git(t, repo, "checkout", "-q", "a")
			out, mergeErr := gitMay(repo, "merge", "-q", "--no-edit", "b")
			conflicted := strings.Fields(gitrepotest.Git(t, repo, "diff", "--name-only", "--diff-filter=U"))
			for _, f := range conflicted {
				if !strings.HasPrefix(f, "applications/overlays/") {
					t.Fatalf("git could not merge %s:\n%s", f, out)
				}
			}
			if c.conflicts != (len(conflicted) > 0) || c.conflicts != (mergeErr != nil) {
				t.Fatalf("conflicts in %v (merge: %v), want conflicts %v:\n%s", conflicted, mergeErr, c.conflicts, out)
			}

			code, stdout, stderr := runCLI("render")
			if code != 0 {
				t.Fatalf("render after the merge: exit %d\n%s%s", code, stdout, stderr)
			}
			// A fresh render of the merged config is the reference.
			fresh := t.TempDir()
			cfg, _ := os.ReadFile(filepath.Join(repo, ".acme-dev-config.yaml"))
			os.WriteFile(filepath.Join(fresh, ".acme-dev-config.yaml"), cfg, 0o644)
			mustCLI(t, "render", "--repo", fresh)
			got, want := overlayFiles(t, repo), overlayFiles(t, fresh)
			for p, w := range want {
				if g, ok := got[p]; !ok || !bytes.Equal(g, w) {
					t.Errorf("%s differs from a fresh render of the merged config:\n%s", p, g)
				}
			}
			for p := range got {
				if _, ok := want[p]; !ok {
					t.Errorf("%s is left over", p)
				}
			}
			gitrepotest.Git(t, repo, "add", "-A")
			gitrepotest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "merge") // a clean merge committed itself
			if code, stdout, stderr := runCLI("render", "--check"); code != 0 {
				t.Errorf("--check after the merge commit: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// overlayFiles reads every file of the repository's overlays.
func overlayFiles(t *testing.T, repo string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	root := filepath.Join(repo, "applications", "overlays")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out[rel], _ = os.ReadFile(p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatalf("no overlay under %s", root)
	}
	return out
}

// TestRenderFromSubdirectory: from a directory inside the repository, in
// git or not, render with a config named relative to it, or with none,
// writes the overlay under the repository's root, never under the
// working directory.
func TestRenderFromSubdirectory(t *testing.T) {
	for _, inGit := range []bool{true, false} {
		repo := t.TempDir()
		if inGit {
			gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
		}
		t.Chdir(repo)
		mustCLI(t, "init", "--cluster", "acme-prod-1", "--repository-url", "https://github.com/acme/gitops.git")
		mustCLI(t, "enable", "olm")
		mustCLI(t, "render")
		sub := filepath.Join(repo, "applications", "overlays", "acme-prod-1")
		t.Chdir(sub)
		args := [][]string{{"render", "../../../.acme-prod-1-config.yaml"}}
		if inGit {
			args = append(args, []string{"render"}, []string{"render", "--check"})
		}
		for _, a := range args {
			if code, stdout, stderr := runCLI(a...); code != 0 {
				t.Errorf("git %v: %v: exit %d\n%s%s", inGit, a, code, stdout, stderr)
			}
		}
		if _, err := os.Stat(filepath.Join(sub, "applications")); err == nil {
			t.Errorf("git %v: a render from %s wrote an applications/ tree there", inGit, sub)
		}
	}
}
