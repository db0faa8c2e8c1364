package sops

import (
	"errors"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"
	"time"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// DecryptNode is Decrypt for a document already parsed by yaml.v3 (its
// document node, or the root mapping as yamlfile.Parse returns it): it
// decrypts every encrypted value and comment in place, verifies the MAC,
// removes the top-level sops: entry, and returns the metadata with DataKey.
// Nodes keep their lines, so callers can still point at the file.
//
// It fails where Decrypt fails, with the same errors. A decrypted scalar gets
// the Value, Tag and Style that parsing Decrypt's output gives it (an int
// stays !!int, a string that looks like a number stays !!str); plaintext
// scalars stay as written, where Decrypt re-emits them (2.0 as 2). Aliases
// are replaced by copies of what they refer to, as sops's own document model
// does, so each copy is decrypted at its own path.
//
// Nothing is decrypted unless everything is: after an error, the tree holds
// what it held, except that aliases may have been expanded.
func DecryptNode(root *yaml.Node, ids []age.Identity) (Metadata, error) {
	m, err := rootMapping(root)
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	at, meta, err := nodeMetadata(m)
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	key, err := meta.unwrapDataKey(ids)
	if err != nil {
		return Metadata{}, err
	}
	match, err := meta.Rules.compile()
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	d := &nodeDecrypter{dec: &decrypter{key: key}, match: match, metaKey: m.Content[at]}
	err = d.document(root, m)
	if errors.Is(err, errAlias) {
		if err := expandAliases(root); err != nil {
			return Metadata{}, fmt.Errorf("sops: invalid YAML: %w", err)
		}
		d = &nodeDecrypter{dec: d.dec, match: match, metaKey: m.Content[at]}
		err = d.document(root, m)
	}
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	if err := meta.verifyMAC(d.mac, d.dec); err != nil {
		return Metadata{}, err
	}
	if err := d.apply(); err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	removeMetadata(m, at)
	meta.DataKey = key
	return meta.Metadata, nil
}

// ReadNodeMetadata is ReadMetadata for a parsed document: it reads the sops:
// block alone, without checking the rest of the document.
func ReadNodeMetadata(root *yaml.Node) (Metadata, error) {
	m, err := rootMapping(root)
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	_, meta, err := nodeMetadata(m)
	if err != nil {
		return Metadata{}, fmt.Errorf("sops: %w", err)
	}
	return meta.Metadata, nil
}

// rootMapping returns the top-level mapping of a document, with the errors
// parseDocument gives for other roots.
func rootMapping(root *yaml.Node) (*yaml.Node, error) {
	n := root
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, errors.New("the document is empty (sops cannot encrypt an empty file)")
		}
		n = n.Content[0]
	}
	switch n.Kind {
	case yaml.MappingNode:
		return n, nil
	case yaml.SequenceNode:
		return nil, errors.New("a YAML document that is a sequence is not supported; the root must be a mapping")
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return nil, ErrNotEncrypted
		}
		return nil, errors.New("a YAML document that is a single value is not supported; the root must be a mapping")
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node kind %v at the root", n.Line, n.Kind)
}

// nodeMetadata finds the sops: entry of the top-level mapping m and parses
// it; at is the index of its key in m.Content.
func nodeMetadata(m *yaml.Node) (at int, meta *fileMetadata, err error) {
	at = -1
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == metadataKey && k.ShortTag() == "!!str" {
			at = i
			break
		}
	}
	if at < 0 {
		return 0, nil, ErrNotEncrypted
	}
	// nodeValue follows aliases without bound, and sops writes none here.
	if hasAlias(m.Content[at+1]) {
		return 0, nil, errors.New("sops metadata: the sops: entry holds a YAML alias")
	}
	block, err := nodeValue(m.Content[at+1], false)
	if err != nil {
		return 0, nil, fmt.Errorf("sops metadata: %w", err)
	}
	b, ok := block.(mapping)
	if !ok {
		return 0, nil, errors.New("the sops: entry is not a mapping")
	}
	if meta, err = parseMetadata(b); err != nil {
		return 0, nil, fmt.Errorf("sops metadata: %w", err)
	}
	return at, meta, nil
}

func hasAlias(n *yaml.Node) bool {
	return n.Kind == yaml.AliasNode || slices.ContainsFunc(n.Content, hasAlias)
}

// removeMetadata deletes the sops: entry at index at of m. Comments on its
// key are the document's (sops puts trailing comments there), so they move to
// the foot of the mapping; the block's own go with it, as in Decrypt.
func removeMetadata(m *yaml.Node, at int) {
	k := m.Content[at]
	for _, c := range []string{k.HeadComment, k.LineComment, k.FootComment} {
		if c == "" {
			continue
		}
		if m.FootComment != "" {
			m.FootComment += "\n"
		}
		m.FootComment += c
	}
	m.Content = slices.Delete(m.Content, at, at+2)
}

// errAlias stops the first walk of a document that has aliases; they are
// expanded and the document walked again.
var errAlias = errors.New("alias")

// nodeDecrypter walks a yaml.v3 tree in the order of sops's document model
// (see parseDocument and walk): the same leaves, comments and paths, hashed
// in the same order. The walk changes nothing; it records what to write, and
// apply writes it once the MAC matched.
type nodeDecrypter struct {
	dec     *decrypter
	match   *matcher
	metaKey *yaml.Node // the top-level sops: key, whose value is not part of the document
	mac     hash.Hash
	path    []string // the mapping keys down to the current node
	scratch []byte   // a leaf's text for the MAC

	scalarEdits  []scalarEdit
	commentEdits []commentEdit
	itemEdits    []itemEdit
}

// scalarEdit sets a scalar to its decrypted value.
type scalarEdit struct {
	node  *yaml.Node
	value any
}

// commentEdit replaces a comment field with its decrypted text.
type commentEdit struct {
	field *string
	text  string
}

// itemEdit turns a list item back into a comment: sops 3.13.3 writes a
// comment inside an encrypted list as an extra ENC[...,type:comment] item.
type itemEdit struct {
	list, item *yaml.Node
	text       string
}

func (d *nodeDecrypter) document(root, m *yaml.Node) error {
	d.mac = newMAC(d.match.MACOnlyEncrypted)
	if root != m {
		if err := d.comments(root, false); err != nil {
			return err
		}
	}
	return d.mapping(m, false, false)
}

// comments decrypts the comments of n as sops does those of the collection
// at the current path: a comment that does not decrypt stays as it is.
func (d *nodeDecrypter) comments(n *yaml.Node, selected bool) error {
	for _, field := range []*string{&n.HeadComment, &n.LineComment, &n.FootComment} {
		if err := d.comment(field, selected); err != nil {
			return err
		}
	}
	return nil
}

func (d *nodeDecrypter) comment(field *string, selected bool) error {
	if !strings.Contains(*field, encPrefix) || !d.match.encryptsIf(selected) {
		return nil
	}
	lines := strings.Split(*field, "\n")
	changed := false
	for i, line := range lines {
		if line == "" {
			continue
		}
		plain, err := decryptLeaf(comment{text: line[1:]}, d.dec, d.path)
		if err != nil {
			return err
		}
		if c := plain.(comment); c.text != line[1:] {
			lines[i], changed = "#"+c.text, true
		}
	}
	if changed {
		d.commentEdits = append(d.commentEdits, commentEdit{field: field, text: strings.Join(lines, "\n")})
	}
	return nil
}

// mapping walks a mapping whose path is d.path; selected says whether the
// rules' selector matched a key on it. taken says the caller handled the
// mapping's own comments.
func (d *nodeDecrypter) mapping(n *yaml.Node, selected, taken bool) error {
	if !taken {
		if err := d.comments(n, selected); err != nil {
			return err
		}
	}
	if err := checkKeys(n); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode || v.Kind == yaml.AliasNode {
			return errAlias
		}
		if err := d.comments(k, selected); err != nil {
			return err
		}
		// Comments around a scalar value belong to this mapping; a nested
		// mapping or list keeps its own.
		scalar := v.Kind == yaml.ScalarNode
		if scalar {
			if err := d.comments(v, selected); err != nil {
				return err
			}
		}
		if k == d.metaKey {
			continue
		}
		key, err := keyString(k)
		if err != nil {
			return err
		}
		d.path = append(d.path, key)
		err = d.value(v, nil, selected || d.match.selects(key), scalar)
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// value walks the value of a mapping entry (list nil) or an item of list.
func (d *nodeDecrypter) value(n, list *yaml.Node, selected, taken bool) error {
	switch n.Kind {
	case yaml.MappingNode:
		return d.mapping(n, selected, taken)
	case yaml.SequenceNode:
		if !taken {
			if err := d.comments(n, selected); err != nil {
				return err
			}
		}
		for _, item := range n.Content {
			if err := d.comments(item, selected); err != nil {
				return err
			}
			if err := d.value(item, n, selected, true); err != nil {
				return err
			}
		}
		return nil
	case yaml.ScalarNode:
		return d.leaf(n, list, selected)
	case yaml.AliasNode:
		return errAlias
	}
	return fmt.Errorf("line %d: unexpected YAML node kind %v", n.Line, n.Kind)
}

func (d *nodeDecrypter) leaf(n, list *yaml.Node, selected bool) error {
	encrypted := d.match.encryptsIf(selected)
	if n.Tag == "!!str" && !encrypted {
		// Most leaves: a plaintext string, hashed as it is, not boxed.
		if d.match.hashes(false) {
			d.scratch = append(d.scratch[:0], n.Value...)
			d.mac.Write(d.scratch)
		}
		return nil
	}
	v, err := scalarValue(n)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	switch v.(type) {
	case nil:
		return nil // sops neither encrypts nor hashes null
	case string, int, float64, bool, time.Time:
	default:
		return fmt.Errorf("%s: a %T value is not supported by sops (an integer out of the int64 range?)", pathString(d.path), v)
	}
	if encrypted {
		if v, err = decryptLeaf(v, d.dec, d.path); err != nil {
			return err
		}
		if c, ok := v.(comment); ok && list != nil {
			d.itemEdits = append(d.itemEdits, itemEdit{list: list, item: n, text: c.text})
		} else {
			d.scalarEdits = append(d.scalarEdits, scalarEdit{node: n, value: v})
		}
	}
	d.scratch, err = hashLeafWith(d.scratch, d.mac, d.match.Rules, v, encrypted)
	return err
}

// apply writes what the walk decrypted.
func (d *nodeDecrypter) apply() error {
	type form struct {
		value, tag string
		style      yaml.Style
	}
	forms := make([]form, len(d.scalarEdits))
	for i, e := range d.scalarEdits {
		if _, ok := e.value.(comment); ok {
			continue
		}
		var err error
		if forms[i].value, forms[i].tag, forms[i].style, err = scalarForm(e.value); err != nil {
			return err
		}
	}
	for i, e := range d.scalarEdits {
		if _, ok := e.value.(comment); ok {
			// A mapping value that decrypts to a comment: Decrypt writes
			// the comment type, a struct without exported fields, as {}.
			n := e.node
			n.Kind, n.Tag, n.Style, n.Value = yaml.MappingNode, "!!map", yaml.FlowStyle, ""
			continue
		}
		e.node.Value, e.node.Tag, e.node.Style = forms[i].value, forms[i].tag, forms[i].style
	}
	for _, e := range d.commentEdits {
		*e.field = e.text
	}
	for _, e := range d.itemEdits {
		i := slices.Index(e.list.Content, e.item)
		e.list.Content = slices.Delete(e.list.Content, i, i+1)
		// The item's own comments go along, in the order they were read.
		c := e.item.HeadComment
		for _, more := range []string{"#" + e.text, e.item.LineComment, e.item.FootComment} {
			c = joinComment(c, more)
		}
		switch {
		case i < len(e.list.Content):
			next := e.list.Content[i]
			next.HeadComment = joinComment(c, next.HeadComment)
		case i > 0:
			prev := e.list.Content[i-1]
			prev.FootComment = joinComment(prev.FootComment, c)
		default:
			e.list.HeadComment = joinComment(e.list.HeadComment, c)
		}
	}
	return nil
}

func joinComment(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// checkKeys runs the checks yaml.v3 makes when it decodes a mapping, which
// parseDocument relies on: no key twice, and merge keys (<<) only on
// mappings or lists of mappings.
func checkKeys(n *yaml.Node) error {
	type id struct {
		kind  yaml.Kind
		value string
	}
	var seen map[id]*yaml.Node
	if len(n.Content) > 32 {
		seen = make(map[id]*yaml.Node, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		var first *yaml.Node
		if seen != nil {
			first = seen[id{k.Kind, k.Value}]
			if first == nil {
				seen[id{k.Kind, k.Value}] = k
			}
		} else {
			for j := 0; j < i && first == nil; j += 2 {
				if p := n.Content[j]; p.Kind == k.Kind && p.Value == k.Value {
					first = p
				}
			}
		}
		if first != nil {
			return fmt.Errorf("invalid YAML: line %d: mapping key %q already defined at line %d", k.Line, k.Value, first.Line)
		}
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || k.ShortTag() == "!!merge") && !mergeable(n.Content[i+1]) {
			return errors.New("invalid YAML: yaml: map merge requires map or sequence of maps as the value")
		}
	}
	return nil
}

func mergeable(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.MappingNode, yaml.AliasNode:
		return v.Kind == yaml.MappingNode || v.Alias == nil || v.Alias.Kind == yaml.MappingNode
	case yaml.SequenceNode:
		for _, item := range v.Content {
			if item.Kind != yaml.MappingNode && (item.Kind != yaml.AliasNode || item.Alias != nil && item.Alias.Kind != yaml.MappingNode) {
				return false
			}
		}
		return true
	}
	return false
}

// keyString is the key of a mapping entry, which sops requires be a string.
func keyString(k *yaml.Node) (string, error) {
	if k.Kind == yaml.ScalarNode && k.Tag == "!!str" {
		return k.Value, nil
	}
	var key any
	if err := k.Decode(&key); err != nil {
		return "", fmt.Errorf("line %d: %w", k.Line, err)
	}
	s, ok := key.(string)
	if !ok {
		return "", fmt.Errorf("line %d: key %q is a %T; sops supports only string keys (quote it)", k.Line, k.Value, key)
	}
	return s, nil
}

// scalarValue is what yaml.v3 decodes a scalar to, as nodeValue has it,
// without a decoder for the common cases.
func scalarValue(n *yaml.Node) (any, error) {
	implicit := n.Style&yaml.TaggedStyle == 0
	switch n.Tag {
	case "!!str":
		return n.Value, nil
	case "!!null":
		if implicit {
			return nil, nil
		}
	case "!!bool":
		if b, ok := yamlenc.BoolWord(n.Value); ok {
			return b, nil
		}
	case "!!int":
		if i, ok := yamlenc.DecimalInt(n.Value); ok && int64(int(i)) == i {
			return int(i), nil
		}
	}
	var v any
	err := n.Decode(&v)
	return v, err
}

// scalarForm is the Value, Tag and Style a decrypted value has once Decrypt
// wrote it and yaml.v3 read it back: Decrypt encodes each value on its own
// (valueNode), and yaml.v3 keeps that form through the document.
func scalarForm(v any) (string, string, yaml.Style, error) {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v), "!!bool", 0, nil
	case int:
		return strconv.Itoa(v), "!!int", 0, nil
	case string: // most values: their node on the stack, not the heap
		n, err := stringNode(v, false)
		return n.Value, n.Tag, n.Style, err
	}
	n, err := valueNode(v)
	if err != nil {
		return "", "", 0, err
	}
	return n.Value, n.Tag, n.Style, nil
}

// plainString reports whether yaml.v3 writes s as a plain scalar that reads
// back as a string: it starts with a letter, holds only letters, digits and
// _-./+=,[]: (the alphabet of keys and of ENC[...] values), does not end in
// ':', and is none of the words YAML reads as a boolean or null (nor those
// YAML 1.1 did, which yaml.v3 quotes).
func plainString(s string) bool {
	if s == "" || !isLetter(s[0]) || s[len(s)-1] == ':' {
		return false
	}
	for i := range len(s) {
		if !plainByte[s[i]] {
			return false
		}
	}
	return !yamlWord(s) && !yaml11Bool(s)
}

// plainByte marks the bytes plainString allows: letters, digits and
// "_-./+=,[]:". A table, because ENC[...] values are long and every one is
// checked.
var plainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isLetter(byte(c)) || c >= '0' && c <= '9' || strings.IndexByte("_-./+=,[]:", byte(c)) >= 0
	}
	return t
}()

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// maxAliasNodes bounds the nodes expandAliases creates, so that an alias
// bomb (billion laughs) is an error and not an exhausted memory.
const maxAliasNodes = 200_000

// expandAliases replaces every alias under n with a copy of the node it
// refers to, as sops's document model does (nodeValue), so each copy is
// decrypted and hashed at its own path. The alias's own comments stay where
// sops reads them: on the key of a mapping entry, on the copy otherwise.
func expandAliases(n *yaml.Node) error {
	e := &aliasExpander{budget: maxAliasNodes}
	return e.expand(n)
}

type aliasExpander struct {
	budget int
	stack  []*yaml.Node // the nodes being copied, to refuse a recursive alias
}

// expand expands the aliases of the tree under n.
func (e *aliasExpander) expand(n *yaml.Node) error {
	for _, c := range n.Content {
		if c.Kind != yaml.AliasNode {
			if err := e.expand(c); err != nil {
				return err
			}
		}
	}
	return e.replaceAliases(n)
}

// replaceAliases replaces the aliases among the children of n with copies.
func (e *aliasExpander) replaceAliases(n *yaml.Node) error {
	for i, c := range n.Content {
		if c.Kind != yaml.AliasNode {
			continue
		}
		cp, err := e.copyOf(c.Alias, c.Line)
		if err != nil {
			return err
		}
		n.Content[i] = cp
		if n.Kind == yaml.MappingNode && i%2 == 1 && cp.Kind != yaml.ScalarNode {
			// A collection's own comments are inside it; the alias's
			// belong to the entry.
			k := n.Content[i-1]
			k.HeadComment = joinComment(k.HeadComment, c.HeadComment)
			k.LineComment = joinComment(k.LineComment, c.LineComment)
			k.FootComment = joinComment(k.FootComment, c.FootComment)
			continue
		}
		if cp.Kind == yaml.ScalarNode {
			// sops reads no comments from the scalar an alias names.
			cp.HeadComment, cp.LineComment, cp.FootComment = "", "", ""
		}
		cp.HeadComment = joinComment(c.HeadComment, cp.HeadComment)
		cp.LineComment = joinComment(c.LineComment, cp.LineComment)
		cp.FootComment = joinComment(cp.FootComment, c.FootComment)
	}
	return nil
}

// copyOf returns a deep copy of n, its aliases expanded.
func (e *aliasExpander) copyOf(n *yaml.Node, line int) (*yaml.Node, error) {
	switch {
	case n == nil:
		return nil, fmt.Errorf("line %d: an unresolvable alias", line)
	case slices.Contains(e.stack, n):
		return nil, fmt.Errorf("line %d: a recursive alias", line)
	case e.budget <= 0:
		return nil, fmt.Errorf("line %d: aliases expand to more than %d nodes", line, maxAliasNodes)
	}
	e.budget--
	cp := *n
	cp.Anchor = ""
	if len(n.Content) == 0 {
		return &cp, nil
	}
	e.stack = append(e.stack, n)
	defer func() { e.stack = e.stack[:len(e.stack)-1] }()
	cp.Content = slices.Clone(n.Content)
	for i, c := range cp.Content {
		if c.Kind != yaml.AliasNode {
			var err error
			if cp.Content[i], err = e.copyOf(c, line); err != nil {
				return nil, err
			}
		}
	}
	return &cp, e.replaceAliases(&cp)
}
