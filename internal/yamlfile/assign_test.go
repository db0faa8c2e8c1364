package yamlfile

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type assignName string

type assignInner struct {
	S   string            `json:"s"`
	P   *string           `json:"p,omitempty"`
	N   int               `json:"n"`
	PN  *int              `json:"pn"`
	I32 int32             `json:"i32"`
	F   *float64          `json:"f"`
	B   bool              `json:"b"`
	PB  *bool             `json:"pb"`
	L   []string          `json:"l"`
	M   map[string]string `json:"m"`
	T   assignName        `json:"t"`
}

type assignShape struct {
	assignInner
	Sub    *assignInner            `json:"sub"`
	Subs   []assignInner           `json:"subs"`
	ByName map[string]*assignInner `json:"by_name"`
	Val    assignInner             `json:"val"`
}

var assignScalars = []string{"x", "'1'", "1", "0x10", "-3", "1.5", "1e400", ".nan", "3000000000", "9999999999999999999", "true", "no", "on",
	"null", "~", "''", "[]", "{}", "[a, b]", "{a: b}", "- x", "\"multi\\nline\""}

// assignScalar is mostly a value of the field's kind, and sometimes any.
func assignScalar(r *rand.Rand, key string) string {
	good := map[string][]string{
		"s": {"x", "'1'", "''", "\"q\""}, "p": {"x", "'no'"}, "t": {"x", "'on'"},
		"n": {"1", "0x10", "-3", "9999999999999999999"}, "pn": {"1", "0", "-0"}, "i32": {"3000000000", "-2147483648", "7"},
		"f": {"1.5", "2", "1e400", ".nan", "-0.0", "9999999999999999999"}, "b": {"true", "False"}, "pb": {"false", "true"},
	}[key]
	if len(good) > 0 && r.IntN(3) > 0 {
		return good[r.IntN(len(good))]
	}
	return assignScalars[r.IntN(len(assignScalars))]
}

func randomAssignDoc(r *rand.Rand, b *strings.Builder, col, depth int) {
	inner := []string{"s", "p", "n", "pn", "i32", "f", "b", "pb", "l", "m", "t"}
	outer := []string{"sub", "subs", "by_name", "val"}
	pad := strings.Repeat(" ", col)
	for range 1 + r.IntN(5) {
		keys := inner
		if depth == 0 && r.IntN(3) == 0 {
			keys = outer
		}
		k := keys[r.IntN(len(keys))]
		b.WriteString(pad + k + ":")
		switch {
		case (k == "sub" || k == "val") && depth < 2:
			b.WriteString("\n")
			randomAssignDoc(r, b, col+2, depth+1)
		case k == "subs" && depth < 2:
			b.WriteString("\n")
			for range 1 + r.IntN(2) {
				b.WriteString(pad + "  -\n")
				randomAssignDoc(r, b, col+4, depth+1)
			}
		case (k == "l" || k == "m" || k == "by_name" || k == "subs") && r.IntN(5) == 0:
			b.WriteString(" " + []string{"[]", "{}", "null"}[r.IntN(3)] + "\n")
		case k == "by_name" || k == "m":
			b.WriteString("\n")
			for _, name := range []string{"a", "b", "a2"}[:1+r.IntN(3)] {
				b.WriteString(pad + "  " + name + ":")
				if k == "m" {
					b.WriteString(" " + assignScalars[r.IntN(len(assignScalars))] + "\n")
				} else {
					b.WriteString("\n")
					randomAssignDoc(r, b, col+4, depth+1)
				}
			}
		case k == "l":
			b.WriteString("\n")
			for range r.IntN(3) {
				b.WriteString(pad + "  - " + assignScalars[r.IntN(len(assignScalars))] + "\n")
			}
		default:
			b.WriteString(" " + assignScalar(r, k) + "\n")
		}
	}
}

// TestAssignMatchesJSON: assign stores what encoding/json stored from the
// JSON toJSON writes (how DecodeNode decoded before), for random documents
// over every kind of field the configs use, the walker's problems aside.
func TestAssignMatchesJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	compared, failed := 0, 0
	for i := range 20000 {
		var b strings.Builder
		randomAssignDoc(r, &b, 0, 0)
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil || len(doc.Content) != 1 {
			continue
		}
		root := doc.Content[0]
		w := walker{file: "f", pos: map[string]Pos{}}
		w.walk(root, reflect.TypeFor[assignShape](), "")
		if len(w.diags) > 0 {
			continue
		}
		var want assignShape
		var j bytes.Buffer
		refErr := toJSON(&j, root)
		if refErr == nil {
			dec := json.NewDecoder(&j)
			dec.DisallowUnknownFields()
			refErr = dec.Decode(&want)
		}
		var got assignShape
		d := assign("f", root, reflect.ValueOf(&got).Elem())
		switch {
		case (refErr == nil) != (d == nil):
			t.Fatalf("document %d: encoding/json says %v, assign says %v\n%s", i, refErr, d, b.String())
		case d != nil:
			failed++
		case !reflect.DeepEqual(got, want):
			t.Fatalf("document %d: assign stored\n%+v\nencoding/json\n%+v\n%s", i, got, want, b.String())
		}
		compared++
	}
	t.Logf("%d documents compared, %d of them refused by both", compared, failed)
	if compared < 2000 || failed == 0 || failed == compared {
		t.Errorf("%d compared, %d refused: the random documents do not cover both outcomes", compared, failed)
	}
}

// TestAssignNumberOutOfRange: a number its field cannot hold is refused at
// its line, as before (then at line 1, from encoding/json).
func TestAssignNumberOutOfRange(t *testing.T) {
	var out assignShape
	_, err := Decode("f.yaml", []byte("s: x\ni32: 3000000000\n"), &out)
	if err == nil || !strings.Contains(err.Error(), "f.yaml:2:") || !strings.Contains(err.Error(), "3000000000") {
		t.Errorf("got %v, want a problem at f.yaml:2 naming 3000000000", err)
	}
}

// TestPlainDecimal: the scalars plainDecimal reads without a decoder, it
// reads as the decoder does; and the common ones take that path.
func TestPlainDecimal(t *testing.T) {
	texts := []string{"0", "7", "-7", "-0", "42", "443", "65535", "017", "08", "+5", "1_000", "0x1F", "0o17", "0b101",
		"123456789012345678", "-123456789012345678", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"12345678901234567890", "1e3", "1.5", "-", "", "'5'", "\"5\"", "!!str 5", "!!int 5", "5 # five", "٣"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, 1+r.IntN(20))
		for i := range b {
			b[i] = "0123456789-+_"[r.IntN(13)]
		}
		texts = append(texts, string(b))
	}
	fast := 0
	for _, text := range texts {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+text), &doc); err != nil || len(doc.Content) == 0 {
			continue
		}
		n := doc.Content[0].Content[1]
		got, ok := plainDecimal(n)
		if !ok {
			continue
		}
		fast++
		var want int64
		if err := n.Decode(&want); err != nil || got != want {
			t.Errorf("%q: plainDecimal reads %d, the decoder %d (%v)", text, got, want, err)
		}
	}
	for _, text := range []string{"0", "-7", "443", "123456789012345678"} {
		if _, ok := plainDecimal(&yaml.Node{Kind: yaml.ScalarNode, Value: text}); !ok {
			t.Errorf("%q takes the decoder", text)
		}
	}
	t.Logf("%d of %d read without a decoder", fast, len(texts))
}
