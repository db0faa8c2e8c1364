package plan

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
)

// sentinel is the item patchDrops puts in every list a patch sets.
const sentinel = "opencenter-sentinel"

// TestPatchesKeepTheBaseLists: a patch in a rendered kustomization adds to
// the lists of the base object it patches and drops none of their items.
// Kustomize merges the lists of a custom resource by replacing them (it
// knows no merge key for them), so a patch that sets, say, a Keycloak's
// additionalOptions would drop every option the base sets there. Each
// patch of every fixture plan is applied by kustomize itself to an object
// holding a sentinel item in every list the patch sets.
func TestPatchesKeepTheBaseLists(t *testing.T) {
	seen := 0
	for _, p := range corpusPlans(t) {
		for _, f := range p.Files {
			if path.Base(f.Path) != "kustomization.yaml" {
				continue
			}
			var k struct {
				Patches []struct {
					Patch string `yaml:"patch"`
				} `yaml:"patches"`
			}
			if err := yaml.Unmarshal(f.Data, &k); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			for _, pt := range k.Patches {
				if pt.Patch == "" || strings.HasPrefix(strings.TrimSpace(pt.Patch), "-") { // JSON 6902: adds or replaces by path
					continue
				}
				seen++
				if why := patchDrops(pt.Patch); why != "" {
					t.Errorf("%s: %s", f.Path, why)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no strategic-merge patch in the fixture plans: the test sees nothing")
	}
}

// kustomizePatched applies patches, a kustomization's patches list, with
// kustomize to the one object of base, and returns the patched object.
func kustomizePatched(base []byte, patches any) (map[string]any, error) {
	kust, err := yaml.Marshal(map[string]any{"resources": []string{"base.yaml"}, "patches": patches})
	if err != nil {
		return nil, err
	}
	b, err := fluxbuild.NewBuilder(fluxbuild.Tree{"app/base.yaml": base, "app/kustomization.yaml": kust})
	if err != nil {
		return nil, err
	}
	r, err := b.Build("app", "", nil)
	if err != nil {
		return nil, err
	}
	if len(r.Objects) != 1 {
		return nil, fmt.Errorf("the patched object built into %d objects", len(r.Objects))
	}
	return r.Objects[0].Body, nil
}

// patchDrops applies patch with kustomize to a copy of the object it
// patches whose every list holds only the sentinel, and says which lists
// lost it, or returns "".
func patchDrops(patch string) string {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(patch), &obj); err != nil {
		return err.Error()
	}
	var lists []string
	base := withSentinels(obj, "", &lists)
	if len(lists) == 0 {
		return ""
	}
	data, err := yaml.Marshal(base)
	if err != nil {
		return err.Error()
	}
	patched, err := kustomizePatched(data, []map[string]any{{"patch": patch}})
	if err != nil {
		return err.Error()
	}
	var dropped []string
	for _, l := range lists {
		var items []any
		for _, v := range valuesAt(patched, strings.Split(strings.TrimPrefix(l, "."), ".")) {
			items, _ = v.([]any)
		}
		if !slices.ContainsFunc(items, func(x any) bool { m, _ := x.(map[string]any); return x == sentinel || m["name"] == sentinel }) {
			dropped = append(dropped, l)
		}
	}
	if len(dropped) > 0 {
		meta, _ := obj["metadata"].(map[string]any)
		return fmt.Sprintf("the patch of %v %v replaces the base's %s, dropping what the base has there: patch a list of a custom resource with a JSON 6902 add, or not at all", obj["kind"], meta["name"], strings.Join(dropped, ", "))
	}
	return ""
}

// withSentinels copies v with every list replaced by one sentinel item (a
// mapping named by it in a list of mappings), and records the lists' paths.
func withSentinels(v any, at string, lists *[]string) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = withSentinels(x, at+"."+k, lists)
		}
		return out
	case []any:
		*lists = append(*lists, at)
		if len(v) > 0 {
			if _, ok := v[0].(map[string]any); ok {
				return []any{map[string]any{"name": sentinel}}
			}
		}
		return []any{sentinel}
	}
	return v
}
