package sops

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"

	"filippo.io/age"
	"filippo.io/age/armor"
)

// ageOpen is the reference openDataKey must agree with: age.Decrypt.
func ageOpen(armored string, ids []age.Identity) ([]byte, error) {
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(armored)), ids...)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// armoredFile encrypts plain to recipients as an armored age file.
func armoredFile(t *testing.T, plain []byte, recipients ...age.Recipient) string {
	t.Helper()
	var b bytes.Buffer
	aw := armor.NewWriter(&b)
	w, err := age.Encrypt(aw, recipients...)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(plain)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := aw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOpenDataKeyMatchesAge: openDataKey opens what age.Decrypt opens, to the
// same bytes, and fails where it fails: data keys and other sizes, one and
// several recipients, the wrong identity, and every single-byte change and
// truncation of the armored file (which the fast path must refuse or hand
// to age, never open to something else).
func TestOpenDataKeyMatchesAge(t *testing.T) {
	ids := make([]*age.X25519Identity, 3)
	for i := range ids {
		var err error
		if ids[i], err = age.GenerateX25519Identity(); err != nil {
			t.Fatal(err)
		}
	}
	mine := []age.Identity{ids[0]}
	agree := func(name, armored string, ids []age.Identity) (fast bool) {
		t.Helper()
		want, wantErr := ageOpen(armored, ids)
		got, err := openDataKey(armored, ids)
		if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: openDataKey = %x, %v; age = %x, %v", name, got, err, want, wantErr)
		}
		var a, b *age.NoIdentityMatchError
		if errors.As(err, &a) != errors.As(wantErr, &b) {
			t.Fatalf("%s: no-match error %v, age %v", name, err, wantErr)
		}
		bin, ok := dearmor(armored)
		_, _, done := openSmall(bin, ids)
		return ok && done
	}
	fast := 0
	for _, size := range []int{DataKeySize, 0, 1, DataKeySize - 1, DataKeySize + 1, 1000, 70_000} {
		for _, to := range [][]age.Recipient{{ids[0].Recipient()}, {ids[1].Recipient(), ids[0].Recipient()}, {ids[1].Recipient()}} {
			plain := make([]byte, size)
			rand.Read(plain)
			armored := armoredFile(t, plain, to...)
			if agree("file", armored, mine) {
				fast++
			}
			agree("no identity matches", armored, []age.Identity{ids[2]})
			if size == DataKeySize && len(to) == 1 && to[0] == ids[0].Recipient() {
				for i := range len(armored) {
					for _, c := range []byte{'A', '\n', ' ', armored[i] ^ 1} {
						b := []byte(armored)
						b[i] = c
						agree("changed", string(b), mine)
					}
					agree("truncated", armored[:i], mine)
				}
			}
		}
	}
	if fast < 2 {
		t.Errorf("only %d files took the fast path: the test exercises age alone", fast)
	}
}
