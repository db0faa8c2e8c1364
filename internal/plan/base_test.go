package plan

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/baseindex"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// ns is where an object of the base ends up under the unit's target namespace.
func (u baseUnit) ns(namespace, kind string) string {
	if u.target != "" && !catalog.ClusterScoped(kind) {
		return u.target
	}
	return namespace
}

// baseUnit is a Flux unit applying a path of the base.
type baseUnit struct {
	name, ref, path, target string
	k                       map[string]any
	d                       *baseindex.Dir
}

// TestFixtureAgainstBaseIndex checks every fixture cluster against the
// committed index of the base release each of its base sources follows:
// every base path exists there; health checks name objects it creates (in
// the namespace the target namespace puts them); every HelmRelease finds
// its chart source, its base values, and the override Secret the overlay
// generates in its namespace with the key it reads.
func TestFixtureAgainstBaseIndex(t *testing.T) {
	indexes := baseIndexes(t)
	for _, p := range corpusPlans(t) {
		repos := map[string]map[string]any{}
		var units []map[string]any
		overrides := map[string]string{} // namespace/Secret -> key, from the overlay's secretGenerators
		for _, f := range p.Files {
			for _, obj := range documents(t, f.Path, f.Data) {
				switch str(obj, "kind") {
				case "GitRepository":
					repos[str(obj, "metadata", "name")] = obj
				case "Kustomization":
					if strings.HasPrefix(str(obj, "apiVersion"), "kustomize.toolkit.fluxcd.io") {
						units = append(units, obj)
						continue
					}
					gens, _ := field(obj, "secretGenerator").([]any)
					for _, g := range gens {
						m := g.(map[string]any)
						for _, file := range m["files"].([]any) {
							key, _, _ := strings.Cut(file.(string), "=")
							overrides[str(obj, "namespace")+"/"+str(m, "name")] = key
						}
					}
				}
			}
		}
		var based []baseUnit
		built := map[string]bool{} // kind/namespace/name of every object the base units build
		for _, k := range units {
			name := str(k, "metadata", "name")
			src := repos[str(k, "spec", "sourceRef", "name")]
			if src == nil || !strings.Contains(str(src, "spec", "url"), "openCenter-gitops-base") {
				continue
			}
			ref := str(src, "spec", "ref", "tag") + str(src, "spec", "ref", "branch")
			x := indexes[ref]
			if x == nil {
				t.Errorf("%s: %s follows base %s, which has no committed index", p.Cluster, name, ref)
				continue
			}
			path := strings.TrimPrefix(str(k, "spec", "path"), "./")
			d, ok := x.Dir(path)
			if !ok {
				t.Errorf("%s: %s applies %s, which base %s does not hold", p.Cluster, name, path, ref)
				continue
			}
			u := baseUnit{name, ref, path, str(k, "spec", "targetNamespace"), k, d}
			based = append(based, u)
			for _, o := range d.Objects {
				built[o.Kind+"/"+u.ns(o.Namespace, o.Kind)+"/"+o.Name] = true
			}
		}
		for _, u := range based {
			name, ref, path, k, d, ns := u.name, u.ref, u.path, u.k, u.d, u.ns
			hcs, _ := field(k, "spec", "healthChecks").([]any)
			for _, h := range hcs {
				h := h.(map[string]any)
				if id := str(h, "kind") + "/" + str(h, "namespace") + "/" + str(h, "name"); !built[id] {
					t.Errorf("%s: %s health check %s: base %s creates no such object under %s", p.Cluster, name, id, ref, path)
				}
			}
			for _, hr := range d.HelmReleases {
				hrNS := ns(hr.Namespace, "HelmRelease")
				srcNS := hr.Source.Namespace
				if srcNS == "" {
					srcNS = hr.Namespace
				}
				if !built[hr.Source.Kind+"/"+srcNS+"/"+hr.Source.Name] {
					t.Errorf("%s: %s: HelmRelease %s reads its chart from %s %s/%s, which the build does not put there", p.Cluster, name, hr.Name, hr.Source.Kind, srcNS, hr.Source.Name)
				}
				for _, v := range hr.ValuesFrom {
					switch {
					case built[v.Kind+"/"+hrNS+"/"+v.Name]:
					case v.Optional:
						if key, ok := overrides[hrNS+"/"+v.Name]; ok && key != v.ValuesKey {
							t.Errorf("%s: %s: the overlay's %s carries key %s, HelmRelease %s reads %s", p.Cluster, name, v.Name, key, hr.Name, v.ValuesKey)
						}
					default:
						t.Errorf("%s: %s: HelmRelease %s needs %s %s/%s, which base %s does not create", p.Cluster, name, hr.Name, v.Kind, hrNS, v.Name, ref)
					}
				}
			}
		}
		if len(based) == 0 {
			t.Errorf("%s: no Flux unit applies a base path: the test checked nothing", p.Cluster)
		}
	}
}

// baseIndexes loads the committed index of every supported base release, by ref.
func baseIndexes(t *testing.T) map[string]*baseindex.Index {
	t.Helper()
	indexes := map[string]*baseindex.Index{}
	files, _ := filepath.Glob("../../descriptors/base-index/*.json")
	for _, f := range files {
		x, err := baseindex.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		indexes[x.Ref] = x
	}
	if len(indexes) == 0 {
		t.Fatal("no committed base index")
	}
	return indexes
}
