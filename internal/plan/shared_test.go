package plan

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fluxbuild"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// TestSharedBaseObjectsHaveOneOwner: on the base's main branch, loki, mimir
// and tempo each list ../sources/grafana.yaml, which observability-sources
// applies too. Every base directory that lists another directory's file is
// followed here, from the index: its Flux unit takes the object out of its
// build with a Flux patch and depends on the unit that builds the file's
// directory, so that the object has one owner. The patch is then applied by
// kustomize, as kustomize-controller applies spec.patches, to a directory
// that lists the file as the base does.
func TestSharedBaseObjectsHaveOneOwner(t *testing.T) {
	var rel *catalog.BaseRelease
	for i := range generated.BaseReleases {
		if generated.BaseReleases[i].Ref == "main" {
			rel = &generated.BaseReleases[i]
		}
	}
	if rel == nil {
		t.Fatal("no index of the base's main branch")
	}
	// The descriptors order these units after their owners already; take
	// that away, so that the test sees the render order them itself.
	// A Flux unit applying only its path's Namespace (fu.Only) shares the
	// path with the unit applying the rest, which is the one followed here.
	byPath, only, onlyPaths := map[string]*catalog.FluxUnit{}, map[string]bool{}, map[string]bool{}
	for i := range generated.Units {
		for j := range generated.Units[i].FluxUnits {
			fu := &generated.Units[i].FluxUnits[j]
			if len(fu.Only) > 0 {
				only[fu.Name], onlyPaths[strings.TrimPrefix(fu.Path, "./")] = true, true
				continue
			}
			byPath[strings.TrimPrefix(fu.Path, "./")] = fu
		}
	}
	for dir, objs := range rel.Dirs {
		fu := byPath[dir]
		for _, o := range objs {
			if owner := byPath[o.Home]; fu != nil && owner != nil && slices.Contains(fu.DependsOn, owner.Name) {
				old := fu.DependsOn
				fu.DependsOn = slices.DeleteFunc(slices.Clone(old), func(n string) bool { return n == owner.Name })
				t.Cleanup(func() { fu.DependsOn = old })
			}
		}
	}
	p := planEdited(t, fixtureRepo+"/.k8s-dev-config.yaml", func(c *config.Config) {
		c.OpenCenter.GitOps.BaseRepo.Release, c.OpenCenter.GitOps.BaseRepo.Branch = "", "main"
	})
	units := map[string]kustomizev1.Kustomization{} // by spec.path
	for _, f := range p.Files {
		if path.Base(path.Dir(f.Path)) != "fluxcd" || path.Base(f.Path) == "kustomization.yaml" {
			continue
		}
		var k kustomizev1.Kustomization
		if err := sigsyaml.Unmarshal(f.Data, &k); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if only[k.Name] {
			continue
		}
		units[strings.TrimPrefix(k.Spec.Path, "./")] = k
	}
	seen := 0
	for dir, objs := range rel.Dirs {
		k, ok := units[dir]
		if !ok {
			continue
		}
		var shared []catalog.BaseObject
		for _, o := range objs {
			if home, ok := units[o.Home]; ok && o.Home != "" && slices.ContainsFunc(rel.Dirs[o.Home], func(h catalog.BaseObject) bool {
				return h.Kind == o.Kind && h.Name == o.Name && h.Namespace == o.Namespace
			}) {
				shared = append(shared, o)
				// Directly: Flux checks only a direct dependency's latest
				// spec, and a borrower that let the object go first would
				// delete it.
				if !slices.ContainsFunc(k.Spec.DependsOn, func(d kustomizev1.DependencyReference) bool { return d.Name == home.Name }) {
					t.Errorf("%s leaves %s %s to %s without depending on it directly: %v", k.Name, o.Kind, o.Name, home.Name, k.Spec.DependsOn)
				}
			}
		}
		// And one for each Namespace of its own it leaves to a Flux unit
		// applying only that.
		left := 0
		for _, o := range objs {
			if onlyPaths[dir] && o.Kind == "Namespace" && o.Home == "" {
				left++
			}
		}
		removals := 0
		for _, p := range k.Spec.Patches {
			if strings.HasPrefix(p.Patch, "$patch: delete\n") {
				removals++
			}
		}
		if removals != len(shared)+left {
			t.Errorf("%s has %d removal patches, want one for each of %d shared objects and %d Namespaces", k.Name, removals, len(shared), left)
			continue
		}
		if len(shared) == 0 {
			continue
		}
		seen++
		// The directory as the base has it: its own manifest, and each
		// shared object from its home directory's file.
		tree := fluxbuild.Tree{dir + "/own.yaml": []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: own\n  namespace: elsewhere\n")}
		resources := []string{"own.yaml"}
		for i, o := range shared {
			file := o.Home + "/shared-" + string(rune('a'+i)) + ".yaml"
			tree[file] = []byte("apiVersion: " + o.APIVersion + "\nkind: " + o.Kind + "\nmetadata:\n  name: " + o.Name + "\n  namespace: " + o.Namespace + "\n")
			rp, _ := filepath.Rel(dir, file)
			resources = append(resources, rp)
		}
		kust, _ := sigsyaml.Marshal(map[string]any{"resources": resources})
		tree[dir+"/kustomization.yaml"] = kust
		r := buildAs(t, tree, dir, &k)
		if got := ids(r); len(got) != 1 || !strings.HasPrefix(got[0], "ConfigMap/") {
			t.Errorf("%s builds %v: want its own object only", k.Name, got)
		}
	}
	if seen == 0 {
		t.Error("no Flux unit on main shares an object: the test sees nothing")
	}
}

// buildAs builds dir of tree as kustomize-controller builds it for Flux
// unit k: its target namespace and patches.
func buildAs(t *testing.T, tree fluxbuild.Tree, dir string, k *kustomizev1.Kustomization) *fluxbuild.Result {
	t.Helper()
	b, err := fluxbuild.NewBuilder(tree)
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Build(dir, k.Spec.TargetNamespace, k.Spec.Patches)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	return r
}

// ids lists the objects of a build as kind/namespace/name, sorted.
func ids(r *fluxbuild.Result) []string {
	var out []string
	for _, o := range r.Objects {
		out = append(out, o.ID())
	}
	slices.Sort(out)
	return out
}
