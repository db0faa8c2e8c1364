package sops

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ivSize is the GCM nonce length sops uses: 32 bytes, not the usual 12. Go's
// GCM accepts it through NewGCMWithNonceSize, and sops reads the length back
// from the value, so it must be exactly this for other tools' sake.
const ivSize = 32

const (
	encPrefix = "ENC[AES256_GCM,data:"
	encSuffix = "]"
)

// appendAdditionalData appends what every value is authenticated with: the
// keys leading to it joined by ':' with a trailing ':'. Sequence indexes are
// not part of it, so moving a value within a list keeps it valid; the MAC
// catches that.
func appendAdditionalData(dst []byte, path []string) []byte {
	if len(path) == 0 {
		return append(dst, ':') // a comment above the first key: Join gives "", then ":"
	}
	for _, k := range path {
		dst = append(append(dst, k...), ':')
	}
	return dst
}

// appendPlain appends the text sops encrypts for a scalar and feeds to the
// MAC, and returns the type tag it records. Floats use the shortest decimal
// form and booleans are capitalised because the first, Python, sops did so.
func appendPlain(dst []byte, v any) ([]byte, string, error) {
	switch v := v.(type) {
	case string:
		return append(dst, v...), "str", nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), "int", nil
	case float64:
		return strconv.AppendFloat(dst, v, 'f', -1, 64), "float", nil
	case bool:
		if v {
			return append(dst, "True"...), "bool", nil
		}
		return append(dst, "False"...), "bool", nil
	case time.Time:
		b, err := v.AppendText(dst)
		return b, "time", err
	case comment:
		return append(dst, v.text...), "comment", nil
	case []byte:
		// Only a decrypted "bytes" value is a []byte; it counts in the MAC.
		return append(dst, v...), "bytes", nil
	}
	return dst, "", fmt.Errorf("a %T value cannot be encrypted", v)
}

// An encrypter encrypts the values of one file with one data key, reusing
// its buffers from value to value. It is not safe for concurrent use.
type encrypter struct {
	gcm  cipher.AEAD
	rand io.Reader
	iv   [ivSize]byte
	buf  []byte // a value's plaintext, then its ciphertext in place
	ad   []byte
	out  []byte   // encrypt's ENC[...] text
	sum  [64]byte // the MAC's digest (sealMAC)
}

// value returns the ENC[...] form of v, authenticated with the additional
// data path leads to (appendAdditionalData). Empty strings and empty comments stay
// empty, unencrypted, as in sops: there is nothing to hide and sops decrypts
// "" to "".
func (e *encrypter) value(v any, path []string) (string, error) {
	e.ad = appendAdditionalData(e.ad[:0], path)
	return e.encrypt(v)
}

// encrypt is value with e.ad as the additional data.
func (e *encrypter) encrypt(v any) (string, error) {
	plain, typ, err := appendPlain(e.buf[:0], v)
	if err != nil {
		return "", err
	}
	if len(plain) == 0 && (typ == "str" || typ == "comment") {
		return "", nil
	}
	out, err := e.appendSealed(e.out[:0], plain, typ)
	e.out = out[:0]
	return string(out), err
}

// appendSealed appends the ENC[...] form of plain, a value of type typ, to
// dst, with e.ad as the additional data. plain is sealed in place: it must
// be e.buf's (appendPlain's) or the caller's own scratch.
func (e *encrypter) appendSealed(dst, plain []byte, typ string) ([]byte, error) {
	if _, err := io.ReadFull(e.rand, e.iv[:]); err != nil {
		return nil, fmt.Errorf("reading random IV: %w", err)
	}
	sealed := e.gcm.Seal(plain[:0], e.iv[:], plain, e.ad)
	e.buf = sealed[:0]
	data, tag := sealed[:len(sealed)-e.gcm.Overhead()], sealed[len(sealed)-e.gcm.Overhead():]
	enc := base64.StdEncoding
	dst = slices.Grow(dst, sealedLen(len(data), typ))
	dst = enc.AppendEncode(append(dst, encPrefix...), data)
	dst = enc.AppendEncode(append(dst, ",iv:"...), e.iv[:])
	dst = enc.AppendEncode(append(dst, ",tag:"...), tag)
	return append(append(append(dst, ",type:"...), typ...), encSuffix...), nil
}

// sealedLen is the length of the ENC[...] form of n bytes of type typ.
func sealedLen(n int, typ string) int {
	enc := base64.StdEncoding
	return len(encPrefix) + enc.EncodedLen(n) + len(",iv:") + enc.EncodedLen(ivSize) +
		len(",tag:") + enc.EncodedLen(16) + len(",type:") + len(typ) + len(encSuffix)
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	return cipher.NewGCMWithNonceSize(block, ivSize)
}

// errNotEncrypted and errAuthentication tell the caller whether a value was
// never an ENC[...] value or failed to authenticate; neither message carries
// the value.
var (
	errNotEncrypted   = errors.New("is not an ENC[AES256_GCM,...] value")
	errAuthentication = errors.New("does not authenticate with the data key (changed, moved to another key, or encrypted with another data key)")
)

// A decrypter decrypts the values of one file with its data key, setting
// up AES-GCM once and reusing its buffers from value to value. It is not
// safe for concurrent use.
type decrypter struct {
	key   []byte
	gcm   cipher.AEAD // for nonces of ivLen bytes
	ivLen int
	block cipher.Block
	buf   []byte // ciphertext and tag, then the plaintext in place
	iv    []byte
	ad    []byte
}

// value reverses encrypter.value for the additional data ad, returning the
// typed value recorded in the type field. "" decrypts to "".
func (d *decrypter) value(s string, ad []byte) (any, error) {
	if s == "" {
		return "", nil
	}
	if !strings.HasPrefix(s, encPrefix) || !strings.HasSuffix(s, encSuffix) {
		return nil, errNotEncrypted
	}
	body := strings.TrimSuffix(strings.TrimPrefix(s, encPrefix), encSuffix)
	data, rest, ok1 := strings.Cut(body, ",iv:")
	ivText, rest, ok2 := strings.Cut(rest, ",tag:")
	tagText, typ, ok3 := strings.Cut(rest, ",type:")
	if !ok1 || !ok2 || !ok3 {
		return nil, errNotEncrypted
	}
	var err1, err2, err3 error
	d.buf, err1 = appendBase64(d.buf[:0], data)
	d.buf, err2 = appendBase64(d.buf, tagText)
	d.iv, err3 = appendBase64(d.iv[:0], ivText)
	if err := errors.Join(err1, err2, err3); err != nil || len(d.iv) == 0 {
		return nil, errNotEncrypted
	}
	if d.block == nil {
		block, err := aes.NewCipher(d.key)
		if err != nil {
			return nil, fmt.Errorf("data key: %w", err)
		}
		d.block = block
	}
	if d.gcm == nil || d.ivLen != len(d.iv) {
		// sops reads the IV length from the value rather than assuming 32.
		gcm, err := cipher.NewGCMWithNonceSize(d.block, len(d.iv))
		if err != nil {
			return nil, errNotEncrypted
		}
		d.gcm, d.ivLen = gcm, len(d.iv)
	}
	plain, err := d.gcm.Open(d.buf[:0], d.iv, d.buf, ad)
	if err != nil {
		return nil, errAuthentication
	}
	v, err := typedValue(plain, typ)
	if err != nil {
		// strconv errors quote their input: never let the plaintext through.
		return nil, fmt.Errorf("decrypted value does not parse as its recorded type %q", typ)
	}
	return v, nil
}

// appendBase64 appends the standard base64 decoding of s to dst: through a
// buffer on the stack for the short strings of sops values, as DecodeString
// for longer ones.
func appendBase64(dst []byte, s string) ([]byte, error) {
	if len(s) > 1024 {
		b, err := base64.StdEncoding.DecodeString(s)
		return append(dst, b...), err
	}
	var in [1024]byte
	n := copy(in[:], s)
	return base64.StdEncoding.AppendDecode(dst, in[:n])
}

func typedValue(plain []byte, typ string) (any, error) {
	text := string(plain)
	switch typ {
	case "str":
		return text, nil
	case "int":
		return strconv.Atoi(text)
	case "float":
		return strconv.ParseFloat(text, 64)
	case "bool":
		return strconv.ParseBool(text)
	case "bytes":
		return bytes.Clone(plain), nil // plain is a decrypter's buffer
	case "time":
		var t time.Time
		err := t.UnmarshalText(plain)
		return t, err
	case "comment":
		return comment{text: text}, nil
	}
	return nil, errors.New("unknown type")
}
