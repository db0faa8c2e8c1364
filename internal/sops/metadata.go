package sops

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// metadataKey is the top-level key sops keeps its metadata under.
const metadataKey = "sops"

// Metadata is what the sops: block of an encrypted file says about it.
type Metadata struct {
	// Recipients are the age public keys the data key is encrypted to, in
	// file order.
	Recipients []string
	// LastModified is when the file was last encrypted; the MAC is bound to it.
	LastModified time.Time
	// Rules are the selectors the file was encrypted with; a file that names
	// none reads as unencrypted_suffix: _unencrypted, as in sops.
	Rules
	// Version is the sops version that wrote the file.
	Version string
	// OtherKeyTypes lists the non-age key types (pgp, kms, ...) the data key is
	// also encrypted to; this package cannot use them.
	OtherKeyTypes []string
	// DataKey is the 32-byte key every value is encrypted with. Only Decrypt
	// sets it; a caller may pass it back to Encrypt or derive a Fingerprint key.
	DataKey []byte
}

// ageStanza is one entry of the age: list: the data key encrypted to one
// recipient as an ASCII-armored age file.
type ageStanza struct {
	recipient string
	enc       string
}

// fileMetadata is the full sops: block, including what only this package needs.
type fileMetadata struct {
	Metadata
	age []ageStanza
	// ageText, when set, is age written as docWriter.ageEntries writes it
	// (SharedKey keeps it for its files).
	ageText []byte
	mac     string
}

// otherKeyTypes are the metadata keys of key types other than age.
var otherKeyTypes = []string{"azure_kv", "gcp_kms", "hc_vault", "hckms", "kms", "pgp"}

// splitMetadata removes the sops: entry from the top-level mapping and parses it.
func splitMetadata(doc mapping) (mapping, *fileMetadata, error) {
	i := slices.IndexFunc(doc, func(e entry) bool { return e.key == metadataKey })
	if i < 0 {
		return nil, nil, ErrNotEncrypted
	}
	block, ok := doc[i].value.(mapping)
	if !ok {
		return nil, nil, errors.New("the sops: entry is not a mapping")
	}
	meta, err := parseMetadata(block)
	if err != nil {
		return nil, nil, fmt.Errorf("sops metadata: %w", err)
	}
	return slices.Delete(doc, i, i+1), meta, nil
}

func parseMetadata(block mapping) (*fileMetadata, error) {
	fields := map[string]any{}
	for _, e := range block {
		if k, ok := e.key.(string); ok {
			fields[k] = e.value
		}
	}
	str := func(name string) string {
		switch v := fields[name].(type) {
		case nil:
			return ""
		case string:
			return v
		case time.Time:
			return v.Format(time.RFC3339)
		default:
			// sops decodes metadata weakly typed: version: 3.10 is a float
			// to YAML but still a version string to sops.
			return fmt.Sprint(v)
		}
	}
	m := &fileMetadata{mac: str("mac")}
	m.Version = str("version")
	m.UnencryptedSuffix = str("unencrypted_suffix")
	m.EncryptedSuffix = str("encrypted_suffix")
	m.UnencryptedRegex = str("unencrypted_regex")
	m.EncryptedRegex = str("encrypted_regex")
	switch v := fields["mac_only_encrypted"].(type) {
	case bool:
		m.MACOnlyEncrypted = v
	case string:
		m.MACOnlyEncrypted = v == "true" || v == "True"
	}
	if str("unencrypted_comment_regex") != "" || str("encrypted_comment_regex") != "" {
		return nil, errCommentRules
	}
	if _, err := m.Rules.compile(); err != nil {
		return nil, err
	}
	m.Rules = m.Rules.withDefault()

	lm := str("lastmodified")
	t, err := time.Parse(time.RFC3339, lm)
	if err != nil {
		return nil, fmt.Errorf("lastmodified %q is not an RFC 3339 time", lm)
	}
	m.LastModified = t

	if groups, ok := fields["key_groups"].([]any); ok && len(groups) > 0 {
		return nil, errors.New("key_groups (Shamir secret sharing) are not supported; encrypt to age recipients directly")
	}
	for _, name := range otherKeyTypes {
		if l, ok := fields[name].([]any); ok && len(l) > 0 {
			m.OtherKeyTypes = append(m.OtherKeyTypes, name)
		}
	}
	list, _ := fields["age"].([]any)
	for _, item := range list {
		entry, ok := item.(mapping)
		if !ok {
			return nil, errors.New("an age: entry is not a mapping")
		}
		var s ageStanza
		for _, e := range entry {
			switch e.key {
			case "recipient":
				s.recipient, _ = e.value.(string)
			case "enc":
				s.enc, _ = e.value.(string)
			}
		}
		if s.recipient == "" || s.enc == "" {
			return nil, errors.New("an age: entry lacks recipient or enc")
		}
		m.age = append(m.age, s)
		m.Recipients = append(m.Recipients, s.recipient)
	}
	if len(m.age) == 0 {
		if len(m.OtherKeyTypes) > 0 {
			return nil, fmt.Errorf("the data key is encrypted only to %s keys; this tool reads age keys", strings.Join(m.OtherKeyTypes, ", "))
		}
		return nil, errors.New("no age recipients")
	}
	return m, nil
}

// metaField is a key of the sops: block and its value when that is a
// string ("" for age, a list, and mac_only_encrypted, a boolean).
type metaField struct{ key, value string }

// fields appends the keys of the sops: block to dst in the order sops
// writes them: it builds the block from a Go map and sorts the keys, so
// they come alphabetically (age, encrypted_regex, lastmodified, mac, ...,
// version).
func (m *fileMetadata) fields(dst []metaField) []metaField {
	dst = append(dst, metaField{"age", ""}, metaField{"lastmodified", stampText(m.LastModified)},
		metaField{"mac", m.mac}, metaField{"version", m.Version})
	for _, s := range m.selectors() {
		if s[1] != "" {
			dst = append(dst, metaField{s[0], s[1]})
		}
	}
	if m.MACOnlyEncrypted {
		dst = append(dst, metaField{"mac_only_encrypted", ""})
	}
	slices.SortFunc(dst, func(x, y metaField) int { return cmp.Compare(x.key, y.key) })
	return dst
}

// lastStamp is the last lastmodified written, as text: the files of a
// render share their second.
var lastStamp atomic.Pointer[stamp]

type stamp struct {
	t    time.Time
	text string
}

// stampText is t in UTC as RFC 3339, as sops writes lastmodified.
func stampText(t time.Time) string {
	t = t.UTC()
	if s := lastStamp.Load(); s != nil && s.t.Equal(t) {
		return s.text
	}
	text := t.Format(time.RFC3339)
	lastStamp.Store(&stamp{t, text})
	return text
}

// block renders the sops: mapping; each age entry has enc before recipient.
func (m *fileMetadata) block() mapping {
	var b mapping
	for _, f := range m.fields(nil) {
		switch f.key {
		case "age":
			var age []any
			for _, s := range m.age {
				age = append(age, mapping{{key: "enc", value: metaString(s.enc)}, {key: "recipient", value: metaString(s.recipient)}})
			}
			b = append(b, entry{key: f.key, value: age})
		case "mac_only_encrypted":
			b = append(b, entry{key: f.key, value: true})
		default:
			b = append(b, entry{key: f.key, value: metaString(f.value)})
		}
	}
	return b
}
