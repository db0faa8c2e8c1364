package sops

import (
	"bytes"
	"slices"
	"strings"
)

// scanDocument reads a document in the block style the renderer writes
// (comment lines before the first key, plain keys, nested mappings, plain or
// simply double-quoted one-word strings, and "|" or "|-" literal blocks) into
// the model parseDocument builds. ok is false for anything else, which
// parseDocument then reads with yaml.v3: flow style, anchors and aliases,
// other scalars, tags, comments after the first key, duplicate keys.
// TestScanDocumentMatchesYAML holds the two to the same model.
func scanDocument(data []byte) (m mapping, ok bool) {
	s := &scanner{data: data, text: string(data)}
	for {
		line, ok := s.peek()
		if !ok {
			return nil, false // only comments: yaml.v3's
		}
		if len(line) > 0 && line[0] == '#' {
			text := s.lineText(len(line))
			if !printableLine(text) {
				return nil, false
			}
			m = append(m, entry{key: comment{text: text[1:]}})
			s.next()
			continue
		}
		break
	}
	body, ok := s.mapping(0)
	if !ok {
		return nil, false
	}
	if _, more := s.peek(); more {
		return nil, false
	}
	return append(m, body...), true
}

type scanner struct {
	data []byte
	text string // data as a string, once: keys and values are its substrings
	pos  int    // start of the next line
}

// lineText is the line of length n that peek returned, as a string.
func (s *scanner) lineText(n int) string { return s.text[s.pos : s.pos+n] }

// peek returns the next line that is not blank, without its line break;
// ok is false at the end of the document.
func (s *scanner) peek() ([]byte, bool) {
	for s.pos < len(s.data) {
		line := s.line()
		if len(bytes.TrimLeft(line, " ")) > 0 {
			return line, true
		}
		s.next()
	}
	return nil, false
}

func (s *scanner) line() []byte {
	rest := s.data[s.pos:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		return rest[:i]
	}
	return rest
}

func (s *scanner) next() {
	if i := bytes.IndexByte(s.data[s.pos:], '\n'); i >= 0 {
		s.pos += i + 1
	} else {
		s.pos = len(s.data)
	}
}

// mapping reads the entries whose keys are at column col.
func (s *scanner) mapping(col int) (mapping, bool) {
	m := make(mapping, 0, 8)
	for {
		line, more := s.peek()
		if !more {
			break
		}
		ind := indentOf(line)
		if ind < col {
			break
		}
		if ind > col {
			return nil, false
		}
		text := s.lineText(len(line))[col:]
		key, rest := text, ""
		if i := strings.Index(text, ": "); i >= 0 {
			key, rest = text[:i], text[i+1:]
		} else if key, found := strings.CutSuffix(text, ":"); found {
			text = key
		} else {
			return nil, false
		}
		if rest == "" {
			key = text
		}
		if !plainString(key) || slices.ContainsFunc(m, func(e entry) bool { return e.key == key }) {
			return nil, false
		}
		s.next()
		var value any
		switch {
		case rest == "":
			next, more := s.peek()
			if !more || indentOf(next) <= col {
				return nil, false // null: yaml.v3's
			}
			sub, ok := s.mapping(indentOf(next))
			if !ok {
				return nil, false
			}
			value = sub
		case rest == " |" || rest == " |-":
			v, ok := s.literal(col, rest == " |")
			if !ok {
				return nil, false
			}
			value = v
		case rest[0] == ' ':
			v, ok := scalarOnLine(rest[1:])
			if !ok {
				return nil, false
			}
			value = v
		default:
			return nil, false
		}
		m = append(m, entry{key: key, value: value})
	}
	if len(m) == 0 {
		return nil, false
	}
	return m, true
}

// literal reads the lines of a literal block under a key at column col;
// clip keeps one final line break ("|"), strip none ("|-").
func (s *scanner) literal(col int, clip bool) (string, bool) {
	var b strings.Builder
	indent := -1
	blank := 0 // blank lines not yet known to be inside the block
	for s.pos < len(s.data) {
		line := s.line()
		if len(bytes.TrimLeft(line, " ")) == 0 {
			if indent >= 0 && len(line) > indent {
				return "", false // spaces beyond the indentation are content
			}
			blank++
			s.next()
			continue
		}
		ind := indentOf(line)
		if indent < 0 {
			if ind <= col || blank > 0 {
				return "", false
			}
			indent = ind
		}
		if ind < indent {
			break
		}
		if !printableLine(string(line)) {
			return "", false
		}
		for range blank {
			b.WriteByte('\n')
		}
		blank = 0
		b.Write(line[indent:])
		if s.pos+len(line) < len(s.data) {
			b.WriteByte('\n') // the last line of the file may have none
		}
		s.next()
	}
	if indent < 0 {
		return "", false
	}
	// Blank lines after the block belong to what follows; yaml.v3 agrees
	// for clip and strip, which drop them.
	v := b.String()
	if !clip {
		v = strings.TrimSuffix(v, "\n")
	}
	return v, true
}

// scalarOnLine reads a scalar that ends its line: a plain string, a
// one-word quoted one, or true or false.
func scalarOnLine(t string) (any, bool) {
	switch {
	case t == "true":
		return true, true
	case t == "false":
		return false, true
	case plainText(t):
		return t, true
	case len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] && oneWord(t[1:len(t)-1]) && !strings.Contains(t[1:len(t)-1], "'"):
		return t[1 : len(t)-1], true
	}
	return nil, false
}

// plainText reports whether yaml.v3 reads the plain scalar t, alone on its
// line in block context, as the string t: printable ASCII starting with a
// letter, '$' or '/' (never a number, timestamp or indicator), holding no
// ": " or " #", not ending in a space or ':', and not a boolean or null word.
func plainText(t string) bool {
	if t == "" || !isLetter(t[0]) && t[0] != '$' && t[0] != '/' {
		return false
	}
	if c := t[len(t)-1]; c == ' ' || c == ':' || !printableLine(t) ||
		strings.Contains(t, ": ") || strings.Contains(t, " #") {
		return false
	}
	return !yamlWord(t)
}

func indentOf(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}
