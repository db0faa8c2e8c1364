package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// Import paths of the packages the generator reads.
const (
	ConfigPkg  = "github.com/opencenter-dev/opencenter/internal/config"
	CatalogPkg = "github.com/opencenter-dev/opencenter/internal/catalog"
)

// Node is one field of the config tree.
type Node struct {
	// JSON is the YAML key ("" for the root and for list/map elements).
	JSON string
	// GoName is the Go field name ("" for the root and elements).
	GoName string
	// Path is the dotted YAML path; list elements add "[]", map values ".*".
	Path string
	// Type is the declared Go type.
	Type types.Type
	// Kind is the field's shape.
	Kind catalog.Kind
	// Ptr is true when the declared type is a pointer.
	Ptr bool
	// Children are the fields of an object, embedded fields flattened, in declaration order.
	Children []*Node
	// Elem is the element of a list or the value of a map.
	Elem *Node
	// Doc is the doc comment of the field (or of its type when the field has none).
	Doc string
	// Default is the `default` tag.
	Default string
	// Format is the `format` tag: a key of config.Formats. On a list or a
	// map it is the format of its items or values.
	Format string
	// KeyFormat is the `key_format` tag of a map: the format of its keys.
	KeyFormat string
	// Enum lists the constants of a string-kinded named type, sorted.
	Enum []string
	// Required is true for keys without omitempty.
	Required bool
	// Secret is true below the config's secrets key.
	Secret bool
	// Parent is the enclosing node (nil for the root).
	Parent *Node
	// RequiredWhen is the `required_when` tag as written (the checker
	// resolves it: check.Requirements).
	RequiredWhen string
	// Pos is where the field is declared, for diagnostics.
	Pos token.Position
}

// Requirement is a resolved `required_when` tag: the field must be set when
// the gate (the enabled field of its service or unit) is true and every term
// holds.
type Requirement struct {
	// Text says when, for explain and messages: "services.loki.storage is s3 or swift".
	Text string
	// Scope is the chain from the root to the node the terms are relative
	// to: the field's parent, or for a secret the config part it belongs
	// to (secrets.services.loki -> opencenter.services.loki). A list in
	// the chain is followed by its element.
	Scope []*Node
	// Gate is the enabled field of Scope's last node or of an ancestor on
	// the chain, nil for none.
	Gate *Node
	// Terms must all hold.
	Terms []Term
	// By is the field that makes the field required: the last term that is
	// not a negation, or the gate.
	By *Node
	// Target is the chain from the root to the required field.
	Target []*Node
}

// Term is one condition of a requirement, on a field of the scope.
type Term struct {
	// Node is the field tested.
	Node *Node
	// Op is what the term tests of the field.
	Op TermOp
	// Values are the values of a TermIn.
	Values []string
	// Chain is, for a term on a field outside the requirement's scope
	// (named by its full path), the nodes from the root to it; nil for a
	// field of the scope.
	Chain []*Node
}

// TermOp is what a requirement term tests of its field.
type TermOp int

// The tests of a requirement term.
const (
	// TermTrue holds when a bool is true.
	TermTrue TermOp = iota + 1
	// TermSet holds when a string is not empty.
	TermSet
	// TermIn holds when the field is one of the term's Values.
	TermIn
	// TermUnset holds when the field is not set (empty, zero or nil).
	TermUnset
)

// Child returns the child with YAML key k.
func (n *Node) Child(k string) *Node {
	for _, c := range n.Children {
		if c.JSON == k {
			return c
		}
	}
	return nil
}

// Keys lists the children's YAML keys.
func (n *Node) Keys() []string {
	out := make([]string, len(n.Children))
	for i, c := range n.Children {
		out[i] = c.JSON
	}
	return out
}

// Model is what the generator knows of the Go side.
type Model struct {
	// Root is the tree of config.Config.
	Root *Node
	// Config and Table are the loaded packages.
	Config, Table *types.Package
	docs          map[token.Pos]string
	typeDocs      map[*types.TypeName]string
	fset          *token.FileSet
}

// Load loads internal/config and internal/catalog from the module at dir and
// builds the field tree; package errors abort.
func Load(dir string) (*Model, error) {
	cfg := &packages.Config{
		Dir:  dir,
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports,
	}
	pkgs, err := packages.Load(cfg, ConfigPkg, CatalogPkg)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", ConfigPkg, err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		return nil, fmt.Errorf("the config packages have errors (above): fix them before generating")
	}
	m := &Model{docs: map[token.Pos]string{}, typeDocs: map[*types.TypeName]string{}}
	for _, p := range pkgs {
		m.fset = p.Fset
		switch p.PkgPath {
		case ConfigPkg:
			m.Config = p.Types
		case CatalogPkg:
			m.Table = p.Types
		}
		m.collectDocs(p)
	}
	obj := m.Config.Scope().Lookup("Config")
	if obj == nil {
		return nil, fmt.Errorf("%s has no type Config", ConfigPkg)
	}
	m.Root = &Node{Type: obj.Type(), Kind: catalog.KindObject, Doc: m.typeDocs[obj.(*types.TypeName)]}
	m.fill(m.Root, obj.Type(), false, 0)
	return m, nil
}

func (m *Model) collectDocs(p *packages.Package) {
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				for _, s := range n.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					doc := ts.Doc
					if doc == nil && len(n.Specs) == 1 {
						doc = n.Doc
					}
					if tn, ok := p.TypesInfo.Defs[ts.Name].(*types.TypeName); ok && doc != nil {
						m.typeDocs[tn] = cleanDoc(doc.Text())
					}
				}
			case *ast.Field:
				if n.Doc == nil {
					return true
				}
				for _, name := range n.Names {
					if obj := p.TypesInfo.Defs[name]; obj != nil {
						m.docs[obj.Pos()] = cleanDoc(n.Doc.Text())
					}
				}
			}
			return true
		})
	}
}

func cleanDoc(s string) string { return strings.Join(strings.Fields(s), " ") }

// TypeDoc returns the doc comment of a named type.
func (m *Model) TypeDoc(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return m.typeDocs[n.Obj()]
	}
	return ""
}

const maxDepth = 12

func (m *Model) fill(n *Node, t types.Type, secret bool, depth int) {
	if depth > maxDepth {
		panic(fmt.Sprintf("config type nesting deeper than %d at %s: recursive type?", maxDepth, n.Path))
	}
	n.Secret = secret
	if p, ok := t.(*types.Pointer); ok {
		n.Ptr = true
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		n.Kind = catalog.KindObject
		m.fields(n, u, secret, depth)
	case *types.Slice:
		n.Kind = catalog.KindList
		n.Elem = &Node{Path: n.Path + "[]", Type: u.Elem(), Parent: n}
		n.Elem.Doc = m.TypeDoc(u.Elem())
		m.fill(n.Elem, u.Elem(), secret, depth+1)
	case *types.Map:
		n.Kind = catalog.KindMap
		n.Elem = &Node{Path: n.Path + ".*", Type: u.Elem(), Parent: n}
		m.fill(n.Elem, u.Elem(), secret, depth+1)
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			n.Kind = catalog.KindString
			n.Enum = m.enum(t)
		case u.Info()&types.IsBoolean != 0:
			n.Kind = catalog.KindBool
		case u.Info()&types.IsInteger != 0:
			n.Kind = catalog.KindInt
		case u.Info()&types.IsFloat != 0:
			n.Kind = catalog.KindNumber
		default:
			panic(fmt.Sprintf("%s: unsupported basic type %s", n.Path, u))
		}
	default:
		panic(fmt.Sprintf("%s: unsupported type %s", n.Path, t))
	}
}

func (m *Model) fields(n *Node, s *types.Struct, secret bool, depth int) {
	for i := range s.NumFields() {
		f := s.Field(i)
		tag := reflect.StructTag(s.Tag(i))
		name, opts, _ := strings.Cut(tag.Get("json"), ",")
		if name == "-" || (!f.Exported() && !f.Embedded()) {
			continue
		}
		if f.Embedded() && name == "" {
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			m.fields(n, t.Underlying().(*types.Struct), secret, depth)
			continue
		}
		if name == "" {
			name = f.Name()
		}
		path := name
		if n.Path != "" {
			path = n.Path + "." + name
		}
		c := &Node{
			JSON:      name,
			GoName:    f.Name(),
			Path:      path,
			Type:      f.Type(),
			Doc:       m.docs[f.Pos()],
			Default:   tag.Get("default"),
			Format:    tag.Get("format"),
			KeyFormat: tag.Get("key_format"),
			Parent:    n,
			Required:  !slices.Contains(strings.Split(opts, ","), "omitempty"),

			RequiredWhen: tag.Get("required_when"),
			Pos:          m.fset.Position(f.Pos()),
		}
		if c.Doc == "" {
			c.Doc = m.TypeDoc(f.Type())
		}
		// Users read these docs next to YAML: name the key, not the Go field.
		if rest, ok := strings.CutPrefix(c.Doc, f.Name()+" "); ok {
			c.Doc = name + " " + rest
		}
		m.fill(c, f.Type(), secret || (n.Path == "" && name == "secrets"), depth+1)
		n.Children = append(n.Children, c)
	}
}

// enum returns the values of the constants declared with named type t in the config package.
func (m *Model) enum(t types.Type) []string {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() != m.Config {
		return nil
	}
	var vals []string
	scope := m.Config.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if ok && types.Identical(c.Type(), t) {
			vals = append(vals, constant.StringVal(c.Val()))
		}
	}
	slices.Sort(vals)
	return vals
}

// Lookup resolves a dotted YAML path from the root. It returns the chain of
// nodes walked (map keys appear as their value node) and, on failure, the
// index of the failing segment.
func (m *Model) Lookup(path string) (chain []*Node, keys []string, bad int) {
	n := m.Root
	for i, seg := range strings.Split(path, ".") {
		switch n.Kind {
		case catalog.KindObject:
			c := n.Child(seg)
			if c == nil {
				return chain, keys, i
			}
			n = c
			keys = append(keys, "")
		case catalog.KindMap:
			n = n.Elem
			keys = append(keys, seg)
		default:
			return chain, keys, i
		}
		chain = append(chain, n)
	}
	return chain, keys, -1
}

// GoTypeString renders t with the config package as "config".
func (m *Model) GoTypeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
