package sops

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"
)

// TestParseDocumentMatchesYAML: parseDocument, which reads through
// yamlfile, reads documents into the model yaml.v3's parser gives them,
// comments included. The documents are random ones written with two- and
// four-space indentation, those with random bytes changed, and the
// plaintext of every encrypted fixture file.
func TestParseDocumentMatchesYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	read := 0
	for i := range 5000 {
		if checkParse(t, fmt.Sprint("random ", i), randomText(t, r)) {
			read++
		}
	}
	if read < 2000 {
		t.Errorf("only %d of the random documents parse", read)
	}
	ids := fixtureIdentities(t)
	eachEncryptedFixture(t, func(p string, data []byte) {
		plain, _, err := Decrypt(data, ids)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !checkParse(t, p, plain) {
			t.Errorf("%s: its plaintext does not parse", p)
		}
	})
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

// parseV3 is parseDocument through yaml.v3's parser alone.
func parseV3(data []byte) (mapping, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("several documents")
	}
	var v any
	if err := doc.Decode(&v); err != nil {
		return nil, err
	}
	return appendNode(nil, &doc, false)
}

// checkParse: parseDocument reads data as parseV3 does, or both refuse
// it; it reports whether data parsed.
func checkParse(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, err := parseDocument(data)
	want, wantErr := parseV3(data)
	if (err == nil) != (wantErr == nil) && len(bytes.TrimSpace(data)) > 0 {
		t.Fatalf("%s: parseDocument: %v; yaml.v3: %v\n%s", name, err, wantErr, data)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: parseDocument differs from yaml.v3:\n%s\n--- parseDocument\n%#v\n--- yaml.v3\n%#v", name, data, got, want)
	}
	return err == nil
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
