package sops

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
	"filippo.io/age/armor"
)

// Version is the sops version Encrypt records in the files it writes, and the
// version of the sops CLI the interop tests run (tools/sops/go.mod pins it).
const Version = "3.13.3"

// DataKeySize is the length of the AES-256 data key.
const DataKeySize = 32

// EncryptOptions say whom a document is encrypted for and which of its values.
type EncryptOptions struct {
	// Recipients are age public keys (age1...); each gets its own copy of the
	// data key, as sops writes one age: entry per recipient.
	Recipients []string
	// Rules choose the encrypted values. The zero value is sops's default:
	// every value except under keys ending in _unencrypted.
	Rules
	// DataKey reuses an existing 32-byte data key (Metadata.DataKey of the
	// previous version of the file); nil generates a new one.
	DataKey []byte
	// Key, when set, is the data key, with its copies for each recipient
	// wrapped once and reused: encrypting many files for the same recipients
	// costs one age operation per recipient, not one per file. It wins over
	// DataKey.
	Key *SharedKey
	// LastModified is recorded in the file and binds the MAC; it is written in
	// UTC to the second. The zero time means now.
	LastModified time.Time
	// Rand supplies the data key and the IVs; nil means crypto/rand. The age
	// stanzas always use crypto/rand (age allows nothing else), so only the
	// enc: fields differ between two runs with the same Rand.
	Rand io.Reader
}

// Errors a caller may want to tell apart; the returned errors wrap them and
// add which file part or recipients are concerned, never a secret value.
var (
	// ErrNotEncrypted: the document has no sops: metadata.
	ErrNotEncrypted = errors.New("not a sops-encrypted file (no top-level sops: key)")
	// ErrAlreadyEncrypted: Encrypt was given a document that has sops: metadata.
	ErrAlreadyEncrypted = errors.New("the document is already encrypted (it has a top-level sops: key)")
	// ErrNoMatchingIdentity: no given age identity can decrypt the data key.
	ErrNoMatchingIdentity = errors.New("no age identity matches a recipient of the file")
	// ErrTamperedValue: an encrypted value does not authenticate, or a value
	// that should be encrypted is not.
	ErrTamperedValue = errors.New("an encrypted value was changed")
	// ErrMACMismatch: the values decrypted, but the file as a whole is not
	// what was encrypted (a value, key or order changed, a plaintext value
	// was edited, or the mac or lastmodified fields were).
	ErrMACMismatch = errors.New("MAC mismatch")
)

// macOnlyEncryptedSeed starts the MAC when only encrypted values count, so the
// two kinds of MAC never coincide. It is SHA-256("sops"), as in sops.
var macOnlyEncryptedSeed = sha256.Sum256([]byte("sops"))

// newMAC starts a file's MAC.
func newMAC(onlyEncrypted bool) hash.Hash {
	h := sha512.New()
	if onlyEncrypted {
		h.Write(macOnlyEncryptedSeed[:])
	}
	return h
}

// hashLeaf adds one leaf to the MAC: its plaintext, as text, without
// separators. Comments do not count, nor plaintext values under
// mac_only_encrypted.
func hashLeaf(h hash.Hash, r Rules, leaf any, encrypted bool) error {
	_, err := hashLeafWith(nil, h, r, leaf, encrypted)
	return err
}

// hashLeafWith is hashLeaf with a scratch buffer for the leaf's text.
func hashLeafWith(scratch []byte, h hash.Hash, r Rules, leaf any, encrypted bool) ([]byte, error) {
	if _, isComment := leaf.(comment); isComment || !r.hashes(encrypted) {
		return scratch, nil
	}
	b, _, err := appendPlain(scratch[:0], leaf)
	if err != nil {
		return scratch, err
	}
	h.Write(b)
	return b[:0], nil
}

// macText is the MAC as sops stores it: upper-case hex, then encrypted like a
// value with lastmodified as the additional data.
func macText(h hash.Hash) string {
	var sum [sha512.Size]byte
	return string(appendMACText(nil, h, &sum))
}

// appendMACText appends the upper-case hex of h's sum to dst, summing into sum.
func appendMACText(dst []byte, h hash.Hash, sum *[sha512.Size]byte) []byte {
	const digits = "0123456789ABCDEF"
	for _, c := range h.Sum(sum[:0]) {
		dst = append(dst, digits[c>>4], digits[c&15])
	}
	return dst
}

// sealMAC returns the MAC of h as sops stores it (macText), encrypted with
// e.ad as the additional data, its text made in e's buffer.
func (e *encrypter) sealMAC(h hash.Hash) (string, error) {
	out, err := e.appendSealed(e.out[:0], appendMACText(e.buf[:0], h, &e.sum), "str")
	e.out = out[:0]
	return string(out), err
}

// Encrypt encrypts one YAML document as `sops --encrypt` does and returns the
// file sops would write: values encrypted in place, comments encrypted with
// their values, four-space indentation, and the sops: block appended to the
// top-level mapping.
//
// One deliberate difference: an encrypted comment line inside a sequence
// stays a comment (#ENC[...]). sops 3.13.3 writes it as an extra ENC[...]
// list item instead, and sops 3.13.2, which Flux's kustomize-controller
// v1.9.6 links, then fails that file's MAC check; both read the comment form.
// And a bare '#' line inside an encrypted list is dropped, because sops
// would decrypt it into an extra "" item.
func Encrypt(plain []byte, opts EncryptOptions) ([]byte, error) {
	return AppendEncrypt(nil, plain, opts)
}

// AppendEncrypt is Encrypt appending the file to dst (such as a header of
// the caller's).
func AppendEncrypt(dst, plain []byte, opts EncryptOptions) ([]byte, error) {
	if len(opts.Recipients) == 0 {
		return nil, errors.New("sops: no age recipients to encrypt for")
	}
	var recipients []age.Recipient
	names := make([]string, len(opts.Recipients))
	for i, s := range opts.Recipients {
		names[i] = strings.TrimSpace(s)
		r, err := ParseRecipient(names[i])
		if err != nil {
			return nil, fmt.Errorf("sops: %w", err)
		}
		recipients = append(recipients, r)
	}
	rules := opts.Rules.withDefault()
	match, err := rules.compile()
	if err != nil {
		return nil, fmt.Errorf("sops: %w", err)
	}
	doc, err := parseDocument(plain)
	if err != nil {
		return nil, fmt.Errorf("sops: %w", err)
	}
	if slices.ContainsFunc(doc, func(e entry) bool { return e.key == metadataKey }) {
		return nil, fmt.Errorf("sops: %w", ErrAlreadyEncrypted)
	}
	rnd := opts.Rand
	if rnd == nil {
		rnd = rand.Reader
	}
	key := opts.DataKey
	if opts.Key != nil {
		key = opts.Key.key
	}
	if key == nil {
		key = make([]byte, DataKeySize)
		if _, err := io.ReadFull(rnd, key); err != nil {
			return nil, fmt.Errorf("sops: generating the data key: %w", err)
		}
	} else if len(key) != DataKeySize {
		return nil, fmt.Errorf("sops: the data key has %d bytes, want %d", len(key), DataKeySize)
	}

	gcm, err := newGCM(key)
	if err != nil {
		return nil, fmt.Errorf("sops: %w", err)
	}
	e := &encrypter{gcm: gcm, rand: rnd}
	mac := newMAC(rules.MACOnlyEncrypted)
	if err := encryptTree(doc, e, match, rules, mac); err != nil {
		return nil, fmt.Errorf("sops: %w", err)
	}

	lastModified := opts.LastModified
	if lastModified.IsZero() {
		lastModified = time.Now()
	}
	meta := &fileMetadata{Metadata: Metadata{
		Recipients:   names,
		LastModified: lastModified.UTC().Truncate(time.Second),
		Rules:        rules,
		Version:      Version,
	}}
	e.ad = append(e.ad[:0], stampText(meta.LastModified)...) // the text the sops: block shows, formatted once a second
	meta.mac, err = e.sealMAC(mac)
	if err != nil {
		return nil, fmt.Errorf("sops: encrypting the MAC: %w", err)
	}
	meta.age = make([]ageStanza, 0, len(recipients))
	for i, r := range recipients {
		var enc string
		var err error
		if opts.Key != nil {
			enc, err = opts.Key.wrap(names[i], r)
		} else {
			enc, err = wrapDataKey(key, r)
		}
		if err != nil {
			return nil, fmt.Errorf("sops: encrypting the data key to %s: %w", names[i], err)
		}
		meta.age = append(meta.age, ageStanza{recipient: names[i], enc: enc})
	}
	if opts.Key != nil {
		meta.ageText = opts.Key.ageText(meta.age)
	}
	out, ok := appendDocument(dst, doc)
	if !ok {
		text, err := emitDocument(doc)
		if err != nil {
			return nil, fmt.Errorf("sops: %w", err)
		}
		out = append(dst, text...)
	}
	dst = out
	// The sops: block, the document's last entry, with no mapping built.
	w := docWriter{b: dst}
	w.metadata(meta)
	return w.b, nil
}

// encryptTree encrypts the values of doc in place, in document order, and
// feeds mac its leaves.
func encryptTree(doc mapping, e *encrypter, match *matcher, rules Rules, mac hash.Hash) error {
	dropEmptySequenceComments(doc, make([]string, 0, 16), match)
	return walk(doc, func(leaf any, path []string) (any, error) {
		encrypted := match.encrypts(path)
		var err error
		if e.buf, err = hashLeafWith(e.buf, mac, rules, leaf, encrypted); err != nil {
			return nil, err
		}
		if !encrypted {
			return leaf, nil
		}
		return e.value(leaf, path)
	})
}

// dropEmptySequenceComments removes bare '#' lines from lists whose values
// are encrypted: sops decrypts such a line into an extra "" list item, which
// would change the manifest Flux applies. They carry nothing to lose.
func dropEmptySequenceComments(v any, path []string, match *matcher) any {
	switch v := v.(type) {
	case mapping:
		for i, e := range v {
			if k, ok := e.key.(string); ok {
				v[i].value = dropEmptySequenceComments(e.value, append(path, k), match) // path is a stack: see walk
			}
		}
	case []any:
		encrypted := match.encrypts(path)
		kept := v[:0]
		for _, item := range v {
			if c, ok := item.(comment); ok && c.text == "" && encrypted {
				continue
			}
			kept = append(kept, dropEmptySequenceComments(item, path, match))
		}
		return kept
	}
	return v
}

// wrapDataKey encrypts the data key to one recipient as an armored age file,
// the form of sops's enc: field.
func wrapDataKey(key []byte, r age.Recipient) (string, error) {
	var b bytes.Buffer
	aw := armor.NewWriter(&b)
	w, err := age.Encrypt(aw, r)
	if err != nil {
		return "", err
	}
	if _, err := w.Write(key); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	if err := aw.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ParseRecipient parses an age public key: X25519 (age1...) or post-quantum
// hybrid (age1pq1...). sops also takes SSH keys and plugin recipients; this
// package does not.
func ParseRecipient(s string) (age.Recipient, error) { return recipients.get(s, parseRecipient) }

// recipients holds parsed public keys by their text: every secret file of
// a render names the same few, and parsing one decodes its bech32 text.
var recipients = memo[string, age.Recipient]{max: 256}

func parseRecipient(s string) (age.Recipient, error) {
	switch {
	case strings.HasPrefix(s, "age1pq1"):
		return age.ParseHybridRecipient(s)
	case strings.HasPrefix(s, "age1") && strings.Count(s, "1") > 1:
		return nil, fmt.Errorf("age plugin recipient %q is not supported", s)
	case strings.HasPrefix(s, "age1"):
		return age.ParseX25519Recipient(s)
	}
	return nil, fmt.Errorf("%q is not an age public key (age1...)", s)
}

// SharedKey is a data key shared by several files, with its age copy for
// each recipient made once. Files encrypted with it decrypt with the same
// identities as any other; each value keeps its own random IV. Share one
// only among files with the same recipients (DataKeys does): whoever
// decrypts one file holds the key of them all. It is safe for concurrent
// use.
type SharedKey struct {
	key     []byte
	mu      sync.Mutex
	stanzas map[string]string // recipient -> armored age file of the key
	// ageTexts are the age: lists of the sops: blocks written with the
	// key, by their recipients in order: every file of a rule has the
	// same.
	ageTexts map[string][]byte
}

// NewSharedKey makes a random data key (from crypto/rand when rnd is nil).
func NewSharedKey(rnd io.Reader) (*SharedKey, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	k := &SharedKey{key: make([]byte, DataKeySize), stanzas: map[string]string{}}
	if _, err := io.ReadFull(rnd, k.key); err != nil {
		return nil, fmt.Errorf("sops: generating the data key: %w", err)
	}
	return k, nil
}

func (k *SharedKey) wrap(name string, r age.Recipient) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if enc, ok := k.stanzas[name]; ok {
		return enc, nil
	}
	enc, err := wrapDataKey(k.key, r)
	if err == nil {
		k.stanzas[name] = enc
	}
	return enc, err
}

// ageText returns age as docWriter.ageEntries writes it, written once
// per list of recipients; nil when it cannot be written that way.
func (k *SharedKey) ageText(age []ageStanza) []byte {
	var buf [512]byte // two X25519 recipients; more spill to the heap
	id := buf[:0]
	for _, s := range age {
		id = append(append(id, s.recipient...), '\n')
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if text, ok := k.ageTexts[string(id)]; ok {
		return text
	}
	var w docWriter
	if !w.ageEntries(age) {
		return nil
	}
	if k.ageTexts == nil {
		k.ageTexts = map[string][]byte{}
	}
	k.ageTexts[string(id)] = w.b
	return w.b
}

// DataKeys hands out one SharedKey per set of recipients: files encrypted
// for the same recipients share a data key, and files for different ones
// never do, since a recipient of one file could otherwise decrypt the
// other. It is safe for concurrent use.
type DataKeys struct {
	mu   sync.Mutex
	keys map[string]*SharedKey // by the recipients, sorted and joined
}

// For returns the data key of files encrypted for recipients (in any
// order), made on first use.
func (d *DataKeys) For(recipients []string) (*SharedKey, error) {
	set := make([]string, len(recipients))
	for i, r := range recipients {
		set[i] = strings.TrimSpace(r)
	}
	slices.Sort(set)
	id := strings.Join(slices.Compact(set), "\n")
	d.mu.Lock()
	defer d.mu.Unlock()
	if k, ok := d.keys[id]; ok {
		return k, nil
	}
	k, err := NewSharedKey(nil)
	if err != nil {
		return nil, err
	}
	if d.keys == nil {
		d.keys = map[string]*SharedKey{}
	}
	d.keys[id] = k
	return k, nil
}
