package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
)

// TestHandEditsAreShownNotLost: a hand edit of a rendered file is shown by
// render --diff and --check, reported by validate and refused by render,
// all with exit 3 and with where the change belongs (the unit's local/
// values.yaml for Helm values); --force replaces it. Once committed, the
// edit is git's: a render replaces it, and the diff of the commit shows it.
func TestHandEditsAreShownNotLost(t *testing.T) {
	repo := fixtureRepo(t)
	gitrepotest.Git(t, repo, "init", "-q", "-b", "main")
	const cfg = ".k8s-dev-config.yaml"
	mustCLI(t, "render", cfg)
	gitrepotest.Git(t, repo, "add", "-A")
	gitrepotest.Git(t, repo, "commit", "-qm", "render")

	const rel = "applications/overlays/k8s-dev/services/loki/helm-values/override-values.yaml"
	file := filepath.Join(repo, rel)
	data, _ := os.ReadFile(file)
	edited := append(bytes.Clone(data), "handEditedKey: 1\n"...)
	os.WriteFile(file, edited, 0o644)
	const hint = "to keep the change: put the values in applications/overlays/k8s-dev/services/loki/local/values.yaml"

	code, stdout, stderr := runCLI("render", "--diff", cfg)
	if code != exitRefused || !strings.Contains(stdout, "--- a/"+rel) || !strings.Contains(stdout, "-handEditedKey: 1") || !strings.Contains(stderr, hint) {
		t.Errorf("render --diff: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI("render", "--check", cfg)
	if code != exitRefused || stdout != "update "+rel+"\n" || !strings.Contains(stderr, "edited by hand since opencenter wrote it, would update") {
		t.Errorf("render --check: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI("validate", cfg)
	if code != exitRefused || strings.Contains(stdout, "valid") || !strings.Contains(stderr, hint) {
		t.Errorf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI("render", cfg)
	if now, _ := os.ReadFile(file); code != exitRefused || !bytes.Equal(now, edited) || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("render: exit %d, the edit kept %v\n%s", code, bytes.Equal(now, edited), stderr)
	}
	mustCLI(t, "render", "--force", cfg)
	if now, _ := os.ReadFile(file); !bytes.Equal(now, data) {
		t.Error("--force did not replace the edit")
	}

	// Committed, the edit is in git: replaced without --force.
	os.WriteFile(file, edited, 0o644)
	gitrepotest.Git(t, repo, "commit", "-qam", "a hand edit, reviewed")
	mustCLI(t, "render", cfg)
	if now, _ := os.ReadFile(file); !bytes.Equal(now, data) {
		t.Error("a render did not replace a committed edit")
	}
}
