package sops

import (
	"bytes"
	"slices"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// scanDocument reads a document in the block style the renderer writes
// (comment lines before the first key, plain keys, nested mappings, plain or
// simply double-quoted one-word strings, and "|" or "|-" literal blocks) into
// the model parseDocument builds. ok is false for anything else, which
// parseDocument then reads with yaml.v3: flow style, anchors and aliases,
// other scalars, tags, comments after the first key, duplicate keys.
// TestScanDocumentMatchesYAML holds the two to the same model.
func scanDocument(data []byte) (m mapping, ok bool) {
	toks, ok := tokenize(data, string(data), nil) // the tree outlives data
	if !ok {
		return nil, false
	}
	return treeOf(toks), true
}

// A token is one line of a document scanDocument reads, in document order:
// a comment line before the first key, a key opening a mapping (whose
// entries are the tokens one deeper that follow), or a key and its scalar.
type token struct {
	kind  tokenKind
	depth int      // of the key: 0 at the top level
	key   string   // a comment's text, without its '#'
	str   string   // a tokString's value
	b     bool     // a tokBool's value
	enc   bool     // the value is encrypted (markTokens)
	form  textForm // how a plaintext string is written (markTokens)
}

type tokenKind uint8

const (
	tokComment tokenKind = iota
	tokMapping
	tokString
	tokBool
)

// tokenize appends to toks the tokens of a document scanDocument reads; ok
// is false for any other document. text is data as a string (a copy, or
// data itself while the tokens are in use): the tokens' strings are its
// substrings, a literal block's text excepted.
func tokenize(data []byte, text string, toks []token) (_ []token, ok bool) {
	s := &scanner{data: data, text: text}
	for {
		line, ok := s.peek()
		if !ok {
			return toks, false // only comments: yaml.v3's
		}
		if len(line) > 0 && line[0] == '#' {
			text := s.lineText(len(line))
			if !printableLine(text) {
				return toks, false
			}
			toks = append(toks, token{kind: tokComment, key: text[1:]})
			s.next()
			continue
		}
		break
	}
	toks, ok = s.mapping(toks, 0, 0)
	if !ok {
		return toks, false
	}
	if _, more := s.peek(); more {
		return toks, false
	}
	return toks, true
}

// treeOf builds the model of a document from its tokens.
func treeOf(toks []token) mapping {
	var m mapping
	i := 0
	for ; i < len(toks) && toks[i].kind == tokComment; i++ {
		m = append(m, entry{key: comment{text: toks[i].key}})
	}
	return append(m, mappingOf(toks, &i, 0)...)
}

// mappingOf builds the mapping whose keys are the tokens at depth from *i on.
func mappingOf(toks []token, i *int, depth int) mapping {
	m := make(mapping, 0, 8)
	for *i < len(toks) && toks[*i].depth == depth {
		t := &toks[*i]
		*i++
		var value any
		switch t.kind {
		case tokMapping:
			value = mappingOf(toks, i, depth+1)
		case tokString:
			value = t.str
		case tokBool:
			value = t.b
		}
		m = append(m, entry{key: t.key, value: value})
	}
	return m
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

// mapping appends the tokens of the entries whose keys are at column col,
// depth deep.
func (s *scanner) mapping(toks []token, col, depth int) ([]token, bool) {
	start := len(toks)
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
			return toks, false
		}
		text := s.lineText(len(line))[col:]
		key, rest := text, ""
		if i := strings.Index(text, ": "); i >= 0 {
			key, rest = text[:i], text[i+1:]
		} else if key, found := strings.CutSuffix(text, ":"); found {
			text = key
		} else {
			return toks, false
		}
		if rest == "" {
			key = text
		}
		if len(key) > yamlenc.ImplicitKeyLimit || !plainString(key) && !dotWord(key) || slices.ContainsFunc(toks[start:], func(t token) bool { return t.depth == depth && t.key == key }) {
			return toks, false
		}
		s.next()
		switch {
		case rest == "":
			next, more := s.peek()
			if !more || indentOf(next) <= col {
				return toks, false // null: yaml.v3's
			}
			toks = append(toks, token{kind: tokMapping, depth: depth, key: key})
			var ok bool
			if toks, ok = s.mapping(toks, indentOf(next), depth+1); !ok {
				return toks, false
			}
		case rest == " |" || rest == " |-":
			v, ok := s.literal(col, rest == " |")
			if !ok {
				return toks, false
			}
			toks = append(toks, token{kind: tokString, depth: depth, key: key, str: v})
		case rest[0] == ' ':
			t, ok := scalarOnLine(rest[1:])
			if !ok {
				return toks, false
			}
			t.depth, t.key = depth, key
			toks = append(toks, t)
		default:
			return toks, false
		}
	}
	if len(toks) == start {
		return toks, false
	}
	return toks, true
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
func scalarOnLine(t string) (token, bool) {
	switch {
	case t == "true":
		return token{kind: tokBool, b: true}, true
	case t == "false":
		return token{kind: tokBool}, true
	case plainText(t) || plainDigits(t):
		return token{kind: tokString, str: t}, true
	case len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] && oneWord(t[1:len(t)-1]) && !strings.Contains(t[1:len(t)-1], "'"):
		return token{kind: tokString, str: t[1 : len(t)-1]}, true
	case len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"':
		if s, ok := quotedLines(t[1 : len(t)-1]); ok {
			return token{kind: tokString, str: s}, true
		}
	}
	return token{}, false
}

// quotedLines reads q, the inside of a double-quoted scalar, when it is
// words whose only escape is \n, as the YAML writer puts lines in one
// scalar (an htpasswd file): printable ASCII without spaces, '"' or '\'
// but in "\n".
func quotedLines(q string) (string, bool) {
	lines := strings.Split(q, `\n`)
	for _, l := range lines {
		if l != "" && !oneWord(l) || strings.ContainsRune(l, '\'') {
			return "", false
		}
	}
	return strings.Join(lines, "\n"), true
}

// plainText reports whether yaml.v3 reads the plain scalar t, alone on its
// line in block context, as the string t: printable ASCII starting with a
// letter, '$' or '/' (never a number, timestamp or indicator), holding no
// ": " or " #", not ending in a space or ':', and not a boolean or null word.
func plainText(t string) bool {
	if t == "" || !isLetter(t[0]) && t[0] != '$' && t[0] != '/' {
		return false
	}
	return plainRest(t)
}

// plainDigits reports whether yaml.v3 reads the plain scalar t, starting
// with a digit and alone on its line in block context, as the string t:
// plainText's rules, and not a number or timestamp of either YAML version
// (yamlenc.OtherType, which errs towards saying it is). A hex key or an ID
// such as 5f0c2a9e... is then read here, not by yaml.v3.
func plainDigits(t string) bool {
	return t != "" && t[0] >= '0' && t[0] <= '9' && plainRest(t) && !yamlenc.OtherType(t)
}

// plainRest holds plainText's rules after the first byte: printable ASCII,
// no ": " or " #", not ending in a space or ':', not a boolean or null word.
func plainRest(t string) bool {
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
