package sops

import (
	"hash"
	"sync"
)

// appendTokens appends the document of toks to dst with its values
// encrypted, as AppendEncrypt's tree path writes it (walk, then
// appendDocument), and feeds mac the leaves as walk does: the same bytes
// from the same IVs, read in the same order, with no tree built. ok is
// false, before any IV is read, where appendDocument would leave the
// document to yaml.v3's emitter (a plaintext value it cannot write).
func (e *encrypter) appendTokens(dst []byte, toks []token, match *matcher, rules Rules, mac hash.Hash) (_ []byte, ok bool, err error) {
	if !e.markTokens(toks, match) {
		return dst, false, nil
	}
	w := docWriter{b: dst}
	path := e.path[:0]
	for i := range toks {
		t := &toks[i]
		if t.kind == tokComment {
			w.b = append(w.b, '#')
			if t.enc && t.key != "" {
				e.ad = appendAdditionalData(e.ad[:0], nil)
				if w.b, err = e.appendSealed(w.b, append(e.buf[:0], t.key...), "comment"); err != nil {
					return dst, false, err
				}
			} else {
				w.b = append(w.b, t.key...)
			}
			w.b = append(w.b, '\n')
			continue
		}
		path = append(path[:t.depth], t.key)
		w.spaces(4 * t.depth)
		w.b = append(w.b, t.key...)
		if t.kind == tokMapping {
			w.b = append(w.b, ":\n"...)
			continue
		}
		w.b = append(w.b, ": "...)
		plain, typ := append(e.buf[:0], t.str...), "str"
		if t.kind == tokBool { // as appendPlain writes a boolean
			plain, typ = append(e.buf[:0], "False"...), "bool"
			if t.b {
				plain = append(e.buf[:0], "True"...)
			}
		}
		if rules.hashes(t.enc) {
			mac.Write(plain)
		}
		switch {
		case t.enc:
			e.ad = appendAdditionalData(e.ad[:0], path)
			if w.b, err = e.appendSealed(w.b, plain, typ); err != nil {
				return dst, false, err
			}
			w.b = append(w.b, '\n')
		case t.kind == tokBool:
			w.scalar(t.b, 0)
		default:
			w.textAs(t.str, t.form, 4*t.depth+4)
			e.buf = plain[:0]
		}
	}
	e.path = path[:0]
	return w.b, true, nil
}

// markTokens records which values of toks are encrypted and how each
// other string is written, and reports whether appendDocument writes them
// all (a plaintext string it cannot write, or a key over 128 bytes, it
// leaves to yaml.v3).
func (e *encrypter) markTokens(toks []token, match *matcher) bool {
	path := e.path[:0]
	for i := range toks {
		t := &toks[i]
		if t.kind == tokComment {
			t.enc = match.encrypts(nil)
			continue
		}
		if len(t.key) > 128 {
			return false
		}
		path = append(path[:t.depth], t.key)
		if t.kind == tokMapping {
			continue
		}
		t.enc = match.encrypts(path)
		if t.kind == tokString && t.str == "" {
			return false
		}
		if t.kind == tokString && !t.enc {
			if t.form = textFormOf(t.str, false); t.form == 0 {
				return false
			}
		}
	}
	e.path = path[:0]
	return true
}

// tokenSlices holds the token lists of finished encryptions, cleared (their
// strings are plaintext secrets), for the next.
var tokenSlices sync.Pool
