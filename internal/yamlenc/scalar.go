package yamlenc

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// RawOK reports whether r may be written unescaped: YAML's printable set
// without the characters parsers read as line breaks (U+0085, U+2028,
// U+2029) or strip (U+FEFF), and without the non-characters. Tab is not
// RawOK either; the writers that allow it say so.
func RawOK(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return true
	case r < 0xa0: // C0, DEL and C1, U+0085 among them
		return false
	case r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	case r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe:
		return false // non-characters
	case r >= 0xd800 && r <= 0xdfff || r > utf8.MaxRune:
		return false
	}
	return true
}

// needsQuote matches strings a YAML parser would not read back as the same
// plain string: other types (bool, null, numbers and timestamps, including
// YAML 1.1 forms, which Helm's parser still reads), and merge keys.
var (
	special   = regexp.MustCompile(`^(?i:y|n|yes|no|on|off|true|false|null|~|[-+]?(\.inf|\.nan)|=|<<)$`)
	numberRE  = regexp.MustCompile(`^[-+]?(\.?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?)$`)
	timestamp = regexp.MustCompile(`^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?`)
)

// BoolWord returns the boolean yaml.v3 resolves the plain scalar s to, and
// whether s is one of those words (true, True, TRUE and false's forms):
// decoders take them without a yaml.v3 decoder.
func BoolWord(s string) (value, ok bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// DecimalInt reads s when it is an integer in plain decimal, which yaml.v3
// reads in base 10: no sign but '-', no leading zero (YAML reads one as
// octal), no '_'. ok is false for anything else, or a number past int64:
// decoders take those through yaml.v3.
func DecimalInt(s string) (i int64, ok bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

// OtherType reports whether a YAML parser may read plain s as another
// type than a string: a bool, null, a number or a timestamp, YAML 1.1 forms
// included, or a merge key. It errs towards true, so false means YAML 1.1
// and 1.2 parsers alike, yaml.v3 among them, read s as a string. The
// regexps only run on strings that could match them: special words are
// short, numbers are numberish, timestamps start with a year.
func OtherType(s string) bool {
	return len(s) <= 6 && specialStart(s) && special.MatchString(s) ||
		numberStart(s) && numberish(s) && (numberRE.MatchString(s) || quirkable(s) && resolvedNumber(s)) ||
		len(s) >= 8 && s[4] == '-' && isDigit(s[0]) && timestamp.MatchString(s)
}

// quirkable reports whether resolvedNumber may find a number numberRE does
// not: where yaml.v3's quirks apply, a '_' or a sign after 0b or 0o. The
// resolver allocates an error for each string it does not read as a
// number (an IP address, a version), so the others do not go to it.
func quirkable(s string) bool {
	return strings.IndexByte(s, '_') >= 0 || strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0o")
}

// resolvedNumber reports whether yaml.v3 resolves plain s to a number, by
// its own resolver. Beside what numberRE describes, it drops every '_'
// before reading and takes a sign after 0b or 0o ("+_1", "0b+1", "1e1_"
// are numbers); sigs.k8s.io/yaml's parser shares those rules.
func resolvedNumber(s string) bool {
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return true
	}
	return false
}

// specialStart reports whether s starts as a special word may: y, n, o, t,
// f (either case), ~, a sign, '.', '=' or '<'.
func specialStart(s string) bool {
	return s != "" && strings.IndexByte("ynotfYNOTF~+-.=<", s[0]) >= 0
}

// numberStart reports whether s starts as a number may: a digit or '.',
// after an optional sign and any '_' (which yaml.v3 drops after a sign).
func numberStart(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = strings.TrimLeft(s[1:], "_")
	}
	return s != "" && (isDigit(s[0]) || s[0] == '.')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// PlainOK reports whether s can be written as a plain scalar in block
// context and read back as the same string.
func PlainOK(s string) bool {
	if s == "" {
		return false
	}
	if simple(s) {
		return true
	}
	if !utf8.ValidString(s) || OtherType(s) {
		return false
	}
	// Document markers start a new document at the start of a line.
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` \t") || strings.ContainsAny(s[len(s)-1:], " \t:") {
		return s[0] == '-' && len(s) > 1 && s[1] != ' ' && plainRest(s)
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
	case c >= '0' && c <= '9' && !numberish(s) && !timestamp.MatchString(s): // 15m0s
	default:
		return false
	}
	for i := start; i < len(s); i++ {
		if !simpleByte[s[i]] {
			return false
		}
	}
	return true
}

// simpleByte marks the bytes simple allows after the first: letters,
// digits and . / _ -. A table: every value the render writes is checked.
var simpleByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("./_-", byte(c)) >= 0
	}
	return t
}()

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
		if !RawOK(r) {
			return false
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

// AppendScalar appends s as a one-line YAML scalar: plain when YAML reads
// that back as the same string, double-quoted otherwise.
func AppendScalar(dst []byte, s string) []byte {
	if PlainOK(s) {
		return append(dst, s...)
	}
	return AppendQuoted(dst, s)
}

// AppendQuoted appends s as a double-quoted YAML scalar. Every character
// that is not RawOK is escaped, so the scalar is one line whatever s holds.
// Go's escapes (\n, \x7f, \u2028, ...) are YAML's; invalid UTF-8, which
// YAML cannot hold, is written as U+FFFD.
func AppendQuoted(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\ufffd")
	}
	// strconv leaves raw only what Go deems printable; RawOK is stricter
	// for no character that IsPrint accepts, so its output is our output.
	return strconv.AppendQuote(dst, s)
}

// ImplicitKeyLimit is YAML's bound on a key written without "? ": its ':'
// at most 1024 characters after its start. Parsers refuse a longer one, and
// yamlfile's scanner leaves it to yaml.v3, which refuses it too.
const ImplicitKeyLimit = 1024

// maxImplicitKey bounds the bytes of a key the writer writes before its
// colon, with room to spare below ImplicitKeyLimit.
const maxImplicitKey = ImplicitKeyLimit / 2

// AppendKey appends the mapping key k, to be followed by ":". col is the
// column the key starts at: a key too long for the implicit form is written
// as an explicit one ("? key", then a new line indented to col), after which
// the ":" still reads as its value indicator.
func AppendKey(dst []byte, k string, col int) []byte {
	if PlainOK(k) {
		if len(k) <= maxImplicitKey {
			return append(dst, k...)
		}
		dst = append(append(dst, "? "...), k...)
	} else {
		start := len(dst)
		dst = AppendQuoted(dst, k)
		if len(dst)-start <= maxImplicitKey {
			return dst
		}
		dst = append(dst[:start], "? "...)
		dst = AppendQuoted(dst, k)
	}
	dst = append(dst, '\n')
	for range col {
		dst = append(dst, ' ')
	}
	return dst
}
