package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIConventions: what a kubectl, flux or helm user reaches for works:
// --version, usage on no arguments, help COMMAND, did-you-mean on --only,
// --quiet, --repo on units.
func TestCLIConventions(t *testing.T) {
	if code, stdout, _ := runCLI("--version"); code != 0 || !strings.HasPrefix(stdout, "opencenter ") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
	code, usage, _ := runCLI()
	if _, help, _ := runCLI("--help"); code != 0 || usage != help || !strings.Contains(usage, "Examples:") {
		t.Errorf("no arguments: exit %d, not the usage:\n%s", code, usage)
	}
	_, viaHelp, _ := runCLI("help", "secrets", "set")
	if _, direct, _ := runCLI("secrets", "set", "--help"); viaHelp != direct || !strings.Contains(direct, "Usage: opencenter secrets set") {
		t.Errorf("help secrets set:\n%s\nwant\n%s", viaHelp, direct)
	}
	if code, _, stderr := runCLI("render", "--only", "keycloack"); code != exitBadInput || !strings.Contains(stderr, `(did you mean "keycloak"?)`) {
		t.Errorf("--only with a typo: exit %d, %s", code, stderr)
	}

	repo := fixtureRepo(t)
	if code, stdout, stderr := runCLI("render", ".k8s-dev-config.yaml"); code != 0 || stdout == "" {
		t.Fatalf("render: exit %d\n%s", code, stderr)
	}
	if code, stdout, stderr := runCLI("--quiet", "render", ".k8s-dev-config.yaml"); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("--quiet render: exit %d, printed %q %q", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI("-q", "validate", ".k8s-dev-config.yaml"); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("-q validate: exit %d, printed %q %q", code, stdout, stderr)
	}
	os.Remove(filepath.Join(repo, ".k8s-dr-config.yaml"))
	for _, f := range []string{".k8s-prod-config.yaml", ".k8s-qa-config.yaml", ".k8s-uat-config.yaml"} {
		os.Remove(filepath.Join(repo, f))
	}
	if code, stdout, stderr := runCLI("units", "--repo", repo); code != 0 || !strings.Contains(stdout, "STATUS") || !strings.Contains(stdout, "keycloak") {
		t.Errorf("units --repo: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestOutputJSON: -o json of validate, render and verify is one document
// of the shape docs/reference/json.md describes, problems included.
func TestOutputJSON(t *testing.T) {
	base := verifyBase(t, nil) // before the working directory changes
	demo, err := filepath.Abs(verifyConfig)
	if err != nil {
		t.Fatal(err)
	}
	repo := fixtureRepo(t)
	var doc reportJSON
	decode := func(stdout string) {
		t.Helper()
		doc = reportJSON{}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("not one JSON document: %v\n%s", err, stdout)
		}
	}
	code, stdout, stderr := runCLI("validate", "-o", "json")
	decode(stdout)
	if code != 0 || stderr != "" || doc.Command != "validate" || len(doc.Configs) != 5 || doc.Configs[0].Secrets != "checked" || doc.Configs[0].Valid == nil || !*doc.Configs[0].Valid {
		t.Errorf("validate -o json: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI("render", "-o", "json", ".k8s-dev-config.yaml")
	decode(stdout)
	if code != 0 || len(doc.Configs) != 1 || doc.Configs[0].Cluster != "k8s-dev" || doc.Configs[0].Files == 0 || len(doc.Configs[0].Changes) != doc.Configs[0].Files {
		t.Errorf("render -o json: exit %d\n%s", code, stdout)
	}
	// A problem, as data.
	data, _ := os.ReadFile(filepath.Join(repo, ".k8s-qa-config.yaml"))
	os.WriteFile(filepath.Join(repo, ".k8s-qa-config.yaml"), []byte(strings.Replace(string(data), "region: ord1", "region: ord1\n        bogus: 1", 1)), 0o644)
	code, stdout, _ = runCLI("render", "--check", "-o", "json")
	decode(stdout)
	var qa *configReport
	for i := range doc.Configs {
		if doc.Configs[i].Config == ".k8s-qa-config.yaml" {
			qa = &doc.Configs[i]
		}
	}
	if code != exitBadInput || doc.Exit != exitBadInput || qa == nil || len(qa.Problems) != 1 || qa.Problems[0].Path != "opencenter.meta.bogus" || qa.Problems[0].Line == 0 {
		t.Errorf("render --check -o json with a problem: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("verify", "--base", base, "-o", "json", demo)
	decode(stdout)
	if doc.Command != "verify" || len(doc.Configs) != 1 || doc.Configs[0].Summary == "" {
		t.Errorf("verify -o json: exit %d\n%s", code, stdout)
	}
}

// TestCompletion: the bash script completes commands, flags, a flag's
// values and units from the command line's model; the zsh and fish
// scripts name every command and, where the shell is there, parse.
func TestCompletion(t *testing.T) {
	_, script, _ := runCLI("completion", "bash")
	file := filepath.Join(t.TempDir(), "opencenter.bash")
	os.WriteFile(file, []byte(script), 0o644)
	for line, want := range map[string]string{
		"opencenter ren":              "render",
		"opencenter render --ou":      "--output",
		"opencenter render --output ": "text json",
		"opencenter secrets up":       "updatekeys",
		"opencenter enable keyc":      "keycloak",
		"opencenter completion ":      "bash zsh fish",
	} {
		cmd := exec.Command("bash", "-c", `source "$1"; read -ra COMP_WORDS <<< "$2"; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _opencenter; echo "${COMPREPLY[*]}"`, "bash", file, line)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("%q completes to %q (%v), want %q", line, out, err, want)
		}
	}
	for _, shell := range []string{"zsh", "fish"} {
		code, script, _ := runCLI("completion", shell)
		for _, c := range []string{"render", "updatekeys", "completion"} {
			if code != 0 || !strings.Contains(script, c) {
				t.Errorf("%s: no %s", shell, c)
			}
		}
		if _, err := exec.LookPath(shell); err == nil {
			f := filepath.Join(t.TempDir(), "completion")
			os.WriteFile(f, []byte(script), 0o644)
			if out, err := exec.Command(shell, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		}
	}
}

// TestBuildBeforeBootstrap: a reviewer builds a cluster's overlay without
// flux-system/: the root gives the Flux objects, --unit one unit's objects
// as Flux applies them, secrets still encrypted.
func TestBuildBeforeBootstrap(t *testing.T) {
	repo := fixtureRepo(t)
	const cfg = ".k8s-dev-config.yaml"
	code, stdout, stderr := runCLI("build", cfg)
	if code != 0 || !strings.Contains(stdout, "kind: Kustomization\n") || !strings.Contains(stdout, "name: keycloak-operator\n") {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "applications")); err == nil {
		t.Error("build wrote the overlay")
	}
	code, stdout, stderr = runCLI("build", cfg, "--unit", "loki-override")
	if code != 0 || !strings.Contains(stdout, "name: loki-values-override\n") || !strings.Contains(stdout, "namespace: observability\n") {
		t.Fatalf("build --unit loki-override: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, c := range []struct{ unit, want string }{
		{"loki-base", "its path is in the repository of GitRepository"},
		{"loki-overide", `(did you mean "loki-override"?)`},
	} {
		if code, _, stderr := runCLI("build", cfg, "--unit", c.unit); code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("build --unit %s: exit %d\n%s", c.unit, code, stderr)
		}
	}
}
