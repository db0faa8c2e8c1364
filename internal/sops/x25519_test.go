package sops

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"

	"filippo.io/age"
)

// ageKeyPair is an age-made X25519 key and the same key as parsed here.
type ageKeyPair struct {
	testKey // age's
	ours    *x25519Identity
	oursTo  *x25519Recipient
}

func newAgeKeyPair(t *testing.T) ageKeyPair {
	t.Helper()
	k := newKey(t)
	id, err := parseIdentityNew(k.id.String())
	if err != nil {
		t.Fatal(err)
	}
	to, err := parseRecipient(k.recipient)
	if err != nil {
		t.Fatal(err)
	}
	fastID, ok1 := id.(*x25519Identity)
	fastTo, ok2 := to.(*x25519Recipient)
	if !ok1 || !ok2 {
		t.Fatalf("the keys were parsed as %T and %T, not by this package's X25519 types", id, to)
	}
	return ageKeyPair{testKey: k, ours: fastID, oursTo: fastTo}
}

// sameUnwrap fails unless two identities unwrap stanzas alike: the same
// file key, or both an error, and age.ErrIncorrectIdentity for both or
// neither (age.Decrypt tells "not for me" apart from "malformed").
func sameUnwrap(t *testing.T, name string, want, got age.Identity, stanzas []*age.Stanza) {
	t.Helper()
	wantKey, wantErr := want.Unwrap(stanzas)
	gotKey, gotErr := got.Unwrap(stanzas)
	if !bytes.Equal(wantKey, gotKey) || (wantErr == nil) != (gotErr == nil) ||
		errors.Is(wantErr, age.ErrIncorrectIdentity) != errors.Is(gotErr, age.ErrIncorrectIdentity) {
		t.Errorf("%s: age unwraps %x, %v; this package %x, %v", name, wantKey, wantErr, gotKey, gotErr)
	}
}

// TestX25519MatchesAge: the X25519 recipient and identity of this package
// interoperate with age's both ways, whole files included, and unwrap
// every mutation of a stanza (type, arguments, share, body) exactly as
// age's identity does.
func TestX25519MatchesAge(t *testing.T) {
	for range 8 {
		k, other := newAgeKeyPair(t), newAgeKeyPair(t)
		fileKey := make([]byte, fileKeySize)
		rand.Read(fileKey)

		ours, err := k.oursTo.Wrap(fileKey)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := k.id.Recipient().Wrap(fileKey)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range [][]*age.Stanza{ours, theirs} {
			for _, id := range []age.Identity{k.id, k.ours} {
				if got, err := id.Unwrap(s); err != nil || !bytes.Equal(got, fileKey) {
					t.Fatalf("%T unwraps a %s stanza to %x, %v; want %x", id, s[0].Type, got, err, fileKey)
				}
			}
			sameUnwrap(t, "another key's identity", other.id, other.ours, s)
		}
		// Another key's stanza first, then ours; then a foreign type first.
		sameUnwrap(t, "two stanzas", k.id, k.ours, append(wrap(t, other.id.Recipient(), fileKey), ours...))
		sameUnwrap(t, "a foreign stanza", k.id, k.ours, []*age.Stanza{{Type: "scrypt", Args: []string{"x", "10"}, Body: make([]byte, 32)}, ours[0]})

		for _, m := range stanzaMutations(theirs[0]) {
			sameUnwrap(t, m.name, k.id, k.ours, []*age.Stanza{m.s})
			// A malformed X25519 stanza before a good one stops both.
			sameUnwrap(t, m.name+", then a good stanza", k.id, k.ours, []*age.Stanza{m.s, ours[0]})
		}

		// Whole files, with age's own Encrypt and Decrypt around them.
		plain := []byte("a data key's worth of bytes, 32.")
		var buf bytes.Buffer
		w, err := age.Encrypt(&buf, k.oursTo)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(plain)
		w.Close()
		r, err := age.Decrypt(bytes.NewReader(buf.Bytes()), k.id)
		if err != nil {
			t.Fatalf("age cannot decrypt a file wrapped by this package: %v", err)
		}
		if got, _ := io.ReadAll(r); !bytes.Equal(got, plain) {
			t.Fatalf("age decrypts %q", got)
		}
	}
}

// wrap wraps fileKey for r.
func wrap(t *testing.T, r age.Recipient, fileKey []byte) []*age.Stanza {
	t.Helper()
	s, err := r.Wrap(fileKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type stanzaMutation struct {
	name string
	s    *age.Stanza
}

// stanzaMutations are changes to an X25519 stanza: each byte of the body
// flipped, the body shortened and lengthened, each character of the share
// replaced, padding, the share's length, a low-order share, the argument
// count and the type.
func stanzaMutations(s *age.Stanza) []stanzaMutation {
	with := func(f func(c *age.Stanza)) *age.Stanza {
		c := &age.Stanza{Type: s.Type, Args: append([]string{}, s.Args...), Body: append([]byte{}, s.Body...)}
		f(c)
		return c
	}
	var out []stanzaMutation
	for i := range s.Body {
		out = append(out, stanzaMutation{"body byte flipped", with(func(c *age.Stanza) { c.Body[i] ^= 0x01 })})
	}
	out = append(out,
		stanzaMutation{"body short", with(func(c *age.Stanza) { c.Body = c.Body[:len(c.Body)-1] })},
		stanzaMutation{"body long", with(func(c *age.Stanza) { c.Body = append(c.Body, 0) })},
		stanzaMutation{"body empty", with(func(c *age.Stanza) { c.Body = nil })},
		stanzaMutation{"share padded", with(func(c *age.Stanza) { c.Args[0] += "=" })},
		stanzaMutation{"share short", with(func(c *age.Stanza) { c.Args[0] = c.Args[0][:len(c.Args[0])-1] })},
		stanzaMutation{"share of 31 bytes", with(func(c *age.Stanza) { c.Args[0] = stanzaBase64.EncodeToString(make([]byte, 31)) })},
		stanzaMutation{"low-order share", with(func(c *age.Stanza) { c.Args[0] = stanzaBase64.EncodeToString(make([]byte, 32)) })},
		stanzaMutation{"no arguments", with(func(c *age.Stanza) { c.Args = nil })},
		stanzaMutation{"two arguments", with(func(c *age.Stanza) { c.Args = append(c.Args, "x") })},
		stanzaMutation{"another type", with(func(c *age.Stanza) { c.Type = "x25519" })},
	)
	for i := range len(s.Args[0]) {
		for _, ch := range []byte{'A', 'z', '+', '/', '-', '='} {
			out = append(out, stanzaMutation{"share character replaced", with(func(c *age.Stanza) {
				b := []byte(c.Args[0])
				b[i] = ch
				c.Args[0] = string(b)
			})})
		}
	}
	return out
}

// TestBech32Bytes: the bytes of age keys, in either case, are the keys'
// (the identity's public half is the recipient's point), and no single
// changed character or mixed case that age refuses is read.
func TestBech32Bytes(t *testing.T) {
	for range 20 {
		k := newAgeKeyPair(t)
		if !bytes.Equal(k.ours.pub, k.oursTo.pub.Bytes()) {
			t.Fatalf("the identity's public key %x is not its recipient's %x", k.ours.pub, k.oursTo.pub.Bytes())
		}
		for _, s := range []string{k.recipient, strings.ToUpper(k.recipient)} {
			if got, ok := bech32Bytes(s, "age"); !ok || !bytes.Equal(got, k.ours.pub) {
				t.Fatalf("bech32Bytes(%q) = %x, %v", s, got, ok)
			}
		}
		mixed := strings.ToUpper(k.recipient[:10]) + k.recipient[10:]
		if _, ok := bech32Bytes(mixed, "age"); ok {
			t.Errorf("bech32Bytes reads the mixed-case %q", mixed)
		}
		if _, ok := bech32Bytes(k.recipient, "age1"); ok {
			t.Error("bech32Bytes reads an age key as another human-readable part")
		}
		for i := len("age1"); i < len(k.recipient); i++ {
			for _, c := range bech32Charset + "bio" {
				if byte(c) == k.recipient[i] {
					continue
				}
				s := k.recipient[:i] + string(c) + k.recipient[i+1:]
				_, ageErr := age.ParseX25519Recipient(s)
				if _, ok := bech32Bytes(s, "age"); ok && ageErr != nil {
					t.Fatalf("bech32Bytes reads %q, which age refuses: %v", s, ageErr)
				}
			}
		}
	}
}

// BenchmarkX25519Unwrap: unwrapping a data key's stanza, with age's
// identity and with this package's.
func BenchmarkX25519Unwrap(b *testing.B) {
	a, _ := age.GenerateX25519Identity()
	ours, _ := parseIdentityNew(a.String())
	stanzas, _ := a.Recipient().Wrap(make([]byte, fileKeySize))
	for _, c := range []struct {
		name string
		id   age.Identity
	}{{"age", a}, {"opencenter", ours}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.id.Unwrap(stanzas); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkX25519Wrap: wrapping a data key, with age's recipient and with
// this package's.
func BenchmarkX25519Wrap(b *testing.B) {
	a, _ := age.GenerateX25519Identity()
	ours, _ := parseRecipient(a.Recipient().String())
	for _, c := range []struct {
		name string
		to   age.Recipient
	}{{"age", a.Recipient()}, {"opencenter", ours}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.to.Wrap(make([]byte, fileKeySize)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
