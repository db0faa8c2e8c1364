package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"filippo.io/age"
	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// diffRepo makes a GitOps repository of the five-cluster fixture, its
// configs and rendered overlays committed on main.
func diffRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	gitrepotest.CopyDir(t, filepath.Join("..", "..", "testdata", "fixture"), dir)
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	gitrepotest.Git(t, dir, "add", "-A")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "the fixture")
	return dir
}

// replaceInConfig replaces old with new in a config of repo, failing when old
// is not there.
func replaceInConfig(t testing.TB, repo, config, old, new string) {
	t.Helper()
	p := filepath.Join(repo, config)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", config, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hashes are the commits diff names, which change with every run.
var hashes = regexp.MustCompile(`\b[0-9a-f]{12}\b|"commit": "[0-9a-f]{40}"`)

// runDiff runs diff in repo against base and returns its exit code and
// stdout with commits replaced by COMMIT and repo by REPO; stderr must be
// empty.
func runDiff(t *testing.T, repo, base string, args ...string) (int, string) {
	t.Helper()
	code, stdout, stderr := runCLI(append([]string{"diff", "--repo", repo, "--base", base}, args...)...)
	if stderr != "" {
		t.Errorf("stderr:\n%s", stderr)
	}
	stdout = strings.ReplaceAll(stdout, repo, "REPO")
	return code, hashes.ReplaceAllStringFunc(stdout, func(h string) string {
		if strings.HasPrefix(h, `"commit"`) {
			return `"commit": "COMMIT"`
		}
		return "COMMIT"
	})
}

// TestDiffGoldens are the changes a platform team reviews, on the fixture,
// against a base made from opencenter's index of the real one: each is
// made in the working tree, and diff shows what Flux would apply
// differently to each cluster (golden), exiting 1.
func TestDiffGoldens(t *testing.T) {
	base, upgraded := indexedBase(t), indexedBase(t, veleroUpgrade(t))
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, repo string)
		base   string // default: base
	}{
		{"enable-service", func(t *testing.T, repo string) {
			if code, _, stderr := runCLI("enable", "sealed-secrets", "--config", filepath.Join(repo, ".k8s-dev-config.yaml")); code != 0 {
				t.Fatalf("enable: exit %d: %s", code, stderr)
			}
		}, ""},
		{"helm-value", func(t *testing.T, repo string) {
			replaceInConfig(t, repo, ".k8s-dev-config.yaml", "            retention: 14d\n", "            retention: 30d\n")
		}, ""},
		{"base-release", func(t *testing.T, repo string) {
			for _, c := range []string{".k8s-dev-config.yaml", ".k8s-prod-config.yaml"} {
				replaceInConfig(t, repo, c, "        base_repo:\n            release: \"2026.01\"\n", "        base_repo:\n            branch: main\n")
			}
		}, upgraded},
		{"rename-unit", func(t *testing.T, repo string) {
			replaceInConfig(t, repo, ".k8s-qa-config.yaml", "                    - name: apps\n", "                    - name: workloads\n")
		}, ""},
		{"secret-rotation", func(t *testing.T, repo string) {
			code, _, stderr := runCLIWith("Zq9rotated-harbor-admin\n", "secrets", "set", "services.harbor.admin_password", "--config", filepath.Join(repo, ".k8s-dev-config.yaml"))
			if code != 0 {
				t.Fatalf("secrets set: exit %d: %s", code, stderr)
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := diffRepo(t)
			tc.change(t, repo)
			code, out := runDiff(t, repo, cmpOr(tc.base, base))
			if code != exitDiffers {
				t.Errorf("exit %d, want %d", code, exitDiffers)
			}
			goldie.New(t, goldie.WithFixtureDir("testdata/diff")).Assert(t, tc.name, []byte(out))
			if strings.Contains(out, "Zq9") {
				t.Errorf("the new secret value is in the output:\n%s", out)
			}
		})
	}
}

// TestDiffOutputs: the same change as Markdown and as JSON.
func TestDiffOutputs(t *testing.T) {
	base, repo := indexedBase(t), diffRepo(t)
	replaceInConfig(t, repo, ".k8s-dev-config.yaml", "            retention: 14d\n", "            retention: 30d\n")
	g := goldie.New(t, goldie.WithFixtureDir("testdata/diff"))
	code, md := runDiff(t, repo, base, "-o", "markdown")
	if code != exitDiffers {
		t.Errorf("markdown: exit %d", code)
	}
	g.Assert(t, "helm-value-markdown", []byte(md))
	code, js := runDiff(t, repo, base, "-o", "json", filepath.Join(repo, ".k8s-dev-config.yaml"), filepath.Join(repo, ".k8s-prod-config.yaml"))
	if code != exitDiffers {
		t.Errorf("json: exit %d", code)
	}
	var doc reportJSON
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.Command != "diff" || doc.Exit != exitDiffers || len(doc.Configs) != 2 {
		t.Errorf("json: %v\n%s", err, js)
	}
	g.Assert(t, "helm-value-json", []byte(js))
}

// TestDiffCommitted compares two commits: a secret rotated, rendered and
// committed on a branch. With the key, the Secrets' values are compared;
// without one, their ciphertext, and the report says so. Neither prints a
// value.
func TestDiffCommitted(t *testing.T) {
	base, repo := indexedBase(t), diffRepo(t)
	gitrepotest.Git(t, repo, "checkout", "-q", "-b", "rotate")
	if code, _, stderr := runCLIWith("Zq9rotated-harbor-admin\n", "secrets", "set", "services.harbor.admin_password", "--config", filepath.Join(repo, ".k8s-dev-config.yaml")); code != 0 {
		t.Fatalf("secrets set: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI("render", "--repo", repo); code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	gitrepotest.Git(t, repo, "commit", "-q", "-am", "rotate harbor's admin password")
	gitrepotest.Git(t, repo, "checkout", "-q", "main")

	code, withKey := runDiff(t, repo, base, "--base-ref", "main", "--head-ref", "rotate")
	if code != exitDiffers || !strings.Contains(withKey, "+  HARBOR_ADMIN_PASSWORD: (secret, changed)") || strings.Contains(withKey, "ciphertext") {
		t.Errorf("with the key: exit %d\n%s", code, withKey)
	}
	// The working tree (main) against main: nothing.
	if code, out := runDiff(t, repo, base, "--base-ref", "main"); code != exitOK || !strings.HasSuffix(out, "0 of 5 clusters change.\n") {
		t.Errorf("main against itself: exit %d\n%s", code, out)
	}

	other, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(t.TempDir(), "keys.txt")
	os.WriteFile(keys, []byte(other.String()+"\n"), 0o600)
	t.Setenv(sops.KeyFileEnv, keys)
	code, withoutKey := runDiff(t, repo, base, "--base-ref", "main", "--head-ref", "rotate")
	if code != exitDiffers || !strings.Contains(withoutKey, "compared as ciphertext") {
		t.Errorf("without a key: exit %d\n%s", code, withoutKey)
	}
	goldie.New(t, goldie.WithFixtureDir("testdata/diff")).Assert(t, "secret-rotation-committed-without-key", []byte(withoutKey))
	for _, out := range []string{withKey, withoutKey} {
		if strings.Contains(out, "Zq9") {
			t.Errorf("the new secret value is in the output:\n%s", out)
		}
	}
}

// TestDiffNoChange: the fixture as committed, unrendered edits aside, does
// not change; each cluster is one line, and the command exits 0.
func TestDiffNoChange(t *testing.T) {
	base, repo := indexedBase(t), diffRepo(t)
	code, out := runDiff(t, repo, base)
	want := "Comparing the merge base of HEAD and main (COMMIT) with the working tree.\nk8s-dev: no change\nk8s-dr: no change\nk8s-prod: no change\nk8s-qa: no change\nk8s-uat: no change\n0 of 5 clusters change.\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d\n%s\nwant:\n%s", code, out, want)
	}
}

func TestDiffBadInput(t *testing.T) {
	base, repo := indexedBase(t), diffRepo(t)
	notGit := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a git repository", []string{"--repo", notGit}, "opencenter: --repo " + notGit + ": not a git repository with commits"},
		{"unknown ref", []string{"--repo", repo, "--base-ref", "nope"}, `opencenter: ` + repo + `: no tag, branch or commit "nope"`},
		{"base not a checkout", []string{"--repo", repo, "--base", notGit}, "opencenter: --base " + notGit + ": not a git repository with commits"},
		{"bad output", []string{"--repo", repo, "--base", base, "-o", "yaml"}, "opencenter: --output must be one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(append([]string{"diff"}, tc.args...)...)
			if code != exitBadInput || !strings.HasPrefix(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant prefix %s", code, stderr, tc.want)
			}
		})
	}
}

// diffFleet makes a repository of n clusters (makeFleet), rendered and
// committed on main, and a base made from the index (indexedBase).
func diffFleet(b *testing.B, n int) (repo, base string) {
	b.Helper()
	repo, base = b.TempDir(), indexedBase(b, veleroUpgrade(b))
	makeFleet(b, repo, n)
	os.WriteFile(filepath.Join(repo, ".sops.yaml"), mustReadB(b, "../../testdata/fixture/.sops.yaml"), 0o644)
	if code, _, stderr := runCLI("render", "--repo", repo); code != 0 {
		b.Fatalf("render: exit %d: %s", code, stderr)
	}
	gitrepotest.Git(b, repo, "init", "-q", "-b", "main")
	gitrepotest.Git(b, repo, "add", "-A")
	gitrepotest.Git(b, repo, "commit", "-q", "-m", "the fleet")
	return repo, base
}

func mustReadB(b *testing.B, name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// benchDiff runs diff over the fleet after change, which must change the
// clusters it reports.
func benchDiff(b *testing.B, n int, change func(b *testing.B, repo string), want string) {
	repo, base := diffFleet(b, n)
	change(b, repo)
	b.ResetTimer()
	for range b.N {
		code, stdout, stderr := runCLI("diff", "--repo", repo, "--base", base)
		if code != exitDiffers || !strings.Contains(stdout, want) {
			b.Fatalf("exit %d\n%s\n%s", code, stderr, stdout[max(0, len(stdout)-300):])
		}
	}
}

// BenchmarkDiff50 is a change to every cluster of a 50-cluster fleet: the
// base release moved to main, where velero's chart is upgraded. Every
// cluster is rendered, and built in both states.
func BenchmarkDiff50(b *testing.B) {
	benchDiff(b, 50, func(b *testing.B, repo string) {
		configs, _ := filepath.Glob(filepath.Join(repo, ".*-config.yaml"))
		for _, c := range configs {
			replaceInConfig(b, repo, filepath.Base(c), "        base_repo:\n            release: \"2026.01\"\n", "        base_repo:\n            branch: main\n")
		}
	}, "50 of 50 clusters change")
}

// BenchmarkDiff50OneCluster is the common pull request: one cluster of 50
// changes; the others are rendered and found unchanged without a build.
func BenchmarkDiff50OneCluster(b *testing.B) {
	benchDiff(b, 50, func(b *testing.B, repo string) {
		replaceInConfig(b, repo, ".k8s-dev-0000-config.yaml", "            retention: 14d\n", "            retention: 30d\n")
	}, "1 of 50 clusters changes: k8s-dev-0000")
}
