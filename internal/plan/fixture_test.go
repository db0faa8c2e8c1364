package plan

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/opencenter-dev/opencenter/internal/overlay"
)

const fixtureRepo = "../../testdata/fixture"

func fixtureConfigs(t *testing.T) []string {
	t.Helper()
	names, _ := filepath.Glob(fixtureRepo + "/.*-config.yaml")
	if len(names) != 5 {
		t.Fatalf("want the five fixture configs, got %v", names)
	}
	return names
}

// updating reports goldie's -update flag: the fixture trees are goldens too.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestFixtureInSync renders the five fixture configs and compares them with
// the committed trees in testdata/fixture/applications/overlays (refresh with
// go test ./... -update, through the renderer itself).
func TestFixtureInSync(t *testing.T) {
	for _, n := range fixtureConfigs(t) {
		// With the repository: an unchanged secret keeps its bytes.
		p, err := Build(loadConfig(t, n), Options{Repo: fixtureRepo})
		if err != nil {
			t.Fatal(err)
		}
		changes, err := overlay.Diff(fixtureRepo, &p.Tree, overlay.WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if updating() {
			if err := overlay.Apply(fixtureRepo, &p.Tree, changes); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, c := range overlay.Differences(changes) {
			t.Errorf("%s/%s would be %sd:\n%s", p.Overlay, c.Path, c.Op, udiff.Unified("committed", "rendered", string(c.Old), string(c.New)))
		}
	}
	if t.Failed() {
		t.Log("the committed fixture trees are stale: run go test ./internal/plan -update and read the changes")
	}
}

// TestFixtureWithTools: every fixture overlay passes kustomize and the Flux CRDs.
func TestFixtureWithTools(t *testing.T) {
	for _, n := range fixtureConfigs(t) {
		t.Run(filepath.Base(n), func(t *testing.T) { checkWithTools(t, plan(t, n)) })
	}
}

func readList(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// TestFixtureBaseFacts: every path a Flux unit applies from the base repo is a
// directory of gitops-base, and every values-override Secret generated is one
// that a base HelmRelease reads, in its namespace.
func TestFixtureBaseFacts(t *testing.T) {
	dirs := readList(t, "testdata/gitops-base-dirs.txt")
	values := readList(t, "testdata/gitops-base-values.txt")
	for _, n := range fixtureConfigs(t) {
		p := plan(t, n)
		baseSources := map[string]bool{}
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				if str(obj, "kind") == "GitRepository" && strings.Contains(str(obj, "spec", "url"), "openCenter-gitops-base") {
					baseSources[str(obj, "metadata", "name")] = true
				}
			}
		}
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				switch {
				case str(obj, "kind") == "Kustomization" && baseSources[str(obj, "spec", "sourceRef", "name")]:
					dir := strings.TrimPrefix(str(obj, "spec", "path"), "./applications/base/")
					if !slices.Contains(dirs, dir) {
						t.Errorf("%s: %s applies %s, which is not a directory of gitops-base", p.Cluster, str(obj, "metadata", "name"), str(obj, "spec", "path"))
					}
				case str(obj, "kind") == "Kustomization" && str(obj, "apiVersion") == "kustomize.config.k8s.io/v1beta1":
					gens, _ := field(obj, "secretGenerator").([]any)
					for _, g := range gens {
						name := str(g.(map[string]any), "name")
						if !strings.HasSuffix(name, "-values-override") {
							continue
						}
						ns := str(obj, "namespace")
						if !slices.Contains(values, ns+"/"+name) {
							t.Errorf("%s: %s generates %s/%s, which no base HelmRelease reads", p.Cluster, f.Path, ns, name)
						}
					}
				}
			}
		}
	}
}

func TestFixtureFileCounts(t *testing.T) {
	var counts []string
	for _, n := range fixtureConfigs(t) {
		p := plan(t, n)
		counts = append(counts, fmt.Sprintf("%s=%d", p.Cluster, len(p.Files)))
		if len(p.Files) < 50 {
			t.Errorf("%s renders only %d files", p.Cluster, len(p.Files))
		}
	}
	t.Log(strings.Join(counts, " "))
}
