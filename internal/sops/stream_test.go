package sops

import (
	"bytes"
	mathrand "math/rand/v2"
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
