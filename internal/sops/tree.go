package sops

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
)

// The document model below is sops's own: an ordered mapping whose entries are
// either key/value pairs or comment lines, sequences whose items may be comment
// lines, and scalars decoded by yaml.v3 into Go values (string, int, float64,
// bool, time.Time, nil). sops encrypts comments and re-emits every scalar
// through yaml.v3, so only the same model gives byte-identical output; the
// comment placement rules here reproduce where sops 3.13 puts comments back.

// mapping is an ordered YAML mapping. An entry whose key is a comment is a
// comment line standing between entries; its value is nil.
type mapping []entry

type entry struct {
	key   any // string, or comment
	value any // mapping, []any, scalar, or nil
}

// comment is one comment line without its leading '#'. Inline comments followed
// a value on its line.
type comment struct {
	text   string
	inline bool
}

// parseDocument reads exactly one YAML document whose root is a mapping (or
// empty), as sops's YAML store does.
func parseDocument(data []byte) (mapping, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the document is empty (sops cannot encrypt an empty file)")
	}
	doc, err := yamlfile.ParseDocument("", data)
	if err != nil {
		return nil, yamlError(err)
	}
	if hasAlias(doc) {
		// appendNode copies what each alias names, so an alias bomb would
		// expand to billions of nodes: yaml.v3's decoder refuses one.
		var v any
		if err := doc.Decode(&v); err != nil {
			return nil, fmt.Errorf("invalid YAML: %w", err)
		}
	}
	return appendNode(nil, doc, false)
}

// yamlError is an error of yamlfile's, which names a file sops is not
// told of, as sops words it.
func yamlError(err error) error {
	var l diag.List
	if !errors.As(err, &l) || len(l) != 1 {
		return fmt.Errorf("invalid YAML: %w", err)
	}
	msg := strings.TrimPrefix(l[0].Msg, "YAML syntax error: ")
	if l[0].Line > 0 {
		return fmt.Errorf("invalid YAML: line %d: %s", l[0].Line, msg)
	}
	return fmt.Errorf("invalid YAML: %s", msg)
}

// commentLines turns a yaml.v3 comment block ("# a\n# b") into comment lines.
// Like sops, it drops the first character of each line (the '#') and keeps
// the rest verbatim, leading space included.
func commentLines(block string, inline bool) []comment {
	var out []comment
	for line := range strings.SplitSeq(block, "\n") {
		if line != "" {
			out = append(out, comment{text: line[1:], inline: inline})
		}
	}
	return out
}

func (m mapping) withComments(block string, inline bool) mapping {
	for _, c := range commentLines(block, inline) {
		m = append(m, entry{key: c})
	}
	return m
}

func withSequenceComments(s []any, block string, inline bool) []any {
	for _, c := range commentLines(block, inline) {
		s = append(s, c)
	}
	return s
}

// appendNode appends the entries of a document or mapping node to m.
// commentsTaken says the caller already recorded the node's own head, line and
// foot comments.
func appendNode(m mapping, n *yaml.Node, commentsTaken bool) (mapping, error) {
	if !commentsTaken {
		m = m.withComments(n.HeadComment, false)
		m = m.withComments(n.LineComment, false)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			var err error
			if m, err = appendNode(m, c, false); err != nil {
				return nil, err
			}
		}
	case yaml.MappingNode:
		if err := checkKeys(n); err != nil {
			return nil, err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			m = m.withComments(k.HeadComment, false)
			m = m.withComments(k.LineComment, false)
			// Comments around a scalar value belong to this mapping; a
			// nested mapping or sequence keeps its own.
			scalar := v.Kind == yaml.ScalarNode || v.Kind == yaml.AliasNode
			if scalar {
				m = m.withComments(v.HeadComment, false)
				m = m.withComments(v.LineComment, true)
			}
			key, err := scalarOf(k)
			if err != nil {
				return nil, err
			}
			ks, ok := key.(string)
			if !ok {
				return nil, fmt.Errorf("line %d: key %q is a %T; sops supports only string keys (quote it)", k.Line, k.Value, key)
			}
			val, err := nodeValue(v, scalar)
			if err != nil {
				return nil, err
			}
			m = append(m, entry{key: ks, value: val})
			if scalar {
				m = m.withComments(v.FootComment, false)
			}
			m = m.withComments(k.FootComment, false)
		}
	case yaml.SequenceNode:
		return nil, errors.New("a YAML document that is a sequence is not supported; the root must be a mapping")
	case yaml.ScalarNode:
		if n.ShortTag() != "!!null" {
			return nil, errors.New("a YAML document that is a single value is not supported; the root must be a mapping")
		}
	case yaml.AliasNode:
		var err error
		if m, err = appendNode(m, n.Alias, false); err != nil {
			return nil, err
		}
	}
	if !commentsTaken {
		m = m.withComments(n.FootComment, false)
	}
	return m, nil
}

// scalarOf decodes a scalar node as yaml.v3 decodes it into an any; a
// string is its value, without the cost of a decoder.
func scalarOf(n *yaml.Node) (any, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return v, nil
}

func nodeValue(n *yaml.Node, commentsTaken bool) (any, error) {
	switch n.Kind {
	case yaml.MappingNode:
		return appendNode(mapping{}, n, commentsTaken)
	case yaml.SequenceNode:
		var s []any
		if !commentsTaken {
			s = withSequenceComments(s, n.HeadComment, false)
			s = withSequenceComments(s, n.LineComment, false)
		}
		for _, item := range n.Content {
			s = withSequenceComments(s, item.HeadComment, false)
			s = withSequenceComments(s, item.LineComment, true)
			v, err := nodeValue(item, true)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
			s = withSequenceComments(s, item.FootComment, false)
		}
		if !commentsTaken {
			s = withSequenceComments(s, n.FootComment, false)
		}
		return s, nil
	case yaml.ScalarNode:
		return scalarOf(n)
	case yaml.AliasNode:
		return nodeValue(n.Alias, false)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node kind %v", n.Line, n.Kind)
}

// emitDocument writes m as sops writes YAML: four-space indentation, every
// scalar re-encoded by yaml.v3, comments put back as head, line or foot
// comments.
func emitDocument(m mapping) ([]byte, error) {
	if out, ok := writeDocument(m); ok {
		return out, nil
	}
	return emitYAML(m)
}

// emitYAML is emitDocument through yaml.v3's emitter, for any document.
func emitYAML(m mapping) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(4)
	root, err := mappingNode(m)
	if err != nil {
		return nil, err
	}
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, fmt.Errorf("writing YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("writing YAML: %w", err)
	}
	return b.Bytes(), nil
}

func joinComments(lines []string) string {
	return "#" + strings.Join(lines, "\n#")
}

func addHead(n *yaml.Node, lines []string) { addComment(&n.HeadComment, lines, true) }
func addLine(n *yaml.Node, lines []string) { addComment(&n.LineComment, lines, false) }
func addFoot(n *yaml.Node, lines []string) { addComment(&n.FootComment, lines, false) }

// addComment joins comment lines to a node's comment, before or after what
// it already holds.
func addComment(c *string, lines []string, before bool) {
	if len(lines) == 0 {
		return
	}
	switch add := joinComments(lines); {
	case *c == "":
		*c = add
	case before:
		*c = add + "\n" + *c
	default:
		*c += "\n" + add
	}
}

// mappingNode and sequenceNode attach pending comment lines to the next item:
// head comments before the first item go on the collection itself, inline
// comments go on the value that follows them (where sops parsed them from),
// and trailing comments become the foot of the last item.
func mappingNode(m mapping) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	var p pendingComments
	for _, e := range m {
		if c, ok := e.key.(comment); ok {
			p.add(c)
			continue
		}
		k, err := scalarNode(e.key)
		if err != nil {
			return nil, err
		}
		v, err := valueNode(e.value)
		if err != nil {
			return nil, err
		}
		p.attach(n, k, v)
		n.Content = append(n.Content, k, v)
	}
	p.finish(n, 2)
	return n, nil
}

func sequenceNode(s []any) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	var p pendingComments
	for _, item := range s {
		if c, ok := item.(comment); ok {
			p.add(c)
			continue
		}
		v, err := valueNode(item)
		if err != nil {
			return nil, err
		}
		p.attach(n, v, v)
		n.Content = append(n.Content, v)
	}
	p.finish(n, 1)
	return n, nil
}

// pendingComments are the comment lines met since the last item of a
// collection.
type pendingComments struct {
	head, inline []string
	started      bool
}

func (p *pendingComments) add(c comment) {
	if c.inline {
		p.inline = append(p.inline, c.text)
	} else {
		p.head = append(p.head, c.text)
	}
}

// attach gives the pending lines to an item of collection n: head lines
// before the first item to n, the others to head (its key, or itself), and
// inline lines to its value.
func (p *pendingComments) attach(n, head, value *yaml.Node) {
	if !p.started {
		addHead(n, p.head)
		p.head, p.started = nil, true
	}
	addHead(head, p.head)
	addLine(value, p.inline)
	p.head, p.inline = nil, nil
}

// finish gives the lines after the last item to its foot (the node stride
// places from the end of n's content: its key in a mapping), or to n when
// it has no item.
func (p *pendingComments) finish(n *yaml.Node, stride int) {
	rest := append(p.head, p.inline...)
	switch {
	case len(rest) == 0:
	case p.started:
		addFoot(n.Content[len(n.Content)-stride], rest)
	default:
		addHead(n, rest)
	}
}

func valueNode(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case mapping:
		return mappingNode(v)
	case []any:
		return sequenceNode(v)
	}
	return scalarNode(v)
}

// scalarNode is the node yaml.v3's Node.Encode makes of a scalar, built
// directly for a string it writes plain (stringNode): Node.Encode runs a
// whole emitter and parser per value.
func scalarNode(v any) (*yaml.Node, error) {
	var n yaml.Node
	var err error
	switch s := v.(type) {
	case string:
		n, err = stringNode(s, false)
	case metaString:
		n, err = stringNode(string(s), true)
	default:
		n, err = encodeNode(v)
	}
	return &n, err
}

// stringNode is the node yaml.v3 makes of the string s. The strings of the
// sops: block (meta) are encoded once per process; others, which may be
// decrypted secrets, are not kept.
func stringNode(s string, meta bool) (yaml.Node, error) {
	switch {
	case plainNode(s):
		return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}, nil
	case literalBlock(s):
		return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Value: s}, nil
	case meta:
		return metaNodes.get(metaString(s), encodeMeta) // a copy: callers add comments to it
	}
	return encodeNode(s)
}

func encodeMeta(s metaString) (yaml.Node, error) { return encodeNode(string(s)) }

func encodeNode(v any) (yaml.Node, error) {
	var n yaml.Node
	err := n.Encode(v)
	if s, ok := v.(string); ok && err != nil {
		// yaml.v3 writes some strings in a form it cannot read back (a
		// literal block whose line starts with a tab: "\t\n"), which
		// Encode reports; double quotes, with escapes, hold any string.
		return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: s}, nil
	}
	return n, err
}

// stringStyle returns the style yaml.v3 writes the string s in, and an
// error when it does not write s as that string (another tag or value).
func stringStyle(s string, meta bool) (yaml.Style, error) {
	n, err := stringNode(s, meta)
	if err == nil && (n.Tag != "!!str" || n.Value != s) {
		err = errNotString
	}
	return n.Style, err
}

// errNotString: yaml.v3 does not write a string as itself.
var errNotString = errors.New("yaml.v3 does not write the string as a string scalar")

// metaString is a string of the sops: block: a timestamp, a selector, an
// age stanza, a version, never secret.
type metaString string

// metaNodes holds the nodes of the sops: block's strings that are not
// plain: its timestamps, version, selectors and age stanzas recur across
// files.
var metaNodes = memo[metaString, yaml.Node]{max: 4096}

// plainNode reports whether yaml.v3 encodes s as a plain string scalar (its
// node has no style): plainString's strings, and those plainText reads
// that YAML 1.1 did not read as booleans. Unlike plainString, the emitter
// may fold such a string over lines, so writeDocument does not write them
// itself.
func plainNode(s string) bool {
	return plainString(s) || (plainText(s) || dotWord(s)) && !yaml11Bool(s)
}

// plainText reports whether yaml.v3 reads the plain scalar t, alone on its
// line in block context, as the string t: printable ASCII starting with a
// letter, '$' or '/' (never a number, timestamp or indicator), holding no
// ": " or " #", not ending in a space or ':', and not a boolean or null word.
func plainText(t string) bool {
	if t == "" || !isLetter(t[0]) && t[0] != '$' && t[0] != '/' {
		return false
	}
	return plainRest(t)
}

// plainRest holds plainText's rules after the first byte: printable ASCII,
// no ": " or " #", not ending in a space or ':', not a boolean or null word.
func plainRest(t string) bool {
	if c := t[len(t)-1]; c == ' ' || c == ':' || !printableLine(t) ||
		strings.Contains(t, ": ") || strings.Contains(t, " #") {
		return false
	}
	return !yamlWord(t)
}

// dotWord reports whether yaml.v3 writes s, a word starting with '.' such
// as the key .htpasswd, as a plain string: not "..." and what follows (a
// document end marker), and not a number (.5, .inf, .nan).
func dotWord(s string) bool {
	return s != "" && s[0] == '.' && !strings.HasPrefix(s, "...") && oneWord(s) && plainRest(s) && !yamlenc.OtherType(s)
}

// yamlWord reports whether YAML reads the plain scalar s as a boolean or
// null rather than a string.
func yamlWord(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}

// yaml11Bool reports whether YAML 1.1 read s as a boolean: yaml.v3 quotes
// such strings when it writes them.
func yaml11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}
