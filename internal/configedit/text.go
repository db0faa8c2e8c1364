package configedit

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// source is a document's bytes with the line table yaml.v3's positions refer
// to: yaml.v3 counts CR LF, CR, LF, NEL, LS and PS as line breaks, and
// columns in characters, not bytes.
type source struct {
	b []byte
	// start and end are where the text of line i+1 begins and ends (before its break).
	start, end []int
	// nl is the file's line break, for inserted lines.
	nl string
}

var bom = []byte("\ufeff")

func newSource(b []byte) *source {
	s := &source{b: b, nl: "\n"}
	at := 0
	if bytes.HasPrefix(b, bom) {
		at = len(bom) // yaml.v3 skips it without counting a column
	}
	s.start = append(s.start, at)
	first := true
	for i := at; i < len(b); {
		n := breakLen(b, i)
		if n == 0 {
			i++
			continue
		}
		if first && n == 2 && b[i] == '\r' {
			s.nl = "\r\n"
		}
		first = false
		s.end = append(s.end, i)
		i += n
		s.start = append(s.start, i)
	}
	s.end = append(s.end, len(b))
	return s
}

// breakLen is the length of the line break at b[i], 0 when there is none.
func breakLen(b []byte, i int) int {
	switch {
	case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
		return 2
	case b[i] == '\r' || b[i] == '\n':
		return 1
	case bytes.HasPrefix(b[i:], []byte("\u0085")):
		return 2
	case bytes.HasPrefix(b[i:], []byte("\u2028")), bytes.HasPrefix(b[i:], []byte("\u2029")):
		return 3
	}
	return 0
}

func (s *source) lines() int { return len(s.start) }

// offset is the byte offset of a yaml.v3 position (1-based line and column).
func (s *source) offset(line, col int) int {
	i := s.start[line-1]
	for range col - 1 {
		_, n := utf8.DecodeRune(s.b[i:])
		i += n
	}
	return i
}

// lineOf is the 1-based line holding byte offset off.
func (s *source) lineOf(off int) int {
	lo, hi := 0, len(s.start)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.start[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// text is line l without its break.
func (s *source) text(l int) []byte { return s.b[s.start[l-1]:s.end[l-1]] }

// indent is the number of spaces line l starts with.
func (s *source) indent(l int) int {
	t := s.text(l)
	return len(t) - len(bytes.TrimLeft(t, " "))
}

func (s *source) blank(l int) bool { return len(bytes.TrimSpace(s.text(l))) == 0 }

func (s *source) comment(l int) bool {
	return bytes.HasPrefix(bytes.TrimLeft(s.text(l), " \t"), []byte("#"))
}

// startsLine reports whether only spaces precede offset off on its line.
func (s *source) startsLine(off int) bool {
	l := s.lineOf(off)
	return len(bytes.TrimLeft(s.b[s.start[l-1]:off], " ")) == 0
}

// after is the offset where line l+1 starts: the end of the document when l
// is the last line.
func (s *source) after(l int) int {
	if l >= s.lines() {
		return len(s.b)
	}
	return s.start[l]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// plainEnd is where the plain scalar starting at off ends on its line: at a
// comment, at a ": " mapping indicator, or in a flow collection at a flow
// indicator; trailing blanks excluded.
func (s *source) plainEnd(off int, flow bool) int {
	b := s.b
	i := off
	for i < len(b) && breakLen(b, i) == 0 {
		c := b[i]
		if c == ':' && (i+1 == len(b) || isSpace(b[i+1]) || breakLen(b, i+1) > 0 || flow && isFlowIndicator(b[i+1])) {
			break
		}
		if c == '#' && i > off && isSpace(b[i-1]) {
			break
		}
		if flow && isFlowIndicator(c) {
			break
		}
		i++
	}
	for i > off && isSpace(b[i-1]) {
		i--
	}
	return i
}

var errUnterminated = errors.New("unterminated quoted scalar")

// quotedEnd is the offset just past the closing quote of the quoted scalar
// starting at off. With oneLine, a line break before the closing quote is an
// error.
func (s *source) quotedEnd(off int, oneLine bool) (int, error) {
	b := s.b
	q := b[off]
	for i := off + 1; i < len(b); i++ {
		if oneLine && breakLen(b, i) > 0 {
			return 0, errMultiLine
		}
		switch {
		case q == '"' && b[i] == '\\':
			i++
		case b[i] == q && q == '\'' && i+1 < len(b) && b[i+1] == '\'':
			i++
		case b[i] == q:
			return i + 1, nil
		}
	}
	return 0, errUnterminated
}

var errMultiLine = errors.New("spans several lines")

// flowEnd scans the flow collection opening at off ('{' or '['), and
// returns the offset of its closing bracket and the offset just past the
// last character before it that is neither blank nor part of a comment.
func (s *source) flowEnd(off int) (closing, last int, err error) {
	b := s.b
	depth := 0
	// A quote opens a scalar only where a token can start; # opens a comment
	// only after a blank.
	tokenStart, afterBlank := true, false
	for i := off; i < len(b); {
		c := b[i]
		if n := breakLen(b, i); n > 0 || isSpace(c) {
			i += max(n, 1)
			tokenStart, afterBlank = true, true
			continue
		}
		switch {
		case (c == '"' || c == '\'') && tokenStart:
			end, err := s.quotedEnd(i, false)
			if err != nil {
				return 0, 0, err
			}
			i, last, tokenStart, afterBlank = end, end, false, false
			continue
		case c == '#' && afterBlank:
			for i < len(b) && breakLen(b, i) == 0 {
				i++
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i, last, nil
			}
		}
		tokenStart, afterBlank = c == '{' || c == '[' || c == ',' || c == ':', false
		i++
		last = i
	}
	return 0, 0, errors.New("unterminated flow collection")
}
