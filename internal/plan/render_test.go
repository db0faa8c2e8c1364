package plan

import (
	"bytes"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/overlay/overlaytest"

	"github.com/sebdah/goldie/v2"

	"github.com/opencenter-dev/opencenter/internal/overlay"
)

var cases = []string{"minimal", "standard", "keycloak", "managed", "customer"}

func testConfig(name string) string { return filepath.Join("testdata", "configs", name+".yaml") }

// TestGoldenTrees renders one small config per layer feature and compares the
// whole tree with its golden (refresh with go test ./... -update).
func TestGoldenTrees(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/trees"), goldie.WithNameSuffix(".golden"))
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			g.Assert(t, c, treeText(t, plan(t, testConfig(c))))
		})
	}
}

// TestRealTools builds every rendered overlay with kustomize and validates
// every Flux object against the Flux CRDs.
func TestRealTools(t *testing.T) {
	for _, c := range cases {
		t.Run(c, func(t *testing.T) { checkWithTools(t, plan(t, testConfig(c))) })
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range cases {
		a, b := treeText(t, plan(t, testConfig(c))), treeText(t, plan(t, testConfig(c)))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two plans differ", c)
		}
	}
	// And on disk: two renders into two repositories give identical trees.
	r1, r2 := t.TempDir(), t.TempDir()
	for _, r := range []string{r1, r2} {
		if err := writePlan(r, plan(t, testConfig("keycloak")), overlay.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if overlaytest.DirHash(t, r1) != overlaytest.DirHash(t, r2) {
		t.Error("two renders to disk differ")
	}
}

func TestUnsafePath(t *testing.T) {
	for p, want := range map[string]string{
		"services/x.yaml":        "",
		"../x.yaml":              "not a clean relative path",
		"services/../../x":       "not a clean relative path",
		"/etc/passwd":            "absolute",
		"flux-system/x.yaml":     "flux bootstrap",
		"services/./x.yaml":      "not a clean relative path",
		"":                       "empty",
		"services/fluxcd/a.yaml": "",
	} {
		if got := unsafePath(p); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("unsafePath(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestCleanInside holds cleanInside to its definition, path.Clean(p) == p
// with no leading "..", over the relative paths made of a few segments.
func TestCleanInside(t *testing.T) {
	segs := []string{"a", "b.yaml", ".", "..", "", "...", ".a"}
	paths := slices.Clone(segs)
	for range 3 {
		for _, p := range paths {
			for _, s := range segs {
				paths = append(paths, p+"/"+s)
			}
		}
		paths = slices.Compact(slices.Sorted(slices.Values(paths)))
	}
	checked := 0
	for _, p := range paths {
		if p == "" || p == "." || strings.HasPrefix(p, "/") { // unsafePath refuses these first
			continue
		}
		want := path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
		if got := cleanInside(p); got != want {
			t.Errorf("cleanInside(%q) = %v, want %v", p, got, want)
		}
		checked++
	}
	t.Logf("%d paths", checked)
}

// TestExpandPlaceholders holds the one-pass expansion to replacing
// {overlay}, then {namespace}, in descriptor strings and odd ones.
func TestExpandPlaceholders(t *testing.T) {
	const overlay, namespace = "applications/overlays/k8s-dev", "loki"
	for _, s := range []string{"", "x", "{overlay}/services/loki", "{overlay}/{namespace}/x", "{namespace}", "{", "}", "{{overlay}}",
		"{overla}", "a{overlay", "{overlay}{overlay}{namespace}{namespace}", "{x}{overlay}", "{{namespace}"} {
		for _, prefix := range []string{"", "./"} {
			want := prefix + strings.ReplaceAll(strings.ReplaceAll(s, "{overlay}", overlay), "{namespace}", namespace)
			if got := expandPlaceholders(prefix, s, overlay, namespace); got != want {
				t.Errorf("expandPlaceholders(%q, %q) = %q, want %q", prefix, s, got, want)
			}
		}
	}
}
