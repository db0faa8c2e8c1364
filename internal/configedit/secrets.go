package configedit

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"filippo.io/age"
	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/sops"
)

// EncryptSecrets encrypts the values under the top-level secrets: key of a
// config as sops.EncryptSecrets does (the same values, MAC and sops: block,
// which the real sops decrypts), but in the file's own text: each value is
// replaced where it stands by its ENC[...] form and the sops: block is
// added at the end, so the indentation, comments and key order of the file
// are kept. Comments under secrets: stay as they are (sops would encrypt
// them; it reads them either way).
func EncryptSecrets(data []byte, opts sops.EncryptOptions) ([]byte, error) {
	enc, err := sops.EncryptSecrets(data, opts)
	if err != nil {
		return nil, err
	}
	d, err := parse(data)
	if err != nil {
		return nil, err
	}
	e, err := parse(enc)
	if err != nil {
		return nil, err
	}
	var edits []edit
	if _, plain, _ := lookup(d.root, sops.SecretsKey, sops.SecretsKey); plain != nil {
		_, sealed, _ := lookup(e.root, sops.SecretsKey, sops.SecretsKey)
		if sealed == nil {
			return nil, errors.New("configedit: the encrypted document lost its secrets")
		}
		if edits, err = d.transplant(plain, sealed, 0, false, sops.SecretsKey); err != nil {
			return nil, err
		}
	}
	block, err := metadataText(e, enc)
	if err != nil {
		return nil, err
	}
	out := apply(data, edits)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, d.src.nl...)
	}
	out = append(out, block...)
	if err := sameDocument(enc, out); err != nil {
		return nil, fmt.Errorf("configedit: encrypting in place: %w", err)
	}
	return out, nil
}

// transplant replaces each non-empty scalar below plain (indented by
// parentIndent) by the scalar at the same place below sealed, its
// encrypted counterpart.
func (d *doc) transplant(plain, sealed *yaml.Node, parentIndent int, flow bool, at string) ([]edit, error) {
	if plain.Kind != sealed.Kind {
		return nil, fmt.Errorf("configedit: %s: the encrypted document differs in shape", at)
	}
	flow = flow || plain.Style&yaml.FlowStyle != 0
	var edits []edit
	switch plain.Kind {
	case yaml.MappingNode:
		if len(plain.Content) != len(sealed.Content) {
			return nil, fmt.Errorf("configedit: %s: the encrypted document differs in shape", at)
		}
		for i := 0; i+1 < len(plain.Content); i += 2 {
			k := plain.Content[i]
			more, err := d.transplant(plain.Content[i+1], sealed.Content[i+1], k.Column-1, flow, at+"."+k.Value)
			if err != nil {
				return nil, err
			}
			edits = append(edits, more...)
		}
	case yaml.SequenceNode:
		if len(plain.Content) != len(sealed.Content) {
			return nil, fmt.Errorf("configedit: %s: the encrypted document differs in shape", at)
		}
		for i := range plain.Content {
			more, err := d.transplant(plain.Content[i], sealed.Content[i], plain.Column-1, flow, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			edits = append(edits, more...)
		}
	case yaml.ScalarNode:
		if sealed.Value == plain.Value || !strings.HasPrefix(sealed.Value, "ENC[") {
			return nil, nil // null or "": not encrypted
		}
		from, to, err := d.scalarSpan(plain, parentIndent, flow)
		if err != nil {
			return nil, fmt.Errorf("configedit: %s: %w", at, err)
		}
		text := sealed.Value // plain in block context
		if flow {
			text = Quote(text)
		}
		edits = append(edits, edit{from, to, text})
	default:
		return nil, fmt.Errorf("configedit: %s: an alias under secrets: (write the value itself)", at)
	}
	return edits, nil
}

// scalarSpan is where the bytes of scalar n, whose parent collection is
// indented by parentIndent, begin and end: a block scalar from its
// indicator to the end of its last line.
func (d *doc) scalarSpan(n *yaml.Node, parentIndent int, flow bool) (int, int, error) {
	from := d.src.offset(n.Line, n.Column)
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return from, d.src.end[d.blockScalarEnd(n.Line, parentIndent)-1], nil
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		to, err := d.src.quotedEnd(from, false)
		return from, to, err
	case n.Style&yaml.TaggedStyle != 0:
		return 0, 0, errors.New("a tagged value under secrets: (write it without its tag)")
	}
	last := d.lastLine(n, parentIndent)
	if last == n.Line {
		return from, d.src.plainEnd(from, flow), nil
	}
	return from, d.src.plainEnd(d.src.start[last-1]+d.src.indent(last), flow), nil
}

// metadataText is the text of enc's top-level sops: entry, from its key's
// line to the end of the document.
func metadataText(e *doc, enc []byte) ([]byte, error) {
	for i := 0; i+1 < len(e.root.Content); i += 2 {
		if k := e.root.Content[i]; k.Value == "sops" && k.Column == 1 {
			return enc[e.src.start[k.Line-1]:], nil
		}
	}
	return nil, errors.New("configedit: the encrypted document has no sops: block")
}

// sameDocument checks that out decodes to what want decodes to.
func sameDocument(want, out []byte) error {
	var a, b any
	if err := yaml.Unmarshal(want, &a); err != nil {
		return err
	}
	if err := yaml.Unmarshal(out, &b); err != nil {
		return fmt.Errorf("the result does not parse: %v", err)
	}
	if !reflect.DeepEqual(a, b) {
		return errors.New("the result reads differently from the encrypted document")
	}
	return nil
}

// DecryptSecrets decrypts a config that sops encrypted in its own text:
// each encrypted value is replaced where it stands by its plaintext, and
// the sops: block is removed, so the file reads as it did before it was
// encrypted in place (EncryptSecrets). Comments sops encrypted stay
// encrypted. It returns the metadata, with the data key.
func DecryptSecrets(data []byte, ids []age.Identity) ([]byte, sops.Metadata, error) {
	d, err := parse(data)
	if err != nil {
		return nil, sops.Metadata{}, err
	}
	// Where each encrypted scalar stands, before decryption changes the
	// nodes' values (their positions stay).
	type spot struct {
		n            *yaml.Node
		from, to     int
		parentIndent int
		flow         bool
	}
	var spots []spot
	var walkErr error
	var walk func(n *yaml.Node, parentIndent int, flow bool)
	walk = func(n *yaml.Node, parentIndent int, flow bool) {
		flow = flow || n.Style&yaml.FlowStyle != 0
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], n.Content[i].Column-1, flow)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, n.Column-1, flow)
			}
		case yaml.ScalarNode:
			if strings.HasPrefix(n.Value, "ENC[AES256_GCM,") {
				from, to, err := d.scalarSpan(n, parentIndent, flow)
				if err != nil {
					walkErr = err
				}
				spots = append(spots, spot{n, from, to, parentIndent, flow})
			}
		}
	}
	sopsAt := -1
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		if d.root.Content[i].Value == "sops" {
			sopsAt = i
			continue
		}
		walk(d.root.Content[i+1], 0, false)
	}
	if sopsAt < 0 {
		return nil, sops.Metadata{}, fmt.Errorf("sops: %w", sops.ErrNotEncrypted)
	}
	if walkErr != nil {
		return nil, sops.Metadata{}, fmt.Errorf("configedit: %w", walkErr)
	}
	sopsKey, sopsValue := d.root.Content[sopsAt], d.root.Content[sopsAt+1]
	blockFrom, blockTo := d.src.start[sopsKey.Line-1], d.src.after(d.lastLine(sopsValue, 0))
	meta, err := sops.DecryptNode(d.root, ids)
	if err != nil {
		return nil, sops.Metadata{}, err
	}
	edits := []edit{{blockFrom, blockTo, ""}}
	for _, s := range spots {
		edits = append(edits, edit{s.from, s.to, d.scalarText(s.n, s.parentIndent, s.flow)})
	}
	out := apply(data, edits)
	// What sops --decrypt prints is the reference.
	want, _, err := sops.Decrypt(data, ids)
	if err != nil {
		return nil, sops.Metadata{}, err
	}
	if err := sameDocument(want, out); err != nil {
		return nil, sops.Metadata{}, fmt.Errorf("configedit: decrypting in place: %w", err)
	}
	return out, meta, nil
}

// scalarText writes the decrypted scalar n, whose parent collection is
// indented by parentIndent: a string as Quote writes it, or a literal
// block when it has several lines (in block context); any other type as
// YAML reads it back.
func (d *doc) scalarText(n *yaml.Node, parentIndent int, flow bool) string {
	if n.Tag != "!!str" {
		return n.Value
	}
	if !flow && strings.Contains(n.Value, "\n") {
		if block, ok := d.literalBlock(n.Value, parentIndent+d.unit); ok {
			return block
		}
	}
	return Quote(n.Value)
}

// literalBlock writes s as a literal block scalar whose lines are indented
// by indent; ok is false when one cannot hold s exactly (a line with a
// leading space or a tab first, no final break or several).
func (d *doc) literalBlock(s string, indent int) (string, bool) {
	chomp := ""
	body, ok := strings.CutSuffix(s, "\n")
	switch {
	case !ok:
		chomp = "-"
	case strings.HasSuffix(body, "\n"):
		return "", false
	}
	if !printable(strings.ReplaceAll(body, "\n", "")) || strings.HasPrefix(body, " ") || strings.HasPrefix(body, "\t") {
		return "", false
	}
	var b strings.Builder
	b.WriteString("|" + chomp)
	pad := strings.Repeat(" ", indent)
	for line := range strings.SplitSeq(body, "\n") {
		b.WriteString(d.src.nl)
		if line != "" {
			b.WriteString(pad + line)
		}
	}
	return b.String(), true
}
