package yamlfile

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// toJSON is how DecodeNode decoded before assign: a node tree, already
// checked by the walker, written as JSON for encoding/json, with the
// walker's (YAML 1.2) reading of every scalar: what the walker accepted as a
// string stays a string ("no", "on"), where a YAML 1.1 re-parse would make it
// a bool. It also spares parsing the file a second time.
func toJSON(b *bytes.Buffer, n *yaml.Node) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return toJSON(b, n.Content[0])
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonString(b, n.Content[i].Value)
			b.WriteByte(':')
			if err := toJSON(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := toJSON(b, c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			b.WriteString("null")
		case "!!bool":
			var v bool
			if err := n.Decode(&v); err != nil {
				return err
			}
			b.WriteString(strconv.FormatBool(v))
		case "!!int":
			var v int64
			if err := n.Decode(&v); err != nil {
				return fmt.Errorf("line %d: %s: %w", n.Line, n.Value, err)
			}
			b.WriteString(strconv.FormatInt(v, 10))
		case "!!float":
			var v float64
			if err := n.Decode(&v); err != nil {
				return err
			}
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("line %d: %s is not a finite number", n.Line, n.Value)
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		default:
			jsonString(b, n.Value)
		}
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}

// jsonString writes s as a JSON string.
func jsonString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\r':
				b.WriteString(`\r`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
