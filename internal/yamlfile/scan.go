package yamlfile

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// scanBlock reads the plain block YAML configs and rendered files are
// written in, the way yaml.v3 parses it into nodes (kind, tag, style,
// value, line, column), without yaml.v3's token machinery, which is most
// of what loading a config costs. ok is false for anything outside that
// subset: flow collections, anchors, aliases, tags, folded or indented
// block scalars, multi-line plain or quoted scalars, escapes, quoted keys,
// tabs, CR, non-ASCII or control characters, "#ENC[" (an encrypted
// comment), several documents; the caller then uses yaml.v3.
// TestScanBlockMatchesYAML and FuzzScanBlock hold it to yaml.v3.
//
// Comments are dropped, unless comments is set: then the only ones it
// reads are lines at the very start of the document, directly above its
// first key, which yaml.v3 makes that key's head comment; a document with
// a '#' anywhere else is left to yaml.v3.
func scanBlock(data string, comments bool) (root *yaml.Node, ok bool) {
	for i := range len(data) {
		if c := data[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return nil, false
		}
	}
	if strings.Contains(data, "#ENC[") {
		return nil, false
	}
	s := &scanner{unterminated: len(data) > 0 && data[len(data)-1] != '\n'}
	text := strings.TrimSuffix(data, "\n") // the lines and values are its substrings
	s.lines = make([]scanLine, 0, strings.Count(text, "\n")+1)
	for l := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") || strings.HasPrefix(l, "%") {
			return nil, false
		}
		t := strings.TrimLeft(l, " ")
		s.lines = append(s.lines, scanLine{no: len(s.lines) + 1, indent: len(l) - len(t), text: t, blank: len(t) == 0, spaces: len(t) == 0 && len(l) > 0})
	}
	var head []string
	if comments {
		for ; s.i < len(s.lines) && strings.HasPrefix(s.lines[s.i].text, "#") && s.lines[s.i].indent == 0; s.i++ {
			head = append(head, s.lines[s.i].text)
		}
		rest := s.lines[s.i:]
		if len(rest) == 0 || len(head) > 0 && rest[0].blank || slices.ContainsFunc(rest, func(l scanLine) bool { return strings.Contains(l.text, "#") }) {
			return nil, false
		}
	}
	first, ok := s.peek()
	if !ok || first.indent != 0 {
		return nil, false
	}
	root, ok = s.mapping(0, 0)
	if _, more := s.peek(); !ok || more {
		return nil, false
	}
	if len(head) > 0 {
		root.Content[0].HeadComment = strings.Join(head, "\n")
	}
	return root, true
}

type scanLine struct {
	no, indent int
	text       string // after the indentation
	blank      bool   // nothing but spaces
	spaces     bool   // blank, with spaces
}

type scanner struct {
	lines []scanLine
	i     int
	// unterminated: the last line has no line break.
	unterminated bool
}

// maxScanDepth bounds the nesting the scanner follows; deeper documents go
// to yaml.v3.
const maxScanDepth = 64

// peek returns the next line that is not blank or a comment, and moves to it.
func (s *scanner) peek() (scanLine, bool) {
	for ; s.i < len(s.lines); s.i++ {
		if l := s.lines[s.i]; !l.blank && l.text[0] != '#' {
			return l, true
		}
	}
	return scanLine{}, false
}

// splitKey splits "key: rest" or "key:" into key and what follows the colon;
// a key longer than YAML allows is not split, and left to yaml.v3.
func splitKey(text string) (key, rest string, ok bool) {
	i := 0
	for i < len(text) && (isWordByte(text[i]) || i > 0 && strings.IndexByte("./-", text[i]) >= 0) {
		i++
	}
	if i == 0 || i > yamlenc.ImplicitKeyLimit || i == len(text) || text[i] != ':' || (i+1 < len(text) && text[i+1] != ' ') {
		return "", "", false
	}
	return text[:i], text[i+1:], true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDash(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// plain makes the node of a plain scalar, its tag resolved as yaml.v3 does.
func plain(value string, line, col int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: value, Line: line, Column: col}
	if plainString(value) {
		n.Tag = "!!str" // what yaml.v3's resolve says without looking further
	} else {
		n.Tag = n.ShortTag()
	}
	return n
}

// resolveHints are the first bytes that make yaml.v3 look at a plain scalar
// further (numbers, booleans, null, .inf): its resolve table's entries.
const resolveHints = "+-0123456789yYnNtTfFoO~."

// plainString reports whether yaml.v3 resolves the plain scalar value to a
// string, for the values it can tell without resolving: those whose first
// byte is not a resolve hint; number-like starts that yamlenc.OtherType,
// the writer's test, clears (50Gi, 10m, 10.0.0.0/8); and starts with a
// letter hint (or ~) longer than the words of yaml.v3's table (true,
// false, null and their cases: at most five bytes).
func plainString(value string) bool {
	if value == "" {
		return false
	}
	switch c := value[0]; {
	case strings.IndexByte(resolveHints, c) < 0:
		return true
	case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.':
		return !yamlenc.OtherType(value)
	default:
		return len(value) > len("false")
	}
}

// open starts a mapping or sequence at column indent of the current line;
// nil past maxScanDepth.
func (s *scanner) open(kind yaml.Kind, tag string, indent, depth int) *yaml.Node {
	if depth > maxScanDepth {
		return nil
	}
	first, _ := s.peek()
	return &yaml.Node{Kind: kind, Tag: tag, Line: first.no, Column: indent + 1}
}

// mapping reads the keys at column indent, starting at the current line.
func (s *scanner) mapping(indent, depth int) (*yaml.Node, bool) {
	m := s.open(yaml.MappingNode, "!!map", indent, depth)
	for m != nil {
		l, ok := s.peek()
		if !ok || l.indent < indent {
			return m, true
		}
		if l.indent > indent {
			return nil, false
		}
		key, rest, ok := splitKey(l.text)
		if !ok {
			if isDash(l.text) {
				return m, true // the sequence of the key before, or an error for the caller
			}
			return nil, false
		}
		s.i++
		colon := indent + len(key) // 0-based
		v, ok := s.mapValue(rest, l.no, colon, indent, depth)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, plain(key, l.no, indent+1), v)
	}
	return nil, false
}

// mapValue reads the value after "key:" (rest), the colon at 0-based
// column colon of line no, for a key at column indent.
func (s *scanner) mapValue(rest string, no, colon, indent, depth int) (*yaml.Node, bool) {
	v := strings.TrimLeft(rest, " ")
	if v != "" && v[0] != '#' {
		return s.inline(v, no, colon+1+len(rest)-len(v), indent, depth)
	}
	switch l, ok := s.peek(); {
	case ok && l.indent > indent && isDash(l.text):
		return s.sequence(l.indent, depth+1)
	case ok && l.indent > indent:
		return s.mapping(l.indent, depth+1)
	case ok && l.indent == indent && isDash(l.text):
		return s.sequence(indent, depth+1)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: no, Column: colon + 2}, true
}

// sequence reads the items "- ..." at column indent.
func (s *scanner) sequence(indent, depth int) (*yaml.Node, bool) {
	seq := s.open(yaml.SequenceNode, "!!seq", indent, depth)
	for seq != nil {
		l, ok := s.peek()
		if !ok || l.indent < indent || (l.indent == indent && !isDash(l.text)) {
			return seq, true
		}
		if l.indent > indent || l.text == "-" {
			return nil, false
		}
		item := strings.TrimLeft(l.text[2:], " ")
		col := indent + len(l.text) - len(item) // 0-based
		if item == "" || item[0] == '#' || isDash(item) {
			return nil, false
		}
		var v *yaml.Node
		if _, _, isKey := splitKey(item); isKey {
			// "- key: value": a mapping whose first key is on the dash's line.
			s.lines[s.i] = scanLine{no: l.no, indent: col, text: item}
			v, ok = s.mapping(col, depth+1)
		} else {
			s.i++
			v, ok = s.inline(item, l.no, col, indent, depth)
		}
		if !ok {
			return nil, false
		}
		seq.Content = append(seq.Content, v)
	}
	return nil, false
}

// inline reads a scalar that starts on its key's or dash's line, at 0-based
// column col; parent is the column of that key or dash. A line indented
// deeper than parent after it would continue it: not in the subset.
func (s *scanner) inline(v string, no, col, parent, depth int) (*yaml.Node, bool) {
	var n *yaml.Node
	switch c := v[0]; {
	case c == '"' || c == '\'':
		end := strings.IndexByte(v[1:], c) + 1
		if end == 0 || strings.IndexByte(v[1:end], '\\') >= 0 || !commentOnly(v[end+1:]) {
			return nil, false
		}
		style := yaml.DoubleQuotedStyle
		if c == '\'' {
			style = yaml.SingleQuotedStyle
		}
		n = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: v[1:end], Line: no, Column: col + 1}
	case c == '|':
		return s.literal(strings.TrimRight(v, " "), no, col, parent)
	case strings.IndexByte(">[]{}&*!%@`,?:#", c) >= 0, c == '-' && (len(v) == 1 || v[1] == ' '):
		return nil, false
	default:
		if i := strings.Index(v, " #"); i >= 0 {
			v = v[:i]
		}
		v = strings.TrimRight(v, " ")
		if strings.Contains(v, ": ") || strings.HasSuffix(v, ":") || v == "<<" { // "<<" is a merge key
			return nil, false
		}
		n = plain(v, no, col+1)
	}
	if l, ok := s.peek(); ok && l.indent > parent {
		return nil, false
	}
	return n, true
}

// commentOnly reports whether what follows a closing quote is nothing, or
// spaces and a comment.
func commentOnly(rest string) bool {
	t := strings.TrimLeft(rest, " ")
	return t == "" || (t[0] == '#' && len(t) < len(rest))
}

// literal reads a literal block scalar whose header (|, |- or |+) is at
// 0-based column col of line no, for a key or dash at column parent.
func (s *scanner) literal(header string, no, col, parent int) (*yaml.Node, bool) {
	if header != "|" && header != "|-" && header != "|+" {
		return nil, false
	}
	var body []string
	indent, trailing := -1, 0
	j := s.i
	for ; j < len(s.lines); j++ {
		l := s.lines[j]
		if l.spaces || (l.blank && indent < 0) {
			return nil, false // whitespace lines and leading blank lines: not in the subset
		}
		if l.blank {
			trailing++
			continue
		}
		if indent < 0 {
			if l.indent <= parent {
				return nil, false // an empty block scalar
			}
			indent = l.indent
		}
		if l.indent < indent {
			break
		}
		for range trailing {
			body = append(body, "")
		}
		trailing = 0
		body = append(body, strings.Repeat(" ", l.indent-indent)+l.text)
	}
	if indent < 0 {
		return nil, false
	}
	s.i = j
	value := strings.Join(body, "\n")
	if j < len(s.lines) || !s.unterminated { // the last line's break, unless it has none
		switch header {
		case "|":
			value += "\n"
		case "|+":
			value += strings.Repeat("\n", trailing+1)
		}
	}
	if l, ok := s.peek(); ok && l.indent > parent {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Value: value, Line: no, Column: col + 1}, true
}
