package sops

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"golang.org/x/crypto/chacha20poly1305"
)

// A data key is stored as an armored age file per recipient. age.Decrypt
// reads the payload through a 64 KiB STREAM buffer, twice, to return 32
// bytes: a config's load paid for more buffer than for all of its values.
// openDataKey reads the one shape sops and opencenter write (canonical
// armor, a DataKeySize payload in one final STREAM chunk, as the age
// specification lays out) itself, after age has parsed the header and
// unwrapped the file key, and hands every other file to age.Decrypt, so
// age's own checks and errors decide anything unusual.

const (
	// ageVersionLine begins every age file.
	ageVersionLine = "age-encryption.org/v1\n"
	// armorColumns is the length of every armored line but the last.
	armorColumns = 64
	// streamNonceSize is the payload nonce before the first STREAM chunk.
	streamNonceSize = 16
)

// openDataKey decrypts the armored age file armored with ids and returns
// what it holds. A file no identity opens gives age's NoIdentityMatchError.
func openDataKey(armored string, ids []age.Identity) ([]byte, error) {
	if bin, ok := dearmor(armored); ok {
		if key, err, done := openSmall(bin, ids); done {
			return key, err
		}
	}
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(armored)), ids...)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// dearmor decodes canonical armor: the begin line, full lines of
// armorColumns base64 characters but the last, the end line, with
// whitespace around it. ok is false for anything else.
func dearmor(s string) ([]byte, bool) {
	s = strings.TrimSpace(s)
	body, ok1 := strings.CutPrefix(s, armor.Header+"\n")
	body, ok2 := strings.CutSuffix(body, "\n"+armor.Footer)
	if !ok1 || !ok2 || body == "" {
		return nil, false
	}
	var b64 [1024]byte // a data key's file is about 250 characters
	n := 0
	for rest := body; rest != ""; {
		line, next, more := strings.Cut(rest, "\n")
		if line == "" || len(line) > armorColumns || (more && len(line) != armorColumns) || n+len(line) > len(b64) {
			return nil, false
		}
		n += copy(b64[n:], line)
		rest = next
	}
	out, err := base64.StdEncoding.Strict().AppendDecode(nil, b64[:n])
	return out, err == nil
}

// openSmall decrypts bin when it is an age file whose payload is one final
// STREAM chunk of DataKeySize bytes; done is false when it is not, when age
// refuses the header for another reason than that no identity matches, or
// when the payload does not authenticate, for age.Decrypt to say why.
func openSmall(bin []byte, ids []age.Identity) (key []byte, err error, done bool) {
	// The header ends with its MAC line, the first to begin "--- " (stanza
	// lines begin "-> " or are base64); age.DecryptHeader parses and checks
	// it.
	if !bytes.HasPrefix(bin, []byte(ageVersionLine)) {
		return nil, nil, false
	}
	mac := bytes.Index(bin, []byte("\n--- "))
	if mac < 0 {
		return nil, nil, false
	}
	end := bytes.IndexByte(bin[mac+1:], '\n')
	if end < 0 {
		return nil, nil, false
	}
	header, rest := bin[:mac+1+end+1], bin[mac+1+end+1:]
	if len(rest) != streamNonceSize+DataKeySize+chacha20poly1305.Overhead {
		return nil, nil, false
	}
	fileKey, err := age.DecryptHeader(header, ids...)
	var noMatch *age.NoIdentityMatchError
	switch {
	case errors.As(err, &noMatch):
		return nil, err, true
	case err != nil:
		return nil, nil, false // malformed: age.Decrypt says how
	}
	nonce, payload := rest[:streamNonceSize], rest[streamNonceSize:]
	payloadKey, err := hkdf.Key(sha256.New, fileKey, nonce, "payload", chacha20poly1305.KeySize)
	if err != nil {
		return nil, nil, false
	}
	aead, err := chacha20poly1305.New(payloadKey)
	if err != nil {
		return nil, nil, false
	}
	var chunkNonce [chacha20poly1305.NonceSize]byte // counter 0, then the last-chunk flag
	chunkNonce[len(chunkNonce)-1] = 1
	key, err = aead.Open(nil, chunkNonce[:], payload, nil)
	if err != nil {
		return nil, nil, false
	}
	return key, nil, true
}
