package yamlenc

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Number is a JSON number kept as written; Marshal writes it unchanged.
type Number string

// ParseJSON parses a JSON document into maps, slices, strings, Numbers,
// bools and nil. It exists because encoding/json's generic decoding (and
// converting typed objects to unstructured maps) cost more than the encoding
// itself on the render's hot path.
func ParseJSON(data []byte) (any, error) {
	p := parser{data: data}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.data) {
		return nil, p.errorf("trailing data")
	}
	return v, nil
}

type parser struct {
	data []byte
	i    int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("json at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (any, error) {
	p.space()
	if p.i >= len(p.data) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			return m, nil
		}
		for {
			p.space()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, p.errorf("expected ':'")
			}
			p.i++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			m[k] = v
			p.space()
			if p.i >= len(p.data) {
				return nil, p.errorf("unexpected end in object")
			}
			if p.data[p.i] == '}' {
				p.i++
				return m, nil
			}
			if p.data[p.i] != ',' {
				return nil, p.errorf("expected ',' or '}'")
			}
			p.i++
		}
	case c == '[':
		p.i++
		s := []any{}
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			return s, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			s = append(s, v)
			p.space()
			if p.i >= len(p.data) {
				return nil, p.errorf("unexpected end in array")
			}
			if p.data[p.i] == ']' {
				p.i++
				return s, nil
			}
			if p.data[p.i] != ',' {
				return nil, p.errorf("expected ',' or ']'")
			}
			p.i++
		}
	case c == '"':
		return p.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.data)-p.i >= len(lit.s) && string(p.data[p.i:p.i+len(lit.s)]) == lit.s {
				p.i += len(lit.s)
				return lit.v, nil
			}
		}
		return nil, p.errorf("invalid literal")
	default:
		start := p.i
		for p.i < len(p.data) && (p.data[p.i] == '-' || p.data[p.i] == '+' || p.data[p.i] == '.' || p.data[p.i] == 'e' || p.data[p.i] == 'E' || p.data[p.i] >= '0' && p.data[p.i] <= '9') {
			p.i++
		}
		if start == p.i {
			return nil, p.errorf("unexpected %q", c)
		}
		n := string(p.data[start:p.i])
		if _, err := strconv.ParseFloat(n, 64); err != nil {
			return nil, p.errorf("invalid number %q", n)
		}
		return Number(n), nil
	}
}

// str parses a JSON string; the common case without escapes does not copy twice.
func (p *parser) str() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", p.errorf("expected a string")
	}
	start := p.i
	p.i++
	escaped := false
	for p.i < len(p.data) {
		switch c := p.data[p.i]; {
		case c == '\\':
			escaped = true
			p.i += 2
			continue
		case c == '"':
			p.i++
			if !escaped {
				s := p.data[start+1 : p.i-1]
				if !utf8.Valid(s) {
					return "", p.errorf("invalid UTF-8")
				}
				return string(s), nil
			}
			s, err := strconv.Unquote(string(p.data[start:p.i]))
			if err != nil {
				// JSON escapes strconv does not know (\/): let it retry without them.
				s, err = strconv.Unquote(jsonUnescape(string(p.data[start:p.i])))
			}
			if err != nil {
				return "", errors.New("invalid JSON string")
			}
			return s, nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		}
		p.i++
	}
	return "", p.errorf("unterminated string")
}

func jsonUnescape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '/' {
			out = append(out, '/')
			i++
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
