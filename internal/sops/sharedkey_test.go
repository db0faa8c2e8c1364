package sops

import (
	"bytes"
	"testing"

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
