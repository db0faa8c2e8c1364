package sops

import (
	"bytes"
	mathrand "math/rand/v2"
	"testing"
	"time"

	"filippo.io/age"
)

// TestSharedKey: files encrypted with one SharedKey carry the same age copy
// of the key (wrapped once) and each decrypts on its own.
func TestSharedKey(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	k, err := NewSharedKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := EncryptOptions{Recipients: []string{id.Recipient().String()}, Rules: Rules{EncryptedRegex: "^stringData$"}, Key: k}
	docs := []string{"kind: Secret\nstringData:\n    a: one\n", "kind: Secret\nstringData:\n    b: two\n"}
	var stanzas [][]byte
	for _, d := range docs {
		out, err := Encrypt([]byte(d), opts)
		if err != nil {
			t.Fatal(err)
		}
		plain, meta, err := Decrypt(out, []age.Identity{id})
		if err != nil || !bytes.Equal(plain, []byte(d)) || !bytes.Equal(meta.DataKey, k.key) {
			t.Fatalf("round trip: %v\n%s", err, plain)
		}
		i := bytes.Index(out, []byte("-----BEGIN AGE ENCRYPTED FILE-----"))
		j := bytes.Index(out, []byte("-----END AGE ENCRYPTED FILE-----"))
		stanzas = append(stanzas, out[i:j])
	}
	if !bytes.Equal(stanzas[0], stanzas[1]) {
		t.Error("the data key was wrapped again for the second file")
	}
	if len(k.stanzas) != 1 {
		t.Errorf("%d wrapped copies for one recipient", len(k.stanzas))
	}
}

// TestAppendEncrypt: AppendEncrypt appends to what dst holds exactly the
// file Encrypt writes (the same SharedKey, whose age copy is made once, and
// the same IVs and time), for documents the direct writer takes and for
// one it leaves to yaml.v3 (flow style).
func TestAppendEncrypt(t *testing.T) {
	id, _ := age.GenerateX25519Identity()
	k, _ := NewSharedKey(nil)
	docs := []string{
		"kind: Secret\nstringData:\n    a: one\n    b: two\n",
		"apiVersion: v1\nkind: Secret\ndata:\n    x: eA==\n# the end\n",
		"stringData: {a: [1, 2]}\nkind: Secret # flow style and a line comment\n",
	}
	when := time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC)
	for _, d := range docs {
		opts := func() EncryptOptions {
			return EncryptOptions{Recipients: []string{id.Recipient().String()}, Key: k,
				LastModified: when, Rand: mathrand.NewChaCha8([32]byte{1})}
		}
		want, err := Encrypt([]byte(d), opts())
		if err != nil {
			t.Fatal(err)
		}
		head := []byte("# a header of the caller's\n")
		got, err := AppendEncrypt(head[:len(head):len(head)], []byte(d), opts())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append(head, want...)) {
			t.Errorf("%q:\n--- AppendEncrypt\n%s--- header + Encrypt\n%s%s", d, got, head, want)
		}
	}
}
