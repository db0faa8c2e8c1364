package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outsideFile writes a file outside the repository whose content stands
// for a kubeconfig, and returns its path and a marker of its content.
func outsideFile(t *testing.T) (string, string) {
	t.Helper()
	const marker = "Zq9KubeconfigClientKey"
	f := filepath.Join(t.TempDir(), "kubeconfig")
	// A YAML mapping, so that it would merge as Helm values if it were read.
	os.WriteFile(f, []byte("client-key-data: "+marker+"\n"), 0o600)
	return f, marker
}

// TestSymlinksOutOfTheRepositoryAreRefused: a pull request that points a
// unit's local/values.yaml, local/kustomization.yaml or local/ itself, or a
// config, at a file outside the repository gets exit 3 from render, render
// --diff, render --check, validate and verify, naming the path; the file's
// content is printed nowhere and written nowhere, and nothing is written.
func TestSymlinksOutOfTheRepositoryAreRefused(t *testing.T) {
	outside, marker := outsideFile(t)
	const overlay = "applications/overlays/k8s-dev"
	const unitLocal = overlay + "/services/loki/local"
	for _, c := range []struct {
		name string
		link string // the link, in the repository
		to   func() string
	}{
		{"local/values.yaml", unitLocal + "/values.yaml", func() string { return outside }},
		{"local/kustomization.yaml", unitLocal + "/kustomization.yaml", func() string { return outside }},
		{"local/ itself", unitLocal, func() string { return filepath.Dir(outside) }},
		{"a relative link", unitLocal + "/values.yaml", func() string { return "../../../../../../../" + strings.TrimPrefix(outside, "/") }},
		{"the config", ".k8s-dev-config.yaml", func() string { return outside }},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := fixtureRepo(t)
			if code, _, stderr := runCLI("render", "--repo", repo, ".k8s-dev-config.yaml"); code != 0 {
				t.Fatalf("first render: exit %d\n%s", code, stderr)
			}
			link := filepath.Join(repo, c.link)
			os.MkdirAll(filepath.Dir(link), 0o755)
			os.Remove(link)
			if err := os.Symlink(c.to(), link); err != nil {
				t.Fatal(err)
			}
			before := treeHashes(t, filepath.Join(repo, overlay))
			for _, args := range [][]string{{"render"}, {"render", "--diff"}, {"render", "--check"}, {"validate"}, {"verify", "--base", t.TempDir()}} {
				code, stdout, stderr := runCLI(append(args, "--repo", repo, ".k8s-dev-config.yaml")...)
				if strings.Contains(stdout+stderr, marker) {
					t.Errorf("%s: prints the outside file:\n%s%s", args, stdout, stderr)
				}
				if args[0] == "verify" && c.name != "the config" {
					continue // its base is refused first; the render's refusal is render's
				}
				if code != exitRefused || !strings.Contains(stderr, link) || !strings.Contains(stderr, "leads out of the repository") {
					t.Errorf("%s: exit %d, want 3 naming %s:\n%s%s", args, code, link, stdout, stderr)
				}
			}
			if after := treeHashes(t, filepath.Join(repo, overlay)); len(after) != len(before) {
				t.Errorf("the overlay changed: %d files, then %d", len(before), len(after))
			} else {
				for p, h := range before {
					if after[p] != h {
						t.Errorf("%s changed", p)
					}
				}
			}
		})
	}
}

// TestLocalYAMLErrorsQuoteNothing: a local/ file that is not what it
// should be is reported with its path and line, never its content.
func TestLocalYAMLErrorsQuoteNothing(t *testing.T) {
	for name, content := range map[string]string{
		// yaml.v3 quotes a scalar it cannot decode into a mapping.
		"values.yaml":        "Zq9kubeconfigToken\n",
		"kustomization.yaml": "Zq9kubeconfigToken\n",
	} {
		t.Run(name, func(t *testing.T) {
			repo := fixtureRepo(t)
			local := filepath.Join(repo, "applications/overlays/k8s-dev/services/loki/local")
			os.MkdirAll(local, 0o755)
			os.WriteFile(filepath.Join(local, name), []byte(content), 0o644)
			code, stdout, stderr := runCLI("render", "--repo", repo, ".k8s-dev-config.yaml")
			if code != exitBadInput || strings.Contains(stdout+stderr, "Zq9") || !strings.Contains(stderr, filepath.Join(local, name)) || !strings.Contains(stderr, "line 1") {
				t.Errorf("exit %d:\n%s%s", code, stdout, stderr)
			}
		})
	}
}
