package plan

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	sigsyaml "sigs.k8s.io/yaml"
)

// referenceMarshal is the straightforward encoding marshal replaces:
// unstructured conversion and sigs.k8s.io/yaml.
func referenceMarshal(t *testing.T, obj any) []byte {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	delete(u, "status")
	delete(u["metadata"].(map[string]any), "creationTimestamp")
	out, err := sigsyaml.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// folded reports whether yaml.v2 continued a plain scalar on the next line.
func folded(y []byte) bool {
	lines := strings.Split(string(y), "\n")
	for i := 1; i < len(lines); i++ {
		prev, cur := lines[i-1], strings.TrimLeft(lines[i], " ")
		if len(prev) > 60 && cur != "" && !strings.HasPrefix(cur, "- ") && !strings.Contains(cur, ": ") && !strings.HasSuffix(cur, ":") && !strings.HasSuffix(prev, "|") {
			return true
		}
	}
	return false
}

// TestMarshalMatchesReference decodes every Flux object and Secret of the
// fixture plans into its API type and checks that marshal writes exactly what
// the reference encoding writes.
func TestMarshalMatchesReference(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	names = append(names, testConfig("customer"))
	checked := 0
	for _, n := range names {
		p := plan(t, n)
		for _, f := range p.Files {
			body := f.Data[strings.IndexByte(string(f.Data), '\n')+1:]
			var obj any
			switch {
			case strings.Contains(string(body), "kind: Kustomization\n") && strings.HasPrefix(string(body), "apiVersion: kustomize.toolkit.fluxcd.io/"):
				obj = &kustomizev1.Kustomization{}
			case strings.HasPrefix(string(body), "apiVersion: source.toolkit.fluxcd.io/"):
				obj = &sourcev1.GitRepository{}
			case strings.HasPrefix(string(body), "apiVersion: v1\nkind: Secret\nmetadata:\n  labels:"):
				obj = &corev1.Secret{}
			default:
				continue
			}
			if err := sigsyaml.UnmarshalStrict(body, obj); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			got := marshal(nil, obj)
			if _, secret := obj.(*corev1.Secret); !secret && string(body) != string(got) {
				t.Errorf("%s: the plan wrote\n%s\nwhere the writer writes\n%s", f.Path, body, got)
			}
			// Same document; same bytes except where yaml.v2 folds a long
			// plain scalar at 80 columns, which marshal does not.
			want := referenceMarshal(t, obj)
			var a, b any
			if err := sigsyaml.Unmarshal(got, &a); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			sigsyaml.Unmarshal(want, &b)
			if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
				t.Errorf("%s: marshal's encoding decodes differently:\n%s\nwant:\n%s", f.Path, got, want)
			}
			if string(got) != string(want) && !folded(want) {
				t.Errorf("%s: marshal's encoding differs from the reference:\n%s\nwant:\n%s", f.Path, got, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d objects", checked)
	}
}

// mustJSON encodes a decoded document canonically (sorted keys), to
// compare two decodings without reflection.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
