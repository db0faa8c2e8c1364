// Package yamlenc writes JSON-shaped values (maps with string keys, slices,
// strings, numbers, bools, nil: what runtime.DefaultUnstructuredConverter
// produces) as block-style YAML with sorted keys. It is what
// sigs.k8s.io/yaml.Marshal produces for such values, without its JSON round
// trip and YAML re-parse, which dominated the cost of planning an overlay.
package yamlenc

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal encodes v. It panics on a type a JSON-shaped value cannot hold,
// which is a programming error.
func Marshal(v any) []byte {
	var b bytes.Buffer
	b.Grow(1024)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return []byte("{}\n")
		}
		mapping(&b, x, 0, false)
	case []any:
		if len(x) == 0 {
			return []byte("[]\n")
		}
		sequence(&b, x, 0)
	default:
		scalar(&b, v, 0)
		b.WriteByte('\n')
	}
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
		b.WriteString(quoteKey(k))
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
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			b.WriteString(strconv.FormatInt(int64(x), 10))
		} else {
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	default:
		panic(fmt.Sprintf("yamlenc: unsupported type %T", v))
	}
}

// needsQuote matches strings a YAML parser would not read back as the same
// plain string: other types (bool, null, numbers, including YAML 1.1 forms),
// leading indicators, and characters that start comments or mappings.
var (
	special  = regexp.MustCompile(`^(?i:y|n|yes|no|on|off|true|false|null|~|[-+]?(\.inf|\.nan)|=|<<)$`)
	numberRE = regexp.MustCompile(`^[-+]?(\.?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?)$`)
)

func plainOK(s string) bool {
	if s == "" {
		return false
	}
	if simple(s) {
		return true
	}
	if special.MatchString(s) || numberRE.MatchString(s) {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` \t") || strings.ContainsAny(s[len(s)-1:], " \t:") {
		return s[0] == '-' && len(s) > 1 && s[1] != ' ' && plainRest(s) && !numberRE.MatchString(s)
	}
	return plainRest(s)
}

// simple is the fast path: a string that starts with a letter, holds only
// letters, digits and . / _ - , and is not one of the YAML 1.1 words that
// read as booleans or null, is always plain.
func simple(s string) bool {
	if len(s) <= 5 && yaml11Word(s) {
		return false
	}
	start := 1
	switch c := s[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/':
	case c == '.' && len(s) > 1 && s[1] == '/': // ./path
	case c >= '0' && c <= '9' && !numberish(s): // 15m0s
	default:
		return false
	}
	for i := start; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '/' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// numberish reports whether every byte of s could belong to a YAML 1.1
// number (decimal, hex, octal, binary, sexagesimal, exponent).
func numberish(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || strings.IndexByte("+-._:xXoO", c) >= 0) {
			return false
		}
	}
	return true
}

func plainRest(s string) bool {
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, " ") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\ufeff' || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

func quoteKey(k string) string {
	if plainOK(k) && !strings.Contains(k, "\n") {
		return k
	}
	return strconv.Quote(k)
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
		for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			if line != "" {
				indent(b, depth)
				b.WriteString(line)
			}
			b.WriteByte('\n')
		}
		b.Truncate(b.Len() - 1) // the caller ends the line
	case plainOK(s):
		b.WriteString(s)
	default:
		b.WriteString(strconv.Quote(s))
	}
}

// literalOK reports whether a multi-line string survives a literal block:
// no leading space on its first line, no trailing spaces, no control characters.
func literalOK(s string) bool {
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return false
		}
		for _, r := range line {
			if (r < 0x20 && r != '\t') || r == 0x7f || r == '\ufeff' {
				return false
			}
		}
	}
	return true
}

// yaml11Word reports whether s is a word YAML 1.1 reads as a bool or null, in any case.
func yaml11Word(s string) bool {
	var low [5]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(s)]) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return true
	}
	return false
}

// Scalar returns s as a YAML scalar (plain or quoted) for a value on one line.
func Scalar(s string) string {
	if plainOK(s) {
		return s
	}
	return strconv.Quote(s)
}
