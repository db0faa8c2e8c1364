package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

const verifyConfig = "testdata/verify/.demo-config.yaml"

// verifyBase makes a base repository of testdata/verify/base (cert-manager
// as openCenter-gitops-base has it at 2026.01, values cut short), edited by
// edit, committed and tagged 2026.01.
func verifyBase(t *testing.T, edit func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	gitrepotest.CopyDir(t, filepath.Join("testdata", "verify", "base"), dir)
	if edit != nil {
		edit(dir)
	}
	gitrepotest.Git(t, dir, "init", "-q", "-b", "main")
	gitrepotest.Git(t, dir, "add", ".")
	gitrepotest.Git(t, dir, "commit", "-q", "-m", "base")
	gitrepotest.Git(t, dir, "tag", "2026.01")
	return dir
}

func TestVerify(t *testing.T) {
	base := verifyBase(t, nil)
	code, stdout, stderr := runCLI("verify", "--base", base, verifyConfig)
	// The test's base is not the commit opencenter indexed as 2026.01, and
	// verify says so. Then: flux-system, sources, cert-manager-namespace,
	// -override, -base and -issuers; the flux-system and
	// opencenter-cert-manager GitRepositories.
	head := strings.TrimSpace(gitrepotest.Git(t, base, "rev-parse", "2026.01^{commit}"))
	want := "info: demo: base index: " + base + ": tag 2026.01 is at " + head[:12] + " here, but opencenter's index of it is at " + indexedCommits()["2026.01"][:12] +
		": the render checked the base's paths and objects against the index; re-extract it (gen/baseindex) if the base has moved\n" +
		"demo: 6 of 6 Flux units built (0 not checked offline), 2 GitRepositories (1 from the base checkout, 0 not checked offline), 0 remote resources not checked offline, 0 findings\n"
	if code != exitOK || stdout != want || stderr != "" {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
	// The overlay carries the route53 credentials in memory; no line shows them.
	if strings.Contains(stdout+stderr, "fake-demo-secret") {
		t.Error("a secret value is in the output")
	}
}

func TestVerifyFindings(t *testing.T) {
	// The chart source in flux-system, where cert-manager-base's
	// targetNamespace does not leave it.
	base := verifyBase(t, func(dir string) {
		p := filepath.Join(dir, "applications/base/services/cert-manager")
		src, _ := os.ReadFile(filepath.Join(p, "source.yaml"))
		hr, _ := os.ReadFile(filepath.Join(p, "helmrelease.yaml"))
		os.WriteFile(filepath.Join(p, "source.yaml"), []byte(strings.Replace(string(src), "  name: jetstack\n", "  name: jetstack\n  namespace: flux-system\n", 1)), 0o644)
		os.WriteFile(filepath.Join(p, "helmrelease.yaml"), []byte(strings.Replace(string(hr), "namespace: cert-manager\n  valuesFrom", "namespace: flux-system\n  valuesFrom", 1)), 0o644)
	})
	code, stdout, stderr := runCLI("verify", "--base", base, verifyConfig)
	want := "demo: cert-manager-base: applications/base/services/cert-manager/helmrelease.yaml: HelmRelease cert-manager/cert-manager: chart sourceRef HelmRepository flux-system/jetstack: no build puts it in namespace flux-system (it is in cert-manager)\n"
	if code != exitFindings || !strings.HasPrefix(stdout, want) || !strings.HasSuffix(stdout, ", 1 finding\n") {
		t.Errorf("exit %d\nstdout:\n%s\nwant first:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
}

func TestVerifyBadInput(t *testing.T) {
	notGit, base := t.TempDir(), verifyBase(t, nil)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"base not a git repository", []string{"--base", notGit, verifyConfig}, "opencenter: --base " + notGit + ": not a git repository with commits"},
		{"base missing", []string{"--base", filepath.Join(notGit, "nope"), verifyConfig}, "opencenter: --base " + filepath.Join(notGit, "nope") + ": no such file or directory"},
		{"no --base", []string{verifyConfig}, "opencenter: missing flags: --base=DIR"},
		{"bad config", []string{"--base", base, "testdata/verify/base/applications/base/services/cert-manager/namespace.yaml"}, "testdata/verify/base/applications/base/services/cert-manager/namespace.yaml:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(append([]string{"verify"}, tc.args...)...)
			if code != exitBadInput || !strings.HasPrefix(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant prefix %s", code, stderr, tc.want)
			}
		})
	}
}

// TestVerifyHelp keeps verify --help as a golden with the other commands'.
