package configedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Set returns data with the scalar at path (mapping keys from the root) set
// to value, the YAML text of one scalar: `true`, `3`, or a string written
// with Quote. Missing mappings on the path are created; changed is false,
// and data is returned as is, when the scalar already has that value.
func Set(data []byte, path []string, value string) (out []byte, changed bool, err error) {
	return SetInOrder(data, path, value, nil)
}

// Order gives the canonical order of the keys of the mapping at a path
// (keys from the root), nil when it has none.
type Order func(mapping []string) []string

// SetInOrder is Set placing a key it adds where order puts it among the
// keys already there: before the first that order puts after it. Two
// edits that add two keys then touch different lines, and merge. Without
// an order (nil, or one that does not name the key), a key goes before
// the first greater key of a mapping sorted already, else last.
func SetInOrder(data []byte, path []string, value string, order Order) (out []byte, changed bool, err error) {
	at := strings.Join(path, ".")
	if len(path) == 0 {
		return nil, false, errors.New("configedit: empty path")
	}
	want, err := parseScalar(value)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", at, err)
	}
	d, err := parse(data)
	if err != nil {
		return nil, false, err
	}
	edits, err := d.plan(path, value, want, order)
	if err != nil {
		return nil, false, err
	}
	if len(edits) == 0 {
		return data, false, nil
	}
	out = apply(data, edits)
	if err := verify(data, out, path, want); err != nil {
		return nil, false, fmt.Errorf("%s: cannot set it without changing more of the file (%v): edit it by hand", at, err)
	}
	return out, true, nil
}

// Quote writes s, valid UTF-8, as a YAML string scalar: plain when YAML
// reads it back as that very string in block and in flow context,
// double-quoted otherwise (JSON escapes are YAML escapes), so values like
// true, 1e3, null or a,b stay strings wherever they are inserted. The
// booleans of YAML 1.1 (yes, off...) are quoted too, for the tools that
// still read them so.
func Quote(s string) string {
	if s != "" && !strings.Contains(s, "\t") && printable(s) && !yaml11Bools[strings.ToLower(s)] {
		if v, err := parseScalar(s); err == nil && v.tag == "!!str" && v.value == s {
			return s
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

var yaml11Bools = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

// printable reports whether s has no character YAML escapes or reads as a
// line break, so it can be written plain.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffd {
			return false
		}
	}
	return true
}

// scalar is a scalar as YAML resolves it.
type scalar struct {
	tag, value string
	decoded    any
}

// parseScalar reads value as the scalar of a block mapping and of a flow
// mapping: both must give the same single-line scalar, so it can be written
// in either.
func parseScalar(value string) (scalar, error) {
	if value == "" || strings.ContainsAny(value, "\r\n\u0085\u2028\u2029") {
		return scalar{}, fmt.Errorf("%q is not a one-line YAML scalar", value)
	}
	block, err := readScalar("k: " + value + "\n")
	if err != nil {
		return scalar{}, fmt.Errorf("%q is not a %v", value, err)
	}
	if flow, err := readScalar("{k: " + value + "}\n"); err != nil || flow.tag != block.tag || flow.value != block.value {
		return scalar{}, fmt.Errorf("%q reads differently inside {}: quote it", value)
	}
	return block, nil
}

// readScalar reads the value of the one-entry mapping doc.
func readScalar(doc string) (scalar, error) {
	var n yaml.Node
	var m map[string]any
	if yaml.Unmarshal([]byte(doc), &n) != nil || yaml.Unmarshal([]byte(doc), &m) != nil {
		return scalar{}, errors.New("YAML scalar")
	}
	if r := n.Content[0]; r.Kind != yaml.MappingNode || len(r.Content) != 2 {
		return scalar{}, errors.New("YAML scalar")
	}
	v := n.Content[0].Content[1]
	if v.Kind != yaml.ScalarNode || v.Anchor != "" || v.Style&(yaml.TaggedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return scalar{}, errors.New("plain or quoted YAML scalar")
	}
	return scalar{v.Tag, v.Value, m["k"]}, nil
}

// doc is a parsed document.
type doc struct {
	src  *source
	root *yaml.Node
	// unit is the file's indentation step, for the lines Set inserts.
	unit int
}

func parse(data []byte) (*doc, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return nil, errors.New("the document is empty")
	}
	root := n.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("the document is not a mapping")
	}
	return &doc{src: newSource(data), root: root, unit: indentUnit(root)}, nil
}

// indentUnit is the most common indentation step between a key and the keys
// of its block mapping value, 2 when the document has none.
func indentUnit(root *yaml.Node) int {
	count := map[int]int{}
	best := 2
	var walk func(m *yaml.Node)
	walk = func(m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if v.Kind != yaml.MappingNode || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0 {
				continue
			}
			if step := v.Content[0].Column - k.Column; step > 0 && v.Content[0].Line > k.Line {
				count[step]++
				if count[step] > count[best] || count[step] == count[best] && step < best {
					best = step
				}
			}
			walk(v)
		}
	}
	walk(root)
	return best
}

// edit replaces src[from:to] with text.
type edit struct {
	from, to int
	text     string
}

func apply(data []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return a.from - b.from })
	var out []byte
	at := 0
	for _, e := range edits {
		out = append(append(out, data[at:e.from]...), e.text...)
		at = e.to
	}
	return append(out, data[at:]...)
}

// plan returns the edits setting path to value, none when it has it already.
func (d *doc) plan(path []string, value string, want scalar, order Order) ([]edit, error) {
	m := d.root
	flow := m.Style&yaml.FlowStyle != 0
	for i, key := range path {
		at := strings.Join(path[:i+1], ".")
		k, v, err := lookup(m, key, at)
		if err != nil {
			return nil, err
		}
		if k == nil {
			var keys []string
			if order != nil {
				keys = order(path[:i])
			}
			return d.insert(m, flow, path[i:], value, keys)
		}
		if v.Kind == yaml.AliasNode {
			return nil, fmt.Errorf("%s is an alias of &%s: edit it by hand", at, v.Value)
		}
		if v.Anchor != "" {
			return nil, fmt.Errorf("%s has the anchor &%s, which other places may refer to: edit it by hand", at, v.Anchor)
		}
		if i == len(path)-1 {
			return d.replace(v, at, flow, value, want)
		}
		switch {
		case v.Kind == yaml.MappingNode:
			m, flow = v, flow || v.Style&yaml.FlowStyle != 0
		case isNull(v):
			return d.fill(k, v, flow, at, path[i+1:], value)
		default:
			return nil, fmt.Errorf("%s is %s, not a mapping", at, describe(v))
		}
	}
	panic("unreachable")
}

// lookup finds key in mapping m.
func lookup(m *yaml.Node, key, at string) (k, v *yaml.Node, err error) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.Value == key {
			if k != nil {
				return nil, nil, fmt.Errorf("%s appears twice (lines %d and %d)", at, k.Line, c.Line)
			}
			k, v = c, m.Content[i+1]
		}
	}
	return k, v, nil
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// implicitNull is a key with nothing after it; yaml.v3 places it just after the colon.
func implicitNull(n *yaml.Node) bool { return isNull(n) && n.Value == "" }

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("the value %q", n.Value)
}

// replace sets the existing scalar v.
func (d *doc) replace(v *yaml.Node, at string, flow bool, value string, want scalar) ([]edit, error) {
	if v.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s is %s, not a single value", at, describe(v))
	}
	if v.Tag == want.tag && v.Value == want.value {
		return nil, nil
	}
	off := d.src.offset(v.Line, v.Column)
	switch {
	case implicitNull(v):
		return []edit{{off, off, " " + value}}, nil
	case v.Style&yaml.TaggedStyle != 0:
		return nil, fmt.Errorf("%s has an explicit tag: edit it by hand", at)
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return nil, fmt.Errorf("%s is a block scalar (| or >): edit it by hand", at)
	}
	end, err := d.scalarEnd(v, off, flow)
	if err != nil {
		return nil, fmt.Errorf("%s %v: edit it by hand", at, err)
	}
	return []edit{{off, end, value}}, nil
}

// scalarEnd is the end of the one-line plain or quoted scalar v at off.
func (d *doc) scalarEnd(v *yaml.Node, off int, flow bool) (int, error) {
	if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return d.src.quotedEnd(off, true)
	}
	end := d.src.plainEnd(off, flow)
	if string(d.src.b[off:end]) != v.Value {
		return 0, errMultiLine
	}
	return end, nil
}

// fill gives the key k, whose value v is null, the mapping holding rest.
func (d *doc) fill(k, v *yaml.Node, flow bool, at string, rest []string, value string) ([]edit, error) {
	off := d.src.offset(v.Line, v.Column)
	var end int
	if !implicitNull(v) {
		var err error
		if end, err = d.scalarEnd(v, off, flow); err != nil {
			return nil, fmt.Errorf("%s %v: edit it by hand", at, err)
		}
	}
	if flow {
		if implicitNull(v) {
			return []edit{{off, off, " " + flowValue(rest, value)}}, nil
		}
		return []edit{{off, end, flowValue(rest, value)}}, nil
	}
	var edits []edit
	if !implicitNull(v) {
		if v.Line != k.Line {
			return nil, fmt.Errorf("%s: its null value is not on the key's line: edit it by hand", at)
		}
		// Drop the null and the blanks before it: the key's line ends with the colon.
		from := off
		for from > 0 && isSpace(d.src.b[from-1]) {
			from--
		}
		edits = append(edits, edit{from, end, ""})
	}
	keyIndent := k.Column - 1
	// Comments indented below the key belong to it (as in a config init writes,
	// which lists the services to enable as comments): insert after them.
	last := d.trailingComments(k.Line, keyIndent+1)
	return append(edits, d.insertLines(last, keyIndent+d.unit, rest, value)), nil
}

// insert adds the path keys (keys[0] missing) to mapping m, whose keys
// come in the order of order when it names them.
func (d *doc) insert(m *yaml.Node, flow bool, keys []string, value string, order []string) ([]edit, error) {
	if flow {
		open := d.src.offset(m.Line, m.Column)
		if d.src.b[open] != '{' {
			return nil, fmt.Errorf("the flow mapping at line %d has an anchor or tag: edit it by hand", m.Line)
		}
		_, last, err := d.src.flowEnd(open)
		if err != nil {
			return nil, err
		}
		entry := Quote(keys[0]) + ": " + flowValue(keys[1:], value)
		switch {
		case len(m.Content) == 0:
		case d.src.b[last-1] == ',':
			entry = " " + entry
		default:
			entry = ", " + entry
		}
		return []edit{{last, last, entry}}, nil
	}
	indent := m.Content[0].Column - 1
	if before, ok := d.orderedPlace(m, keys[0], order); ok {
		return []edit{d.block(before, indent, keys, value)}, nil
	}
	if before, ok := d.sortedPlace(m, keys[0]); ok && !slices.Contains(order, keys[0]) {
		return []edit{d.block(before, indent, keys, value)}, nil
	}
	last := d.lastLine(m, indent)
	last = d.trailingComments(last, indent)
	return []edit{d.insertLines(last, indent, keys, value)}, nil
}

// orderedPlace is where key goes in mapping m when order names it: before
// the first key of m that order puts after it, and the comment lines just
// above that key. ok is false when order does not name key, or puts every
// key of m before it (the key goes last).
func (d *doc) orderedPlace(m *yaml.Node, key string, order []string) (int, bool) {
	rank := slices.Index(order, key)
	if rank < 0 {
		return 0, false
	}
	for i := 0; i < len(m.Content); i += 2 {
		if r := slices.Index(order, m.Content[i].Value); r > rank {
			return d.before(m.Content[i])
		}
	}
	return 0, false
}

// before is the offset of the line of key k, above the comment lines
// just above it; ok is false when k does not start its line.
func (d *doc) before(k *yaml.Node) (int, bool) {
	if !d.src.startsLine(d.src.offset(k.Line, k.Column)) {
		return 0, false
	}
	l := k.Line
	for l > 1 && d.src.comment(l-1) && d.src.indent(l-1) == k.Column-1 {
		l--
	}
	return d.src.start[l-1], true
}

// sortedPlace is where a new key goes in a mapping whose keys are sorted
// (as the services of a config usually are): before the first greater key
// and the comment lines just above it. Two keys in order do not make a
// sorted list yet.
func (d *doc) sortedPlace(m *yaml.Node, key string) (int, bool) {
	var keys []string
	for i := 0; i < len(m.Content); i += 2 {
		keys = append(keys, m.Content[i].Value)
	}
	if len(keys) < 3 || !slices.IsSorted(keys) {
		return 0, false
	}
	i, _ := slices.BinarySearch(keys, key)
	if i == len(keys) {
		return 0, false
	}
	return d.before(m.Content[2*i])
}

// trailingComments extends line last over the comment lines (and blank
// lines between them) that follow it indented by at least indent, and
// returns the last of those comment lines.
func (d *doc) trailingComments(last, indent int) int {
	for l := last + 1; l <= d.src.lines(); l++ {
		switch {
		case d.src.blank(l):
		case d.src.comment(l) && d.src.indent(l) >= indent:
			last = l
		default:
			return last
		}
	}
	return last
}

// insertLines inserts the keys as block lines after line last.
func (d *doc) insertLines(last, indent int, keys []string, value string) edit {
	at := d.src.after(last)
	e := d.block(at, indent, keys, value)
	if at == len(d.src.b) && last == d.src.lines() && len(d.src.text(last)) > 0 {
		e.text = d.src.nl + e.text // the file does not end with a line break
	}
	return e
}

// block inserts at offset at the lines of the keys nested as block mappings,
// the first indented by indent.
func (d *doc) block(at, indent int, keys []string, value string) edit {
	var b strings.Builder
	for i, k := range keys {
		b.WriteString(strings.Repeat(" ", indent+i*d.unit))
		b.WriteString(Quote(k) + ":")
		if i == len(keys)-1 {
			b.WriteString(" " + value)
		}
		b.WriteString(d.src.nl)
	}
	return edit{at, at, b.String()}
}

// flowValue is value nested in flow mappings under keys: {a: {b: value}}.
func flowValue(keys []string, value string) string {
	for _, k := range slices.Backward(keys) {
		value = "{" + Quote(k) + ": " + value + "}"
	}
	return value
}

// lastLine is the last line holding text of node n, a block node whose
// parent collection is indented by parentIndent.
func (d *doc) lastLine(n *yaml.Node, parentIndent int) int {
	switch {
	case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 {
			if closing, _, err := d.src.flowEnd(d.src.offset(n.Line, n.Column)); err == nil {
				return d.src.lineOf(closing)
			}
			return n.Line
		}
		last := n.Content[len(n.Content)-1]
		if n.Kind == yaml.SequenceNode {
			return d.lastLine(last, n.Column-1) // n is at its first "-"
		}
		if implicitNull(last) {
			return n.Content[len(n.Content)-2].Line
		}
		return d.lastLine(last, n.Content[0].Column-1)
	case n.Kind != yaml.ScalarNode:
		return n.Line
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return d.blockScalarEnd(n.Line, parentIndent)
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		if end, err := d.src.quotedEnd(d.src.offset(n.Line, n.Column), false); err == nil {
			return d.src.lineOf(end)
		}
		return n.Line
	}
	// A plain scalar goes on over the following lines indented more than its
	// parent, up to a comment.
	end := d.src.plainEnd(d.src.offset(n.Line, n.Column), false)
	if rest := bytes.TrimLeft(d.src.b[end:d.src.end[n.Line-1]], " \t"); len(rest) > 0 {
		return n.Line // a comment ends it
	}
	last := n.Line
	for l := n.Line + 1; l <= d.src.lines(); l++ {
		if d.src.blank(l) {
			continue
		}
		if d.src.comment(l) || d.src.indent(l) <= parentIndent {
			break
		}
		last = l
	}
	return last
}

// blockScalarEnd is the last non-blank line of the block scalar whose
// header is on line header: its lines are indented like its first non-blank
// line, which must be indented more than parentIndent.
func (d *doc) blockScalarEnd(header, parentIndent int) int {
	last, indent := header, -1
	for l := header + 1; l <= d.src.lines(); l++ {
		if d.src.blank(l) {
			continue
		}
		if indent < 0 {
			if indent = d.src.indent(l); indent <= parentIndent {
				break
			}
		}
		if d.src.indent(l) < indent {
			break
		}
		last = l
	}
	return last
}

// verify checks that after decodes to before with path set to want.
func verify(before, after []byte, path []string, want scalar) error {
	var a, b any
	if err := yaml.Unmarshal(before, &a); err != nil {
		return err
	}
	if err := yaml.Unmarshal(after, &b); err != nil {
		return fmt.Errorf("the result does not parse: %v", err)
	}
	a = with(a, path, want.decoded)
	if !reflect.DeepEqual(a, b) {
		return errors.New("the result reads differently")
	}
	return nil
}

// with returns v with the value at path set, creating mappings.
func with(v any, path []string, value any) any {
	if len(path) == 0 {
		return value
	}
	switch m := v.(type) {
	case map[string]any:
		m[path[0]] = with(m[path[0]], path[1:], value)
		return m
	case map[any]any:
		m[path[0]] = with(m[path[0]], path[1:], value)
		return m
	case nil:
		return map[string]any{path[0]: with(nil, path[1:], value)}
	}
	return v // not a mapping: the edit was refused before
}
