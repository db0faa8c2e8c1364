package yamlenc

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal encodes v. It panics on a type a JSON-shaped value cannot hold,
// which is a programming error.
func Marshal(v any) []byte {
	return Append(make([]byte, 0, 1024), v)
}

// Append appends the encoding of v to dst, as Marshal writes it.
func Append(dst []byte, v any) []byte {
	b := bytes.NewBuffer(dst)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}\n")
			break
		}
		mapping(b, x, 0, false)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]\n")
			break
		}
		sequence(b, x, 0)
	default:
		scalar(b, v, 0)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// AppendString appends s as Marshal writes a string value whose key or
// sequence dash is at column depth-2: a literal block for multi-line text
// that one can hold, else one line. The caller ends the line.
func AppendString(dst []byte, s string, depth int) []byte {
	b := bytes.NewBuffer(dst)
	str(b, s, depth)
	return b.Bytes()
}

const spaces = "                                                                "

func indent(b *bytes.Buffer, n int) {
	for n > len(spaces) {
		b.WriteString(spaces)
		n -= len(spaces)
	}
	b.WriteString(spaces[:n])
}

// sortedKeys returns m's keys in order, in buf when it is large enough.
func sortedKeys(m map[string]any, buf []string) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mapping writes m's keys in order at depth; with inline, the first key
// follows a "- " already written (a mapping inside a sequence).
func mapping(b *bytes.Buffer, m map[string]any, depth int, inline bool) {
	var buf [16]string
	for i, k := range sortedKeys(m, buf[:]) {
		if i > 0 || !inline {
			indent(b, depth)
		}
		b.Write(AppendKey(b.AvailableBuffer(), k, depth))
		b.WriteByte(':')
		value(b, m[k], depth, false)
	}
}

func sequence(b *bytes.Buffer, s []any, depth int) {
	for _, item := range s {
		indent(b, depth)
		b.WriteString("-")
		value(b, item, depth, true)
	}
}

// value writes what follows "key:" or "-".
func value(b *bytes.Buffer, v any, depth int, inSeq bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		if inSeq {
			// "- key: v" then the other keys aligned under the first.
			b.WriteByte(' ')
			mapping(b, x, depth+2, true)
			return
		}
		b.WriteByte('\n')
		mapping(b, x, depth+2, false)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		if inSeq {
			b.WriteByte('\n')
			sequence(b, x, depth+2)
			return
		}
		// Like sigs.k8s.io/yaml: sequences under a key are not indented.
		b.WriteByte('\n')
		sequence(b, x, depth)
	default:
		b.WriteByte(' ')
		scalar(b, v, depth+2)
		b.WriteByte('\n')
	}
}

func scalar(b *bytes.Buffer, v any, depth int) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		str(b, x, depth)
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case Number:
		b.WriteString(string(x))
	case float64:
		switch {
		case math.IsNaN(x):
			b.WriteString(".nan")
		case math.IsInf(x, 1):
			b.WriteString(".inf")
		case math.IsInf(x, -1):
			b.WriteString("-.inf")
		case x == math.Trunc(x) && math.Abs(x) < 1e15:
			b.WriteString(strconv.FormatInt(int64(x), 10))
		default:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	default:
		panic(fmt.Sprintf("yamlenc: unsupported type %T", v))
	}
}

func str(b *bytes.Buffer, s string, depth int) {
	switch {
	case strings.Contains(s, "\n") && literalOK(s):
		// A literal block keeps keys, certificates and scripts readable.
		b.WriteByte('|')
		if !strings.HasSuffix(s, "\n") {
			b.WriteByte('-')
		} else if strings.HasSuffix(s, "\n\n") {
			b.WriteByte('+')
		}
		b.WriteByte('\n')
		for line := range strings.SplitSeq(strings.TrimSuffix(s, "\n"), "\n") {
			if line != "" {
				indent(b, depth)
				b.WriteString(line)
			}
			b.WriteByte('\n')
		}
		b.Truncate(b.Len() - 1) // the caller ends the line
	default:
		b.Write(AppendScalar(b.AvailableBuffer(), s))
	}
}

// literalOK reports whether a multi-line string survives a literal block:
// no leading space or tab on its first line, no trailing spaces, and
// nothing but RawOK characters and tabs.
func literalOK(s string) bool {
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "\n") || !utf8.ValidString(s) {
		return false
	}
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return false
		}
		for _, r := range line {
			if r != '\t' && !RawOK(r) {
				return false
			}
		}
	}
	return true
}
