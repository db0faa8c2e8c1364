package yamlfile

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

// The walker checks a YAML node tree against the Go types before decoding, so
// that every unknown key, duplicate key and wrong type is reported with its
// line, all at once. It reads types, never values: assign then stores the
// values of a tree it accepted.

type walker struct {
	file string
	// path is the YAML path of the node being walked, a stack each key and
	// item is pushed on: a string is made of it only for a problem or a
	// position.
	path []byte
	// pos records the position of every key and item; nil records none.
	pos   map[string]Pos
	diags diag.List
	// dropped counts the problems past maxDiags: counted, not kept, so a
	// flood of them costs neither output nor memory.
	dropped int
	nodes   int
	bomb    bool
	// format is the format tag of the field being walked ("" for none).
	format string
	// rejected are the value nodes of the wrong type, and cut the keys of
	// entries that are not fields or come twice: cut out (prune), the rest
	// of a document still decodes, so its other problems are found.
	rejected []*yaml.Node
	cut      map[*yaml.Node]bool
}

// reject records a value of the wrong type.
func (w *walker) reject(n *yaml.Node, format string, args ...any) {
	w.errorf(n, format, args...)
	w.rejected = append(w.rejected, n)
}

// drop records an entry that is no field, by its key.
func (w *walker) drop(key *yaml.Node, format string, args ...any) {
	w.errorf(key, format, args...)
	if w.cut == nil {
		w.cut = map[*yaml.Node]bool{}
	}
	w.cut[key] = true
}

// prune cuts out of the tree under n what the walk rejected: the entries
// it dropped go, and the values it rejected become null (unset).
func (w *walker) prune(n *yaml.Node) {
	for _, r := range w.rejected {
		*r = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: r.Line, Column: r.Column}
	}
	var cutOut func(n *yaml.Node, depth int)
	cutOut = func(n *yaml.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Kind == yaml.MappingNode {
			kept := n.Content[:0]
			for i := 0; i+1 < len(n.Content); i += 2 {
				if !w.cut[n.Content[i]] {
					kept = append(kept, n.Content[i], n.Content[i+1])
				}
			}
			n.Content = kept
		}
		for _, c := range n.Content {
			cutOut(c, depth+1)
		}
	}
	if len(w.cut) > 0 {
		cutOut(n, 0)
	}
}

// errorf records a problem at node n, at the current path.
func (w *walker) errorf(n *yaml.Node, format string, args ...any) {
	w.errorAt(n, string(w.path), format, args...)
}

func (w *walker) errorAt(n *yaml.Node, path, format string, args ...any) {
	if len(w.diags) >= maxDiags {
		w.dropped++
		return
	}
	w.diags = append(w.diags, diag.Diag{File: w.file, Line: n.Line, Col: n.Column, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// pushKey adds a mapping key to the path and returns the length to cut it
// back to.
func (w *walker) pushKey(key string) int {
	n := len(w.path)
	if n > 0 {
		w.path = append(w.path, '.')
	}
	w.path = append(w.path, key...)
	return n
}

// pushIndex adds a list index, as "[i]", to the path and returns the
// length to cut it back to.
func (w *walker) pushIndex(i int) int {
	n := len(w.path)
	w.path = append(strconv.AppendInt(append(w.path, '['), int64(i), 10), ']')
	return n
}

// result returns the diagnostics, the first maxDiags of them in document
// order, and a last one counting the rest.
func (w *walker) result() diag.List {
	if w.dropped == 0 {
		return w.diags
	}
	last := w.diags[len(w.diags)-1]
	return append(w.diags, diag.Diag{File: w.file, Line: last.Line, Col: last.Col + 1,
		Msg: fmt.Sprintf("and %d more problems: only the first %d are listed", w.dropped, maxDiags)})
}

func (w *walker) walk(n *yaml.Node, t reflect.Type, path string) {
	w.path = append(w.path[:0], path...)
	w.walkDepth(n, t, 0)
}

func (w *walker) walkDepth(n *yaml.Node, t reflect.Type, depth int) {
	if w.bomb {
		return
	}
	w.nodes++
	switch {
	case w.nodes > maxNodes:
		w.bomb = true
		w.errorf(n, "document expands to more than %d YAML nodes (alias expansion?): rejected", maxNodes)
		return
	case depth > maxDepth:
		w.bomb = true
		w.errorAt(n, "", "nested deeper than %d levels (a recursive alias?): rejected", maxDepth)
		return
	}
	for depth := 0; n.Kind == yaml.AliasNode; depth++ {
		if n.Alias == nil || depth > 100 {
			w.errorf(n, "unresolvable YAML alias")
			return
		}
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // an explicit null leaves the field unset
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := fieldsOf(t)
		w.mapping(n, func(key *yaml.Node, val *yaml.Node) {
			ft, ok := fields.byName[key.Value]
			if !ok {
				w.drop(key, "unknown key %q%s", key.Value, unknownHint(t, key.Value, fields.names))
				return
			}
			w.format = fields.formats[key.Value]
			w.walkDepth(val, ft, depth+1)
		})
	case reflect.Map:
		w.mapping(n, func(_ *yaml.Node, val *yaml.Node) {
			w.walkDepth(val, t.Elem(), depth+1)
		})
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.reject(n, "expected a list, got %s", w.describe(n))
			return
		}
		for i, item := range n.Content {
			back := w.pushIndex(i)
			w.at(item)
			w.walkDepth(item, t.Elem(), depth+1)
			w.path = w.path[:back]
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
			hint := ""
			switch {
			case n.Kind != yaml.ScalarNode:
			case unitHints[w.format] != "":
				hint = ": " + unitHints[w.format]
			case w.secret():
				hint = ": quote it if it is meant as text"
			default:
				hint = fmt.Sprintf(": quote it (\"%s\") if it is meant as text", n.Value)
			}
			w.reject(n, "expected a string, got %s%s", w.describe(n), hint)
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			w.reject(n, "expected true or false, got %s", w.describe(n))
		}
	case reflect.Int, reflect.Int32, reflect.Int64:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
			w.reject(n, "expected an integer, got %s", w.describe(n))
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") {
			w.reject(n, "expected a number, got %s", w.describe(n))
		}
	default:
		w.errorf(n, "internal error: no YAML rule for Go kind %s", t.Kind())
	}
}

// mapping checks that n is a mapping with unique string keys and calls fn for
// each pair.
func (w *walker) mapping(n *yaml.Node, fn func(key, val *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		w.reject(n, "expected a mapping, got %s", w.describe(n))
		return
	}
	// Duplicate keys: a set for a large mapping; a small one, as most are,
	// is searched (a set each was a fifth of the walk).
	var seen map[string]int
	if len(n.Content) > 2*smallMapping {
		seen = make(map[string]int, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if key.Kind != yaml.ScalarNode || key.ShortTag() == "!!merge" {
			w.drop(key, "unsupported key %s: keys are plain strings (no merge keys or complex keys)", w.describe(key))
			continue
		}
		back := w.pushKey(key.Value)
		if first, dup := firstKey(n.Content[:i], seen, key.Value); dup {
			w.drop(key, "duplicate key %q (first at line %d)", key.Value, first)
		} else {
			if seen != nil {
				seen[key.Value] = key.Line
			}
			w.at(key)
			fn(key, val)
		}
		w.path = w.path[:back]
	}
}

// smallMapping is the most keys a mapping has for its duplicates to be
// searched for rather than kept in a set.
const smallMapping = 16

// firstKey returns the line of key among the keys before it (the mapping's
// Content up to it, or seen when there is one).
func firstKey(before []*yaml.Node, seen map[string]int, key string) (int, bool) {
	if seen != nil {
		line, ok := seen[key]
		return line, ok
	}
	for j := 0; j+1 < len(before); j += 2 {
		if k := before[j]; k.Kind == yaml.ScalarNode && k.Value == key && k.ShortTag() != "!!merge" {
			return k.Line, true
		}
	}
	return 0, false
}

// at records that the current path is at node n.
func (w *walker) at(n *yaml.Node) {
	if w.pos != nil {
		w.pos[string(w.path)] = Pos{n.Line, n.Column}
	}
}

// KeyHinter is implemented by a struct that can say why a key it does not
// have is not one, such as a field other structs of its kind have.
type KeyHinter interface {
	// KeyHint explains the unknown key, or returns "".
	KeyHint(key string) string
}

var keyHinter = reflect.TypeFor[KeyHinter]()

// unknownHint says what to write instead of an unknown key of struct t.
func unknownHint(t reflect.Type, key string, names []string) string {
	if reflect.PointerTo(t).Implements(keyHinter) {
		if h := reflect.New(t).Interface().(KeyHinter).KeyHint(key); h != "" {
			return ": " + h
		}
	}
	if s := diag.Suggest(key, names); s != "" {
		return s
	}
	if len(names) <= 8 {
		return "; expected one of " + strings.Join(names, ", ")
	}
	return ""
}

// unitHints say, for the string formats that hold a number and a unit,
// what to write where a bare number was given: quoting the number would
// lead to the next error (\"15\" is not a duration).
var unitHints = map[string]string{
	"duration":    "a duration takes a unit: 15m, 30s or 1h30m",
	"go-duration": "a duration takes a unit: 15m, 30s or 1h30m",
	"retention":   "a retention takes a unit: 15d, 12h or 4w",
	"quantity":    "a size takes a unit: 10Gi, 500Mi",
}

// secret reports whether the walk is under the top-level secrets: key,
// whose values no message may hold.
func (w *walker) secret() bool {
	const key = "secrets"
	return len(w.path) >= len(key) && string(w.path[:len(key)]) == key &&
		(len(w.path) == len(key) || w.path[len(key)] == '.' || w.path[len(key)] == '[')
}

// describe names what node n is for a message: its type, and its value
// unless the walk is under secrets:, where only the type is named.
func (w *walker) describe(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || !w.secret() {
		return describe(n)
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	case "!!timestamp":
		return "a date"
	}
	return "a value of type " + n.ShortTag()
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!null":
			return "null"
		}
		return fmt.Sprintf("%s %q", n.ShortTag(), n.Value)
	}
	return "an unsupported YAML node"
}

type structFields struct {
	byName map[string]reflect.Type
	index  map[string][]int // for reflect.Value.FieldByIndex
	names  []string         // sorted
	// formats are the fields' format tags, which say what a string holds.
	formats map[string]string
}

var fieldCache sync.Map // reflect.Type -> *structFields

// fieldsOf lists the JSON keys of a struct the way encoding/json sees them:
// anonymous embedded structs without a name are flattened.
func fieldsOf(t reflect.Type) *structFields {
	if v, ok := fieldCache.Load(t); ok {
		return v.(*structFields)
	}
	sf := &structFields{byName: map[string]reflect.Type{}, index: map[string][]int{}, formats: map[string]string{}}
	var add func(t reflect.Type, at []int)
	add = func(t reflect.Type, at []int) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			index := append(slices.Clip(at), f.Index...)
			if f.Anonymous && name == "" {
				if f.Type.Kind() == reflect.Pointer {
					panic("yamlfile: embedded struct pointers are not supported: " + t.String() + "." + f.Name)
				}
				add(f.Type, index)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			sf.byName[name] = f.Type
			sf.index[name] = index
			if format := f.Tag.Get("format"); format != "" {
				sf.formats[name] = format
			}
			sf.names = append(sf.names, name)
		}
	}
	add(t, nil)
	slices.Sort(sf.names)
	v, _ := fieldCache.LoadOrStore(t, sf)
	return v.(*structFields)
}
