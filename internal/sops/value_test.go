package sops

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"
	"time"
)

// TestAdditionalData: the additional data is the keys joined by ':' with a
// trailing ':', as sops forms it, including for the empty path of a comment
// above the first key (":"); sops cannot decrypt a value formed otherwise.
func TestAdditionalData(t *testing.T) {
	for _, path := range [][]string{nil, {}, {"a"}, {"a", "b"}, {"", "x"}, {"data", "tls.crt", "k:v"}} {
		want := strings.Join(path, ":") + ":"
		if got := string(appendAdditionalData([]byte("old"), path)); got != "old"+want {
			t.Errorf("%q: got %q, want %q", path, got, "old"+want)
		}
	}
}

// TestEncrypterValue: a value encrypted by the reusing encrypter decrypts to
// itself with its type, whatever was encrypted before it in the same buffers,
// and long values cross writeBase64's chunks.
func TestEncrypterValue(t *testing.T) {
	key := make([]byte, DataKeySize)
	rand.Read(key)
	gcm, err := newGCM(key)
	if err != nil {
		t.Fatal(err)
	}
	e := &encrypter{gcm: gcm, rand: rand.Reader}
	d := &decrypter{key: key} // one for all values, as a file's are: results must not share its buffers
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	values := []any{"", "x", strings.Repeat("long value ", 300), 42, -7, 1.5, true, false, when, comment{text: "c"},
		strings.Repeat("y", 575), strings.Repeat("z", 577), []byte("raw bytes"), []byte("more raw bytes")}
	got := make([]any, len(values))
	for i, v := range values {
		path := []string{"data", strings.Repeat("k", i)}
		enc, err := e.value(v, path)
		if err != nil {
			t.Fatal(err)
		}
		if v == "" {
			if enc != "" {
				t.Errorf("empty string encrypted to %q", enc)
			}
			continue
		}
		if got[i], err = d.value(enc, appendAdditionalData(nil, path)); err != nil {
			t.Fatalf("%v: %v", v, err)
		}
	}
	for i, v := range values {
		if v == "" {
			continue
		}
		want, _, _ := appendPlain(nil, v)
		have, _, _ := appendPlain(nil, got[i])
		if !bytes.Equal(have, want) {
			t.Errorf("%v (%T) came back as %v (%T)", v, v, got[i], got[i])
		}
	}
}
