package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

type doc struct {
	Name  string            `json:"name"`
	Items []item            `json:"items,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	Count *int              `json:"count,omitempty"`
}

type item struct {
	Key string `json:"key"`
}

func TestTooLarge(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.yaml")
	data := append([]byte("name: x\n# "), bytes.Repeat([]byte("a"), MaxFileSize)...)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var d doc
	_, err := ReadFile(name, &d)
	if err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") || !strings.HasPrefix(err.Error(), name+": ") {
		t.Fatalf("want a size error naming the file, got %v", err)
	}
}

// TestTokenBound: a file with more lines and commas than maxTokens is
// refused before it is parsed, and one at the bound parses.
func TestTokenBound(t *testing.T) {
	list := func(n int) string { // n lines and commas in all
		return "name: x\nitems: [" + strings.Repeat("{key: a},", n-2) + "{key: a}]\n"
	}
	if _, err := ParseText("at.yaml", list(maxTokens)); err != nil {
		t.Errorf("%d lines and commas: %v", maxTokens, err)
	}
	_, err := ParseText("over.yaml", list(maxTokens+1))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("file has %d lines and commas, more than %d", maxTokens+1, maxTokens)) {
		t.Errorf("%d lines and commas: want the bound's error, got %v", maxTokens+1, err)
	}
}

func TestAllErrorsAtOnce(t *testing.T) {
	in := "name: a\nitems:\n  - key: x\n    kee: y\n  - {key: 3}\ntags: [a]\ncount: many\nname: b\n"
	var d doc
	_, err := Decode("d.yaml", []byte(in), &d)
	if err == nil {
		t.Fatal("want errors")
	}
	want := []string{
		`d.yaml:4:5: items[0].kee: unknown key "kee" (did you mean "key"?)`,
		`d.yaml:5:11: items[1].key: expected a string, got the number 3`,
		`d.yaml:6:7: tags: expected a mapping, got a list`,
		`d.yaml:7:8: count: expected an integer, got the string "many"`,
		`d.yaml:8:1: name: duplicate key "name" (first at line 1)`,
	}
	got := strings.Split(err.Error(), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d errors:\n%s", len(got), err)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

func TestPositions(t *testing.T) {
	var d doc
	pos, err := Decode("d.yaml", []byte("name: a\nitems:\n  - key: x\n"), &d)
	if err != nil {
		t.Fatal(err)
	}
	if at := pos.Of("items[0].key"); at != (Pos{3, 5}) {
		t.Errorf("items[0].key at %v", at)
	}
	if at := pos.Of("items[0].missing.deeper"); at != (Pos{3, 5}) {
		t.Errorf("an absent path points at its nearest ancestor: %v", at)
	}
	if d.Name != "a" || d.Items[0].Key != "x" {
		t.Errorf("decoded %+v", d)
	}
}

type tree struct {
	Children []tree `json:"children"`
}

func TestRecursiveAlias(t *testing.T) {
	var d tree
	_, err := Decode("d.yaml", []byte("children: &a [{children: *a}]\n"), &d)
	if err == nil {
		t.Fatal("want an error for a recursive alias")
	}
	if !strings.Contains(err.Error(), "nested deeper than 64 levels") {
		t.Errorf("got %v", err)
	}
}

func TestManyErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\nitems:\n")
	for range 1000 {
		b.WriteString("  - {kee: 1}\n")
	}
	var d doc
	_, err := Decode("d.yaml", []byte(b.String()), &d)
	if err == nil || strings.Count(err.Error(), "\n") != maxDiags || !strings.HasSuffix(err.Error(), "and 900 more problems: only the first 100 are listed") {
		t.Errorf("want %d diagnostics and a count of the rest, got %d lines ending %q", maxDiags, strings.Count(err.Error(), "\n")+1, err.Error()[max(0, len(err.Error())-80):])
	}
}

type scalars struct {
	S   string   `json:"s"`
	L   []string `json:"l"`
	N   int      `json:"n"`
	F   float64  `json:"f"`
	B   bool     `json:"b"`
	Nil *int     `json:"nil"`
}

// TestScalarsAsTheWalkerReadsThem: YAML 1.2 scalars decode as the walker
// typed them: "no" is a string, 0x10 an int, a quoted number a string.
func TestScalarsAsTheWalkerReadsThem(t *testing.T) {
	var d scalars
	_, err := Decode("d.yaml", []byte("s: no\nl: [on, 'yes', \"2026.01\", \"tab\\there \\u00e9\"]\nn: 0x10\nf: 1.5e3\nb: true\nnil: null\n"), &d)
	if err != nil {
		t.Fatal(err)
	}
	want := scalars{S: "no", L: []string{"on", "yes", "2026.01", "tab\there é"}, N: 16, F: 1500, B: true}
	if d.S != want.S || strings.Join(d.L, "|") != strings.Join(want.L, "|") || d.N != want.N || d.F != want.F || !d.B || d.Nil != nil {
		t.Errorf("got %+v, want %+v", d, want)
	}
	if _, err := Decode("d.yaml", []byte("f: .inf\n"), &d); err == nil {
		t.Error("an infinite number has no JSON form: want an error")
	}
}

// TestDuplicateKeys: a key given twice is reported at its second place,
// naming its first, in mappings small enough to be searched and large
// enough to be kept in a set, and a third time is reported too.
func TestDuplicateKeys(t *testing.T) {
	for _, n := range []int{2, smallMapping, smallMapping + 1, 3 * smallMapping} {
		var b strings.Builder
		b.WriteString("name: a\ntags:\n")
		for i := range n {
			fmt.Fprintf(&b, "  k%d: v\n", i)
		}
		b.WriteString("  k1: again\n  k0: again\n  k1: thrice\n")
		var d doc
		_, err := Decode("d.yaml", []byte(b.String()), &d)
		line := n + 3
		want := []string{
			fmt.Sprintf(`d.yaml:%d:3: tags.k1: duplicate key "k1" (first at line 4)`, line),
			fmt.Sprintf(`d.yaml:%d:3: tags.k0: duplicate key "k0" (first at line 3)`, line+1),
			fmt.Sprintf(`d.yaml:%d:3: tags.k1: duplicate key "k1" (first at line 4)`, line+2),
		}
		if err == nil || err.Error() != strings.Join(want, "\n") {
			t.Errorf("%d keys: got\n%v\nwant\n%s", n, err, strings.Join(want, "\n"))
		}
	}
}

// TestParseAll: ParseAll gives the root of each document that holds
// something, skipping empty and null ones, and after a syntax error the
// documents before it with the error, which names the file and line.
func TestParseAll(t *testing.T) {
	roots := func(docs []*yaml.Node) []string {
		var out []string
		for _, d := range docs {
			var v any
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(v))
		}
		return out
	}
	for _, c := range []struct {
		data string
		want []string
	}{
		{"", nil},
		{"a: 1\n", []string{"map[a:1]"}},
		{"a: 1\n---\n# only a comment\n---\n~\n---\nb: [2]\n", []string{"map[a:1]", "map[b:[2]]"}},
		{"---\n- x\n...\n---\nc\n", []string{"[x]", "c"}},
	} {
		docs, err := ParseAll("m.yaml", []byte(c.data))
		if err != nil || !slices.Equal(roots(docs), c.want) {
			t.Errorf("%q: got %v, %v; want %v", c.data, roots(docs), err, c.want)
		}
	}
	docs, err := ParseAll("m.yaml", []byte("a: 1\n---\nb: [\n"))
	var l diag.List
	if !errors.As(err, &l) || len(l) != 1 || l[0].File != "m.yaml" || l[0].Line < 3 {
		t.Errorf("a syntax error in the second document: got %v", err)
	}
	if got := roots(docs); !slices.Equal(got, []string{"map[a:1]"}) {
		t.Errorf("before a syntax error: got %v, want the first document", got)
	}
}
