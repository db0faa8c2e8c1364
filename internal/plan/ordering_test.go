package plan

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/fluxorder"
	"github.com/opencenter-dev/opencenter/internal/toolcheck"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestCRDOrdering checks, independently of how the renderer derives it,
// that every fixture Flux unit comes after the Flux unit installing the CRDs
// of what it applies: objects are taken from a kustomize build of overlay
// paths and from the committed base index for base paths; providers from
// the catalog's provides and the CRDs the base commits.
func TestCRDOrdering(t *testing.T) {
	indexes := baseIndexes(t)
	for _, p := range corpusPlans(t) {
		tree := toolcheck.Tree{}
		repos := map[string]map[string]any{}
		units := map[string]map[string]any{}
		for _, f := range p.Files {
			tree[p.Overlay+"/"+f.Path] = f.Data
			for _, obj := range documents(t, f.Path, f.Data) {
				switch {
				case str(obj, "kind") == "GitRepository":
					repos[str(obj, "metadata", "name")] = obj
				case strings.HasPrefix(str(obj, "apiVersion"), "kustomize.toolkit.fluxcd.io"):
					units[str(obj, "metadata", "name")] = obj
				}
			}
		}
		providers := map[string]string{}
		for _, u := range generated.Units {
			for _, fu := range u.FluxUnits {
				if units[fu.Name] != nil {
					for _, g := range fu.Provides {
						providers[g] = fu.Name
					}
				}
			}
		}
		groups := map[string][]string{} // Flux unit -> API groups it applies
		for name, k := range units {
			path := strings.TrimPrefix(str(k, "spec", "path"), "./")
			if strings.HasPrefix(path, p.Overlay+"/") {
				out, err := toolcheck.Kustomize(tree, path, p.Overlay+"/services/base")
				if err != nil {
					t.Fatal(err)
				}
				for _, doc := range strings.Split(string(out), "\n---\n") {
					var o struct {
						APIVersion string `json:"apiVersion"`
					}
					if sigsyaml.Unmarshal([]byte(doc), &o) == nil {
						groups[name] = append(groups[name], o.APIVersion)
					}
				}
				continue
			}
			src := repos[str(k, "spec", "sourceRef", "name")]
			x := indexes[str(src, "spec", "ref", "tag")+str(src, "spec", "ref", "branch")]
			if x == nil || !strings.Contains(str(src, "spec", "url"), "openCenter-gitops-base") {
				continue // the customer's repository: not known offline
			}
			d, ok := x.Dir(path)
			if !ok {
				t.Fatalf("%s: %s applies %s, which base %s does not hold", p.Cluster, name, path, x.Ref)
			}
			for _, o := range d.Objects {
				groups[name] = append(groups[name], o.APIVersion)
				if o.CRDGroup != "" {
					providers[o.CRDGroup] = name
				}
			}
		}
		ordered := 0
		for name, apiVersions := range groups {
			after := closure(units, name)
			for _, av := range apiVersions {
				g, _, ok := strings.Cut(av, "/")
				if !ok {
					continue
				}
				if prov, ok := providers[g]; ok && prov != name {
					if !after[prov] {
						t.Errorf("%s: %s applies %s objects before %s has installed their CRDs", p.Cluster, name, g, prov)
					}
					ordered++
				}
			}
		}
		if ordered == 0 {
			t.Errorf("%s: no object of a CRD-provided group found: the test checked nothing", p.Cluster)
		}
	}
}

// fluxUnits are a plan's Flux Kustomizations by name.
func fluxUnits(t *testing.T, p *Plan) map[string]map[string]any {
	t.Helper()
	units := map[string]map[string]any{}
	for _, f := range p.Files {
		if strings.HasPrefix(f.Path, "services/fluxcd/") {
			for _, obj := range documents(t, f.Path, f.Data) {
				units[str(obj, "metadata", "name")] = obj
			}
		}
	}
	return units
}

// closure is every Flux unit name reachable through dependsOn from name.
func closure(units map[string]map[string]any, name string) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		deps, _ := field(units[n], "spec", "dependsOn").([]any)
		for _, d := range deps {
			if dn := str(d.(map[string]any), "name"); !seen[dn] {
				seen[dn] = true
				visit(dn)
			}
		}
	}
	visit(name)
	return seen
}

// decodedObjects reads the objects of a manifest file by decoding each
// document with yaml.v3, the reference appendObjects is held to.
func decodedObjects(data []byte) []fluxorder.Object {
	var out []fluxorder.Object
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Metadata   struct {
				Name      string `yaml:"name"`
				Namespace string `yaml:"namespace"`
			} `yaml:"metadata"`
			Spec struct {
				Group string `yaml:"group"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			return out
		}
		if doc.Kind == "" {
			continue
		}
		g, _, ok := strings.Cut(doc.APIVersion, "/")
		if !ok {
			g = ""
		}
		o := fluxorder.Object{Group: g, Kind: doc.Kind, Name: doc.Metadata.Name, Namespace: doc.Metadata.Namespace}
		if doc.Kind == "CustomResourceDefinition" {
			o.CRDGroup = doc.Spec.Group
		}
		out = append(out, o)
	}
}

// TestObjectsAgreeWithDecoder: appendObjects reads every rendered file of
// the fixture and the test configs, and manifests of other shapes, as
// decoding them with yaml.v3 does.
func TestObjectsAgreeWithDecoder(t *testing.T) {
	names := fixtureConfigs(t)
	more, _ := filepath.Glob("testdata/configs/*.yaml")
	read := 0
	for _, n := range append(names, more...) {
		p := plan(t, n)
		for _, f := range p.Files {
			got, want := appendObjects(nil, f.Data), decodedObjects(f.Data)
			if len(want) > 0 {
				read++
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s/%s: read %+v, decoded %+v", p.Overlay, f.Path, got, want)
			}
		}
	}
	if read < 500 {
		t.Errorf("only %d files hold objects", read)
	}
	for _, doc := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flow}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"esc\\u0041ped\"\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &anchor x\n  namespace: *anchor\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tab\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# only a comment\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: b\nspec:\n  group: g.io\n",
		"kind: Namespace\nmetadata:\n  name: 'quoted'\n  namespace: null\n",
	} {
		if got, want := appendObjects(nil, []byte(doc)), decodedObjects([]byte(doc)); !slices.Equal(got, want) {
			t.Errorf("%q: read %+v, decoded %+v", doc, got, want)
		}
	}
}

// TestKnownObjectsAgreeWithDecoder: the object the builder records for a
// file it wrote from a Go value is the one decoding the file gives.
func TestKnownObjectsAgreeWithDecoder(t *testing.T) {
	more, _ := filepath.Glob("testdata/configs/*.yaml")
	known := 0
	for _, n := range append(fixtureConfigs(t), more...) {
		b := newBuilder(loadConfig(t, n), Options{AllowPlaintextSecrets: true})
		if _, err := b.build(); err != nil {
			continue // the test configs that do not plan
		}
		for _, f := range b.files {
			if f.object == nil {
				continue
			}
			known++
			if want := decodedObjects(f.Data); len(want) != 1 || *f.object != want[0] {
				t.Errorf("%s/%s: known as %+v, decoded %+v", b.p.Overlay, f.Path, *f.object, want)
			}
		}
	}
	if known < 50 {
		t.Errorf("only %d files have a known object: the sources should", known)
	}
}

// BenchmarkReadObjects reads the objects of every rendered file of the
// k8s-dev fixture cluster.
func BenchmarkReadObjects(b *testing.B) {
	p := plan(b, "../../testdata/fixture/.k8s-dev-config.yaml")
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range p.Files {
			appendObjects(nil, f.Data)
		}
	}
}

// TestValuesBeforeFirstInstall: in every corpus plan, the Flux unit applying
// a base HelmRelease (the one whose health check names it) follows, directly
// or transitively, the Flux unit applying the values override Secret the
// HelmRelease reads. helm-controller installs a release with the values it
// finds, and skips an optional reference it does not: what a chart reads
// only at install (an initial password, volume claim templates) would
// otherwise keep the base's values.
func TestValuesBeforeFirstInstall(t *testing.T) {
	checked := 0
	for _, p := range corpusPlans(t) {
		units := map[string]map[string]any{}
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				if strings.HasPrefix(str(obj, "apiVersion"), "kustomize.toolkit.fluxcd.io") {
					units[str(obj, "metadata", "name")] = obj
				}
			}
		}
		deps := func(obj map[string]any) []string {
			var out []string
			list, _ := obj["spec"].(map[string]any)["dependsOn"].([]any)
			for _, d := range list {
				out = append(out, str(d.(map[string]any), "name"))
			}
			return out
		}
		var follows func(name, want string, seen map[string]bool) bool
		follows = func(name, want string, seen map[string]bool) bool {
			for _, d := range deps(units[name]) {
				if d == want || !seen[d] && units[d] != nil && func() bool { seen[d] = true; return follows(d, want, seen) }() {
					return true
				}
			}
			return false
		}
		// A unit that takes a Namespace out of its build leaves it to a unit
		// of the same source that keeps it, and depends on that one
		// directly: Flux checks only a direct dependency's latest spec, and
		// on a running cluster the first would otherwise let the Namespace
		// go (deleting it) before the other takes it over.
		deletes := func(obj map[string]any, ns string) bool {
			patches, _ := obj["spec"].(map[string]any)["patches"].([]any)
			return slices.ContainsFunc(patches, func(p any) bool {
				m := p.(map[string]any)
				return str(m, "target", "kind") == "Namespace" && str(m, "target", "name") == ns && strings.HasPrefix(str(m, "patch"), "$patch: delete\n")
			})
		}
		for name, obj := range units {
			patches, _ := obj["spec"].(map[string]any)["patches"].([]any)
			for _, pt := range patches {
				ns := str(pt.(map[string]any), "target", "name")
				if str(pt.(map[string]any), "target", "kind") != "Namespace" {
					continue
				}
				if !slices.ContainsFunc(deps(obj), func(d string) bool {
					return units[d] != nil && !deletes(units[d], ns) && str(units[d], "spec", "sourceRef", "name") == str(obj, "spec", "sourceRef", "name")
				}) {
					t.Errorf("%s: %s takes Namespace %s out of its build, but depends directly on no unit of its source that applies it: %v", p.Config, name, ns, deps(obj))
				}
			}
		}
		for _, u := range generated.Units {
			for _, fu := range u.FluxUnits {
				if obj := units[fu.Name]; obj != nil && len(fu.Only) > 0 && str(obj, "spec", "deletionPolicy") != "Orphan" {
					t.Errorf("%s: %s applies a service's Namespace without deletionPolicy Orphan: removing the unit would delete the Namespace and all in it", p.Config, fu.Name)
				}
			}
			override := u.Name + "-override"
			if u.ValuesSecret == "" || units[override] == nil {
				continue
			}
			for name, obj := range units {
				hcs, _ := obj["spec"].(map[string]any)["healthChecks"].([]any)
				if !slices.ContainsFunc(hcs, func(h any) bool {
					m := h.(map[string]any)
					return str(m, "kind") == "HelmRelease" && str(m, "name") == u.HelmRelease
				}) {
					continue
				}
				checked++
				if !follows(name, override, map[string]bool{}) {
					t.Errorf("%s: %s applies HelmRelease %s before %s applies its values Secret %s: %v", p.Config, name, u.HelmRelease, override, u.ValuesSecret, deps(obj))
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no corpus plan has a standard unit: the test checked nothing")
	}
	t.Logf("%d base HelmRelease units checked", checked)
}
