package plan

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"github.com/opencenter-dev/opencenter/internal/overlay"
)

// sealInfo labels the derivation of the seal key from a config's data key,
// so the seal key is no other key derived from it.
const sealInfo = "opencenter: seal of a rendered SOPS file, v2"

// A sealer proves that an encrypted file on disk is one this config
// rendered: the seal in its header is an HMAC-SHA256, under a key derived
// from the config's SOPS data key, of the cluster, the file's path, its
// plaintext, its sops rule and the encrypted body that follows the header.
//
// Only holders of one of the config's age keys have the data key, so
// nobody else can seal a file: a ciphertext replaced by another, even one
// the real sops made for the same recipients, fails its seal. The seal
// also covers the plaintext, so it says whether today's plaintext is the
// one encrypted, and the cluster and path, so that two clusters that share
// a data key (a config copied to make another) or two files with the same
// content never carry the same seal.
type sealer struct {
	mac hash.Hash
}

// newSealer derives the seal key of a config's data key.
func newSealer(dataKey []byte) *sealer {
	key, err := hkdf.Key(sha256.New, dataKey, nil, sealInfo, sha256.Size)
	if err != nil {
		panic(err) // hkdf.Key fails only for an output longer than 255 hashes
	}
	return &sealer{mac: hmac.New(sha256.New, key)}
}

// seal returns the seal of the encrypted body of the file at overlay path
// p of cluster, encrypted from plain under rule (sealRule).
func (s *sealer) seal(cluster, p string, plain, rule, encrypted []byte) string {
	s.mac.Reset()
	for _, part := range [][]byte{[]byte(cluster), []byte(p), plain, rule, encrypted} {
		// Each part with its length first, so no two lists of parts hash alike.
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		s.mac.Write(n[:])
		s.mac.Write(part)
	}
	return hex.EncodeToString(s.mac.Sum(nil))
}

// holds reports whether the header of data carries the seal of its body.
func (s *sealer) holds(cluster, p string, plain, rule, data []byte) bool {
	got := overlay.HeaderSeal(data)
	if got == "" {
		return false
	}
	want := s.seal(cluster, p, plain, rule, overlay.Body(data))
	return hmac.Equal([]byte(got), []byte(want))
}
