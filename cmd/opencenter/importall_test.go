package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// answer is how TestImportEachConfig settles one problem validate reports
// after an import, as a user would: a value for the path the problem
// names, or for another field its message points to.
type answer struct {
	problem *regexp.Regexp // matches "path: message"
	set     func(cluster string, m []string) (path string, value any)
}

// answers settle every decision that import leaves to validate. A problem
// none of them matches fails the test: it is one the migration guide does
// not explain.
var answers = []answer{
	{regexp.MustCompile(`^opencenter\.gitops\.repository\.url: required`), func(c string, _ []string) (string, any) {
		return "opencenter.gitops.repository.url", "ssh://git@git.example.com/platform/" + c + ".git"
	}},
	// A credential or connection: the Secret that already holds it.
	{regexp.MustCompile(`^\S+: required .*unless services\.([a-z0-9-]+)\.([a-z_]+) is set`), func(c string, m []string) (string, any) {
		return "opencenter.services." + m[1] + "." + m[2], m[1] + "-credentials"
	}},
	// What that Secret holds instead.
	{regexp.MustCompile(`^(\S+): is not used: .*; remove one of them$`), func(c string, m []string) (string, any) {
		return m[1], nil
	}},
	// The Secret name a chart fixes.
	{regexp.MustCompile(`^(\S+): ".*": .*: provide that Secret and set [a-z_]+ to ([a-z0-9-]+)$`), func(c string, m []string) (string, any) {
		return m[1], m[2]
	}},
	// An ACME issuer without DNS-01: a certificate of one's own.
	{regexp.MustCompile(`^opencenter\.services\.gateway\.listeners: the default https listener serves .*, a wildcard, which ACME issues only with DNS-01`), func(c string, _ []string) (string, any) {
		return "opencenter.services.gateway.tls_secret_name", c + "-wildcard-tls"
	}},
	// A service that requires another: enable it, as 'opencenter enable' does.
	{regexp.MustCompile(`^opencenter\.services\.[a-z0-9-]+: [a-z0-9-]+ requires ([a-z0-9-]+), which is not active`), func(c string, m []string) (string, any) {
		return "opencenter.services." + m[1] + ".enabled", true
	}},
	// Follows from the one above, in the next round.
	{regexp.MustCompile(`whose CRD no active unit installs: enable the service that provides it$`), func(string, []string) (string, any) {
		return "", nil
	}},
	{regexp.MustCompile(`^opencenter\.services\.metallb\.ip_pools: required`), func(c string, _ []string) (string, any) {
		return "opencenter.services.metallb.ip_pools", []any{map[string]any{"name": "lan", "addresses": []any{"192.0.2.16/28"}}}
	}},
	// A login page needs HTTPS: a certificate for the default listener.
	{regexp.MustCompile(`^opencenter\.services\.[a-z0-9-]+\.[a-z_]+: ".*" is served by no HTTPS listener`), func(c string, _ []string) (string, any) {
		return "opencenter.services.gateway.tls_secret_name", c + "-wildcard-tls"
	}},
}

// TestImportEachConfig: every openCenter-cli config of the test data
// imports; once the decisions validate names are answered, it validates,
// renders and verifies with no finding against the base release it names.
func TestImportEachConfig(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/import/opencenter-cli/*.yaml")
	inc, _ := filepath.Glob("../../testdata/import/opencenter-cli/handwritten-example-inc/.*-config.yaml")
	files = append(files, inc...)
	if len(files) < 14 {
		t.Fatalf("found %d configs", len(files))
	}
	// OPENCENTER_VERIFY_BASE names a checkout of the real base to verify
	// against instead of the stand-in, by hand: CI has no network.
	base := os.Getenv("OPENCENTER_VERIFY_BASE")
	if base == "" {
		base = indexedBase(t)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			repo := t.TempDir()
			if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("import", src, "--repo", repo, "--allow-plaintext-secrets")
			if code != 0 {
				t.Fatalf("import: exit %d: %s", code, stderr)
			}
			wrote := regexp.MustCompile(`wrote (\S+)`).FindStringSubmatch(stdout)
			if wrote == nil {
				t.Fatalf("import names no config written:\n%s", stdout)
			}
			cfg := wrote[1]
			cluster := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(cfg), "."), "-config.yaml")
			settled := settle(t, cfg, cluster)
			slices.Sort(settled)
			settled = slices.Compact(settled)
			t.Logf("%s: %d fields set: %s", cluster, len(settled), strings.Join(settled, ", "))

			if code, _, stderr := runCLI("render", "--repo", repo, "--allow-plaintext-secrets", cfg); code != 0 {
				t.Fatalf("render: exit %d: %s", code, stderr)
			}
			code, stdout, stderr = runCLI("verify", "--base", base, "-o", "json", cfg)
			var rep struct {
				Configs []struct {
					Findings []struct{ Unit, File, Message string } `json:"findings"`
				} `json:"configs"`
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Configs) != 1 {
				t.Fatalf("verify: exit %d, %v: %s%s", code, err, stdout, stderr)
			}
			for _, fd := range rep.Configs[0].Findings {
				t.Errorf("verify: %s: %s: %s", fd.Unit, fd.File, fd.Message)
			}
			if code != 0 {
				t.Errorf("verify: exit %d: %s", code, stderr)
			}
		})
	}
}

// settle runs validate on the config and answers its problems until it
// validates; it returns the paths it set.
func settle(t *testing.T, cfg, cluster string) []string {
	t.Helper()
	var set []string
	for round := 0; ; round++ {
		code, stdout, stderr := runCLI("validate", "--allow-plaintext-secrets", "-o", "json", cfg)
		if code == 0 {
			return set
		}
		var rep struct {
			Configs []struct {
				Problems []struct{ Path, Message string } `json:"problems"`
			} `json:"configs"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Configs) != 1 || len(rep.Configs[0].Problems) == 0 {
			t.Fatalf("validate: exit %d, %v: %s%s", code, err, stdout, stderr)
		}
		if round == 2 {
			t.Fatalf("validate after answering: %s", stdout)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(mustRead(t, cfg), &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Configs[0].Problems {
			line := p.Path + ": " + p.Message
			found := false
			for _, a := range answers {
				if m := a.problem.FindStringSubmatch(line); m != nil {
					if path, value := a.set(cluster, m); path != "" {
						setPath(doc, path, value)
						set = append(set, path)
					}
					found = true
					break
				}
			}
			if !found {
				t.Errorf("no answer for %s", line)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
		if err := os.WriteFile(cfg, yamlenc.Marshal(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// setPath sets the value at a dotted path of m; nil deletes it.
func setPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		sub, ok := m[k].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[k] = sub
		}
		m = sub
	}
	if v == nil {
		delete(m, keys[len(keys)-1])
		return
	}
	m[keys[len(keys)-1]] = v
}
