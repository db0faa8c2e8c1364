package yamlfile

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

// MaxFileSize bounds an input file; anything larger is rejected unread.
const MaxFileSize = 4 << 20

// maxNodes bounds the YAML nodes visited, aliases expanded, so an alias bomb
// (billion laughs) is rejected instead of exhausting memory.
const maxNodes = 200_000

// maxDepth bounds nesting: a cluster config is about ten levels deep, and a
// recursive alias would otherwise recurse until maxNodes with ever longer paths.
const maxDepth = 64

// maxTokens bounds the lines and commas of a file, and so the YAML nodes it
// parses to.
const maxTokens = 50_000

// maxDiags bounds the diagnostics of one file.
const maxDiags = 100

// Pos is a 1-based line and column.
type Pos struct{ Line, Col int }

// Positions maps YAML paths (a.b[2].c) of one file to the position of their key.
type Positions struct {
	File string
	m    map[string]Pos
}

// Of returns the position of YAML path p, or of its nearest ancestor present
// in the file.
func (ps *Positions) Of(p string) Pos {
	for {
		if at, ok := ps.m[p]; ok {
			return at
		}
		if p == "" {
			return Pos{1, 1}
		}
		p = Parent(p)
	}
}

// All yields every YAML path of the file with the position of its key.
func (ps *Positions) All() iter.Seq2[string, Pos] { return maps.All(ps.m) }

// Has reports whether YAML path p is present in the file.
func (ps *Positions) Has(p string) bool { _, ok := ps.m[p]; return ok }

// Diag returns a diagnostic at YAML path p (or its nearest ancestor).
func (ps *Positions) Diag(p, format string, args ...any) diag.Diag {
	at := ps.Of(p)
	return diag.Diag{File: ps.File, Line: at.Line, Col: at.Col, Path: p, Msg: fmt.Sprintf(format, args...)}
}

// Parent returns the YAML path one level up: a.b[1] -> a.b, a.b -> a.
func Parent(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' || p[i] == '[' {
			return p[:i]
		}
	}
	return ""
}

// ReadFile reads a file of at most MaxFileSize bytes and decodes it into out
// (a pointer), as Decode does.
func ReadFile(name string, out any) (*Positions, error) {
	data, err := Read(name)
	if err != nil {
		return nil, err
	}
	return Decode(name, data, out)
}

// Regular returns an error unless name is a regular file (or a link to one):
// a FIFO, device, socket or directory is refused before it is opened.
func Regular(name string) error {
	_, err := regular(name)
	return err
}

// regular is Regular, also giving the file's size.
func regular(name string) (int64, error) {
	info, err := os.Stat(name)
	if err != nil {
		return 0, fmt.Errorf("cannot read: %v", unwrapPath(err))
	}
	m := info.Mode()
	switch {
	case m.IsRegular():
		return info.Size(), nil
	case m.IsDir():
		return 0, errors.New("is a directory, not a config file")
	case m&os.ModeNamedPipe != 0:
		return 0, errors.New("is a FIFO (named pipe), not a regular file: refused unread")
	case m&os.ModeSocket != 0:
		return 0, errors.New("is a socket, not a regular file: refused unread")
	case m&os.ModeDevice != 0:
		return 0, errors.New("is a device, not a regular file: refused unread")
	}
	return 0, fmt.Errorf("is not a regular file (%s): refused unread", m.Type())
}

// Read reads a regular file of at most MaxFileSize bytes (one byte more tells
// Parse it is too large).
func Read(name string) ([]byte, error) {
	size, err := regular(name)
	if err != nil {
		return nil, diag.List{{File: name, Msg: err.Error()}}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, diag.List{{File: name, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}}
	}
	defer f.Close()
	data, err := readAtMost(f, MaxFileSize+1, size)
	if err != nil {
		return nil, diag.List{{File: name, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}}
	}
	return data, nil
}

// readAtMost reads r to its end or to limit bytes, into a buffer sized for
// the size the file had when it was looked at: two reads, not one per
// doubling as io.ReadAll does.
func readAtMost(r io.Reader, limit, size int64) ([]byte, error) {
	b := make([]byte, 0, min(max(size, 0), limit)+1)
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Decode strictly decodes one YAML document into out (a pointer to a struct
// with json tags), naming the input name in diagnostics. The error is a
// diag.List holding every problem found.
func Decode(name string, data []byte, out any) (*Positions, error) {
	root, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	return DecodeNode(name, root, out)
}

// Parse reads one YAML document of at most MaxFileSize bytes and returns its
// root node, for callers that change the tree before decoding it. Plain
// block YAML is read by a scanner of its own (scanBlock), which keeps no
// comments: callers may not rely on plaintext comments (an encrypted one,
// #ENC[...], always goes through yaml.v3 and is kept).
func Parse(name string, data []byte) (*yaml.Node, error) {
	return ParseText(name, string(data))
}

// ParseText is Parse for text already in a string: the scalars of the
// nodes it returns share its memory, and so do values decoded from them.
func ParseText(name, data string) (*yaml.Node, error) {
	doc, err := parseDocument(name, data, false)
	if err != nil {
		return nil, err
	}
	if len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return doc, nil
}

// ParseDocument is Parse keeping every comment where yaml.v3 puts it, for
// callers that write the document out again (sops). It returns the
// document node, which holds the comments above and below the root.
func ParseDocument(name string, data []byte) (*yaml.Node, error) {
	return parseDocument(name, string(data), true)
}

func parseDocument(name, data string, comments bool) (*yaml.Node, error) {
	if err := bounded(name, data); err != nil {
		return nil, err
	}
	if root, ok := scanBlock(data, comments); ok {
		return &yaml.Node{Kind: yaml.DocumentNode, Line: root.Line, Column: 1, Content: []*yaml.Node{root}}, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, diag.List{{File: name, Line: 1, Col: 1, Msg: "empty file: expected a YAML mapping"}}
		}
		return nil, diag.List{syntaxDiag(name, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, diag.List{{File: name, Line: extra.Line, Col: extra.Column, Msg: "more than one YAML document: expected exactly one"}}
	} else if !errors.Is(err, io.EOF) {
		return nil, diag.List{syntaxDiag(name, data, err)}
	}
	return &doc, nil
}

// ParseAll reads a stream of YAML documents, such as a manifest file
// holding several objects, and returns the root of each document that
// holds anything but null. Comments are not kept. After a syntax error
// it returns the documents before it with the error.
func ParseAll(name string, data []byte) ([]*yaml.Node, error) {
	text := string(data)
	if err := bounded(name, text); err != nil {
		return nil, err
	}
	if root, ok := scanBlock(text, false); ok {
		return []*yaml.Node{root}, nil
	}
	var roots []*yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		switch err := dec.Decode(&doc); {
		case errors.Is(err, io.EOF):
			return roots, nil
		case err != nil:
			return roots, diag.List{syntaxDiag(name, text, err)}
		}
		if len(doc.Content) == 1 && doc.Content[0].ShortTag() != "!!null" {
			roots = append(roots, doc.Content[0])
		}
	}
}

// bounded refuses data larger than MaxFileSize, or with more nodes than
// maxTokens allows.
func bounded(name, data string) error {
	if len(data) > MaxFileSize {
		return diag.List{{File: name, Msg: fmt.Sprintf("file is larger than %d MiB: rejected unread", MaxFileSize>>20)}}
	}
	// Parsing costs memory per node, not per byte: bound the nodes before
	// the parser builds them (each key, item and value starts a line or
	// follows a comma), so the largest accepted file parses in bounded memory.
	// A file of fewer bytes than the bound has fewer: it is not counted.
	if len(data) > maxTokens {
		if n := strings.Count(data, "\n") + strings.Count(data, ","); n > maxTokens {
			return diag.List{{File: name, Msg: fmt.Sprintf("file has %d lines and commas, more than %d: rejected unread (a cluster config has a few hundred)", n, maxTokens)}}
		}
	}
	return nil
}

// PositionsOf returns the positions of the keys of a document that decoded
// into out's type before (data is what it decoded from): the walk of
// DecodeNode without the decoding, its problems ignored (values SOPS
// encrypted in the file are not of their types yet).
func PositionsOf(name, data string, out any) (*Positions, error) {
	root, err := ParseText(name, data)
	if err != nil {
		return nil, err
	}
	w := walker{file: name, pos: map[string]Pos{"": {1, 1}}}
	w.walk(root, reflect.TypeOf(out).Elem(), "")
	return &Positions{File: name, m: w.pos}, nil
}

// DecodeNode strictly decodes a document's root node into out, as Decode does.
func DecodeNode(name string, root *yaml.Node, out any) (*Positions, error) {
	pos := map[string]Pos{"": {1, 1}}
	if err := decodeNode(name, root, out, pos); err != nil {
		return nil, err
	}
	return &Positions{File: name, m: pos}, nil
}

// DecodeValues is DecodeNode without the positions, for a caller that finds
// them again (PositionsOf) only when a problem needs them.
func DecodeValues(name string, root *yaml.Node, out any) error {
	return decodeNode(name, root, out, nil)
}

func decodeNode(name string, root *yaml.Node, out any, pos map[string]Pos) error {
	w := walker{file: name, pos: pos}
	w.walk(root, reflect.TypeOf(out).Elem(), "")
	if len(w.diags) > 0 {
		return w.result()
	}
	if d := assign(name, root, reflect.ValueOf(out).Elem()); d != nil {
		return diag.List{*d}
	}
	return nil
}

// DecodeAround decodes what it can of a document's root node into out: the
// entries that are no field of out's type and the values of the wrong type
// are left out (unset), and returned as problems, so a caller can check the
// rest and report every problem of a file at once. whole is false when the
// document was refused as a whole (too large or deep to walk) or had more
// problems than are listed: out is then unset, or not worth checking.
func DecodeAround(name string, root *yaml.Node, out any) (problems diag.List, whole bool) {
	w := walker{file: name}
	w.walk(root, reflect.TypeOf(out).Elem(), "")
	problems = w.result()
	if w.bomb || w.dropped > 0 {
		return problems, false
	}
	w.prune(root)
	if d := assign(name, root, reflect.ValueOf(out).Elem()); d != nil {
		return append(problems, *d), false
	}
	return problems, true
}

// tabAt finds a tab in the indentation of line, or with later (yaml.v3
// reports some at the line before) of the first line from line on that
// has one, and its column.
func tabAt(data string, line int, later bool) (int, int, bool) {
	n := 0
	for text := range strings.Lines(data) {
		n++
		if n < line {
			continue
		}
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 {
			return n, i + 1, true
		}
		if !later {
			break
		}
	}
	return 0, 0, false
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// tabProblem is yaml.v3's message for a tab in indentation, which it
// gives at the line of the key before (where it started a simple key).
const tabProblem = "found a tab character that violates indentation"

func syntaxDiag(name, data string, err error) diag.Diag {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		// A tab yaml.v3 reports at the line before, or as a token it cannot
		// start: the line and column of the tab.
		if at, col, ok := tabAt(data, line, m[2] == tabProblem); ok {
			return diag.Diag{File: name, Line: at, Col: col, Msg: "YAML syntax error: a tab in the indentation: YAML indents with spaces only"}
		}
		return diag.Diag{File: name, Line: line, Col: 1, Msg: "YAML syntax error: " + m[2]}
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return diag.Diag{File: name, Line: 1, Col: 1, Msg: "YAML syntax error: " + msg}
}
