package yamlenc

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal encodes v. It panics on a value it cannot write, which is a
// programming error: a channel or function, a map whose keys are not
// strings or integers, or a type that gives its encoding as JSON only (a
// json.Marshaler without ToUnstructured).
func Marshal(v any) []byte {
	return Append(make([]byte, 0, 1024), v)
}

// Append appends the encoding of v to dst, as Marshal writes it.
func Append(dst []byte, v any) []byte {
	return AppendWithout(dst, v)
}

// AppendWithout is Append leaving out the keys omit of the top-level
// mapping: the status of a Kubernetes object, which its API type writes
// even when empty (status: {}) and a manifest does not hold.
func AppendWithout(dst []byte, v any, omit ...string) []byte {
	e := encoder{b: bytes.NewBuffer(dst)}
	rv := resolve(reflect.ValueOf(v))
	switch shapeOf(rv) {
	case mappingShape:
		start := e.entries(rv, omit)
		if start == len(e.stack) {
			e.b.WriteString("{}\n")
			break
		}
		e.mapping(start, 0, false)
	case sequenceShape:
		if rv.Len() == 0 {
			e.b.WriteString("[]\n")
			break
		}
		e.sequence(rv, 0)
	default:
		e.scalar(rv, 0)
		e.b.WriteByte('\n')
	}
	return e.b.Bytes()
}

const spaces = "                                                                "

func indent(b *bytes.Buffer, n int) {
	for n > len(spaces) {
		b.WriteString(spaces)
		n -= len(spaces)
	}
	b.WriteString(spaces[:n])
}

// An encoder writes one document. stack holds the entries of the mappings
// being written, innermost last.
type encoder struct {
	b     *bytes.Buffer
	stack []entry
}

// entry is a key of a mapping and its value.
type entry struct {
	key   string
	value reflect.Value
}

// entries pushes the entries of mapping v (a struct or a map), keys
// sorted and omit left out, and returns where they start on the stack.
func (e *encoder) entries(v reflect.Value, omit []string) int {
	start := len(e.stack)
	if v.Kind() == reflect.Struct {
		for _, f := range infoOf(v.Type()).fields {
			fv, ok := fieldOf(v, f.index)
			if !ok || f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv) || slices.Contains(omit, f.name) {
				continue
			}
			e.stack = append(e.stack, entry{f.name, fv})
		}
		return start // fields are sorted by name
	}
	for k, val := range v.Seq2() {
		key := keyString(k)
		if !slices.Contains(omit, key) {
			e.stack = append(e.stack, entry{key, val})
		}
	}
	slices.SortFunc(e.stack[start:], func(a, b entry) int { return strings.Compare(a.key, b.key) })
	return start
}

// mapping writes the entries from start on the stack, and pops them, at
// depth; with inline, the first key follows a "- " already written (a
// mapping inside a sequence).
func (e *encoder) mapping(start, depth int, inline bool) {
	for i := start; i < len(e.stack); i++ {
		if i > start || !inline {
			indent(e.b, depth)
		}
		en := e.stack[i] // the stack may grow, and move, below
		e.b.Write(AppendKey(e.b.AvailableBuffer(), en.key, depth))
		e.b.WriteByte(':')
		e.value(en.value, depth, false)
	}
	clear(e.stack[start:])
	e.stack = e.stack[:start]
}

func (e *encoder) sequence(s reflect.Value, depth int) {
	for i := range s.Len() {
		indent(e.b, depth)
		e.b.WriteString("-")
		e.value(s.Index(i), depth, true)
	}
}

// value writes what follows "key:" or "-".
func (e *encoder) value(v reflect.Value, depth int, inSeq bool) {
	v = resolve(v)
	switch shapeOf(v) {
	case mappingShape:
		start := e.entries(v, nil)
		switch {
		case start == len(e.stack):
			e.b.WriteString(" {}\n")
		case inSeq:
			// "- key: v" then the other keys aligned under the first.
			e.b.WriteByte(' ')
			e.mapping(start, depth+2, true)
		default:
			e.b.WriteByte('\n')
			e.mapping(start, depth+2, false)
		}
	case sequenceShape:
		switch {
		case v.Len() == 0:
			e.b.WriteString(" []\n")
		case inSeq:
			e.b.WriteByte('\n')
			e.sequence(v, depth+2)
		default:
			// Like sigs.k8s.io/yaml: sequences under a key are not indented.
			e.b.WriteByte('\n')
			e.sequence(v, depth)
		}
	default:
		e.b.WriteByte(' ')
		e.scalar(v, depth+2)
		e.b.WriteByte('\n')
	}
}

// scalar writes a resolved value that is no mapping or sequence.
func (e *encoder) scalar(v reflect.Value, depth int) {
	b := e.b
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("null")
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.String:
		str(b, v.String(), depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		switch x := v.Float(); {
		case math.IsNaN(x):
			b.WriteString(".nan")
		case math.IsInf(x, 1):
			b.WriteString(".inf")
		case math.IsInf(x, -1):
			b.WriteString("-.inf")
		case x == math.Trunc(x) && math.Abs(x) < 1e15:
			b.WriteString(strconv.FormatInt(int64(x), 10))
		default:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, v.Type().Bits()))
		}
	case reflect.Map, reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			break
		}
		// Bytes (shapeOf): base64, as encoding/json writes them.
		str(b, base64.StdEncoding.EncodeToString(v.Bytes()), depth)
	default:
		panic(fmt.Sprintf("yamlenc: unsupported type %s", v.Type()))
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
