package sops

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestFingerprint checks the construction against HKDF written out from RFC
// 5869 (extract with an all-zero salt, one expand block), so a change of
// label, hash or derivation shows up here.
func TestFingerprint(t *testing.T) {
	key := bytes.Repeat([]byte{7}, DataKeySize)
	plain := []byte("hunter2")

	hmacOf := func(k, m []byte) []byte {
		h := hmac.New(sha256.New, k)
		h.Write(m)
		return h.Sum(nil)
	}
	prk := hmacOf(make([]byte, sha256.Size), key)
	derived := hmacOf(prk, append([]byte(fingerprintInfo), 1))
	want := hex.EncodeToString(hmacOf(derived, plain))

	if got := Fingerprint(key, plain); got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
	if Fingerprint(key, []byte("hunter3")) == want {
		t.Error("another plaintext has the same fingerprint")
	}
	other := bytes.Repeat([]byte{8}, DataKeySize)
	if Fingerprint(other, plain) == want {
		t.Error("another data key gives the same fingerprint")
	}
	if want == hex.EncodeToString(hmacOf(key, plain)) {
		t.Error("the fingerprint key is the data key itself")
	}
}

// TestFingerprinterReuse: one Fingerprinter gives every file the fingerprint
// a fresh one would, and the parts of a plaintext count as their
// concatenation.
func TestFingerprinterReuse(t *testing.T) {
	key := bytes.Repeat([]byte{7}, DataKeySize)
	f := NewFingerprinter(key)
	for _, p := range []string{"a", "", "hunter2", "a", "longer plaintext\n"} {
		if got, want := f.Of([]byte(p)), Fingerprint(key, []byte(p)); got != want {
			t.Errorf("%q: reused %s, fresh %s", p, got, want)
		}
		if got, want := f.Of([]byte(p), []byte("\x00age1x")), Fingerprint(key, []byte(p+"\x00age1x")); got != want {
			t.Errorf("%q in parts: %s, want %s", p, got, want)
		}
	}
}
