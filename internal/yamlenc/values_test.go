package yamlenc

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"github.com/fluxcd/pkg/apis/kustomize"
	"github.com/fluxcd/pkg/apis/meta"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Types that exercise encoding/json's rules for structs.
type (
	inner struct {
		A string `json:"a"`
		B string `json:"b,omitempty"`
	}
	Embedded struct {
		E     string `json:"e"`
		Clash string `json:"clash"`
	}
	Other struct {
		Clash string `json:"clash"` // as deep as Embedded's: neither is written
		Won   string
	}
	Tagged struct {
		Won string `json:"Won"` // tagged: wins over Other's untagged Won
	}
	zeroer   struct{ N int }
	ptrZero  struct{ N int }
	text     struct{ s string }
	name     string
	jsonOnly struct{}
	goValues struct {
		Embedded
		*Other
		Tagged
		inner   `json:"named"`
		Str     string `json:"str"`
		Skip    string `json:"-"`
		Dash    string `json:"-,"`
		private string //nolint:unused // not written
		Untag   int
		Ptr     *inner            `json:"ptr"`
		NilPtr  *inner            `json:"nilPtr"`
		Bytes   []byte            `json:"bytes"`
		ByteMap map[string][]byte `json:"byteMap"`
		IntMap  map[int]string    `json:"intMap"`
		TextMap map[text]name     `json:"textMap"`
		Text    text              `json:"text"`
		Named   name              `json:"named2"`
		NilMap  map[string]string `json:"nilMap"`
		Empty   map[string]string `json:"emptyMap"`
		NilList []string          `json:"nilList"`
		List    []any             `json:"list"`
		Array   [2]int            `json:"array"`
		Any     any               `json:"any"`
		Float   float64           `json:"float"`
		Uint    uint8             `json:"uint"`
		OE      struct {
			S  string         `json:"s,omitempty"`
			I  int            `json:"i,omitempty"`
			B  bool           `json:"b,omitempty"`
			F  float32        `json:"f,omitempty"`
			P  *int           `json:"p,omitempty"`
			M  map[string]int `json:"m,omitempty"`
			L  []int          `json:"l,omitempty"`
			A  [0]int         `json:"a,omitempty"`
			St inner          `json:"st,omitempty"` // a struct is never empty
			Z  zeroer         `json:"z,omitzero"`
			NZ zeroer         `json:"nz,omitzero"`
			PZ ptrZero        `json:"pz,omitzero"`
			T  time.Time      `json:"t,omitzero"`
			IZ inner          `json:"iz,omitzero"`
		} `json:"oe"`
	}
)

func (z zeroer) IsZero() bool                 { return z.N == 42 }
func (z *ptrZero) IsZero() bool               { return z.N == 7 }
func (t text) MarshalText() ([]byte, error)   { return []byte("text:" + t.s), nil }
func (jsonOnly) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

// viaJSON is the encoding Append replaces: v through encoding/json, then
// the JSON-shaped value written, without the top-level keys omit.
func viaJSON(t *testing.T, v any, omit ...string) string {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(j, &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range omit {
		delete(back.(map[string]any), k)
	}
	return string(Marshal(back))
}

// TestGoValuesAsJSON holds the writing of Go values to encoding/json's:
// the same document as writing what encoding/json makes of them.
func TestGoValuesAsJSON(t *testing.T) {
	one := 1
	v := goValues{
		Embedded: Embedded{E: "e", Clash: "x"}, Other: &Other{Clash: "y", Won: "lost"}, Tagged: Tagged{Won: "won"},
		inner: inner{A: "in"}, Str: "s", Skip: "no", Dash: "dash", private: "no", Untag: 3,
		Ptr: &inner{A: "p", B: "q"}, Bytes: []byte("bytes\x00\xff"), ByteMap: map[string][]byte{"k": []byte("v")},
		IntMap: map[int]string{10: "ten", 9: "nine", -1: "minus"}, TextMap: map[text]name{{"b"}: "x", {"a"}: "y"},
		Text: text{"t"}, Named: "yes", Empty: map[string]string{}, List: []any{"a", 1, nil, []any{}, map[string]any{}},
		Array: [2]int{1, 2}, Any: map[string]any{"k": []string{"v"}}, Float: 2.5, Uint: 255,
	}
	v.OE.St = inner{}
	v.OE.Z, v.OE.NZ, v.OE.PZ = zeroer{42}, zeroer{1}, ptrZero{7}
	for _, c := range []any{v, &v, []any{v, nil}, map[string]any{"v": &v, "p": &one}, nil, "top", 1, []string{}, map[string]int{}} {
		if got, want := string(Marshal(c)), viaJSON(t, c); got != want {
			t.Errorf("%T:\n%s\nencoding/json gives\n%s", c, got, want)
		}
	}
	// A value of pointer-receiver IsZero that is not addressable.
	m := map[string]any{"v": v}
	if got, want := string(Marshal(m)), viaJSON(t, m); got != want {
		t.Errorf("by value in a map:\n%s\nencoding/json gives\n%s", got, want)
	}
	if out := string(Marshal(v)); strings.Contains(out, "private") || strings.Contains(out, "Skip") || strings.Contains(out, "clash") {
		t.Errorf("wrote a field encoding/json does not:\n%s", out)
	}
}

// TestAPIObjects: the Kubernetes types render as encoding/json writes
// them, by their ToUnstructured forms (durations, times) where they have
// one, and AppendWithout drops status.
func TestAPIObjects(t *testing.T) {
	retry := metav1.Duration{Duration: time.Minute}
	objs := []any{
		&kustomizev1.Kustomization{
			TypeMeta:   metav1.TypeMeta{APIVersion: "kustomize.toolkit.fluxcd.io/v1", Kind: "Kustomization"},
			ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "flux-system", Labels: map[string]string{"b": "1", "a": "yes"}},
			Spec: kustomizev1.KustomizationSpec{
				Interval: metav1.Duration{Duration: 15 * time.Minute}, RetryInterval: &retry, Prune: true,
				DependsOn:  []kustomizev1.DependencyReference{{Name: "x"}},
				Patches:    []kustomize.Patch{{Patch: "a: b\n", Target: &kustomize.Selector{Kind: "HelmRelease"}}},
				SourceRef:  kustomizev1.CrossNamespaceSourceReference{Kind: "GitRepository", Name: "flux-system"},
				Decryption: &kustomizev1.Decryption{Provider: "sops", SecretRef: &meta.LocalObjectReference{Name: "sops-age"}},
			},
		},
		&sourcev1.GitRepository{
			ObjectMeta: metav1.ObjectMeta{Name: "g", CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))},
			Spec:       sourcev1.GitRepositorySpec{URL: "https://x", Reference: &sourcev1.GitRepositoryRef{}},
		},
		&corev1.Secret{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: metav1.ObjectMeta{Name: "s"},
			Type: corev1.SecretTypeOpaque, StringData: map[string]string{"key": "line\nline\n"}, Data: map[string][]byte{"b": {0, 1}},
		},
	}
	for _, o := range objs {
		if got, want := string(Marshal(o)), viaJSON(t, o); got != want {
			t.Errorf("%T:\n%s\nencoding/json gives\n%s", o, got, want)
		}
		if got, want := string(AppendWithout(nil, o, "status")), viaJSON(t, o, "status"); got != want {
			t.Errorf("%T without status:\n%s\nwant\n%s", o, got, want)
		}
	}
}

func TestJSONOnlyPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "JSON only") {
			t.Errorf("recovered %v, want the type named", r)
		}
	}()
	Marshal(map[string]any{"x": jsonOnly{}})
}
