package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/gitrepo/gitrepotest"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// secretShapes are values of every YAML type a secret may be given by
// mistake, and strings that break the checks of secret fields (length,
// characters, form), each holding a marker that must never be printed.
var secretShapes = []struct {
	name, yaml, marker string
}{
	{"number", "4815162342", "4815162342"},
	{"float", "8675309.25", "8675309.25"},
	{"boolean", "TRUE", "TRUE"},
	{"date", "2024-02-29", "2024-02-29"},
	{"list", "[Zq9listSummer2024]", "Zq9listSummer2024"},
	{"mapping", "{key: Zq9mapSummer2024}", "Zq9mapSummer2024"},
	{"short string", "Zq9s", "Zq9s"},
	{"odd characters", `"Zq9odd: {{ $HOME }} #x'\"%"`, "Zq9odd"},
	{"two lines", `"Zq9line1\nZq9line2"`, "Zq9line"},
	{"long string", `"Zq9long` + strings.Repeat("x", 100) + `"`, "Zq9longxxxx"},
}

// TestSecretValuesNeverPrinted sets every secret field of the schema, in
// turn, to every shape of secretShapes, in a plaintext config and in the
// same config encrypted, and runs validate, render --check, render --diff
// and, where those refuse it, render, and diff against the fixture as
// committed: whatever the error, no output holds the value. diff runs for
// the encrypted config only where it is invalid: a valid one renders as
// its plaintext twin does.
func TestSecretValuesNeverPrinted(t *testing.T) {
	const fixture = "../../testdata/fixture/"
	plain, err := fixturekey.Decrypt(mustRead(t, fixture+".k8s-dev-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	policy := mustRead(t, fixture+".sops.yaml")
	var paths []string
	for _, f := range generated.Fields {
		if f.Secret && f.Kind == catalog.KindString {
			paths = append(paths, f.Path)
		}
	}
	if len(paths) < 35 {
		t.Fatalf("only %d secret fields in the schema", len(paths))
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			// The fixture's dev cluster as committed, for diff to compare with.
			committed := t.TempDir()
			os.WriteFile(filepath.Join(committed, ".k8s-dev-config.yaml"), plain, 0o644)
			os.WriteFile(filepath.Join(committed, ".sops.yaml"), policy, 0o644)
			gitrepotest.CopyDir(t, fixture+"applications/overlays/k8s-dev", filepath.Join(committed, "applications/overlays/k8s-dev"))
			gitrepotest.Git(t, committed, "init", "-q", "-b", "main")
			gitrepotest.Git(t, committed, "add", "-A")
			gitrepotest.Git(t, committed, "commit", "-q", "-m", "dev")
			for _, shape := range secretShapes {
				for _, encrypted := range []bool{false, true} {
					repo := t.TempDir()
					cfg := filepath.Join(repo, ".k8s-dev-config.yaml")
					os.WriteFile(cfg, withValue(t, plain, p, shape.yaml), 0o644)
					os.WriteFile(filepath.Join(repo, ".sops.yaml"), policy, 0o644)
					if encrypted {
						if code, _, stderr := runCLI("secrets", "encrypt", cfg); code != 0 {
							t.Fatalf("%s: secrets encrypt: exit %d\n%s", shape.name, code, stderr)
						}
					}
					checked := exitOK
					for _, args := range [][]string{{"validate"}, {"render", "--check"}, {"render", "--diff"}, {"render"}} {
						if args[0] == "render" && len(args) == 1 && checked != exitBadInput {
							continue // a render that writes prints a summary only; the tree is --diff's
						}
						code, stdout, stderr := runCLI(append(args, "--repo", repo, cfg)...)
						if len(args) == 2 && args[1] == "--check" {
							checked = code
						}
						if out := stdout + stderr; strings.Contains(out, shape.marker) {
							t.Errorf("%s (encrypted %v): %s (exit %d) prints the value:\n%s", shape.name, encrypted, strings.Join(args, " "), code, out)
						}
					}
					if encrypted && checked != exitBadInput {
						continue
					}
					data, _ := os.ReadFile(cfg)
					os.WriteFile(filepath.Join(committed, ".k8s-dev-config.yaml"), data, 0o644)
					// diff refuses what render --check refuses; a valid
					// value may change nothing (a service the cluster
					// does not run) or something.
					for _, output := range []string{"text", "json"} {
						code, stdout, stderr := runCLI("diff", "--repo", committed, "-o", output)
						valid := code == exitOK || code == exitDiffers
						if out := stdout + stderr; strings.Contains(out, shape.marker) || valid == (checked == exitBadInput) {
							t.Errorf("%s (encrypted %v): diff -o %s exits %d (render --check %d), or prints the value:\n%s", shape.name, encrypted, output, code, checked, out)
						}
					}
				}
			}
		})
	}
}

// withValue returns the config text with the scalar at dotted path
// replaced by, or created as, the YAML text value.
func withValue(t *testing.T, doc []byte, path, value string) []byte {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		t.Fatal(err)
	}
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		t.Fatal(err)
	}
	m := root.Content[0]
	keys := strings.Split(path, ".")
	for i, k := range keys {
		var next *yaml.Node
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value == k {
				next = m.Content[j+1]
			}
		}
		if i == len(keys)-1 {
			if next != nil {
				*next = *v.Content[0]
			} else {
				m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v.Content[0])
			}
			break
		}
		if next == nil || next.Kind != yaml.MappingNode {
			next = &yaml.Node{Kind: yaml.MappingNode}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, next)
		}
		m = next
	}
	out, err := yaml.Marshal(&root)
	if err != nil {
		t.Fatal(fmt.Errorf("%s: %w", path, err))
	}
	return out
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
