package configedit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"go.yaml.in/yaml/v3"

	"github.com/aymanbagabas/go-udiff"
)

type set struct{ path, value string }

// TestSet keeps, for each edit, the unified diff of the file before and
// after it as a golden: only the lines shown changed, every other byte
// (comments, blank lines, quoting, indentation) is the input's.
func TestSet(t *testing.T) {
	cases := []struct {
		name, input string
		sets        []set
	}{
		{"replace-keeps-comment", "hand.yaml", []set{{"opencenter.services.cert-manager.enabled", "true"}}},
		{"insert-sorted-service", "hand.yaml", []set{{"opencenter.services.keycloak.enabled", "true"}, {"opencenter.services.keycloak.hostname", "auth.example.com"}}},
		{"insert-appended-field", "hand.yaml", []set{{"opencenter.services.calico.block_size", "26"}, {"opencenter.meta.region", Quote("1e3")}}},
		{"insert-into-empty-flow", "hand.yaml", []set{{"opencenter.managed_services.alert-proxy.enabled", "true"}}},
		{"flow-parents", "flow.yaml", []set{
			{"opencenter.services.calico.block_size", "26"},
			{"opencenter.services.keycloak.enabled", "true"},
			{"opencenter.services.olm.enabled", "true"},
			{"opencenter.services.cert-manager.enabled", "true"},
			{"opencenter.cluster.cluster_fqdn", Quote("api.x, with a comma")},
		}},
		{"null-parents", "null.yaml", []set{
			{"opencenter.services.keycloak.enabled", "true"},
			{"opencenter.gitops.overlay_units.sops.enabled", "true"},
			{"opencenter.managed_services.alert-proxy.enabled", "true"},
		}},
		{"after-block-scalar", "block.yaml", []set{{"opencenter.meta.name", "k8s-x"}, {"opencenter.services.olm.enabled", "true"}}},
		{"crlf-no-final-newline", "crlf-no-final-newline.yaml", []set{{"opencenter.services.olm.enabled", "true"}, {"opencenter.meta.name", "y"}}},
		{"sequences-and-markers", "seq.yaml", []set{
			{"opencenter.services.metallb.l2_advertisement", "true"},
			{"opencenter.services.rbac-manager.enabled", "true"},
			{"opencenter.services.olm.enabled", "true"},
		}},
		{"init-config", "init.yaml", []set{{"opencenter.services.keycloak.enabled", "true"}, {"opencenter.managed_services.alert-proxy.enabled", "true"}}},
		{"sops-4-spaces", "../../../../testdata/fixture/.k8s-prod-config.yaml", []set{
			{"opencenter.services.longhorn.enabled", "true"},
			{"opencenter.services.keycloak.enabled", "false"},
			{"opencenter.services.keycloak.max_replicas", "5"},
			{"opencenter.gitops.overlay_units.customer_managed.enabled", "true"},
		}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/TestSet"), goldie.WithNameSuffix(".golden"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := os.ReadFile(filepath.Join("testdata/input", c.input))
			if err != nil {
				t.Fatal(err)
			}
			after := before
			for _, s := range c.sets {
				var changed bool
				if after, changed, err = Set(after, strings.Split(s.path, "."), s.value); err != nil || !changed {
					t.Fatalf("Set %s: changed %v, %v", s.path, changed, err)
				}
				if got := valueAt(t, after, s.path); got != valueAt(t, []byte("v: "+s.value), "v") {
					t.Errorf("%s reads %q after the edit", s.path, got)
				}
				again, changed, err := Set(after, strings.Split(s.path, "."), s.value)
				if err != nil || changed || string(again) != string(after) {
					t.Errorf("setting %s again changed the file (%v)", s.path, err)
				}
			}
			g.Assert(t, c.name, []byte(udiff.Unified("before/"+filepath.Base(c.input), "after/"+filepath.Base(c.input), string(before), string(after))))
		})
	}
}

// valueAt decodes data and returns the value at a dotted path, printed.
func valueAt(t *testing.T, data []byte, path string) string {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "<no mapping>"
		}
		v = m[k]
	}
	b, _ := yaml.Marshal(v)
	return string(b)
}

// TestSetRefuses: what cannot be edited faithfully is refused, naming the
// path, and what is not a scalar value too.
func TestSetRefuses(t *testing.T) {
	cases := []struct{ doc, path, value, want string }{
		{"a: &x {b: 1}\nc: *x\n", "c.b", "2", "c is an alias of &x"},
		{"a: &x {b: 1}\nc: *x\n", "a.b", "2", "a has the anchor &x"},
		{"a: [1, 2]\n", "a.b", "2", "a is a list, not a mapping"},
		{"a:\n  - b: 1\n", "a.b", "2", "a is a list, not a mapping"},
		{"a: 3\n", "a.b", "2", `a is the value "3", not a mapping`},
		{"a:\n  b: {c: 1}\n", "a.b", "2", "a.b is a mapping, not a single value"},
		{"a:\n  b: |\n    text\n", "a.b", "x", "a.b is a block scalar"},
		{"a:\n  b: two\n    lines\n", "a.b", "x", "a.b spans several lines"},
		{"a:\n  b: \"two\n    lines\"\n", "a.b", "x", "a.b spans several lines"},
		{"a:\n  b: !!str 3\n", "a.b", "x", "a.b has an explicit tag"},
		{"a:\n  b: 1\na:\n  c: 2\n", "a.b", "2", "a appears twice (lines 1 and 3)"},
		{"a: 1\n", "b", "x: y", `b: "x: y" is not a YAML scalar`},
		{"a: 1\n", "b", "[x]", `b: "[x]" is not a plain or quoted YAML scalar`},
		{"a: 1\n", "b", "x}", `b: "x}" reads differently inside {}: quote it`},
		{"a: 1\n", "b", "a,b", `b: "a,b" reads differently inside {}: quote it`},
		{"a: 1\n", "b", "", `b: "" is not a one-line YAML scalar`},
		{"- a\n", "b", "1", "the document is not a mapping"},
		{"# only a comment\n", "b", "1", "the document is empty"},
	}
	for _, c := range cases {
		out, changed, err := Set([]byte(c.doc), strings.Split(c.path, "."), c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || changed || out != nil && string(out) != c.doc {
			t.Errorf("Set(%q, %s, %s): changed %v, error %v; want %q", c.doc, c.path, c.value, changed, err, c.want)
		}
	}
}

// TestQuote: a quoted string reads back as itself in block and flow
// context, plain whenever that is safe.
func TestQuote(t *testing.T) {
	plain := []string{"k8s-prod", "auth.example.com", "10Gi", "0 2 * * *", `\.yaml$`, "it's", "a:b", "https://x.example/a#d", "ünïcode"}
	quoted := []string{"https://x.example/a?b=c", "true", "yes", "No", "on", "y", "null", "~", "1", "007", "1e3", "0x1F", ".inf", "2026-01-01", "-", "- a", "a #b", "#x", " lead", "trail ", "a,b", "[x]", "{x}", "x: y", "@x", "`x", "%x", "!x", "&x", "*x", "|", ">", "?", "'q'", `"q"`, "tab\there", "line\nbreak", "x\u2028y", "\ufeffx", "<<", ""}
	for _, s := range append(plain, quoted...) {
		q := Quote(s)
		for _, doc := range []string{"k: " + q + "\n", "{k: " + q + "}\n"} {
			var m map[string]any
			if err := yaml.Unmarshal([]byte(doc), &m); err != nil || m["k"] != s {
				t.Errorf("Quote(%q) = %s reads back as %#v (%v)", s, q, m["k"], err)
			}
		}
		if isPlain := q == s; isPlain != slices.Contains(plain, s) {
			t.Errorf("Quote(%q) = %s", s, q)
		}
	}
}

// TestSetFixture: every service of every fixture config can be switched
// and given a new field, and Set's own check (the result decodes to the
// input with only that value changed) holds for each.
func TestSetFixture(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(files) == 0 {
		t.Fatal("no fixture configs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			OpenCenter struct {
				Services        map[string]any `yaml:"services"`
				ManagedServices map[string]any `yaml:"managed_services"`
			} `yaml:"opencenter"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for s := range doc.OpenCenter.Services {
			paths = append(paths, "opencenter.services."+s)
		}
		for s := range doc.OpenCenter.ManagedServices {
			paths = append(paths, "opencenter.managed_services."+s)
		}
		for _, p := range append(paths, "opencenter.services.not-there-yet", "opencenter.gitops.flux") {
			for _, s := range []set{{p + ".enabled", "false"}, {p + ".enabled", "true"}, {p + ".zz_new", Quote("v")}, {p + ".aa_new.deeper", "1"}} {
				out, _, err := Set(data, strings.Split(s.path, "."), s.value)
				if err != nil {
					t.Errorf("%s: %s: %v", f, s.path, err)
					continue
				}
				if got := valueAt(t, out, s.path); got != valueAt(t, []byte("v: "+s.value), "v") {
					t.Errorf("%s: %s reads %q", f, s.path, got)
				}
			}
		}
	}
}

// TestSetInOrder: a key Set adds goes where the order puts it among the
// keys there, above their comments, whatever the order of the others;
// without the key in the order, the old rules hold.
func TestSetInOrder(t *testing.T) {
	order := func(mapping []string) []string {
		if strings.Join(mapping, ".") == "services" {
			return []string{"zeta", "alpha", "mid", "omega"}
		}
		return nil
	}
	for _, c := range []struct{ doc, path, want string }{
		{"services:\n  zeta: {enabled: true}\n  # omega's comment\n  omega: {enabled: true}\n", "services.mid.enabled",
			"services:\n  zeta: {enabled: true}\n  mid:\n    enabled: true\n  # omega's comment\n  omega: {enabled: true}\n"},
		{"services:\n  mid: {enabled: true}\n", "services.zeta.enabled",
			"services:\n  zeta:\n    enabled: true\n  mid: {enabled: true}\n"},
		{"services:\n  zeta: {enabled: true}\n", "services.omega.enabled",
			"services:\n  zeta: {enabled: true}\n  omega:\n    enabled: true\n"},
		{"services:\n  zeta: {enabled: true}\nother: 1\n", "services.unknown.enabled",
			"services:\n  zeta: {enabled: true}\n  unknown:\n    enabled: true\nother: 1\n"},
	} {
		out, changed, err := SetInOrder([]byte(c.doc), strings.Split(c.path, "."), "true", order)
		if err != nil || !changed || string(out) != c.want {
			t.Errorf("SetInOrder(%q, %s): %v, %v\n%s\nwant\n%s", c.doc, c.path, changed, err, out, c.want)
		}
	}
}
