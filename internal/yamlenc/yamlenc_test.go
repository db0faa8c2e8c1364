package yamlenc

import (
	"reflect"
	"testing"
	"unicode/utf8"

	sigsyaml "sigs.k8s.io/yaml"
)

// roundTrip checks that sigs.k8s.io/yaml reads back what Marshal wrote.
func roundTrip(t *testing.T, v any) {
	t.Helper()
	out := Marshal(v)
	var back any
	if err := sigsyaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(normalize(v), normalize(back)) {
		t.Fatalf("round trip differs:\nin:  %#v\nout: %#v\nyaml:\n%s", v, back, out)
	}
}

// normalize makes numbers float64, as a JSON decode does.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			m[k] = normalize(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = normalize(e)
		}
		return s
	case int64:
		return float64(x)
	case int:
		return float64(x)
	}
	return v
}

func TestRoundTrip(t *testing.T) {
	strs := []string{"", "plain", "yes", "No", "on", "true", "null", "~", "123", "1.5", "0x1F", "1e3", "-", "-x", "- x", "a: b", "a #b", "#c", ":x", "x:", "x: ", " lead", "trail ",
		"quote\"d", "it's", "[list]", "{map}", "*alias", "&anchor", "!tag", "%pct", "@at", "`bt`", "|pipe", ">gt", "?q", ",c", "multi\nline\n", "multi\nline", "multi\n\nblank\n", "trail\n\n",
		" indented\nblock\n", "tab\tin", "line \nspace", "ünïcödé", "0777", "0o17", "1_000", "12:30", ".5", "+1", "-1", ".inf", "-.Inf", ".NaN", "=", "<<", "\x01ctl", "2026.01", "15m0s", "./applications/x",
		"ssh://git@github.com/a/b.git", "^(data|stringData)$", ".*\\.enc\\.yaml$", "age1abc,age1def", "kustomize.toolkit.fluxcd.io/v1", "y", "n", "Y", "off", "OFF", "0B00000000", "0o17", "15m0s", "./x", ".5x", "1e"}
	for _, s := range strs {
		roundTrip(t, map[string]any{"k": s})
		roundTrip(t, map[string]any{"list": []any{s, map[string]any{"k": s, "z": s}}})
		roundTrip(t, map[string]any{s: "key"})
	}
	roundTrip(t, map[string]any{
		"apiVersion": "v1", "kind": "Kustomization",
		"metadata": map[string]any{"name": "x", "labels": map[string]any{"a.b/c": "d"}},
		"spec": map[string]any{
			"interval": "15m0s", "prune": true, "n": int64(3), "f": 0.25, "nil": nil, "empty": map[string]any{}, "none": []any{},
			"dependsOn":    []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "namespace": "c"}},
			"healthChecks": []any{map[string]any{"list": []any{"x", []any{"y"}}}},
			"nested":       []any{[]any{"a", "b"}, []any{}},
		},
	})
}

func TestMatchesSigsYAMLLayout(t *testing.T) {
	v := map[string]any{"b": []any{"x", map[string]any{"k": "v", "j": int64(1)}}, "a": map[string]any{"c": "d"}, "s": "multi\nline\n"}
	want, err := sigsyaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := Marshal(v); string(got) != string(want) {
		t.Errorf("layout differs from sigs.k8s.io/yaml:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"a", "yes", "1", "a: b", "x\ny\n", " z"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, k, v string) {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			t.Skip("YAML holds only UTF-8 text; the renderer's strings come from UTF-8 YAML and JSON")
		}
		roundTrip(t, map[string]any{"key": v, "list": []any{v, map[string]any{"k": v}}})
		if k != "" {
			roundTrip(t, map[string]any{k: v})
		}
	})
}

func TestParseJSON(t *testing.T) {
	in := `{"a":[1,-2.5e3,true,false,null,"x\"y\u00e9\/"],"b":{},"c":[],"d":{"e":"f"}}`
	v, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{Number("1"), Number("-2.5e3"), true, false, nil, "x\"y\u00e9/"}, "b": map[string]any{}, "c": []any{}, "d": map[string]any{"e": "f"}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v", v)
	}
	for _, bad := range []string{`{`, `{"a"}`, `[1,]`, `"x`, `{"a":1} x`, `tru`, `{"a":-}`} {
		if _, err := ParseJSON([]byte(bad)); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}
