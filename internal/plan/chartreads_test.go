package plan

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/overlay"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestChartsReadEveryValue: every value the corpus plans (the fixture
// configs and the units' examples) set in a chart's values file, or in a
// values Secret of the unit's (values_from), is one the chart reads (the
// descriptor's charts[].reads), with the switch the chart reads it under
// on (gates), and the values the chart requires are set (required). The
// generator holds every base release to the chart version the facts were
// read off; every chart record that reads values is checked by a plan.
func TestChartsReadEveryValue(t *testing.T) {
	seen, required := map[string]bool{}, map[string]bool{}
	for _, ct := range corpusTargets(t) {
		f := checkedDoc(t, ct.name, ct.doc)
		f.Config.OpenCenter.GitOps.OverlayUnits.SOPS.Enabled = false // values Secrets in plaintext
		plan, err := Build(f, Options{AllowPlaintextSecrets: true})
		if err != nil {
			t.Fatalf("%s: %v", ct.name, err)
		}
		for _, pf := range plan.Files {
			u, ch, values, ok := chartValues(t, pf)
			if !ok || len(values) == 0 {
				continue
			}
			if ch == nil {
				t.Errorf("%s: no record of what the chart reading these values reads: give unit %s's chart in charts of %s", pf.Path, u.Name, u.Descriptor)
				continue
			}
			key := u.Name + " " + ch.Values
			for _, v := range leafPaths(values, "") {
				seen[key] = true
				if !slices.ContainsFunc(ch.Reads, func(r string) bool { return v == r || strings.HasPrefix(v, r+".") }) {
					t.Errorf("%s (%s): %s is a value chart %s %s does not read (%s: charts[].reads)", pf.Path, ct.name, v, ch.Chart, ch.Version, u.Descriptor)
				}
			}
			for _, r := range ch.Required {
				required[key+" "+r.Path] = true
				set := valuesAt(values, strings.Split(r.Path, "."))
				if s, _ := firstOf(set).(string); s == "" {
					t.Errorf("%s (%s): %s is not set, and chart %s %s requires it: Helm would refuse the install (%s)", pf.Path, ct.name, r.Path, ch.Chart, ch.Version, r.Read)
				}
			}
			for _, g := range ch.Gates {
				set := slices.ContainsFunc(valuesAt(values, strings.Split(g.Under, ".")), func(x any) bool { l, isList := x.([]any); return !isList || len(l) > 0 })
				at := g.Base
				for _, x := range valuesAt(values, strings.Split(g.Gate, ".")) {
					at, _ = x.(bool)
				}
				if set && at != g.Open {
					t.Errorf("%s (%s): %s is set, and chart %s %s reads it only when %s is %v (%s)", pf.Path, ct.name, g.Under, ch.Chart, ch.Version, g.Gate, g.Open, g.Read)
				}
			}
		}
	}
	for _, u := range generated.Units {
		for _, ch := range u.Charts {
			key := u.Name + " " + ch.Values
			if len(ch.Reads) > 0 && !seen[key] {
				t.Errorf("no corpus plan sets a value of %s (unit %s): its record is not checked", ch.Values, u.Name)
			}
			for _, r := range ch.Required {
				if !required[key+" "+r.Path] {
					t.Errorf("no corpus plan renders %s (unit %s): its requirement %s is not checked", ch.Values, u.Name, r.Path)
				}
			}
		}
	}
}

// chartValues returns the values a plan's file holds for a chart, with the
// chart's record and unit: a chart's values file (a HelmRelease's
// spec.values), or the values.yaml of a Secret the unit's base
// HelmRelease reads (values_from). ch is nil for a file under helm-values/
// that no chart record names. ok is false for any other file.
func chartValues(t *testing.T, pf overlay.File) (u *catalog.Unit, ch *catalog.Chart, values map[string]any, ok bool) {
	t.Helper()
	u = unitNamed(pf.Unit)
	if u == nil {
		return nil, nil, nil, false
	}
	data := pf.Data
	ch = chartOfValues(u, pf.Path)
	switch {
	case ch != nil:
	case strings.Contains(pf.Path, "/helm-values/"):
	default:
		docs := documents(t, pf.Path, data)
		if len(docs) != 1 || str(docs[0], "kind") != "Secret" || str(docs[0], "stringData", catalog.ValuesKey) == "" {
			return nil, nil, nil, false
		}
		data = []byte(str(docs[0], "stringData", catalog.ValuesKey))
		for i := range u.Charts {
			if u.HelmRelease != "" && u.Charts[i].HelmRelease == u.HelmRelease {
				ch = &u.Charts[i]
			}
		}
	}
	if err := yaml.Unmarshal(data, &values); err != nil {
		t.Fatalf("%s: %v", pf.Path, err)
	}
	if str(values, "kind") == "HelmRelease" {
		values, _ = field(values, "spec", "values").(map[string]any)
	}
	return u, ch, values, true
}

// unitNamed is the catalog's unit of that name, nil for none.
func unitNamed(name string) *catalog.Unit {
	for i := range generated.Units {
		if generated.Units[i].Name == name {
			return &generated.Units[i]
		}
	}
	return nil
}

// chartOfValues is the chart of u whose values file is at path, nil for none.
func chartOfValues(u *catalog.Unit, path string) *catalog.Chart {
	for i := range u.Charts {
		if u.Charts[i].Values == path {
			return &u.Charts[i]
		}
	}
	return nil
}

// firstOf is the first of values, or nil.
func firstOf(values []any) any {
	if len(values) == 0 {
		return nil
	}
	return values[0]
}

// leafPaths returns the dotted paths of the scalars and lists in v.
func leafPaths(v any, at string) []string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return []string{at}
	}
	var out []string
	for k, x := range m {
		out = append(out, leafPaths(x, strings.TrimPrefix(at+"."+k, "."))...)
	}
	return out
}
