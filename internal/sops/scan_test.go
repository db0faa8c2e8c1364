package sops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"
)

// TestScanDocumentMatchesYAML: wherever scanDocument reads a document, it
// reads what yaml.v3 does. The documents are random ones written with two-
// and four-space indentation, and those with random bytes changed.
func TestScanDocumentMatchesYAML(t *testing.T) {
	sampleFastPath(t, "scanDocument", 3, func(r *rand.Rand, name string) bool {
		return checkScan(t, name, randomText(t, r))
	})
}

func FuzzScanDocument(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		f.Add(randomText(f, r))
	}
	f.Add([]byte("stringData:\n  .htpasswd: \"a:{SHA}x=\\nb:{SHA}y=\\n\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, "fuzz", data) })
}

// randomText writes a random document (mostly mappings and strings) and
// sometimes changes a few of its bytes.
func randomText(t testing.TB, r *rand.Rand) []byte {
	m := randomMapping(r, 2)
	if r.IntN(3) > 0 {
		m = withoutLists(m)
	}
	if r.IntN(3) == 0 {
		m = append(mapping{{key: comment{text: " head"}}}, m...)
	}
	root, err := mappingNode(m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2 + 2*r.IntN(2))
	if err := enc.Encode(root); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	for range r.IntN(3) {
		if len(data) == 0 {
			break
		}
		i := r.IntN(len(data))
		switch r.IntN(4) {
		case 0:
			data = append(data[:i:i], append([]byte{" \n#:|-\"\t"[r.IntN(8)]}, data[i:]...)...)
		case 1:
			data = append(data[:i:i], data[i+1:]...)
		case 2:
			data[i] = " \n#:|-\"a"[r.IntN(8)]
		case 3:
			data = append(data, "\n\n"[:1+r.IntN(2)]...)
		}
	}
	return data
}

// withoutLists replaces the lists in m with strings.
func withoutLists(m mapping) mapping {
	for i, e := range m {
		switch v := e.value.(type) {
		case mapping:
			m[i].value = withoutLists(v)
		case []any:
			m[i].value = "list"
		}
	}
	return m
}

func checkScan(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, ok := scanDocument(data)
	if !ok {
		return false
	}
	want, err := parseYAML(data)
	if err != nil {
		t.Fatalf("%s: scanDocument reads what yaml.v3 refuses (%v):\n%s", name, err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: scanDocument differs from yaml.v3:\n%s\n--- scanDocument\n%#v\n--- yaml.v3\n%#v", name, data, got, want)
	}
	return true
}

// TestScanDocumentFixture: the plaintext of every encrypted fixture file
// is read by scanDocument, as yaml.v3 reads it.
func TestScanDocumentFixture(t *testing.T) {
	ids := fixtureIdentities(t)
	eachEncryptedFixture(t, func(p string, data []byte) {
		plain, _, err := Decrypt(data, ids)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !checkScan(t, p, plain) {
			t.Errorf("%s: scanDocument leaves its plaintext to yaml.v3:\n%s", p, plain)
		}
	})
}

// fixtureIdentities reads the fixture's TEST-ONLY age key.
func fixtureIdentities(t *testing.T) []age.Identity {
	t.Helper()
	f, err := os.Open("../../testdata/keys/fixture.TEST-ONLY.agekey")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids, err := parseIdentities(f, false)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestScanDocumentLongKey: YAML bounds an implicit key to 1024 characters,
// so a longer one is left to yaml.v3, which refuses it; a key at the bound
// still takes the fast path.
func TestScanDocumentLongKey(t *testing.T) {
	for _, n := range []int{1024, 1025, 5000} {
		key := "k" + strings.Repeat("0", n-1)
		for _, doc := range []string{
			key + ": v\n",
			key + ":\n  a: v\n",
			"a:\n  " + key + ": v\n",
			"a:\n  " + key + ": |\n    v\n",
		} {
			if scanned := checkScan(t, fmt.Sprintf("%d-character key", n), []byte(doc)); scanned != (n <= 1024) {
				t.Errorf("%d-character key: scanned %v:\n%.60s", n, scanned, doc)
			}
		}
	}
}

// TestScanQuotedLines: a double-quoted scalar of words and \n escapes, as
// the YAML writer puts several lines in one value, is read by scanDocument
// as yaml.v3 reads it; any other escape, a space or a quote in it is left
// to yaml.v3.
func TestScanQuotedLines(t *testing.T) {
	for _, c := range []struct {
		value string
		fast  bool
	}{
		{`"alerts:{SHA}qX4tq0yvQ0XSAU8Me62Uzf3gy4c=\n"`, true},
		{`"a:{SHA}x=\nb:{SHA}y=\n"`, true},
		{`"\n"`, true},
		{`"a\n\nb"`, true},
		{`"a\nb"`, true},
		{`"a\tb\n"`, false},
		{`"a\\n"`, false},
		{`"a b\n"`, false},
		{`"a'b\n"`, false},
		{`"a\"b\n"`, false},
		{`"a\u2028\n"`, false},
		{`"a\n`, false},
	} {
		doc := []byte("stringData:\n  .htpasswd: " + c.value + "\n")
		if got := checkScan(t, c.value, doc); got != c.fast {
			t.Errorf("%s: scanDocument reads it: %v, want %v", c.value, got, c.fast)
		}
	}
}
