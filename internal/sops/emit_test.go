package sops

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// TestWriteDocumentMatchesYAML: wherever writeDocument writes a document, it
// writes the bytes yaml.v3's emitter does. Random documents mix the shapes it
// writes with ones it leaves to yaml.v3.
func TestWriteDocumentMatchesYAML(t *testing.T) {
	sampleFastPath(t, "writeDocument", 1, func(r *rand.Rand, name string) bool {
		m := randomMapping(r, 0)
		if r.IntN(4) == 0 {
			m = append(mapping{{key: comment{text: randomWord(r)}}}, m...)
		}
		return checkWriteDocument(t, name, m)
	})
}

// sampleFastPath runs check on 20,000 random documents from seed, and
// fails when fewer than 2,000 take the fast path it compares, which would
// mean the generator no longer makes the shapes of that path.
func sampleFastPath(t *testing.T, path string, seed uint64, check func(r *rand.Rand, name string) bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	fast := 0
	for i := range 20000 {
		if check(r, fmt.Sprint("random ", i)) {
			fast++
		}
	}
	if fast < 2000 {
		t.Errorf("%s took %d of 20000 random documents: the generator no longer makes its shapes", path, fast)
	}
}

func checkWriteDocument(t *testing.T, name string, m mapping) bool {
	t.Helper()
	got, ok := writeDocument(m)
	want, err := emitYAML(m)
	if err != nil {
		return false
	}
	if ok && !bytes.Equal(got, want) {
		t.Fatalf("%s: writeDocument differs from yaml.v3:\n--- writeDocument\n%s--- yaml.v3\n%s", name, got, want)
	}
	return ok
}

// TestWriteDocumentFixture: every encrypted file of the fixture takes the
// fast path, with the same bytes as yaml.v3.
func TestWriteDocumentFixture(t *testing.T) {
	eachEncryptedFixture(t, func(p string, data []byte) {
		doc, err := parseDocument(data)
		if err != nil {
			t.Fatal(err)
		}
		if !checkWriteDocument(t, p, doc) {
			t.Errorf("%s: writeDocument leaves it to yaml.v3", p)
		}
	})
}

// eachEncryptedFixture calls fn with every SOPS-encrypted file of the
// rendered fixture, and fails when there are too few.
func eachEncryptedFixture(t *testing.T, fn func(path string, data []byte)) {
	t.Helper()
	n := 0
	err := filepath.WalkDir("../../testdata/fixture/applications", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || !IsEncrypted(data) {
			return err
		}
		n++
		fn(p, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("%d encrypted fixture files, want the fixture's", n)
	}
}

// keys are keys writeDocument writes.
var keys = []string{"a", "key", "stringData", "age1abc", "a,b", "a:b", "ENC[AES256_GCM,data:q83v+A==,iv:a/b+c=,tag:Zm9v,type:str]", ".htpasswd"}

// words are scalars writeDocument writes; oddWords mostly ones it leaves to
// yaml.v3.
var (
	words = []string{"a", "key", "stringData", "ENC[AES256_GCM,data:q83v+A==,iv:a/b+c=,tag:Zm9v,type:str]", "age1abc",
		"^(data|stringData)$", "2026-11-22T18:24:48Z", "3.13.3", "true", "yes", "0x10", "1e3", "a,b", "~", "[a]", "-a", "*a", "#x", ":",
		"$2a$10$x.y", "ssh-ed25519 AAAA flux@k", "a b", "/etc/x", "a #b", "a: b", "True", "a:",
		"5f0c2a9e7b13d84c", "1_0", "0o17", "0b+1", "2026-11-22", "1:20", "12e", "1.5e+3x", "9a b"}
	oddWords = []string{"a:", "a b", "é", "a\"b", "a\\b", "", "a: b", "a #b", strings.Repeat("k", 129),
		".htpasswd", ".a:b", ".inf", ".5", ".", "...", "...a", "..a", ".a b", ".y"}
)

func randomWord(r *rand.Rand) string {
	if r.IntN(30) == 0 {
		return oddWords[r.IntN(len(oddWords))]
	}
	return words[r.IntN(len(words))]
}

func randomScalar(r *rand.Rand) any {
	switch r.IntN(8) {
	case 0:
		return r.IntN(2) == 0
	case 1:
		return "-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgy\n-----END AGE ENCRYPTED FILE-----\n"
	case 2:
		if r.IntN(5) > 0 {
			return "a\nb\n"
		}
		return []string{"a\nb", "a\n", "a\nb\n", "a\n\n", " a\nb\n", "a \n", "\n", "a\n b\n", "a\n#b\n"}[r.IntN(9)]
	case 3:
		if r.IntN(10) == 0 {
			return r.IntN(100)
		}
		return r.IntN(2) == 0
	}
	return randomWord(r)
}

func randomMapping(r *rand.Rand, depth int) mapping {
	m := mapping{}
	for range 1 + r.IntN(4) {
		var v any
		switch k := r.IntN(6); {
		case depth > 3:
			v = randomScalar(r)
		case k == 0:
			v = randomMapping(r, depth+1)
		case k == 1:
			v = randomSequence(r, depth+1)
		case k == 2 && r.IntN(8) == 0:
			m = append(m, entry{key: comment{text: " c"}})
			continue
		case k == 3 && r.IntN(8) == 0:
			v = mapping{}
		default:
			v = randomScalar(r)
		}
		key := keys[r.IntN(len(keys))]
		if r.IntN(20) == 0 {
			key = randomWord(r)
		}
		m = append(m, entry{key: key, value: v})
	}
	return m
}

func randomSequence(r *rand.Rand, depth int) []any {
	var s []any
	n := 1 + r.IntN(3)
	if r.IntN(10) == 0 {
		n = 0
	}
	for range n {
		if r.IntN(2) == 0 {
			s = append(s, randomMapping(r, depth+4-r.IntN(2)))
		} else {
			s = append(s, randomScalar(r))
		}
	}
	return s
}

// TestMetadataMatchesBlock: the sops: block written directly is, byte for
// byte, what yaml.v3's emitter and the document writer make of the mapping
// block builds, for one to three recipients, every selector,
// mac_only_encrypted, and lastmodified times with a zone and fractions,
// wherever yaml.v3 writes a string as one plain, double-quoted or literal
// scalar; where it would not, the block reads back as the same metadata.
func TestMetadataMatchesBlock(t *testing.T) {
	dataKey := bytes.Repeat([]byte{9}, DataKeySize)
	var stanzas []ageStanza
	for range 3 {
		id, err := age.GenerateX25519Identity()
		if err != nil {
			t.Fatal(err)
		}
		enc, err := wrapDataKey(dataKey, id.Recipient())
		if err != nil {
			t.Fatal(err)
		}
		stanzas = append(stanzas, ageStanza{recipient: id.Recipient().String(), enc: enc})
	}
	rules := []Rules{
		{EncryptedRegex: "^(data|stringData)$"},
		{UnencryptedSuffix: "_unencrypted"},
		{EncryptedSuffix: "_enc", MACOnlyEncrypted: true},
		{UnencryptedRegex: "^(kind|apiVersion)$", MACOnlyEncrypted: true},
		{EncryptedRegex: "a: b"}, // not plain: quoted, or yaml.v3's
		// One word that yaml.v3 quotes.
		{EncryptedRegex: "null"},
		{EncryptedRegex: "0x1F"},
		{UnencryptedSuffix: "on"},
	}
	times := []time.Time{time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 11, 22, 23, 59, 59, 123456789, time.FixedZone("x", 3600))}
	direct := 0
	var shared SharedKey
	// Prefixes and suffixes of the stanzas: lists that share a first or a
	// last recipient.
	var lists [][]ageStanza
	for n := 1; n <= len(stanzas); n++ {
		lists = append(lists, stanzas[:n], stanzas[len(stanzas)-n:])
	}
	for _, list := range lists {
		n := len(list)
		for _, r := range rules {
			for _, when := range times {
				m := &fileMetadata{Metadata: Metadata{LastModified: when.UTC().Truncate(time.Second), Rules: r, Version: Version}, age: list,
					mac: "ENC[AES256_GCM,data:AAAA,iv:BBBB,tag:CCCC,type:str]"}
				var want docWriter
				wantOK := want.mapping(mapping{{key: metadataKey, value: m.block()}}, 0, 0, false)
				var got docWriter
				got.metadata(m)
				if !wantOK {
					back, err := parseDocument(append([]byte("k: v\n"), got.b...))
					if err != nil {
						t.Fatalf("%+v: the block does not parse: %v\n%s", r, err, got.b)
					}
					_, read, err := splitMetadata(back)
					if err != nil || read.Rules != m.Rules.withDefault() {
						t.Fatalf("%+v: the block reads back as %+v, %v\n%s", r, read, err, got.b)
					}
					continue
				}
				direct++
				if !bytes.Equal(got.b, want.b) {
					t.Fatalf("%d recipients, %+v, %v:\n--- direct\n%s--- block (ok %v)\n%s", n, r, when, got.b, wantOK, want.b)
				}
				// And as yaml.v3's emitter writes it.
				ref, err := emitYAML(mapping{{key: metadataKey, value: m.block()}})
				if err != nil || !bytes.Equal(got.b, ref) {
					t.Fatalf("%d recipients, %+v, %v:\n--- direct\n%s--- yaml.v3 (%v)\n%s", n, r, when, got.b, err, ref)
				}
				// The age: list a SharedKey keeps for its files.
				m.ageText = shared.ageText(m.age)
				var cached docWriter
				if cached.metadata(m); !bytes.Equal(cached.b, want.b) {
					t.Fatalf("%d recipients, with the SharedKey's age: list:\n--- direct\n%s--- block\n%s", n, cached.b, want.b)
				}
			}
		}
	}
	if direct < 20 {
		t.Errorf("only %d of 30 blocks were written directly", direct)
	}
}
