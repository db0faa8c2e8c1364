package fluxbuild

import (
	"slices"
	"strings"
	"testing"
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
		r, err := b.Build(tc.dir, tc.ns)
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		if got := ids(r); !slices.Equal(got, tc.want) || len(r.Remote) != tc.remote {
			t.Errorf("Build(%s, %q) = %v remote %v; want %v and %d remote", tc.dir, tc.ns, got, r.Remote, tc.want, tc.remote)
		}
	}
	// A build leaves the artifact as it was: building again gives the same.
	r, err := b.Build("base/app", "")
	if err != nil || ids(r)[0] != "ConfigMap/app/one" {
		t.Errorf("second build: %v %v", ids(r), err)
	}
	if _, err := b.Build("missing", ""); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing path: %v", err)
	}
}
