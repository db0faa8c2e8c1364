package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// parseV3 is ParseDocument through yaml.v3 alone: the only document.
func parseV3(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("a second document, or %v", err)
	}
	if len(doc.Content) != 1 {
		return nil, errors.New("no root")
	}
	return &doc, nil
}

// sameNodes compares two trees, their comments too with comments; "" when
// they are equal.
func sameNodes(a, b *yaml.Node, path string, comments bool) string {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style ||
		a.Line != b.Line || a.Column != b.Column || a.Anchor != b.Anchor || (a.Alias == nil) != (b.Alias == nil) || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: scanned {kind %v tag %s value %q style %v at %d:%d, %d children}, yaml.v3 {kind %v tag %s value %q style %v at %d:%d, %d children}",
			path, a.Kind, a.Tag, a.Value, a.Style, a.Line, a.Column, len(a.Content), b.Kind, b.Tag, b.Value, b.Style, b.Line, b.Column, len(b.Content))
	}
	if comments && (a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment) {
		return fmt.Sprintf("%s: scanned comments %q %q %q, yaml.v3 %q %q %q", path, a.HeadComment, a.LineComment, a.FootComment, b.HeadComment, b.LineComment, b.FootComment)
	}
	for i := range a.Content {
		if d := sameNodes(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i), comments); d != "" {
			return d
		}
	}
	return ""
}

// headComments counts the documents checkScan saw scanned with a head
// comment kept.
var headComments int

// checkScan: when scanBlock reads data, with or without comments, yaml.v3
// reads the same tree; it reports whether scanBlock read data without.
func checkScan(t *testing.T, name string, data []byte) bool {
	t.Helper()
	want, wantErr := parseV3(data)
	scanned := false
	for _, comments := range []bool{false, true} {
		root, ok := scanBlock(string(data), comments)
		if !ok {
			continue
		}
		scanned = scanned || !comments
		if want == nil {
			t.Errorf("%s: scanned, but yaml.v3 refuses it: %v\n%s", name, wantErr, data)
			return true
		}
		if !comments {
			if d := sameNodes(root, want.Content[0], "", false); d != "" {
				t.Errorf("%s: %s\n%s", name, d, data)
			}
			continue
		}
		doc, err := ParseDocument("", data) // what scanBlock read, as a document
		if err != nil {
			t.Fatal(err)
		}
		if d := sameNodes(doc, want, "", true); d != "" {
			t.Errorf("%s, comments kept: %s\n%s", name, d, data)
		}
		if root.Content[0].HeadComment != "" {
			headComments++
		}
	}
	return scanned
}

// TestScanBlockMatchesYAML holds scanBlock to yaml.v3 on every YAML file of
// the repository's test data (every fixture config, plaintext or encrypted,
// must take the fast path) and on random block documents.
func TestScanBlockMatchesYAML(t *testing.T) {
	files, scanned := 0, 0
	filepath.WalkDir("../../testdata", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files++
		ok := checkScan(t, p, data)
		if ok {
			scanned++
		}
		if strings.HasSuffix(p, "-config.yaml") && filepath.Dir(p) == filepath.Join("..", "..", "testdata", "fixture") && !ok {
			t.Errorf("%s: a fixture config does not take the fast path", p)
		}
		return nil
	})
	t.Logf("test data: %d of %d YAML files scanned, %d with a head comment", scanned, files, headComments)
	if scanned < 100 {
		t.Errorf("only %d test data files take the fast path", scanned)
	}

	r := rand.New(rand.NewPCG(1, 2))
	const docs = 50000
	n := 0
	for i := range docs {
		var b strings.Builder
		for range r.IntN(3) {
			b.WriteString([]string{"# head", "#", "#x", "# trailing  ", "#  two", "", "  # in"}[r.IntN(7)])
			b.WriteString("\n")
		}
		randomMapping(r, &b, 0, 0)
		if checkScan(t, fmt.Sprint("random ", i), []byte(b.String())) {
			n++
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("random: %d of %d documents scanned; %d documents with a head comment in all", n, docs, headComments)
	if n < docs/5 {
		t.Errorf("only %d random documents take the fast path", n)
	}
	if headComments < 1000 {
		t.Errorf("only %d documents were scanned with their head comment", headComments)
	}
}

var scanScalars = []string{
	"x", "a b", "true", "False", "yes", "no", "on", "null", "~", "Null", "0", "-1", "+1", "1.5", "1e3", ".inf", "-.Inf", ".nan", "0x1F", "0o17", "017",
	"1_000", "2026-01-02", "12:30", "a:b", "http://x/y", "a: b", "a:", "a #b", "a#b", "#c", "-", "- x", "-x", "--x", "?", "? x", "?x", ":x", ": x",
	"'q'", "'it''s'", "\"d\"", "\"a\\nb\"", "\"a # b\"", "'a: b'", "\"\"", "''", "\"x\" # c", "'x' #c", "\"x\"#c", "[a]", "{a: 1}", "&a x", "*a", "!t x",
	"|", "|-", "|+", ">", "| # c", "%x", "@x", "`x", ",x", "x,", "a]", "a}", "x  ", "x # c", "ENC[AES256_GCM,data:Zm9v,iv:YmFy,tag:YmF6,type:str]",
	"^(data|stringData)$", "age1abc", "10.0.0.0/8", "a\"b", "a'b", "=x", "<<", "x:y:z",
	// Number-like and word-like starts that resolve to strings, and some that do not.
	"50Gi", "10m", "1.30", "3d", "0xfg", "2026-01-02T03:04:05Z", "2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43.10", "2001-12-14t21:59:43.10-05:00", "0b101", "-0b1",
	"+12_3", "1e5x", "1E5", ".5", ".5x", "0o17x", "-.inf", "+.INF", ".NaN", "1:20", "0x1p-2", "1_0.5", "yesterday", "nullable", "Truely",
	"falsehood", "FALSE", "on_call", "TRUEx", "~x", "Nullx", "-", "+", ".", "-x", "+x", "0.", "-0", "1.5e+3", "1.5e+3i", "12:30:45",
}

var scanKeys = []string{"a", "b", "key", "k8s", "app.kubernetes.io/name", "x_y", "x-y", "1", "true", "null", "on", "A", "_u", "-k", "k:k", "'q'", "\"d\"", "k k", ".k", "~"}

// randomScalar is mostly a value the fast path takes, and sometimes any.
func randomScalar(r *rand.Rand) string {
	if r.IntN(3) > 0 {
		return scanScalars[r.IntN(24)]
	}
	return scanScalars[r.IntN(len(scanScalars))]
}

func randomKey(r *rand.Rand) string {
	if r.IntN(4) > 0 {
		return scanKeys[r.IntN(13)]
	}
	return scanKeys[r.IntN(len(scanKeys))]
}

func pad(b *strings.Builder, n int) { b.WriteString(strings.Repeat(" ", n)) }

func randomComment(r *rand.Rand, b *strings.Builder, col int) {
	switch r.IntN(12) {
	case 0:
		pad(b, col)
		b.WriteString("# note\n")
	case 1:
		b.WriteString("\n")
	case 2:
		pad(b, r.IntN(6))
		b.WriteString("# off\n")
	case 3:
		b.WriteString("   \n")
	}
}

func randomLiteral(r *rand.Rand, b *strings.Builder, col int) {
	b.WriteString([]string{"|", "|-", "|+", "|2", ">"}[r.IntN(5)])
	b.WriteString("\n")
	in := col + 1 + r.IntN(3)
	for range 1 + r.IntN(3) {
		if r.IntN(4) == 0 {
			b.WriteString("\n")
		}
		pad(b, in+r.IntN(2))
		b.WriteString([]string{"line", "# not a comment", "a: b", "- x", "x  "}[r.IntN(5)])
		b.WriteString("\n")
	}
	for range r.IntN(3) {
		b.WriteString("\n")
	}
}

func randomValue(r *rand.Rand, b *strings.Builder, col, depth int) {
	switch k := r.IntN(10); {
	case depth < 4 && k < 3:
		b.WriteString("\n")
		randomMapping(r, b, col+2*(1+r.IntN(2)), depth+1)
	case depth < 4 && k < 5:
		b.WriteString("\n")
		randomSequence(r, b, col+2*r.IntN(3), depth+1)
	case k == 5:
		b.WriteString(" ")
		randomLiteral(r, b, col)
	case k == 6:
		b.WriteString([]string{"\n", " # c\n", "  \n"}[r.IntN(3)])
	default:
		b.WriteString(strings.Repeat(" ", 1+r.IntN(2)))
		b.WriteString(randomScalar(r))
		b.WriteString("\n")
	}
}

func randomMapping(r *rand.Rand, b *strings.Builder, col, depth int) {
	for range 1 + r.IntN(4) {
		randomComment(r, b, col)
		pad(b, col)
		b.WriteString(randomKey(r))
		b.WriteString(":")
		randomValue(r, b, col, depth)
	}
}

func randomSequence(r *rand.Rand, b *strings.Builder, col, depth int) {
	for range 1 + r.IntN(3) {
		randomComment(r, b, col)
		pad(b, col)
		b.WriteString("-")
		switch k := r.IntN(6); {
		case depth < 4 && k < 2:
			// "- key: value", then maybe more keys aligned with the first.
			sp := 1 + r.IntN(2)
			b.WriteString(strings.Repeat(" ", sp))
			b.WriteString(randomKey(r))
			b.WriteString(":")
			randomValue(r, b, col+1+sp, depth+1)
			if r.IntN(2) == 0 {
				randomMapping(r, b, col+1+sp, depth+1)
			}
		case k == 2:
			b.WriteString(" ")
			randomLiteral(r, b, col)
		default:
			b.WriteString(" ")
			b.WriteString(randomScalar(r))
			b.WriteString("\n")
		}
	}
}

// FuzzScanBlock: whatever scanBlock reads, yaml.v3 reads the same.
func FuzzScanBlock(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a:\n- x\n- y: 2\n  z: |\n    t\n", "a: 'x' # c\nb:\n  c: \"d\"\n", "k: |+\n  a\n\n", "l:\n  - a: 1\n    b:\n  - c\n", "# h\n#\na: 1\n", "# h\n\na: 1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		checkScan(t, "fuzz", data)
	})
}

// TestScanBlockLongKey: YAML bounds an implicit key to 1024 characters, so
// a longer one is left to yaml.v3, which refuses it; a key at the bound
// still takes the fast path.
func TestScanBlockLongKey(t *testing.T) {
	for _, n := range []int{1024, 1025, 5000} {
		key := "k" + strings.Repeat("0", n-1)
		for _, doc := range []string{
			key + ": v\n",
			key + ":\n  a: v\n",
			"a:\n  " + key + ": v\n",
			"a:\n  - " + key + ": v\n",
			"a:\n- b: v\n  " + key + ": v\n",
		} {
			if scanned := checkScan(t, fmt.Sprintf("%d-character key", n), []byte(doc)); scanned != (n <= 1024) {
				t.Errorf("%d-character key: scanned %v:\n%.60s", n, scanned, doc)
			}
		}
	}
}
