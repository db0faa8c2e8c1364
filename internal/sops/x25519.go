package sops

import (
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"

	"filippo.io/age"
	"golang.org/x/crypto/chacha20poly1305"
)

// age's X25519 recipients and identities compute each X25519 through
// golang.org/x/crypto/curve25519, which derives the scalar's public half on
// every call: a wrap costs four scalar multiplications and an unwrap two,
// where the stanza needs two and one. A fleet render unwraps one data key
// per config and a one-off plan wraps one per recipient, so these types do
// the same stanza, as the age specification (age-encryption.org/v1) lays it
// out, with crypto/ecdh keys made once. age still parses and checks every
// key (parseRecipient, parseIdentityNew); these only take its bytes.

// x25519Label is the HKDF info of the X25519 stanza.
const x25519Label = "age-encryption.org/v1/X25519"

// x25519StanzaType is the stanza's type, its first argument the
// ephemeral share.
const x25519StanzaType = "X25519"

// fileKeySize is the size of an age file key.
const fileKeySize = 16

// stanzaBase64 encodes stanza arguments: standard alphabet, no padding,
// canonical only.
var stanzaBase64 = base64.RawStdEncoding.Strict()

// x25519Recipient is an age X25519 public key (age1...).
type x25519Recipient struct {
	pub *ecdh.PublicKey
}

// newX25519Recipient returns the recipient of the 32-byte point.
func newX25519Recipient(point []byte) (*x25519Recipient, error) {
	pub, err := ecdh.X25519().NewPublicKey(point)
	if err != nil {
		return nil, err
	}
	return &x25519Recipient{pub: pub}, nil
}

// Wrap wraps fileKey for the recipient with a fresh ephemeral key.
func (r *x25519Recipient) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	eph, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	shared, err := eph.ECDH(r.pub)
	if err != nil {
		return nil, err
	}
	share := eph.PublicKey().Bytes()
	aead, err := x25519AEAD(shared, share, r.pub.Bytes())
	if err != nil {
		return nil, err
	}
	var nonce [chacha20poly1305.NonceSize]byte
	return []*age.Stanza{{
		Type: x25519StanzaType,
		Args: []string{stanzaBase64.EncodeToString(share)},
		Body: aead.Seal(nil, nonce[:], fileKey, nil),
	}}, nil
}

// x25519Identity is an age X25519 private key (AGE-SECRET-KEY-1...).
type x25519Identity struct {
	priv *ecdh.PrivateKey
	pub  []byte
}

// newX25519Identity returns the identity of the 32-byte scalar.
func newX25519Identity(scalar []byte) (*x25519Identity, error) {
	priv, err := ecdh.X25519().NewPrivateKey(scalar)
	if err != nil {
		return nil, err
	}
	return &x25519Identity{priv: priv, pub: priv.PublicKey().Bytes()}, nil
}

// Unwrap returns the file key of the first X25519 stanza made for the
// identity; age.ErrIncorrectIdentity when none is, and the error of a
// malformed X25519 stanza met before one that is.
func (i *x25519Identity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	for _, s := range stanzas {
		key, err := i.unwrap(s)
		if errors.Is(err, age.ErrIncorrectIdentity) {
			continue
		}
		return key, err
	}
	return nil, age.ErrIncorrectIdentity
}

// errX25519Stanza is a malformed X25519 stanza: not one the identity may
// pass over as someone else's.
var errX25519Stanza = errors.New("invalid X25519 recipient block")

func (i *x25519Identity) unwrap(s *age.Stanza) ([]byte, error) {
	if s.Type != x25519StanzaType {
		return nil, age.ErrIncorrectIdentity
	}
	if len(s.Args) != 1 {
		return nil, errX25519Stanza
	}
	share, err := stanzaBase64.DecodeString(s.Args[0])
	if err != nil || len(share) != 32 {
		return nil, errX25519Stanza
	}
	if len(s.Body) != fileKeySize+chacha20poly1305.Overhead {
		return nil, errX25519Stanza
	}
	peer, err := ecdh.X25519().NewPublicKey(share)
	if err != nil {
		return nil, errX25519Stanza
	}
	shared, err := i.priv.ECDH(peer)
	if err != nil { // a low-order share: all-zero shared secret
		return nil, errX25519Stanza
	}
	aead, err := x25519AEAD(shared, share, i.pub)
	if err != nil {
		return nil, err
	}
	var nonce [chacha20poly1305.NonceSize]byte
	key, err := aead.Open(nil, nonce[:], s.Body, nil)
	if err != nil {
		return nil, age.ErrIncorrectIdentity // wrapped for another key
	}
	return key, nil
}

// x25519AEAD is the stanza's wrapping cipher: ChaCha20-Poly1305 keyed by
// HKDF-SHA-256 of the shared secret, salted with the ephemeral share and
// the recipient's public key.
func x25519AEAD(shared, share, recipient []byte) (cipher.AEAD, error) {
	salt := make([]byte, 0, 64)
	salt = append(append(salt, share...), recipient...)
	key, err := hkdf.Key(sha256.New, shared, salt, x25519Label, chacha20poly1305.KeySize)
	if err != nil {
		return nil, err
	}
	return chacha20poly1305.New(key)
}
