package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestQuickstart runs the sh blocks of the README's Quickstart verbatim, in
// order, in an empty directory, with a home of their own and opencenter
// and age-keygen on PATH: a new user's first cluster must render, encrypted,
// and pass validate and render --check.
func TestQuickstart(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`(?s)\n## Quickstart\n(.*?)\n## `).FindSubmatch(readme)
	if section == nil {
		t.Fatal("README.md has no Quickstart section")
	}
	var script strings.Builder
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllSubmatch(section[1], -1)
	if len(blocks) < 3 {
		t.Fatalf("the Quickstart has %d sh blocks", len(blocks))
	}
	for _, b := range blocks {
		script.Write(b[1])
	}

	dir := t.TempDir()
	bin, home, work := filepath.Join(dir, "bin"), filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{bin, home, work} {
		os.Mkdir(d, 0o755)
	}
	// opencenter is this test binary run as the CLI; age-keygen is built
	// from the age module the project pins.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bin, "opencenter"), []byte("#!/bin/sh\n"+cliEnv+"=1 exec '"+self+"' \"$@\"\n"), 0o755)
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "age-keygen"), "filippo.io/age/cmd/age-keygen").CombinedOutput(); err != nil {
		t.Fatalf("building age-keygen: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script.String())
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the Quickstart fails: %v\n--- script\n%s--- output\n%s", err, script.String(), out)
	}
	for _, want := range []string{
		".acme-dev-1-config.yaml: valid (secrets decrypted and checked)",
		"applications/overlays/acme-dev-1: ",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the Quickstart's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "cloudflare-token-for-the-quickstart") {
		t.Error("the Quickstart printed the secret")
	}
	cfg, _ := os.ReadFile(filepath.Join(work, "acme-gitops", ".acme-dev-1-config.yaml"))
	if strings.Contains(string(cfg), "cloudflare-token-for-the-quickstart") || !strings.Contains(string(cfg), "cloudflare_api_token: ENC[") {
		t.Errorf("the config does not hold the token encrypted:\n%s", cfg)
	}
}
