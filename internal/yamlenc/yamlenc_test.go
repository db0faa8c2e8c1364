package yamlenc

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
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
	if canon(t, normalize(v)) != canon(t, normalize(back)) {
		t.Fatalf("round trip differs:\nin:  %#v\nout: %#v\nyaml:\n%s", v, back, out)
	}
}

// canon encodes a decoded value canonically (sorted keys, JSON), to compare
// two values without reflection.
func canon(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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

// TestQuotedIsRaw checks what AppendQuoted relies on: every character
// strconv leaves unescaped is one the writer may write raw.
func TestQuotedIsRaw(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if strconv.IsPrint(r) && !RawOK(r) {
			t.Errorf("strconv writes %U raw, which RawOK refuses", r)
		}
	}
	for _, r := range []rune{0, '\t', '\n', '\r', 0x7f, 0x85, 0x9f, 0x2028, 0x2029, 0xfeff, 0xfdd0, 0xfffe, 0xffff, 0x10ffff} {
		if RawOK(r) {
			t.Errorf("RawOK(%U) = true", r)
		}
	}
}

// scalarBack parses doc with go.yaml.in/yaml/v3 and returns the one string
// scalar at path (mapping keys; "?" is the key of the only pair).
func scalarBack(t *testing.T, doc []byte, path ...string) string {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		t.Fatalf("not YAML: %v\n%q", err, doc)
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		t.Fatalf("want one document:\n%q", doc)
	}
	cur := n.Content[0]
	for _, k := range path {
		if cur.Kind != yaml.MappingNode || len(cur.Content) != 2 {
			t.Fatalf("want a mapping of one pair at %s:\n%q", k, doc)
		}
		if k == "?" {
			cur = cur.Content[0]
			continue
		}
		if cur.Content[0].Value != k {
			t.Fatalf("key %q, want %q:\n%q", cur.Content[0].Value, k, doc)
		}
		cur = cur.Content[1]
	}
	if cur.Kind != yaml.ScalarNode || cur.ShortTag() != "!!str" {
		t.Fatalf("want one string scalar, got kind %v tag %s:\n%q", cur.Kind, cur.ShortTag(), doc)
	}
	return cur.Value
}

// noRaw fails when out holds a character the writer must escape; newlines
// are allowed where literal says so.
func noRaw(t *testing.T, out []byte, newlines bool) {
	t.Helper()
	for _, r := range string(out) {
		if !RawOK(r) && !(r == '\n' && newlines) && !(r == '\t' && newlines) {
			t.Fatalf("raw %U in output:\n%q", r, out)
		}
	}
}

func FuzzScalar(f *testing.F) {
	for _, s := range []string{"", "a", "true", "null", "*anchor", "---", "...", "a: b", "a #b", "x\ny: z", "\u2028", "\u2029", "\u0085", "\r", "\x00", "\ufeff", "\uffff", "2026-01-02", "1_000", "- x", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("YAML holds only UTF-8 text; the renderer's strings come from UTF-8 YAML and JSON")
		}
		line := AppendScalar([]byte("key: "), s)
		noRaw(t, line, false)
		if got := scalarBack(t, append(line, '\n'), "key"); got != s {
			t.Fatalf("AppendScalar: read back %q, want %q:\n%q", got, s, line)
		}
		// Helm and kubectl read YAML with sigs.k8s.io/yaml (YAML 1.1 rules).
		if j, err := sigsyaml.YAMLToJSON(line); err != nil || !bytes.Equal(j, mustJSON(t, map[string]string{"key": s})) {
			t.Fatalf("AppendScalar: sigs.k8s.io/yaml reads %s (%v), want %q:\n%q", j, err, s, line)
		}
		seq := AppendScalar([]byte("- "), s)
		var items []string
		if err := yaml.Unmarshal(seq, &items); err != nil || len(items) != 1 || items[0] != s {
			t.Fatalf("AppendScalar in a sequence: read back %q (%v), want [%q]:\n%q", items, err, s, seq)
		}
		key := AppendKey([]byte("  "), s, 2)
		noRaw(t, key[:bytes.LastIndexByte(key, '\n')+1], true) // "\n" only in the explicit form
		noRaw(t, key[bytes.LastIndexByte(key, '\n')+1:], false)
		key = append(key, ": v\n"...)
		if s != "" {
			var m map[string]string
			if err := yaml.Unmarshal(key, &m); err != nil || len(m) != 1 || m[s] != "v" {
				t.Fatalf("AppendKey: read back %q (%v), want {%q: v}:\n%q", m, err, s, key)
			}
		}
		doc := Marshal(map[string]any{"key": s})
		noRaw(t, doc, true)
		if got := scalarBack(t, doc, "key"); got != s {
			t.Fatalf("Marshal: read back %q, want %q:\n%q", got, s, doc)
		}
		if s != "" {
			doc = Marshal(map[string]any{s: map[string]any{"k": []any{"v"}}})
			noRaw(t, doc, true)
			var m map[string]map[string][]string
			if err := yaml.Unmarshal(doc, &m); err != nil || len(m) != 1 || len(m[s]["k"]) != 1 {
				t.Fatalf("Marshal with key %q: read back %v (%v):\n%q", s, m, err, doc)
			}
		}
	})
}

// mustJSON is json.Marshal of v, as sigs.k8s.io/yaml writes it.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestLongKey(t *testing.T) {
	long := strings.Repeat("k", 100_000)
	for _, k := range []string{long, long + ": x", long + "\n"} {
		out := append(AppendKey([]byte("a:\n  "), k, 2), ": v\n"...)
		var m map[string]map[string]string
		if err := yaml.Unmarshal(out, &m); err != nil || m["a"][k] != "v" {
			t.Fatalf("a key of %d bytes does not read back (%v)", len(k), err)
		}
	}
}

// TestOtherTypeFilters: the cheap checks OtherType makes before each
// regexp only skip strings the regexp would not match. It compares
// OtherType with the regexps alone over every string of up to four bytes
// from an alphabet of the bytes they name, and random longer ones.
func TestOtherTypeFilters(t *testing.T) {
	const alphabet = "09aefxXoObBeEyYnNtTlLsSuU~+-._:=<i \u017f"
	byRules := func(s string) bool {
		return special.MatchString(s) || numberRE.MatchString(s) || resolvedNumber(s) || timestamp.MatchString(s)
	}
	check := func(s string) {
		if got, want := OtherType(s), byRules(s); got != want {
			t.Errorf("OtherType(%q) = %v, the regexps and yaml.v3's resolver say %v", s, got, want)
		}
	}
	eachWord(alphabet, 4, check)
	r := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		b := make([]byte, 5+r.IntN(20))
		for i := range b {
			b[i] = "0123456789-:.+eE_xob TtZz"[r.IntN(25)]
		}
		check(string(b))
	}
	for _, s := range []string{"2026-11-23", "2026-1-2T10:00:00Z", "1_000", "0x1F", "+.inf", "-.NaN", "190:20:30", "YES", "Off", "<<", "=", "~", "0o17", "0b101", ".5", "1e10"} {
		check(s)
		if !OtherType(s) {
			t.Errorf("OtherType(%q) = false", s)
		}
	}
}

// TestBoolWord holds BoolWord to yaml.v3: the plain scalars it resolves to
// a boolean, and their values.
func TestBoolWord(t *testing.T) {
	for _, s := range []string{"true", "True", "TRUE", "false", "False", "FALSE", "tRUE", "yes", "on", "y", "1", "0", "", "null", "truex"} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+s+"\n"), &n); err != nil {
			t.Fatal(err)
		}
		node := n.Content[0].Content[1]
		isBool := node.Tag == "!!bool"
		var want bool
		if isBool {
			if err := node.Decode(&want); err != nil {
				t.Fatal(err)
			}
		}
		if got, ok := BoolWord(s); ok != isBool || got != want {
			t.Errorf("BoolWord(%q) = %v, %v; yaml.v3 reads %s %v", s, got, ok, node.Tag, want)
		}
	}
}

// TestOtherTypeMatchesParsers holds OtherType to the parsers the rendered
// files meet: a string it calls a string, written plain, is read back as
// that string by go.yaml.in/yaml/v3 (kustomize's) and sigs.k8s.io/yaml
// (kubectl's and the API machinery's). Every string of up to four
// characters over the characters of numbers is tried, and random longer ones.
func TestOtherTypeMatchesParsers(t *testing.T) {
	const alphabet = "07bBeoOxX+-._:"
	bad := 0
	check := func(s string) {
		if OtherType(s) || !PlainOK(s) || bad > 20 {
			return
		}
		doc := []byte("v: " + s + "\n")
		var m map[string]any
		if err := yaml.Unmarshal(doc, &m); err != nil || m["v"] != s {
			bad++
			t.Errorf("OtherType(%q) is false, but yaml.v3 reads %T %v (%v)", s, m["v"], m["v"], err)
		}
		j, err := sigsyaml.YAMLToJSON(doc)
		if err != nil || !bytes.Equal(j, mustJSON(t, map[string]string{"v": s})) {
			bad++
			t.Errorf("OtherType(%q) is false, but sigs.k8s.io/yaml reads %s (%v)", s, j, err)
		}
	}
	eachWord(alphabet, 4, check)
	r := rand.New(rand.NewPCG(5, 6))
	for range 10_000 {
		b := make([]byte, 5+r.IntN(12))
		for i := range b {
			b[i] = "0123456789aAbBeEfFoOxX+-._:"[r.IntN(27)]
		}
		check(string(b))
	}
}

// eachWord calls f with every string of 1 to n characters of alphabet.
func eachWord(alphabet string, n int, f func(string)) {
	words := []string{""}
	for range n {
		var next []string
		for _, w := range words {
			for _, c := range alphabet {
				next = append(next, w+string(c))
			}
		}
		for _, w := range next {
			f(w)
		}
		words = next
	}
}
