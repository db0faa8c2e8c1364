package escape

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// Scalar appends s as a one-line YAML scalar.
func Scalar(b []byte, s string) []byte { return yamlenc.AppendScalar(b, s) }

// Float appends f as a YAML float that reads back as a float.
func Float(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, ".nan"...)
	case math.IsInf(f, 1):
		return append(b, ".inf"...)
	case math.IsInf(f, -1):
		return append(b, "-.inf"...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, 64)
	if !strings.ContainsAny(string(b[start:]), ".e") {
		b = append(b, ".0"...)
	}
	return b
}

// Comment appends s into a comment: characters that are not raw-safe (line
// breaks, controls) are written as Go-style escapes, so s stays on the
// comment's line.
func Comment(b []byte, s string) []byte {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validAt(s, i):
			b = append(b, `\ufffd`...)
		case yamlenc.RawOK(r):
			b = utf8.AppendRune(b, r)
		default:
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		}
	}
	return b
}

func validAt(s string, i int) bool {
	r, n := utf8.DecodeRuneInString(s[i:])
	return r != utf8.RuneError || n > 1
}

// A Refusal explains why a context cannot hold a value.
type Refusal struct {
	// Context names the context, such as "a gcfg value (cloud.conf)".
	Context string
	// What describes the offending part of the value.
	What string
}

func (r *Refusal) Error() string { return r.Context + " cannot hold " + r.What }

func refuse(context string, r rune, i int) *Refusal {
	return &Refusal{Context: context, What: fmt.Sprintf("%U (at byte %d)", r, i)}
}

// GcfgValue appends s as a value of a gcfg (git-config style) file: as it
// is when gcfg reads it back unchanged, else double-quoted with gcfg's
// escapes (\\ \" \n \t). gcfg (gopkg.in/gcfg.v1, which reads cloud.conf)
// has no escape for other control characters, \b among them although git
// has one, and none may stand raw in a YAML block scalar: those are refused.
func GcfgValue(b []byte, s string) ([]byte, error) {
	if gcfgBare(s) {
		return append(b, s...), nil
	}
	b = append(b, '"')
	for i, r := range s {
		switch r {
		case '\\', '"':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, `\n`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if !yamlenc.RawOK(r) || r == utf8.RuneError && !validAt(s, i) {
				return nil, refuse("a gcfg value", r, i)
			}
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"'), nil
}

// gcfgBare reports whether s reads back unchanged without quotes: no
// whitespace gcfg would trim or fold, no quote, escape or comment character.
func gcfgBare(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !yamlenc.RawOK(r) || strings.ContainsRune(" \"\\;#", r) {
			return false
		}
	}
	return true
}

// GcfgSubsection appends s as the quoted subsection name of a gcfg section
// header ([Section "s"]). Only \\ and \" are escapes there: a line break or
// control character is refused, and so is an empty name, which gcfg refuses.
func GcfgSubsection(b []byte, s string) ([]byte, error) {
	if s == "" {
		return nil, &Refusal{Context: "a gcfg subsection name", What: "an empty name"}
	}
	b = append(b, '"')
	for i, r := range s {
		switch {
		case r == '\\' || r == '"':
			b = append(b, '\\', byte(r))
		case !yamlenc.RawOK(r) || r == utf8.RuneError && !validAt(s, i):
			return nil, refuse("a gcfg subsection name", r, i)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"'), nil
}

// INIValue appends s as a value of an INI file whose parser knows no
// escapes (the AWS shared credentials file): s is written as it is, and
// refused when it would not read back as itself: a line break or control
// character, surrounding whitespace, a comment (a '#' or ';' after a blank),
// or quotes around the whole value, which the AWS SDK strips (and a lone
// quote, on which it panics).
func INIValue(b []byte, s string) ([]byte, error) {
	const ctx = "an INI value without escapes"
	if strings.TrimSpace(s) != s {
		return nil, &Refusal{Context: ctx, What: "leading or trailing whitespace"}
	}
	if s != "" && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return nil, &Refusal{Context: ctx, What: "quotes around the value (" + s[:1] + "..." + s[:1] + "), which the reader strips"}
	}
	for i, r := range s {
		if !yamlenc.RawOK(r) || r == utf8.RuneError && !validAt(s, i) {
			return nil, refuse(ctx, r, i)
		}
		if (r == ';' || r == '#') && i > 0 && s[i-1] == ' ' {
			return nil, &Refusal{Context: ctx, What: fmt.Sprintf("%q after a blank (at byte %d), which starts a comment", r, i)}
		}
	}
	return append(b, s...), nil
}

// Map appends m as a YAML block mapping whose keys are at column indent,
// sorted, each on its own line after a line break (what `toYaml m |
// nindent indent` lays out); an empty map is {}.
func Map[K, V ~string](b []byte, m map[K]V, indent int) []byte {
	if len(m) == 0 {
		return append(newline(b, indent), "{}"...)
	}
	for _, k := range slices.SortedFunc(maps.Keys(m), func(a, b K) int { return cmp.Compare(a, b) }) {
		b = newline(b, indent)
		b = yamlenc.AppendKey(b, string(k), indent)
		b = append(b, ": "...)
		b = yamlenc.AppendScalar(b, string(m[k]))
	}
	return b
}

// Seq appends s as a YAML block sequence at column indent, each item on its
// own line after a line break; an empty sequence is [].
func Seq[T ~string](b []byte, s []T, indent int) []byte {
	if len(s) == 0 {
		return append(newline(b, indent), "[]"...)
	}
	for _, v := range s {
		b = append(newline(b, indent), "- "...)
		b = yamlenc.AppendScalar(b, string(v))
	}
	return b
}

func newline(b []byte, indent int) []byte {
	b = append(b, '\n')
	for range indent {
		b = append(b, ' ')
	}
	return b
}

// FieldError is a value a compiled template cannot write, or cannot read,
// with the config path it comes from.
type FieldError struct {
	// Path is the YAML path of the value, such as
	// opencenter.services.openstack-ccm.auth_url.
	Path string
	// Err says what is wrong.
	Err error
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// Field returns err about the value at path.
func Field(path string, err error) error { return &FieldError{Path: path, Err: err} }

// ErrNotSet is the error of a value read through an absent (nil) object.
var ErrNotSet = errors.New("is not set, and the template reads it")

// NotSet returns the error of the absent object at path.
func NotSet(path string) error { return &FieldError{Path: path, Err: ErrNotSet} }
