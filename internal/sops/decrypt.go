package sops

import (
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"time"

	"filippo.io/age"
	"filippo.io/age/armor"
)

// Decrypt decrypts a sops YAML file with the given identities, verifies its
// MAC, and returns the plaintext document as `sops --decrypt` prints it
// (four-space indentation, comments decrypted, no sops: block).
//
// The errors wrap ErrNotEncrypted, ErrNoMatchingIdentity, ErrTamperedValue or
// ErrMACMismatch, name the file's recipients or the path of the failing
// value, and never include a secret value.
func Decrypt(data []byte, ids []age.Identity) ([]byte, Metadata, error) {
	doc, meta, err := readFile(data)
	if err != nil {
		return nil, Metadata{}, err
	}
	key, err := meta.unwrapDataKey(ids)
	if err != nil {
		return nil, Metadata{}, err
	}
	match, err := meta.Rules.compile()
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("sops: %w", err)
	}
	mac := newMAC(meta.MACOnlyEncrypted)
	dec := &decrypter{key: key}
	err = walk(doc, func(leaf any, path []string) (any, error) {
		encrypted := match.encrypts(path)
		out := leaf
		if encrypted {
			var err error
			if out, err = decryptLeaf(leaf, dec, path); err != nil {
				return nil, err
			}
		}
		// A comment in a sequence arrives as an ENC[...] string and leaves as
		// a comment; what it decrypted to decides whether it counts.
		return out, hashLeaf(mac, meta.Rules, out, encrypted)
	})
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("sops: %w", err)
	}
	if err := meta.verifyMAC(mac, dec); err != nil {
		return nil, Metadata{}, err
	}
	plain, err := emitDocument(doc)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("sops: %w", err)
	}
	meta.DataKey = key
	return plain, meta.Metadata, nil
}

// verifyMAC checks the MAC computed over the values against the one stored
// in the metadata.
func (m *fileMetadata) verifyMAC(mac hash.Hash, d *decrypter) error {
	// sops binds the MAC to lastmodified as re-formatted after parsing, so
	// fractional seconds would not count; files written by sops have none.
	d.ad = m.LastModified.AppendFormat(d.ad[:0], time.RFC3339)
	stored, err := d.value(m.mac, d.ad)
	if err != nil {
		return fmt.Errorf("sops: %w: the stored MAC does not decrypt (the mac or lastmodified field was changed)", ErrMACMismatch)
	}
	if stored != macText(mac) {
		return fmt.Errorf("sops: %w: the file was changed after it was encrypted (a value, a key, or their order)", ErrMACMismatch)
	}
	return nil
}

// decryptLeaf decrypts one leaf that the rules say is encrypted.
func decryptLeaf(leaf any, d *decrypter, path []string) (any, error) {
	d.ad = appendAdditionalData(d.ad[:0], path)
	ad := d.ad
	switch leaf := leaf.(type) {
	case comment:
		v, err := d.value(leaf.text, ad)
		if err != nil {
			// sops keeps a comment that does not decrypt: it was written
			// in plaintext, by hand or by an older sops.
			return leaf, nil
		}
		if s, ok := v.(string); ok {
			return comment{text: s, inline: leaf.inline}, nil
		}
		if c, ok := v.(comment); ok {
			// Not inline any more: sops 3.13 prints a decrypted inline
			// comment on its own line above the value, and Decrypt
			// prints what sops prints.
			return c, nil
		}
		return nil, fmt.Errorf("%w: %s: a comment decrypted to a %T", ErrTamperedValue, pathString(path), v)
	case string:
		v, err := d.value(leaf, ad)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %w", ErrTamperedValue, pathString(path), err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("%w: %s should be encrypted but is a plaintext %T", ErrTamperedValue, pathString(path), leaf)
}

// ReadMetadata returns what the sops: block of an encrypted file says, without
// any key (so DataKey is nil).
func ReadMetadata(data []byte) (Metadata, error) {
	_, meta, err := readFile(data)
	if err != nil {
		return Metadata{}, err
	}
	return meta.Metadata, nil
}

// IsEncrypted reports whether data is a YAML document with a top-level sops:
// key, the test sops itself uses before refusing to encrypt twice.
func IsEncrypted(data []byte) bool {
	doc, err := parseDocument(data)
	if err != nil {
		return false
	}
	for _, e := range doc {
		if e.key == metadataKey {
			return true
		}
	}
	return false
}

func readFile(data []byte) (mapping, *fileMetadata, error) {
	doc, err := parseDocument(data)
	if err != nil {
		return nil, nil, fmt.Errorf("sops: %w", err)
	}
	doc, meta, err := splitMetadata(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("sops: %w", err)
	}
	return doc, meta, nil
}

// unwrapDataKey decrypts the data key from the first age entry one of ids
// opens.
func (m *fileMetadata) unwrapDataKey(ids []age.Identity) ([]byte, error) {
	for _, s := range m.age {
		if len(ids) == 0 {
			break
		}
		key, err := openDataKey(s.enc, ids)
		var noMatch *age.NoIdentityMatchError
		if errors.As(err, &noMatch) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sops: the age entry for %s is damaged: %w", s.recipient, err)
		}
		if len(key) != DataKeySize {
			return nil, fmt.Errorf("sops: the age entry for %s holds a %d-byte data key, want %d", s.recipient, len(key), DataKeySize)
		}
		return key, nil
	}
	also := ""
	if len(m.OtherKeyTypes) > 0 {
		also = " (and " + strings.Join(m.OtherKeyTypes, ", ") + " keys, which this tool does not use)"
	}
	return nil, fmt.Errorf("sops: %w: tried %d identities; the file is encrypted for %s%s",
		ErrNoMatchingIdentity, len(ids), strings.Join(m.Recipients, ", "), also)
}

// openDataKey decrypts one age: entry, an armored age file holding the data
// key. A file no identity opens gives age's NoIdentityMatchError.
func openDataKey(armored string, ids []age.Identity) ([]byte, error) {
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(armored)), ids...)
	if err != nil {
		return nil, err
	}
	// One byte more than a data key, so a longer payload is seen as such.
	return io.ReadAll(io.LimitReader(r, DataKeySize+1))
}
