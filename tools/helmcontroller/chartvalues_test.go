package helmcontroller

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	"github.com/fluxcd/pkg/chartutil"
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opencenter-dev/opencenter/internal/chartvalues"
)

// namespace is where every generated release and its sources live.
const namespace = "apps"

// object is a Secret or ConfigMap as a build gives it: a Secret may carry
// a key in data (base64) or in stringData, or in both.
type object struct {
	kind, name string
	body       map[string]any
}

// release is one generated case: a HelmRelease and what its namespace holds.
type release struct {
	spec    helmv2.HelmReleaseSpec
	objects []object
}

// gen makes random but reproducible cases.
type gen struct{ r *rand.Rand }

var keys = []string{"a", "b", "list", "nested", "replicas"}

// value is a random value of Helm values: scalars of every YAML type,
// null, lists and mappings (which merge key by key).
func (g gen) value(depth int) any {
	switch n := g.r.IntN(10); {
	case n < 3 && depth < 3:
		return g.mapping(depth + 1)
	case n == 3:
		return nil
	case n == 4:
		return []any{g.r.IntN(3), "x"}
	case n == 5:
		return g.r.IntN(2) == 0
	case n == 6:
		return float64(g.r.IntN(100)) + 0.5
	case n == 7:
		return g.r.IntN(1000)
	default:
		return fmt.Sprintf("s%d", g.r.IntN(5))
	}
}

func (g gen) mapping(depth int) map[string]any {
	m := map[string]any{}
	for range g.r.IntN(4) {
		m[keys[g.r.IntN(len(keys))]] = g.value(depth)
	}
	return m
}

// document is the text of a values key: mostly YAML of a mapping, else
// what Helm reads as no values, or cannot read.
func (g gen) document() string {
	switch g.r.IntN(24) {
	case 0:
		return ""
	case 1:
		return "- a list\n"
	case 2:
		return "a: [\n"
	case 3:
		return "just text\n"
	case 4:
		return "# a comment\n"
	}
	b, err := sigsyaml.Marshal(g.mapping(0))
	if err != nil {
		panic(err)
	}
	return string(b)
}

var valuesKeys = []string{"values.yaml", "override.yaml", "other.yaml"}

func (g gen) object(kind, name string) object {
	o := object{kind: kind, name: name, body: map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name, "namespace": namespace}}}
	data, stringData := map[string]any{}, map[string]any{}
	for range 1 + g.r.IntN(3) {
		k, doc := valuesKeys[g.r.IntN(len(valuesKeys))], g.document()
		switch {
		case kind == "ConfigMap":
			data[k] = doc
		case g.r.IntN(2) == 0:
			stringData[k] = doc
		default:
			data[k] = base64.StdEncoding.EncodeToString([]byte(doc))
		}
	}
	if len(data) > 0 {
		o.body["data"] = data
	}
	if len(stringData) > 0 {
		o.body["stringData"] = stringData
	}
	return o
}

func (g gen) release() release {
	var rel release
	for i := range 1 + g.r.IntN(4) {
		rel.objects = append(rel.objects, g.object("Secret", fmt.Sprintf("s%d", i)))
	}
	for i := range g.r.IntN(3) {
		rel.objects = append(rel.objects, g.object("ConfigMap", fmt.Sprintf("c%d", i)))
	}
	for range g.r.IntN(5) {
		ref := helmv2.ValuesReference{Kind: "Secret", Name: fmt.Sprintf("s%d", g.r.IntN(4)), Optional: g.r.IntN(2) == 0}
		if g.r.IntN(3) == 0 {
			ref.Kind, ref.Name = "ConfigMap", fmt.Sprintf("c%d", g.r.IntN(4))
		}
		if g.r.IntN(3) > 0 {
			ref.ValuesKey = valuesKeys[g.r.IntN(len(valuesKeys))]
		}
		if g.r.IntN(12) == 0 {
			ref.TargetPath = "a.b"
		}
		rel.spec.ValuesFrom = append(rel.spec.ValuesFrom, ref)
	}
	if g.r.IntN(3) > 0 {
		raw, err := json.Marshal(g.mapping(0))
		if err != nil {
			panic(err)
		}
		rel.spec.Values = &apiextensionsv1.JSON{Raw: raw}
	}
	return rel
}

// stored is the object as the API server stores it, which is what
// helm-controller reads: a Secret's stringData merged into its data.
func stored(t *testing.T, o object) client.Object {
	meta := metav1.ObjectMeta{Name: o.name, Namespace: namespace}
	field := func(name string) map[string]any { m, _ := o.body[name].(map[string]any); return m }
	if o.kind == "ConfigMap" {
		cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{}}
		for k, v := range field("data") {
			cm.Data[k] = v.(string)
		}
		return cm
	}
	s := &corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{}}
	for k, v := range field("data") {
		b, err := base64.StdEncoding.DecodeString(v.(string))
		if err != nil {
			t.Fatal(err)
		}
		s.Data[k] = b
	}
	for k, v := range field("stringData") {
		s.Data[k] = []byte(v.(string))
	}
	return s
}

// helmController composes the values with helm-controller's own code, as
// its HelmRelease reconciler calls it.
func helmController(t *testing.T, rel release) (map[string]any, error) {
	var objs []client.Object
	for _, o := range rel.objects {
		objs = append(objs, stored(t, o))
	}
	c := fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme).WithObjects(objs...).Build()
	hr := helmv2.HelmRelease{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: namespace}, Spec: rel.spec}
	values, err := chartutil.ChartValuesFromReferences(context.Background(), logr.Discard(), c, namespace, hr.GetValues(), hr.Spec.ValuesFrom...)
	return values, err
}

// ours composes them with internal/chartvalues over the objects as a build
// gives them.
func ours(rel release) (map[string]any, error) {
	return chartvalues.Compose(namespace, &rel.spec, func(kind, ns, name string) (chartvalues.Source, bool) {
		for _, o := range rel.objects {
			if o.kind == kind && ns == namespace && o.name == name {
				return chartvalues.Source{Body: o.body}, true
			}
		}
		return chartvalues.Source{}, false
	})
}

// canonical is values as JSON, so that equal values compare equal
// whatever map types hold them.
func canonical(t *testing.T, v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestComposeMatchesHelmController composes the values of generated
// HelmReleases with helm-controller's code and with ours: the same values,
// or an error from both. References with a targetPath, which ours does not
// evaluate, must say so unless an earlier reference fails.
func TestComposeMatchesHelmController(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(43, 2026))}
	var compared, failed, targetPaths int
	for i := range 2000 {
		rel := g.release()
		want, wantErr := helmController(t, rel)
		got, err := ours(rel)
		name := fmt.Sprintf("case %d", i)
		switch {
		case errors.Is(err, chartvalues.ErrTargetPath):
			targetPaths++
		case (err != nil) != (wantErr != nil):
			t.Errorf("%s: error %v, helm-controller's %v\n%s", name, err, wantErr, describe(rel))
		case err != nil:
			failed++
		case canonical(t, got) != canonical(t, want):
			t.Errorf("%s:\n got %s\nwant %s\n%s", name, canonical(t, got), canonical(t, want), describe(rel))
		default:
			compared++
		}
	}
	// The generator must reach every path, or the comparison proves little.
	if compared < 700 || failed < 200 || targetPaths < 50 {
		t.Errorf("%d compared, %d failed in both, %d with a targetPath: the generator covers too little", compared, failed, targetPaths)
	}
	t.Logf("%d compared, %d failed in both, %d with a targetPath", compared, failed, targetPaths)
}

// TestComposeCases are the cases worth naming, against helm-controller too.
func TestComposeCases(t *testing.T) {
	secret := func(name string, kv ...string) object {
		data := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			data[kv[i]] = kv[i+1]
		}
		return object{"Secret", name, map[string]any{"stringData": data}}
	}
	raw := func(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }
	for _, tc := range []struct {
		name string
		rel  release
		want string // JSON, or "error"
	}{
		{"base then override, nested maps merge, lists replace", release{
			spec: helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{
				{Kind: "Secret", Name: "base", ValuesKey: "values.yaml"},
				{Kind: "Secret", Name: "override", ValuesKey: "override.yaml", Optional: true},
			}},
			objects: []object{
				secret("base", "values.yaml", "a: {x: 1, z: 2}\nlist: [1, 2]\nkept: true\n"),
				secret("override", "override.yaml", "a: {z: 3}\nlist: [3]\n"),
			},
		}, `{"a":{"x":1,"z":3},"kept":true,"list":[3]}`},
		{"optional override missing", release{
			spec: helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{
				{Kind: "Secret", Name: "base"}, {Kind: "Secret", Name: "override", Optional: true},
			}},
			objects: []object{secret("base", "values.yaml", "a: 1\n")},
		}, `{"a":1}`},
		{"spec.values last; a null stays", release{
			spec:    helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base"}}, Values: raw(`{"a":null,"b":{"c":2}}`)},
			objects: []object{secret("base", "values.yaml", "a: 1\nb: {d: 4}\n")},
		}, `{"a":null,"b":{"c":2,"d":4}}`},
		{"a map replaced by a scalar", release{
			spec:    helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base"}}, Values: raw(`{"a":"flat"}`)},
			objects: []object{secret("base", "values.yaml", "a: {x: 1}\n")},
		}, `{"a":"flat"}`},
		{"required reference missing", release{
			spec: helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base"}}},
		}, "error"},
		{"required key missing", release{
			spec:    helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base", ValuesKey: "other.yaml"}}},
			objects: []object{secret("base", "values.yaml", "a: 1\n")},
		}, "error"},
		{"values not a mapping", release{
			spec:    helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "base"}}},
			objects: []object{secret("base", "values.yaml", "- a\n")},
		}, "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := helmController(t, tc.rel)
			got, err := ours(tc.rel)
			if tc.want == "error" {
				if err == nil || wantErr == nil {
					t.Errorf("error %v, helm-controller's %v; want both", err, wantErr)
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatalf("error %v, helm-controller's %v", err, wantErr)
			}
			if canonical(t, want) != tc.want || canonical(t, got) != tc.want {
				t.Errorf("got %s, helm-controller's %s; want %s", canonical(t, got), canonical(t, want), tc.want)
			}
		})
	}
}

// describe prints a case for a failure message.
func describe(rel release) string {
	var b strings.Builder
	for _, r := range rel.spec.ValuesFrom {
		fmt.Fprintf(&b, "valuesFrom %+v\n", r)
	}
	if rel.spec.Values != nil {
		fmt.Fprintf(&b, "values %s\n", rel.spec.Values.Raw)
	}
	for _, o := range rel.objects {
		body, _ := json.Marshal(o.body)
		fmt.Fprintf(&b, "%s %s: %s\n", o.kind, o.name, body)
	}
	return b.String()
}

// TestSecretValuesHidden: values read from secret material compare by
// value and never print.
func TestSecretValuesHidden(t *testing.T) {
	spec := helmv2.HelmReleaseSpec{ValuesFrom: []helmv2.ValuesReference{{Kind: "Secret", Name: "creds"}}}
	compose := func(password string) map[string]any {
		v, err := chartvalues.Compose(namespace, &spec, func(kind, ns, name string) (chartvalues.Source, bool) {
			return chartvalues.Source{Body: map[string]any{"stringData": map[string]any{"values.yaml": "db: {password: " + password + "}\n"}}, Secret: true}, true
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a, b, c := compose("Zq9first"), compose("Zq9first"), compose("Zq9second")
	pa := a["db"].(map[string]any)["password"].(chartvalues.Secret)
	if !pa.Equal(b["db"].(map[string]any)["password"].(chartvalues.Secret)) || pa.Equal(c["db"].(map[string]any)["password"].(chartvalues.Secret)) {
		t.Error("secret values do not compare by value")
	}
	j, _ := json.Marshal(a)
	y, _ := sigsyaml.Marshal(a)
	if out := fmt.Sprintf("%v %+v %#v %s %s", a, a, a, j, y); strings.Contains(out, "Zq9") || !reflect.DeepEqual(a, b) {
		t.Errorf("a secret value printed: %s", out)
	}
}
