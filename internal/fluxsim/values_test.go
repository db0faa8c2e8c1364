package fluxsim

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestValuesProblem holds valuesProblem to what Helm's reader does with
// each document: the first is read, the rest are dropped without a word.
func TestValuesProblem(t *testing.T) {
	for _, tc := range []struct {
		data, want string // want: a part of the problem, "" for none
		unreadable bool
	}{
		{data: "a: 1\n"},
		{data: ""},
		{data: "# only a comment\n"},
		{data: "---\na: 1\n"},
		{data: "a: 1\n---\n"},
		{data: "a: 1\n---\n# a comment\n"},
		{data: "a: 1\n---\n~\n"},
		{data: "a: 1\n---\nb: 2\nc: 3\n", want: "values (b, c) from its line 2 on are a second YAML document"},
		{data: "---\n---\nb: 1\n", want: "values (b) from its line 2 on"},
		{data: "a: 1\n---\n- x\n", want: "a YAML document from its line 2 on"},
		{data: "a: 1\n...\nb: 2\n", want: "what follows its first YAML document does not parse"},
		{data: "a: 1\n---\nk1: 1\nk2: 1\nk3: 1\nk4: 1\nk5: 1\nk6: 1\n", want: "values (k1, k2, k3, k4 and 2 more)"},
		{data: "- a\n", want: "Helm cannot read it as values", unreadable: true},
		{data: "a: [\n", want: "Helm cannot read it as values", unreadable: true},
		{data: "just a string\n", want: "Helm cannot read it as values", unreadable: true},
	} {
		got, unreadable := valuesProblem([]byte(tc.data))
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) || unreadable != tc.unreadable {
			t.Errorf("%q: got %q (unreadable %v), want %q (unreadable %v)", tc.data, got, unreadable, tc.want, tc.unreadable)
		}
	}
}

// TestValuesData: helm-controller reads a Secret's data and stringData and
// a ConfigMap's data, never a ConfigMap's binaryData.
func TestValuesData(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("a: 1\n"))
	for _, tc := range []struct {
		kind string
		body map[string]any
		want string
		ok   bool
		err  bool
	}{
		{kind: "Secret", body: map[string]any{"data": map[string]any{"values.yaml": b64}}, want: "a: 1\n", ok: true},
		{kind: "Secret", body: map[string]any{"stringData": map[string]any{"values.yaml": "a: 1\n"}}, want: "a: 1\n", ok: true},
		{kind: "Secret", body: map[string]any{"data": map[string]any{"values.yaml": "a: 1"}}, ok: true, err: true},
		{kind: "Secret", body: map[string]any{"data": map[string]any{"other.yaml": b64}}},
		{kind: "ConfigMap", body: map[string]any{"data": map[string]any{"values.yaml": "a: 1\n"}}, want: "a: 1\n", ok: true},
		{kind: "ConfigMap", body: map[string]any{"binaryData": map[string]any{"values.yaml": b64}}},
		{kind: "ConfigMap", body: map[string]any{"stringData": map[string]any{"values.yaml": "a: 1\n"}}},
	} {
		data, ok, err := valuesData(tc.kind, tc.body, "values.yaml")
		if string(data) != tc.want || ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("%s %v: got %q, %v, %v", tc.kind, tc.body, data, ok, err)
		}
		if keys := dataKeys(tc.kind, tc.body); (len(keys) == 1 && keys[0] == "values.yaml") != tc.ok {
			t.Errorf("%s %v: dataKeys %v", tc.kind, tc.body, keys)
		}
	}
}
