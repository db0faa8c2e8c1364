package chartvalues

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestData: helm-controller reads a Secret's data, where stringData wins,
// and a ConfigMap's data, never its binaryData.
func TestData(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tc := range []struct {
		kind string
		body map[string]any
		want string
		ok   bool
		err  bool
	}{
		{kind: "Secret", body: map[string]any{"data": map[string]any{"v": b64("a: 1\n")}}, want: "a: 1\n", ok: true},
		{kind: "Secret", body: map[string]any{"stringData": map[string]any{"v": "a: 2\n"}, "data": map[string]any{"v": b64("a: 1\n")}}, want: "a: 2\n", ok: true},
		{kind: "Secret", body: map[string]any{"data": map[string]any{"v": "a: 1"}}, ok: true, err: true},
		{kind: "Secret", body: map[string]any{"data": map[string]any{"other": b64("a")}}},
		{kind: "ConfigMap", body: map[string]any{"data": map[string]any{"v": "a: 1\n"}}, want: "a: 1\n", ok: true},
		{kind: "ConfigMap", body: map[string]any{"binaryData": map[string]any{"v": b64("a: 1\n")}}},
		{kind: "ConfigMap", body: map[string]any{"stringData": map[string]any{"v": "a: 1\n"}}},
	} {
		data, ok, err := Data(tc.kind, tc.body, "v")
		if string(data) != tc.want || ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("%s %v: got %q, %v, %v", tc.kind, tc.body, data, ok, err)
		}
	}
}

// TestCompose covers what the comparison with helm-controller
// (tools/helmcontroller) cannot: sources left out, a targetPath, and
// secret values.
func TestCompose(t *testing.T) {
	objects := map[string]Source{
		"Secret/base":     {Body: map[string]any{"stringData": map[string]any{"values.yaml": "a: {x: 1}\nb: 1\n"}}},
		"Secret/creds":    {Body: map[string]any{"stringData": map[string]any{"values.yaml": "a: {password: Zq9pass}\n"}}, Secret: true},
		"Secret/external": {Unknown: true},
	}
	lookup := func(kind, ns, name string) (Source, bool) {
		s, ok := objects[kind+"/"+name]
		return s, ok && ns == "apps"
	}
	spec := &helmv2.HelmReleaseSpec{
		ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base"}, {Kind: "Secret", Name: "external"}, {Kind: "Secret", Name: "creds"}},
		Values:     &apiextensionsv1.JSON{Raw: []byte(`{"b":2}`)},
	}
	v, err := Compose("apps", spec, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(v); got != "map[a:map[password:(secret) x:1] b:2]" {
		t.Errorf("values %s", got)
	}
	if s, ok := v["a"].(map[string]any)["password"].(Secret); !ok || !s.Equal(Secret{"Zq9pass"}) || s.Equal(Secret{"other"}) {
		t.Errorf("the secret value does not compare by value: %v", v)
	}

	spec.ValuesFrom = append(spec.ValuesFrom, helmv2.ValuesReference{Kind: "Secret", Name: "base", TargetPath: "a.b"})
	if _, err := Compose("apps", spec, lookup); !errors.Is(err, ErrTargetPath) {
		t.Errorf("targetPath: %v", err)
	}
	spec.ValuesFrom = []helmv2.ValuesReference{{Kind: "Secret", Name: "missing"}}
	if _, err := Compose("apps", spec, lookup); err == nil || !strings.Contains(err.Error(), "valuesFrom Secret apps/missing: not found") {
		t.Errorf("missing: %v", err)
	}
	spec.ValuesFrom = []helmv2.ValuesReference{{Kind: "Secret", Name: "missing", Optional: true}, {Kind: "OCIRepository", Name: "x"}}
	if _, err := Compose("apps", spec, lookup); err == nil || !strings.Contains(err.Error(), "only Secrets and ConfigMaps") {
		t.Errorf("kind: %v", err)
	}
}
