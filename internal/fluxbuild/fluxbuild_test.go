package fluxbuild

import (
	"slices"
	"strings"
	"testing"

	"github.com/fluxcd/pkg/apis/kustomize"
)

func ids(r *Result) []string {
	var out []string
	for _, o := range r.Objects {
		out = append(out, o.ID())
	}
	slices.Sort(out)
	return out
}

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"

func TestBuild(t *testing.T) {
	b, err := NewBuilder(Tree{
		"base/app/kustomization.yaml":    []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: app\nresources:\n- cm.yaml\n- https://example.com/crds.yaml\n"),
		"base/app/cm.yaml":               []byte(strings.ReplaceAll(cm, "%s", "one")),
		"plain/a.yaml":                   []byte(strings.ReplaceAll(cm, "%s", "a")),
		"plain/notes.txt":                []byte("not a manifest"),
		"plain/sub/kustomization.yaml":   []byte("resources: [b.yaml]\n"),
		"plain/sub/b.yaml":               []byte(strings.ReplaceAll(cm, "%s", "b")),
		"plain/sub/ignored.yaml":         []byte(strings.ReplaceAll(cm, "%s", "not-listed")),
		"remote-only/kustomization.yaml": []byte("resources:\n- https://example.com/x.yaml\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, ns string
		want    []string
		remote  int
	}{
		{"base/app", "", []string{"ConfigMap/app/one"}, 1},
		{"base/app", "moved", []string{"ConfigMap/moved/one"}, 1},
		// generated: a.yaml, and sub as a directory (so only what sub lists)
		{"plain", "", []string{"ConfigMap/a", "ConfigMap/b"}, 0},
		{"./plain", "tn", []string{"ConfigMap/tn/a", "ConfigMap/tn/b"}, 0},
		{"remote-only", "", nil, 1},
	} {
		r, err := b.Build(tc.dir, tc.ns, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		if got := ids(r); !slices.Equal(got, tc.want) || len(r.Remote) != tc.remote {
			t.Errorf("Build(%s, %q) = %v remote %v; want %v and %d remote", tc.dir, tc.ns, got, r.Remote, tc.want, tc.remote)
		}
	}
	// A build leaves the artifact as it was: building again gives the same.
	r, err := b.Build("base/app", "", nil)
	if err != nil || ids(r)[0] != "ConfigMap/app/one" {
		t.Errorf("second build: %v %v", ids(r), err)
	}
	if _, err := b.Build("missing", "", nil); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing path: %v", err)
	}
}

func TestOrigin(t *testing.T) {
	b, err := NewBuilder(Tree{
		"base/kustomization.yaml":    []byte("resources: [secret.yaml]\nsecretGenerator:\n- name: values\n  files: [values.yaml]\n  options: {disableNameSuffixHash: true}\nconfigMapGenerator:\n- name: env\n  literals: [a=b]\n  options: {disableNameSuffixHash: true}\n"),
		"base/secret.yaml":           []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: manifest\n"),
		"base/values.yaml":           []byte("x: 1\n"),
		"overlay/kustomization.yaml": []byte("resources: [../base, cm.yaml]\n"),
		"overlay/cm.yaml":            []byte(strings.ReplaceAll(cm, "%s", "own")),
		"kept/kustomization.yaml":    []byte("buildMetadata: [originAnnotations]\nresources: [cm.yaml]\n"),
		"kept/cm.yaml":               []byte(strings.ReplaceAll(cm, "%s", "kept")),
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Build("overlay", "ns", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range r.Objects {
		got[o.Kind+"/"+o.Name] = o.File + " " + o.Generator
		if _, ok := o.Body["metadata"].(map[string]any)["annotations"]; ok {
			t.Errorf("%s: origin annotation left in the applied object: %v", o.ID(), o.Body["metadata"])
		}
		if o.Generated() != (o.Generator != "") {
			t.Errorf("%s: Generated() = %v with generator %q", o.ID(), o.Generated(), o.Generator)
		}
	}
	want := map[string]string{
		"Secret/manifest": "base/secret.yaml ",
		"Secret/values":   "base/kustomization.yaml SecretGenerator",
		"ConfigMap/env":   "base/kustomization.yaml ConfigMapGenerator",
		"ConfigMap/own":   "overlay/cm.yaml ",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: origin %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("objects %v, want %v", got, want)
	}

	// A kustomization asking for origin annotations gets them in its objects.
	r, err = b.Build("kept", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	md := r.Objects[0].Body["metadata"].(map[string]any)
	if _, ok := md["annotations"].(map[string]any)["config.kubernetes.io/origin"]; !ok || r.Objects[0].File != "kept/cm.yaml" {
		t.Errorf("kept: annotations %v, file %s", md, r.Objects[0].File)
	}
}

func TestBuildRoot(t *testing.T) {
	b, err := NewBuilder(Tree{
		"a.yaml":     []byte(strings.ReplaceAll(cm, "%s", "a")),
		"sub/b.yaml": []byte(strings.ReplaceAll(cm, "%s", "b")),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{".", "./", ""} {
		r, err := b.Build(dir, "", nil)
		if err != nil {
			t.Fatalf("%q: %v", dir, err)
		}
		if got := ids(r); !slices.Equal(got, []string{"ConfigMap/a", "ConfigMap/b"}) || r.Objects[0].File == "" {
			t.Errorf("Build(%q) = %v", dir, got)
		}
	}
	if _, err := b.Build("../x", "", nil); err == nil {
		t.Error("a path outside the artifact built")
	}
}

func TestBuildPatches(t *testing.T) {
	const repo = "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: %s\n  namespace: shared\n"
	b, err := NewBuilder(Tree{
		"sources/kustomization.yaml": []byte("resources: [charts.yaml]\n"),
		"sources/charts.yaml":        []byte(strings.ReplaceAll(repo, "%s", "charts")),
		"app/kustomization.yaml":     []byte("resources: [../sources/charts.yaml, cm.yaml]\npatches:\n- target: {kind: ConfigMap}\n  patch: |\n    - op: add\n      path: /data\n      value: {own: \"yes\"}\n"),
		"app/cm.yaml":                []byte(strings.ReplaceAll(cm, "%s", "app")),
	})
	if err != nil {
		t.Fatal(err)
	}
	remove := func(kind, name, ns string) kustomize.Patch {
		return kustomize.Patch{
			Patch:  "$patch: delete\napiVersion: v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n",
			Target: &kustomize.Selector{Kind: kind, Name: name, Namespace: ns},
		}
	}
	for _, tc := range []struct {
		name    string
		ns      string
		patches []kustomize.Patch
		want    []string
	}{
		{"none", "", nil, []string{"ConfigMap/app", "HelmRepository/shared/charts"}},
		// Flux's patches come after the kustomization's own, and before its
		// namespace: a target names the object as its file does.
		{"delete", "moved", []kustomize.Patch{remove("HelmRepository", "charts", "shared")}, []string{"ConfigMap/moved/app"}},
		{"delete nothing", "", []kustomize.Patch{remove("HelmRepository", "other", "shared")}, []string{"ConfigMap/app", "HelmRepository/shared/charts"}},
		{"other namespace", "", []kustomize.Patch{remove("HelmRepository", "charts", "elsewhere")}, []string{"ConfigMap/app", "HelmRepository/shared/charts"}},
	} {
		r, err := b.Build("app", tc.ns, tc.patches)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := ids(r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Build = %v, want %v", tc.name, got, tc.want)
		}
		for _, o := range r.Objects {
			if o.Kind == "ConfigMap" && String(o.Body, "data", "own") != "yes" {
				t.Errorf("%s: the kustomization's own patch is lost: %v", tc.name, o.Body)
			}
		}
	}
	// A Flux patch changes an object as the kustomization's own would.
	r, err := b.Build("app", "", []kustomize.Patch{{Patch: "- op: add\n  path: /data/flux\n  value: \"yes\"\n", Target: &kustomize.Selector{Kind: "ConfigMap", Name: "app"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Objects {
		if o.Kind == "ConfigMap" && (String(o.Body, "data", "flux") != "yes" || String(o.Body, "data", "own") != "yes") {
			t.Errorf("Flux patch after the kustomization's own: %v", o.Body)
		}
	}
}
