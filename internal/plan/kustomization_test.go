package plan

import (
	"testing"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// TestKustomizationWriters holds the direct writers of the computed
// kustomizations to what yamlenc.Marshal writes for the same document, for
// values YAML would read as something else too.
func TestKustomizationWriters(t *testing.T) {
	strs := []string{"", "observability", "a.yaml", "./local", "true", "null", "- x", "a: b", "#c", "x #y",
		"two\nlines", "ends\n", "  lead", "tab\tin", "\u2028", "q\"uote", "é", "*ref", "&anchor", "[1]", "{}", "0x1F"}
	lists := [][]string{nil, {"a.yaml"}, strs}
	anys := func(ss []string) []any {
		out := make([]any, len(ss))
		for i, s := range ss {
			out[i] = s
		}
		return out
	}
	n := 0
	for _, ns := range strs {
		for _, res := range lists {
			want := map[string]any{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": anys(res)}
			if ns != "" {
				want["namespace"] = ns
			}
			if got := kustomizationYAML(nil, ns, res); string(got) != string(yamlenc.Marshal(want)) {
				t.Errorf("kustomizationYAML(%q, %q):\n%s\nwant\n%s", ns, res, got, yamlenc.Marshal(want))
			}
			for _, comps := range lists {
				for _, secret := range []string{"loki-values-override", ns} {
					want := map[string]any{
						"apiVersion":       "kustomize.config.k8s.io/v1beta1",
						"kind":             "Kustomization",
						"namespace":        ns,
						"generatorOptions": map[string]any{"disableNameSuffixHash": true},
						"secretGenerator":  []any{map[string]any{"name": secret, "files": []any{catalog.OverrideValuesKey + "=" + valuesFile}}},
					}
					if len(res) > 0 {
						want["resources"] = anys(res)
					}
					if len(comps) > 0 {
						want["components"] = anys(comps)
					}
					n++
					if got := standardKustomization(nil, ns, secret, res, comps); string(got) != string(yamlenc.Marshal(want)) {
						t.Errorf("standardKustomization(%q, %q, %q, %q):\n%s\nwant\n%s", ns, secret, res, comps, got, yamlenc.Marshal(want))
					}
				}
			}
		}
	}
	t.Logf("%d standard kustomizations compared", n)
}
