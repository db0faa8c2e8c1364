package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/sebdah/goldie/v2"
)

// commandPaths lists every command of the command line, subcommands too,
// from kong's model: nothing to keep by hand.
func commandPaths(t *testing.T) [][]string {
	t.Helper()
	var cli CLI
	parser, err := kong.New(&cli, kong.Name("opencenter"), vars())
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	var walk func(n *kong.Node, path []string)
	walk = func(n *kong.Node, path []string) {
		paths = append(paths, path)
		for _, c := range n.Children {
			if !c.Hidden {
				walk(c, append(slices.Clip(path), c.Name))
			}
		}
	}
	walk(parser.Model.Node, nil)
	return paths
}

// TestHelp keeps the --help of every command, examples included, as a
// golden, and the CLI reference (docs/reference/cli.md) made of them.
func TestHelp(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/help"), goldie.WithNameSuffix(".golden"))
	var ref strings.Builder
	ref.WriteString("# The opencenter command line\n\nGenerated from the command line's own model (`go test ./cmd/opencenter -update`); every page is what `--help` prints.\n")
	for _, path := range commandPaths(t) {
		name := strings.Join(path, "_")
		if name == "" {
			name = "opencenter"
		}
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append(slices.Clone(path), "--help")...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			g.Assert(t, name, []byte(stdout))
			fmt.Fprintf(&ref, "\n## %s\n\n```text\n%s```\n", strings.TrimSpace("opencenter "+strings.Join(path, " ")), stdout)
		})
	}
	goldie.New(t, goldie.WithFixtureDir("../../docs/reference"), goldie.WithNameSuffix(".md")).Assert(t, "cli", []byte(ref.String()))
}

func TestExplain(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/explain"), goldie.WithNameSuffix(".golden"))
	for _, p := range []string{"", "services.keycloak", "gitops.overlay_units.customer_managed", "secrets.services.cert-manager", "services.keycloak.max_replicas", "gitops.overlay_units.customer_managed.kustomizations.name", "services.loki", "services.loki.bucket", "secrets.services.loki.access_key_id", "services.gateway.listeners.hostname", "meta.labels", "services.kyverno.excluded_namespaces"} {
		name := strings.NewReplacer(".", "_", "-", "_").Replace(p)
		if name == "" {
			name = "sections"
		}
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI("explain", p)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			g.Assert(t, name, []byte(stdout))
		})
	}
	code, _, stderr := runCLI("explain", "services.kyvern")
	if code != exitBadInput || !strings.Contains(stderr, `did you mean "services.kyverno"?`) {
		t.Errorf("unknown path: exit %d, %s", code, stderr)
	}
	code, stdout, _ := runCLI("explain", "--output", "json", "secrets.services.keycloak")
	var out explainJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || out.Field == nil || len(out.Fields) == 0 {
		t.Fatalf("explain --output json: exit %d, %s", code, stdout)
	}
	for _, f := range out.Fields {
		if !f.Secret {
			t.Errorf("%s is under secrets: but not marked secret", f.Path)
		}
	}
	// A conditionally required field says when, from its required_when tag.
	code, stdout, _ = runCLI("explain", "--output", "json", "services.harbor.bucket")
	out = explainJSON{}
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || out.Field == nil ||
		out.Field.Required || out.Field.RequiredWhen != "services.harbor.storage is s3 or swift" {
		t.Errorf("explain --output json services.harbor.bucket: exit %d, %s", code, stdout)
	}
}

func TestUnits(t *testing.T) {
	code, stdout, stderr := runCLI("units", "--config", "../../testdata/fixture/.k8s-prod-config.yaml", "--output", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []unitJSON
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	status := map[string]unitJSON{}
	for _, r := range rows {
		if r.Active == nil {
			t.Fatalf("%s: no status with --config", r.Name)
		}
		status[r.Name] = r
	}
	if r := status["keycloak"]; !*r.Active {
		t.Errorf("keycloak should be active on prod: %+v", r)
	}
	if r := status["customer-managed"]; *r.Active || !strings.Contains(r.Reason, "customer_managed.enabled is not true") {
		t.Errorf("customer-managed is off on prod: %+v", r)
	}

	// A unit whose requirement is missing is inactive, saying which.
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".k8s-x-config.yaml")
	os.WriteFile(cfg, []byte("opencenter:\n  meta: {name: k8s-x}\n  cluster: {cluster_name: k8s-x}\n  infrastructure: {provider: kind}\n  gitops:\n    repository: {url: 'ssh://git@h/r.git'}\n    base_repo: {release: '2026.01'}\n  services:\n    keycloak: {enabled: true}\n"), 0o644)
	code, stdout, _ = runCLI("units", "--config", cfg)
	if code != 0 || !strings.Contains(stdout, "inactive: requires ") {
		t.Errorf("keycloak alone: exit %d\n%s", code, stdout)
	}
	// Adoption modes: external satisfies keycloak's requirement without
	// rendering it; the others say what they do to the Flux units.
	os.WriteFile(cfg, []byte("opencenter:\n  meta: {name: k8s-x}\n  cluster: {cluster_name: k8s-x}\n  infrastructure: {provider: kind}\n  gitops:\n    repository: {url: 'ssh://git@h/r.git'}\n    base_repo: {release: '2026.01'}\n  services:\n"+
		"    keycloak: {enabled: true, adoption_mode: deferred}\n    postgres-operator: {enabled: true, adoption_mode: external}\n    olm: {enabled: true, adoption_mode: takeover}\n"+
		"    cert-manager: {enabled: true, adoption_mode: sync}\n    rbac-manager: {enabled: true}\n"), 0o644)
	code, stdout, stderr = runCLI("units", "--config", cfg)
	for _, want := range []string{
		`(?m)^keycloak .* active \(adoption_mode deferred: suspended\)$`,
		`(?m)^postgres-operator .* inactive: adoption_mode external: installed outside opencenter, nothing rendered$`,
		`(?m)^olm .* active \(adoption_mode takeover: applied with force\)$`,
		`(?m)^cert-manager .* active \(adoption_mode sync: applied without force\)$`,
		`(?m)^rbac-manager .* active$`,
	} {
		if code != 0 || !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("adoption modes: exit %d, want %s in:\n%s%s", code, want, stdout, stderr)
		}
	}
	// The text view shows what each unit requires.
	if _, stdout, _ := runCLI("units"); !strings.Contains(stdout, "REQUIRES") || !regexp.MustCompile(`(?m)^keycloak +services +postgres-operator,olm,cert-manager,rbac-manager `).MatchString(stdout) {
		t.Errorf("units does not show requires:\n%s", stdout)
	}
}

func TestInit(t *testing.T) {
	repo := t.TempDir()
	code, _, stderr := runCLI("init", "--cluster", "k8s-lab", "--provider", "openstack", "--repo", repo, "--repository-url", "git@github.com:acme/gitops.git")
	if code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	cfg := filepath.Join(repo, ".k8s-lab-config.yaml")
	text, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(text), "# yaml-language-server: $schema=") {
		t.Error("the config starts with the schema modeline")
	}
	if code, _, stderr := runCLI("render", "--repo", repo); code != 0 {
		t.Fatalf("render of an init config: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "applications/overlays/k8s-lab/kustomization.yaml")); err != nil {
		t.Error("no overlay rendered")
	}
	code, _, stderr = runCLI("init", "--cluster", "k8s-lab", "--repo", repo, "--repository-url", "ssh://git@h/r.git")
	if again, _ := os.ReadFile(cfg); code != exitBadInput || !strings.Contains(stderr, "not overwriting") || string(again) != string(text) {
		t.Errorf("second init: exit %d, %s", code, stderr)
	}
	if code, _, _ := runCLI("init", "--cluster", "Bad_Name", "--repo", repo, "--repository-url", "ssh://git@h/r.git"); code != exitBadInput {
		t.Errorf("bad cluster name: exit %d", code)
	}
	if code, _, _ := runCLI("init", "--cluster", "k8s-y", "--provider", "aws", "--repo", repo); code != exitBadInput {
		t.Errorf("provider outside the generated enum: exit %d", code)
	}
}

// TestInitThenRender: for every provider and for cluster names YAML would
// read as other types, init writes a config that validates and renders.
func TestInitThenRender(t *testing.T) {
	providers, _ := lookupExact("opencenter.infrastructure.provider")
	names := []string{"eu-west-1", "prod-01", "k8s-prod-2", "dc1-true", "true", "null", "1e3", "0x10", "yes", "007"}
	for i, p := range providers.Enum {
		names = append(names, "k8s-"+p+"-"+strconv.Itoa(i))
	}
	repo := t.TempDir()
	for i, n := range names {
		args := []string{"init", "--cluster", n, "--repo", repo, "--repository-url", "https://git.example.com/gitops.git", "--provider", providers.Enum[i%len(providers.Enum)]}
		if n == "prod-01" {
			args = append(args, "--env", "prod")
		}
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Fatalf("init --cluster %s: exit %d\n%s", n, code, stderr)
		}
	}
	if code, stdout, stderr := runCLI("validate", "--repo", repo); code != 0 || strings.Count(stdout, ": valid") != len(names) {
		t.Fatalf("validate: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI("render", "--repo", repo); code != 0 || strings.Count(stdout, "applications/overlays/") != len(names) {
		t.Fatalf("render: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for name, env := range map[string]string{"prod-01": "    env: prod\n", "k8s-prod-2": "    env: prod\n", "eu-west-1": "    # env: prod   # free text"} {
		// From --env, from the part of the name that names an environment,
		// else none (not "1" of eu-west-1).
		if text, _ := os.ReadFile(filepath.Join(repo, "."+name+"-config.yaml")); !strings.Contains(string(text), env) {
			t.Errorf("%s: env: %s", name, text)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, schemaModeline)); err != nil {
		t.Errorf("init did not write the schema its modeline names: %v", err)
	}
}
