package sops

import (
	"bytes"
	mathrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// TestStreamMatchesTree: a document encrypted as it is written
// (appendTokens) comes out byte for byte as the tree path writes it, with
// the same IVs: over random documents, several rule sets, and the
// fixture's Secrets. Some documents must take each path.
func TestStreamMatchesTree(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	k, _ := NewSharedKey(nil)
	when := time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC)
	ruleSets := []Rules{
		{},
		{EncryptedRegex: "^(data|stringData)$"},
		{EncryptedRegex: "^(a|key)$", MACOnlyEncrypted: true},
		{UnencryptedSuffix: "a"},
		{EncryptedSuffix: "Data"},
		{UnencryptedRegex: "^k"},
	}
	r := mathrand.New(mathrand.NewPCG(7, 8))
	streamed, total := 0, 0
	check := func(name string, plain []byte, rules Rules) {
		t.Helper()
		opts := EncryptOptions{Recipients: []string{id.Recipient().String()}, Key: k, LastModified: when, Rules: rules}
		opts.Rand = mathrand.NewChaCha8([32]byte{3})
		want, wantErr := appendEncrypt(nil, plain, opts, false)
		opts.Rand = mathrand.NewChaCha8([32]byte{3})
		got, gotErr := appendEncrypt(nil, plain, opts, true)
		if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s, rules %+v:\n%s\n--- streamed (%v)\n%s--- tree (%v)\n%s", name, rules, plain, gotErr, got, wantErr, want)
		}
		total++
		if toks, ok := tokenize(plain, string(plain), nil); ok {
			if m, err := rules.withDefault().compile(); err == nil && (&encrypter{}).markTokens(toks, m) {
				streamed++
			}
		}
	}
	for i := range 4000 {
		plain := randomText(t, r)
		check("random", plain, ruleSets[i%len(ruleSets)])
	}
	// Documents with no tokens, or that yaml.v3 reads as an empty mapping.
	for _, d := range []string{"null\n", "---\n", "~\n", "{}\n", "# c\n---\n", "a:\n", "a\n", "- a\n", "a: 1\n---\nb: 2\n", "# only\n"} {
		check("edge", []byte(d), Rules{})
	}
	ids := fixtureIdentities(t)
	eachEncryptedFixture(t, func(p string, data []byte) {
		plain, _, err := Decrypt(data, ids)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, rules := range ruleSets {
			check(p, plain, rules)
		}
		// The fixture's rule: every rendered Secret is written as it is encrypted.
		toks, ok := tokenize(plain, string(plain), nil)
		m, _ := Rules{EncryptedRegex: "^(data|stringData)$"}.withDefault().compile()
		if !ok || !(&encrypter{}).markTokens(toks, m) {
			t.Errorf("%s: not encrypted as it is written", p)
		}
	})
	if streamed < total/4 || streamed == total {
		t.Errorf("%d of %d documents streamed: the generator no longer exercises both paths", streamed, total)
	}
	t.Logf("%d of %d documents streamed", streamed, total)
}

// TestEncrypterReleased: an encrypter back in the pool holds nothing of the
// file it encrypted.
func TestEncrypterReleased(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	// A long plaintext value outlasts what later values overwrite of the
	// scratch.
	secret := "s3cr3t-" + strings.Repeat("x", 300)
	doc := "kind: Secret\nmetadata:\n    name: " + secret + "\nstringData:\n    password: short\n"
	if _, err := Encrypt([]byte(doc), EncryptOptions{Recipients: []string{id.Recipient().String()}, Rules: Rules{EncryptedRegex: "^stringData$"}}); err != nil {
		t.Fatal(err)
	}
	e, _ := encrypters.Get().(*encrypter)
	if e == nil {
		t.Skip("the pool gave nothing back (a collection, or the race detector)")
	}
	for name, b := range map[string][]byte{"buf": e.buf[:cap(e.buf)], "out": e.out[:cap(e.out)], "ad": e.adRoom[:]} {
		if bytes.Contains(b, []byte(strings.Repeat("x", 100))) {
			t.Errorf("the pooled encrypter's %s still holds the file's plaintext", name)
		}
	}
	if e.gcm != nil || e.rand != nil {
		t.Error("the pooled encrypter keeps its cipher")
	}
}
