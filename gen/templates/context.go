package templates

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template/parse"
)

// kind is the context of a printed value.
type kind int

const (
	// ctxScalar is a YAML plain scalar: a value, a sequence item, a
	// document, or the same inside a block scalar holding YAML. The value
	// and the literal text of the scalar around it are escaped as one.
	ctxScalar kind = iota + 1
	// ctxKey is a YAML mapping key, escaped whole like a scalar.
	ctxKey
	// ctxComment is text after a YAML #, or a gcfg/INI # or ;.
	ctxComment
	// ctxGcfgValue is the value of a name = value line of a gcfg file.
	ctxGcfgValue
	// ctxGcfgSubsection is the subsection of a gcfg [section "sub"] header.
	ctxGcfgSubsection
	// ctxINIValue is the value of a name=value line of an INI file without escapes.
	ctxINIValue
	// ctxBlock is toYaml | nindent N after a key without a value.
	ctxBlock
)

var kindNames = map[kind]string{
	ctxScalar: "a YAML scalar", ctxKey: "a YAML key", ctxComment: "a comment",
	ctxGcfgValue: "a gcfg value", ctxGcfgSubsection: "a gcfg subsection name", ctxINIValue: "an INI value",
	ctxBlock: "a YAML block (toYaml | nindent)",
}

// Block scalar formats a template comment after the indicator declares.
const (
	formatYAML = "yaml"
	formatGcfg = "gcfg"
	formatINI  = "ini"
)

var formats = []string{formatGcfg, formatINI, formatYAML}

// hctx is the context of one printed value. Scalars and keys group every
// value of the scalar: lits[0] is the literal text before group[0],
// lits[i] the text between group[i-1] and group[i], and the last the text
// after the last value.
type hctx struct {
	kind  kind
	group []int
	lits  []string
	col   int // ctxKey: the key's column
}

func (h *hctx) same(o *hctx) bool {
	return h.kind == o.kind && slices.Equal(h.group, o.group) && slices.Equal(h.lits, o.lits) && h.col == o.col
}

func (h *hctx) String() string { return kindNames[h.kind] }

// text is the scalar's text with its values as {{…}}.
func (h *hctx) text() string { return strings.Join(h.lits, "{{…}}") }

// hole is one printing action of the template.
type hole struct {
	node    *parse.ActionNode
	nindent int // N of toYaml … | nindent N, else -1
	ctx     *hctx
}

// ph stands for a printed value in the text of an output line.
const ph = "\uFFFC"

// blk is an open block scalar: the column of the node that owns it, and
// its declared format. Escapers never write a line break, so a value
// cannot leave its line of the block, nor change the block's indentation.
type blk struct {
	parent int
	format string
}

// state is one way the output can stand: the current line so far (values
// as ph, their holes in ids), the open block scalars, and a block format
// declared on this line.
type state struct {
	line      string
	ids       []int
	blocks    []blk
	format    string
	formatPos parse.Pos
}

func (s state) key() string {
	return fmt.Sprint(s.line, s.ids, s.blocks, s.format, s.formatPos)
}

// analyzer is pass 1: it walks every output line and gives each hole its
// context.
type analyzer struct {
	c     *compiler
	holes []*hole
	byPtr map[*parse.ActionNode]int
}

func union(sets ...[]state) []state {
	var out []state
	seen := map[string]bool{}
	for _, set := range sets {
		for _, s := range set {
			if k := s.key(); !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// maxStates bounds the ways a line can stand; templates need a handful.
const maxStates = 64

func (a *analyzer) list(l *parse.ListNode, in []state) []state {
	if l == nil {
		return in
	}
	cur := in
	for _, n := range l.Nodes {
		cur = a.node(n, cur)
		if len(cur) > maxStates {
			a.c.errorf(n, "too many ways to lay out this line: end lines inside {{if}} and {{range}} blocks")
			return cur[:1]
		}
	}
	return cur
}

func (a *analyzer) node(n parse.Node, in []state) []state {
	switch n := n.(type) {
	case *parse.TextNode:
		return a.text(string(n.Text), n, in)
	case *parse.CommentNode:
		f := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(n.Text), "/*"), "*/"))
		if !slices.Contains(formats, f) {
			return in // an ordinary comment
		}
		out := make([]state, len(in))
		for i, s := range in {
			s.format, s.formatPos = f, n.Pos
			out[i] = s
		}
		return out
	case *parse.ActionNode:
		if len(n.Pipe.Decl) > 0 {
			return in // declarations and assignments print nothing
		}
		id, ok := a.byPtr[n]
		if !ok {
			id = len(a.holes)
			a.byPtr[n] = id
			a.holes = append(a.holes, &hole{node: n, nindent: nindentOf(n.Pipe)})
		}
		out := make([]state, len(in))
		for i, s := range in {
			s.line += ph
			s.ids = append(slices.Clip(s.ids), id)
			out[i] = s
		}
		return out
	case *parse.IfNode:
		return union(a.list(n.List, in), a.list(n.ElseList, in))
	case *parse.WithNode:
		return union(a.list(n.List, in), a.list(n.ElseList, in))
	case *parse.RangeNode:
		// Zero or more passes through the body, until no new way to stand appears.
		acc, frontier := union(in), in
		for range 8 {
			out := a.list(n.List, frontier)
			var fresh []state
			known := map[string]bool{}
			for _, s := range acc {
				known[s.key()] = true
			}
			for _, s := range out {
				if !known[s.key()] {
					fresh = append(fresh, s)
				}
			}
			if len(fresh) == 0 {
				return union(acc, a.list(n.ElseList, in))
			}
			acc, frontier = union(acc, fresh), fresh
		}
		a.c.errorf(n, "the {{range}} body must end the lines it starts")
		return acc
	}
	return in // other nodes are reported by the code pass
}

// text appends literal text, ending a line at each newline.
func (a *analyzer) text(t string, n parse.Node, in []state) []state {
	if strings.Contains(t, ph) {
		a.c.errorf(n, "the template holds U+FFFC, which the compiler reserves")
		return in
	}
	out := make([]state, 0, len(in))
	for _, s := range in {
		rest := t
		for {
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				s.line += rest
				break
			}
			s.line += rest[:i]
			s = a.endLine(s)
			rest = rest[i+1:]
		}
		out = append(out, s)
	}
	return out
}

// finish ends the last line of every way the template can end.
func (a *analyzer) finish(in []state) {
	for _, s := range in {
		a.endLine(s)
	}
	for _, h := range a.holes {
		if h.ctx == nil && len(a.c.diags) == 0 {
			a.c.errorf(h.node, "internal error: no context found for this value")
		}
	}
}

// endLine classifies the values of a finished line and returns the state
// at the start of the next one.
func (a *analyzer) endLine(s state) state {
	blocks := openBlocks(s.line, s.blocks)
	inBlock := len(blocks) > 0
	format := formatYAML
	if inBlock {
		format = blocks[len(blocks)-1].format
	}
	if len(s.ids) > 0 {
		switch format {
		case formatYAML:
			a.yamlLine(s.line, s.ids)
		case formatGcfg, formatINI:
			a.iniLine(s.line, s.ids, format)
		default:
			for _, id := range s.ids {
				a.c.errorf(a.holes[id].node, "a value inside a block scalar whose format is not declared: write {{/* yaml */}}, {{/* gcfg */}} or {{/* ini */}} right after its indicator (key: |{{/* yaml */}})")
			}
		}
	}
	if format == formatYAML {
		if col, ok := blockHeader(s.line); ok {
			return state{blocks: append(slices.Clip(blocks), blk{parent: col, format: s.format})}
		}
	}
	if s.format != "" {
		a.c.errorAt(s.formatPos, "a block format comment {{/* %s */}} belongs right after a block scalar's indicator (key: |{{/* %s */}})", s.format, s.format)
	}
	return state{blocks: blocks}
}

// openBlocks returns the block scalars still open on a line: a line with
// content at or left of a block's parent column ends that block.
func openBlocks(line string, blocks []blk) []blk {
	body := strings.TrimLeft(line, " ")
	if body == "" {
		return blocks
	}
	ind := len(line) - len(body)
	n := len(blocks)
	for n > 0 && ind <= blocks[n-1].parent {
		n--
	}
	return blocks[:n]
}

var blockIndicator = regexp.MustCompile(`^[|>][-+]?[1-9]?[-+]?$`)

// blockHeader reports whether a YAML line ends with a block scalar
// indicator, and the column of the node that owns the block.
func blockHeader(line string) (int, bool) {
	l := parseYAMLLine(line)
	if l.comment >= 0 && l.comment <= l.node {
		return 0, false
	}
	v := strings.TrimSpace(line[l.value:l.end])
	if !blockIndicator.MatchString(v) {
		return 0, false
	}
	if l.colon >= 0 {
		return l.node, true
	}
	return l.dash, true
}

// yamlLine is the layout of one YAML line: byte offsets of its parts.
type yamlLine struct {
	node    int // start of the node after indentation and "- " markers
	dash    int // column of the last "-" marker, or of the node
	colon   int // the mapping indicator ':', -1 for none
	value   int // start of the value (after ": "), or node when no colon
	end     int // end of the value, before a comment and trailing spaces
	comment int // start of a comment, -1 for none
	bad     string
}

// parseYAMLLine splits a line into indentation, sequence markers, key,
// value and comment. Quoted scalars are skipped whole; flow collections are
// taken as opaque values.
func parseYAMLLine(line string) yamlLine {
	l := yamlLine{colon: -1, comment: -1}
	i := len(line) - len(strings.TrimLeft(line, " "))
	l.dash = i
	for strings.HasPrefix(line[i:], "- ") || line[i:] == "-" {
		l.dash = i
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	l.node, l.value = i, i
	if strings.HasPrefix(line[i:], "#") {
		l.comment, l.end = i, i
		return l
	}
	// The key, if any: a quoted scalar followed by ':', or plain text up to ": ".
	j := i
	if j < len(line) && (line[j] == '"' || line[j] == '\'') {
		j = skipQuoted(line, j)
		if j < 0 {
			l.bad = "an unterminated quoted scalar"
			l.end = len(line)
			return l
		}
		if j < len(line) && line[j] == ':' && (j+1 == len(line) || line[j+1] == ' ') {
			l.colon = j
		}
	} else if j < len(line) && line[j] != '[' && line[j] != '{' {
		for k := j; k < len(line); k++ {
			if line[k] == '#' && k > 0 && line[k-1] == ' ' {
				break
			}
			if line[k] == ':' && (k+1 == len(line) || line[k+1] == ' ') {
				l.colon = k
				break
			}
		}
	}
	if l.colon >= 0 {
		l.value = l.colon + 1
		for l.value < len(line) && line[l.value] == ' ' {
			l.value++
		}
	}
	// The value's end: after a quoted scalar or a flow collection, or at a comment.
	k := l.value
	switch {
	case k < len(line) && (line[k] == '"' || line[k] == '\''):
		if k = skipQuoted(line, k); k < 0 {
			l.bad = "an unterminated quoted scalar"
			l.end = len(line)
			return l
		}
	case k < len(line) && (line[k] == '[' || line[k] == '{'):
		k = len(line) // opaque: reported if it holds a value
	}
	l.end = len(line)
	for ; k < len(line); k++ {
		if line[k] == '#' && (k == l.value || line[k-1] == ' ') {
			l.comment, l.end = k, k
			break
		}
	}
	for l.end > l.value && line[l.end-1] == ' ' {
		l.end--
	}
	return l
}

// skipQuoted returns the offset after the quoted scalar starting at i, or -1.
func skipQuoted(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch {
		case q == '"' && line[j] == '\\':
			j++
		case line[j] == q && q == '\'' && j+1 < len(line) && line[j+1] == '\'':
			j++
		case line[j] == q:
			return j + 1
		}
	}
	return -1
}

// holesIn returns the ids of the values between byte offsets from and to.
func holesIn(line string, ids []int, from, to int) []int {
	var out []int
	n := 0
	for off := 0; ; {
		i := strings.Index(line[off:], ph)
		if i < 0 {
			return out
		}
		if p := off + i; p >= from && p < to {
			out = append(out, ids[n])
		}
		n++
		off += i + len(ph)
	}
}

// set gives hole id its context; a hole seen in two contexts is an error.
func (a *analyzer) set(id int, c *hctx) {
	h := a.holes[id]
	switch {
	case h.ctx == nil:
		h.ctx = c
	case h.ctx.same(c):
	case h.ctx.kind == c.kind && (c.kind == ctxScalar || c.kind == ctxKey):
		a.c.errorf(h.node, "this value's scalar is %q on one path through the template and %q on another: write a scalar's text and values together, without branches between them", h.ctx.text(), c.text())
	default:
		a.c.errorf(h.node, "this value is in %s on one path through the template and in %s on another: its context must not depend on the branches taken", h.ctx, c)
	}
}

func (a *analyzer) bad(ids []int, format string, args ...any) {
	for _, id := range ids {
		a.c.errorf(a.holes[id].node, format, args...)
	}
}

// group gives the values of the scalar line[from:to] their context.
func (a *analyzer) group(line string, ids []int, from, to int, k kind, col int) {
	g := holesIn(line, ids, from, to)
	if len(g) == 0 {
		return
	}
	c := &hctx{kind: k, group: g, lits: strings.Split(line[from:to], ph), col: col}
	for _, id := range g {
		if a.holes[id].nindent >= 0 {
			a.bad([]int{id}, "toYaml | nindent belongs after a key with no value on its line (key:{{ toYaml … | nindent N }})")
			return
		}
		a.set(id, c)
	}
}

func (a *analyzer) yamlLine(line string, ids []int) {
	// toYaml | nindent N at the end of "key:" lays out the key's value.
	if last := ids[len(ids)-1]; a.holes[last].nindent >= 0 && strings.HasSuffix(line, ph) {
		head := line[:len(line)-len(ph)]
		l := parseYAMLLine(head)
		h := a.holes[last]
		switch {
		case l.colon < 0 || l.value != len(head) || l.comment >= 0:
			a.bad([]int{last}, "toYaml | nindent belongs after a key with no value on its line (key:{{ toYaml … | nindent N }})")
		case h.nindent <= l.node:
			a.bad([]int{last}, "nindent %d does not indent the value under its key at column %d", h.nindent, l.node)
		default:
			a.set(last, &hctx{kind: ctxBlock, group: []int{last}, col: h.nindent})
		}
		line, ids = head, ids[:len(ids)-1]
		if len(ids) == 0 {
			return
		}
	}
	l := parseYAMLLine(line)
	if l.comment >= 0 {
		for _, id := range holesIn(line, ids, l.comment, len(line)) {
			a.set(id, &hctx{kind: ctxComment, group: []int{id}})
		}
	}
	switch {
	case l.bad != "":
		a.bad(holesIn(line, ids, 0, len(line)), "this line holds %s", l.bad)
		return
	case l.colon >= 0:
		if line[l.node] == '"' || line[l.node] == '\'' {
			a.bad(holesIn(line, ids, l.node, l.colon), "a value inside a quoted key: drop the quotes, values are escaped for their context")
		} else {
			a.group(line, ids, l.node, l.colon, ctxKey, l.node)
		}
	}
	v := line[l.value:l.end]
	switch {
	case v == "":
	case v[0] == '"' || v[0] == '\'':
		a.bad(holesIn(line, ids, l.value, l.end), "a value inside a quoted scalar: drop the quotes, values are escaped for their context (a number as a string: {{ print … }})")
	case v[0] == '[' || v[0] == '{':
		a.bad(holesIn(line, ids, l.value, l.end), "a value inside a flow collection: write the collection in block style")
	case v[0] == '|' || v[0] == '>' || v[0] == '&' || v[0] == '!' || v[0] == '*' || v[0] == '?':
		a.bad(holesIn(line, ids, l.value, l.end), "a value after %q: not a context the compiler can escape for", v[:1])
	default:
		if l.colon < 0 && strings.HasPrefix(v, "? ") {
			a.bad(holesIn(line, ids, l.value, l.end), "a value in an explicit key (? ): write the key implicitly")
			return
		}
		a.group(line, ids, l.value, l.end, ctxScalar, 0)
	}
	if l.comment < 0 {
		a.bad(holesIn(line, ids, l.end, len(line)), "a value after the end of its scalar")
	} else {
		a.bad(holesIn(line, ids, l.end, l.comment), "a value after the end of its scalar")
	}
}

var iniSection = regexp.MustCompile(`^\[[A-Za-z0-9.-]+ ` + ph + `\]\s*$`)

// iniLine classifies the values of a line of a gcfg or INI block.
func (a *analyzer) iniLine(line string, ids []int, format string) {
	body := strings.TrimLeft(line, " ")
	off := len(line) - len(body)
	switch {
	case strings.HasPrefix(body, "#") || strings.HasPrefix(body, ";"):
		for _, id := range ids {
			a.set(id, &hctx{kind: ctxComment, group: []int{id}})
		}
		return
	case strings.HasPrefix(body, "["):
		if format == formatGcfg && len(ids) == 1 && iniSection.MatchString(body) {
			a.set(ids[0], &hctx{kind: ctxGcfgSubsection, group: ids})
			return
		}
		if format == formatGcfg {
			a.bad(ids, "in a gcfg section header a value can only be the subsection name: [Section {{ … }}] (the escaper quotes it)")
		} else {
			a.bad(ids, "an INI section name cannot hold a value")
		}
		return
	}
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		a.bad(ids, "a value on a %s line that is not name = value", format)
		return
	}
	a.bad(holesIn(line, ids, off, eq), "a value in a %s variable name", format)
	k := ctxGcfgValue
	if format == formatINI {
		k = ctxINIValue
	}
	quoted := false
	for i := eq + 1; i < len(line); i++ {
		switch {
		case line[i] == '"':
			quoted = !quoted
		case line[i] == '\\' && quoted:
			i++
		case strings.HasPrefix(line[i:], ph):
			id := holesIn(line, ids, i, i+1)
			if quoted {
				a.bad(id, "a value inside a quoted %s string: drop the quotes, the escaper quotes when needed", format)
			} else {
				a.set(id[0], &hctx{kind: k, group: id})
			}
			i += len(ph) - 1
		case (line[i] == ';' || line[i] == '#') && !quoted:
			for _, id := range holesIn(line, ids, i, len(line)) {
				a.set(id, &hctx{kind: ctxComment, group: []int{id}})
			}
			return
		}
	}
}

// nindentOf returns N for a pipeline `toYaml x | nindent N` (or
// `nindent N (toYaml x)`), else -1.
func nindentOf(p *parse.PipeNode) int {
	if p == nil || len(p.Cmds) == 0 {
		return -1
	}
	last := p.Cmds[len(p.Cmds)-1]
	if len(last.Args) < 2 {
		return -1
	}
	if id, ok := last.Args[0].(*parse.IdentifierNode); !ok || id.Ident != "nindent" {
		return -1
	}
	if n, ok := last.Args[1].(*parse.NumberNode); ok && n.IsInt && n.Int64 >= 0 {
		return int(n.Int64)
	}
	return -1
}
