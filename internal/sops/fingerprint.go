package sops

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// fingerprintInfo labels the HKDF derivation, so the fingerprint key is not
// the data key and cannot be confused with any other key derived from it.
const fingerprintInfo = "opencenter sops fingerprint v1"

// Fingerprint returns hex HMAC-SHA256 of plaintext under a key derived from
// the data key with HKDF-SHA256. Comparing fingerprints tells whether a
// re-rendered secret changed, so an unchanged file can keep its ciphertext;
// without the data key nobody can compute one, so a fingerprint stored next
// to the ciphertext does not let anyone test guesses of the secret.
func Fingerprint(dataKey, plaintext []byte) string {
	return NewFingerprinter(dataKey).Of(plaintext)
}

// Fingerprinter computes Fingerprint for one data key, deriving its key
// once for the many files of a render. It is not safe for concurrent use.
type Fingerprinter struct {
	mac hash.Hash
	sum [sha256.Size]byte
}

// NewFingerprinter derives the fingerprint key of a data key.
func NewFingerprinter(dataKey []byte) *Fingerprinter {
	key, err := hkdf.Key(sha256.New, dataKey, nil, fingerprintInfo, sha256.Size)
	if err != nil {
		// hkdf.Key fails only for an output longer than 255 hashes.
		panic(err)
	}
	return &Fingerprinter{mac: hmac.New(sha256.New, key)}
}

// Of returns the fingerprint of the plaintext made of parts, one after
// the other.
func (f *Fingerprinter) Of(parts ...[]byte) string {
	f.mac.Reset()
	for _, p := range parts {
		f.mac.Write(p)
	}
	return hex.EncodeToString(f.mac.Sum(f.sum[:0]))
}
