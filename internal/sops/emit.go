package sops

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// writeDocument writes m byte for byte as emitDocument does, for the shape
// rendered Secrets and the sops: block have: comment lines before the first
// key, plain keys, plain or double-quoted one-word strings, literal blocks
// of printable lines, booleans, nested mappings, and lists whose items are
// scalars or mappings of scalars. ok is false for anything else, which
// emitDocument then writes; yaml.v3's emitter is a tenth of the speed, and
// TestWriteDocumentMatchesYAML holds the two to the same bytes.
func writeDocument(m mapping) (out []byte, ok bool) {
	return appendDocument(make([]byte, 0, 2048), m)
}

// appendDocument is writeDocument appending to dst; out is nil when it
// cannot write m.
func appendDocument(dst []byte, m mapping) (out []byte, ok bool) {
	w := docWriter{b: dst}
	i := 0
	for ; i < len(m); i++ {
		c, isComment := m[i].key.(comment)
		if !isComment {
			break
		}
		if c.inline || !printableLine(c.text) {
			return nil, false
		}
		w.b = append(w.b, '#')
		w.b = append(w.b, c.text...)
		w.b = append(w.b, '\n')
	}
	if i == len(m) || !w.mapping(m[i:], 0, 0, false) {
		return nil, false
	}
	return w.b, true
}

type docWriter struct{ b []byte }

// mapping writes the entries of m with keys at column col. indent is the
// emitter's indentation of the mapping, from which literal blocks are
// indented: col for a mapping under a key, the dash's column for a mapping
// that is a list item, whose first key follows "- " on the dash's line.
func (w *docWriter) mapping(m mapping, col, indent int, item bool) bool {
	if len(m) == 0 {
		return false
	}
	for j, e := range m {
		k, ok := e.key.(string)
		if !ok || !plainString(k) && !dotWord(k) || len(k) > 128 {
			return false // comments between keys, and long keys, are yaml.v3's
		}
		if !item || j > 0 {
			w.spaces(col)
		}
		w.b = append(w.b, k...)
		w.b = append(w.b, ':')
		switch v := e.value.(type) {
		case mapping:
			if item {
				return false
			}
			w.b = append(w.b, '\n')
			if !w.mapping(v, col+4, col+4, false) {
				return false
			}
		case []any:
			if item {
				return false
			}
			w.b = append(w.b, '\n')
			if !w.sequence(v, col+4) {
				return false
			}
		default:
			w.b = append(w.b, ' ')
			if !w.scalar(v, indent+4) {
				return false
			}
		}
	}
	return true
}

// sequence writes the items of s with their dashes at column col.
func (w *docWriter) sequence(s []any, col int) bool {
	if len(s) == 0 {
		return false
	}
	for _, item := range s {
		w.spaces(col)
		w.b = append(w.b, '-', ' ')
		switch v := item.(type) {
		case mapping:
			if !w.mapping(v, col+2, col, true) {
				return false
			}
		case []any, comment:
			return false
		default:
			if !w.scalar(v, col+2) {
				return false
			}
		}
	}
	return true
}

// scalar writes a scalar value and its line end; a literal block's lines go
// at column block.
func (w *docWriter) scalar(v any, block int) bool {
	switch v := v.(type) {
	case bool:
		if v {
			w.b = append(w.b, "true\n"...)
		} else {
			w.b = append(w.b, "false\n"...)
		}
		return true
	case metaString:
		return w.text(string(v), true, block)
	case string:
		return w.text(v, false, block)
	}
	return false
}

// text writes the string s; meta is true for a metaString of the sops:
// block, whose form stringStyle may cache.
func (w *docWriter) text(s string, meta bool, block int) bool {
	form := textFormOf(s, meta)
	if form == 0 {
		return false
	}
	w.textAs(s, form, block)
	return true
}

// A textForm is how text writes a string; 0 is none of them.
type textForm uint8

const (
	textPlain textForm = iota + 1
	textLiteral
	textQuoted
)

// textFormOf returns how text writes s, 0 when it leaves s to yaml.v3.
func textFormOf(s string, meta bool) textForm {
	switch {
	case plainString(s):
		return textPlain
	case literalBlock(s):
		return textLiteral
	case oneWord(s):
		style, err := stringStyle(s, meta) // how yaml.v3 writes it: plain, or quoted
		switch {
		case err != nil:
		case style == 0:
			return textPlain
		case style == yaml.DoubleQuotedStyle:
			return textQuoted
		}
	}
	return 0
}

// textAs writes s in form, and its line end; a literal block's lines go at
// column block.
func (w *docWriter) textAs(s string, form textForm, block int) {
	switch form {
	case textLiteral:
		w.b = append(w.b, "|\n"...)
		for line := range strings.Lines(s) {
			w.spaces(block)
			w.b = append(w.b, line...)
		}
		return
	case textQuoted:
		w.b = append(append(append(w.b, '"'), s...), '"')
	default:
		w.b = append(w.b, s...)
	}
	w.b = append(w.b, '\n')
}

func (w *docWriter) spaces(n int) {
	for range n {
		w.b = append(w.b, ' ')
	}
}

// oneWord reports whether s is printable ASCII with no space, quote or
// backslash: yaml.v3 writes such a string on one line, plain or between
// double quotes, with nothing escaped.
func oneWord(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// printableLine reports whether s is printable ASCII (spaces allowed).
func printableLine(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// literalBlock reports whether yaml.v3 writes s as a "|" block of its lines
// as they are: one line break at the end, and lines of printable ASCII that
// are not empty and neither start nor end with a space (age's armor).
func literalBlock(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '\n' || s[len(s)-2] == '\n' {
		return false
	}
	for line := range strings.Lines(s) {
		line = line[:len(line)-1] // s ends in a line break, so every line has one
		if line == "" || line[0] == ' ' || line[len(line)-1] == ' ' || !printableLine(line) {
			return false
		}
	}
	return true
}

// metadata writes the top-level sops: entry of m, its fields in the order
// sops writes them, each string as yaml.v3 writes it where that form is
// one plain, double-quoted or literal scalar, else as the one YAML writer
// does (metaText). TestMetadataMatchesBlock holds it to the bytes yaml.v3
// writes of m.block() for the strings of the first kind.
func (w *docWriter) metadata(m *fileMetadata) {
	var buf [8]metaField // age, the selectors, lastmodified, mac, mac_only_encrypted, version
	w.b = append(w.b, metadataKey+":\n"...)
	for _, f := range m.fields(buf[:0]) {
		w.spaces(4)
		w.b = append(w.b, f.key...)
		w.b = append(w.b, ':')
		switch f.key {
		case "age":
			if m.ageText != nil {
				w.b = append(w.b, m.ageText...)
			} else {
				w.ageEntries(m.age)
			}
		case "mac_only_encrypted":
			w.b = append(w.b, " true\n"...)
		default:
			w.b = append(w.b, ' ')
			w.metaText(f.value, 8)
		}
	}
}

// metaText writes a string of the sops: block as yaml.v3 does, or, where
// yaml.v3 would write it in another form (a selector holding a space,
// quote or line separator), as the one YAML writer does: any string,
// one line, nothing raw that a reader could take for a line break.
func (w *docWriter) metaText(s string, block int) {
	if !w.text(s, true, block) {
		w.b = append(yamlenc.AppendScalar(w.b, s), '\n')
	}
}

// ageEntries writes the value of the age: key, from the line break after
// the key: one list item per stanza.
func (w *docWriter) ageEntries(age []ageStanza) bool {
	if len(age) == 0 {
		return false
	}
	w.b = append(w.b, '\n')
	for _, s := range age {
		w.spaces(8)
		w.b = append(w.b, "- enc: "...)
		w.metaText(s.enc, 12) // an item's literal block: as mapping and sequence indent it
		w.spaces(10)
		w.b = append(w.b, "recipient: "...)
		w.metaText(s.recipient, 12)
	}
	return true
}
