package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// runCLI runs the CLI in-process and returns exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestInvalidConfigs: every file in testdata/invalid exits 2 with exactly
// its golden stderr (refresh with go test ./... -update).
func TestInvalidConfigs(t *testing.T) {
	t.Chdir("../..")
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	hidden, _ := filepath.Glob("testdata/invalid/.*.yaml")
	files = append(files, hidden...)
	if len(files) < 20 {
		t.Fatalf("expected the invalid corpus in testdata/invalid, found %d files", len(files))
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/invalid"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI("validate", f)
			if code != exitBadInput {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
			if !strings.HasPrefix(stderr, f+":") {
				t.Errorf("every error names the file first; got:\n%s", stderr)
			}
			g.Assert(t, name, []byte(stderr))
			// validate runs every check render runs before writing: same errors, same order.
			rcode, _, rstderr := runCLI("render", "--check", "--repo", t.TempDir(), f)
			if rcode != code || rstderr != stderr {
				t.Errorf("render --check disagrees with validate: exit %d, stderr:\n%s", rcode, rstderr)
			}
		})
	}
}

// TestFixtureValidates: the fixture's (fake) secrets are rendered in
// plaintext, so validate refuses it exactly as render does, unless allowed.
func TestFixtureValidates(t *testing.T) {
	code, _, stderr := runCLI("validate", "--repo", "../../testdata/fixture")
	if code != exitBadInput || !strings.Contains(stderr, "--allow-plaintext-secrets") {
		t.Errorf("without the flag: exit %d, want 2 naming --allow-plaintext-secrets\n%s", code, stderr)
	}
	code, stdout, stderr := runCLI("validate", "--allow-plaintext-secrets", "--repo", "../../testdata/fixture")
	if code != 0 || strings.Count(stdout, ": valid\n") != 5 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"render", "--only", "no-such-unit"}, {"validate", "--repo", t.TempDir()}, {"render", "--check", "--diff", "x.yaml"}} {
		if code, _, stderr := runCLI(args...); code != exitBadInput || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

// copyFixtureConfigs makes a repository holding the fixture's configs.
func copyFixtureConfigs(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

func TestRenderExitCodes(t *testing.T) {
	repo := copyFixtureConfigs(t)

	// Secrets without the flag: exit 2, naming the flag, nothing written.
	code, _, stderr := runCLI("render", "--repo", repo)
	if code != exitBadInput || !strings.Contains(stderr, "--allow-plaintext-secrets") {
		t.Fatalf("render without the plaintext flag: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "applications")); !os.IsNotExist(err) {
		t.Fatal("a refused render wrote files")
	}

	code, stdout, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets")
	if code != 0 || strings.Count(stdout, "applications/overlays/") != 5 || !strings.Contains(stderr, "warning:") {
		t.Fatalf("render: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI("render", "--repo", repo, "--allow-plaintext-secrets", "--check"); code != 0 || stdout != "" {
		t.Fatalf("--check after a render: exit %d, %q", code, stdout)
	}

	// Change a config: --check and --diff report it, exit 1, write nothing.
	cfg := filepath.Join(repo, ".k8s-prod-config.yaml")
	b, _ := os.ReadFile(cfg)
	if !bytes.Contains(b, []byte("interval: ")) {
		t.Fatal("the prod fixture should set gitops.flux.interval")
	}
	changed := bytes.Replace(b, []byte("interval: "), []byte("interval: 7m #"), 1)
	os.WriteFile(cfg, changed, 0o644)
	code, stdout, _ = runCLI("render", "--repo", repo, "--allow-plaintext-secrets", "--check", cfg)
	if code != exitDiffers || !strings.Contains(stdout, "update applications/overlays/k8s-prod/") {
		t.Fatalf("--check after a change: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("render", "--repo", repo, "--allow-plaintext-secrets", "--diff", cfg)
	if code != exitDiffers || !strings.Contains(stdout, "+  interval: 7m0s") || !strings.Contains(stdout, "--- a/applications/overlays/k8s-prod/") {
		t.Fatalf("--diff: exit %d\n%s", code, stdout)
	}

	// A foreign file under an owned path: exit 3, listed, intact.
	foreign := filepath.Join(repo, "applications/overlays/k8s-prod/services/README.md")
	os.WriteFile(foreign, []byte("mine\n"), 0o644)
	code, _, stderr = runCLI("render", "--repo", repo, "--allow-plaintext-secrets", cfg)
	if code != exitRefused || !strings.Contains(stderr, "services/README.md: foreign") {
		t.Fatalf("foreign file: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Fatal("the foreign file was touched")
	}
	if code, _, stderr = runCLI("render", "--repo", repo, "--allow-plaintext-secrets", "--force", cfg); code != 0 {
		t.Fatalf("--force: exit %d\n%s", code, stderr)
	}
}
