package templates

import (
	"go/types"
	"strconv"
	"text/template/parse"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Package paths of the code compiled templates call.
const (
	// EscapePkg is the package of the escapers.
	EscapePkg = "github.com/opencenter-dev/opencenter/internal/escape"
	configPkg = model.ConfigPkg
	tablePkg  = model.CatalogPkg
)

// value is a compiled template expression.
type value struct {
	code   *jen.Statement // the Go expression
	typ    types.Type     // its Go type; nil for the template's root data
	konst  bool           // an untyped constant: typ is its default type
	node   *model.Node    // the config field it reads, nil for none
	path   []pathSeg      // its config path, for render errors
	nonNil bool           // a pointer known not to be nil
	addr   bool           // addressable (a field reached through pointers or c)
	taint  bool           // derived from .Secrets
	unit   bool           // .Unit, whose fields come from the unit and the config
	goName string         // the Go variable holding it, when one does
}

func (v value) expr() *jen.Statement { return jen.Add(v.code) }

// pathSeg is a part of a config path: literal text, or the Go expression of
// a list index (int) or map key (string) known only at render time.
type pathSeg struct {
	lit   string
	dyn   jen.Code
	index bool
}

func litPath(p string) []pathSeg { return []pathSeg{{lit: p}} }

func extend(p []pathSeg, segs ...pathSeg) []pathSeg {
	if p == nil {
		return nil
	}
	return append(append([]pathSeg(nil), p...), segs...)
}

// pathCode is the Go expression of a config path.
func pathCode(p []pathSeg, fallback string) jen.Code {
	if p == nil {
		return jen.Lit(fallback)
	}
	var parts []jen.Code
	lit := ""
	for _, s := range p {
		if s.dyn == nil {
			lit += s.lit
			continue
		}
		if lit != "" {
			parts = append(parts, jen.Lit(lit))
			lit = ""
		}
		if s.index {
			parts = append(parts, jen.Qual("strconv", "Itoa").Call(s.dyn))
		} else {
			parts = append(parts, s.dyn)
		}
	}
	if lit != "" {
		parts = append(parts, jen.Lit(lit))
	}
	out := jen.Add(parts[0])
	for _, p := range parts[1:] {
		out = out.Op("+").Add(p)
	}
	return out
}

// Type predicates on the underlying type.

func basic(t types.Type) (*types.Basic, bool) {
	if t == nil {
		return nil, false
	}
	b, ok := t.Underlying().(*types.Basic)
	return b, ok
}

func isKind(t types.Type, info types.BasicInfo) bool {
	b, ok := basic(t)
	return ok && b.Info()&info != 0
}

func isString(t types.Type) bool { return isKind(t, types.IsString) }
func isBool(t types.Type) bool   { return isKind(t, types.IsBoolean) }
func isInt(t types.Type) bool    { return isKind(t, types.IsInteger) && !isKind(t, types.IsUnsigned) }
func isUint(t types.Type) bool   { return isKind(t, types.IsUnsigned) }
func isFloat(t types.Type) bool  { return isKind(t, types.IsFloat) }

func pointer(t types.Type) (types.Type, bool) {
	if t == nil {
		return nil, false
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return nil, false
	}
	return p.Elem(), true
}

// stringer reports whether t has a String() string method.
func stringer(t types.Type) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "String")
	f, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := f.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// scalarType reports whether values of t print as one scalar.
func scalarType(t types.Type) bool {
	return isString(t) || isBool(t) || isInt(t) || isUint(t) || isFloat(t) || stringer(t)
}

// typeCode is the Go source of t.
func typeCode(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Named:
		if t.Obj().Pkg() == nil {
			return jen.Id(t.Obj().Name())
		}
		return jen.Qual(t.Obj().Pkg().Path(), t.Obj().Name())
	case *types.Alias:
		return typeCode(types.Unalias(t))
	case *types.Pointer:
		return jen.Op("*").Add(typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(typeCode(t.Key())).Add(typeCode(t.Elem()))
	case *types.Basic:
		return jen.Id(types.Default(t).String())
	}
	return jen.Id(t.String())
}

func typeName(t types.Type) string {
	if t == nil {
		return "the template data"
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// scope is what a template position sees: dot and the variables.
type scope struct {
	parent *scope
	dot    value
	vars   map[string]*value
}

func (s *scope) child(dot value) *scope {
	return &scope{parent: s, dot: dot, vars: map[string]*value{}}
}

func (s *scope) lookup(name string) (*value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// arg compiles one operand: pre statements to run first, and its value.
func (g *cg) arg(n parse.Node, sc *scope) ([]jen.Code, value, bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		g.read(sc.dot)
		return g.fields(n, sc.dot, n.Ident, nil)
	case *parse.VariableNode:
		v, ok := sc.lookup(n.Ident[0])
		if !ok {
			g.c.errorf(n, "undefined variable %s", n.Ident[0])
			return nil, value{}, false
		}
		g.read(*v)
		return g.fields(n, *v, n.Ident[1:], nil)
	case *parse.ChainNode:
		pre, v, ok := g.arg(n.Node, sc)
		if !ok {
			return nil, value{}, false
		}
		return g.fields(n, v, n.Field, pre)
	case *parse.DotNode:
		g.read(sc.dot)
		return nil, sc.dot, true
	case *parse.PipeNode:
		if len(n.Decl) > 0 {
			g.c.errorf(n, "a variable declared inside parentheses: declare it in its own action")
			return nil, value{}, false
		}
		return g.pipe(n, sc)
	case *parse.StringNode:
		return nil, value{code: jen.Lit(n.Text), typ: types.Typ[types.String], konst: true}, true
	case *parse.BoolNode:
		return nil, value{code: jen.Lit(n.True), typ: types.Typ[types.Bool], konst: true}, true
	case *parse.NumberNode:
		switch {
		case n.IsInt:
			return nil, value{code: jen.Lit(int(n.Int64)), typ: types.Typ[types.Int], konst: true}, true
		case n.IsFloat:
			return nil, value{code: jen.Lit(n.Float64), typ: types.Typ[types.Float64], konst: true}, true
		}
		g.c.errorf(n, "the number %s is not an int or a float", n.Text)
	case *parse.IdentifierNode:
		return g.call(n, n.Ident, nil, nil, sc)
	case *parse.NilNode:
		g.c.errorf(n, "nil is not a value templates can use")
	default:
		g.c.errorf(n, "%s is not supported in overlay templates", n)
	}
	return nil, value{}, false
}

// pipe compiles a pipeline; each command's value is the last argument of
// the next.
func (g *cg) pipe(p *parse.PipeNode, sc *scope) ([]jen.Code, value, bool) {
	var pre []jen.Code
	var cur *value
	for _, cmd := range p.Cmds {
		pr, v, ok := g.cmd(cmd, sc, cur)
		if !ok {
			return nil, value{}, false
		}
		pre = append(pre, pr...)
		cur = &v
	}
	if cur == nil {
		g.c.errorf(p, "an empty pipeline")
		return nil, value{}, false
	}
	return pre, *cur, true
}

func (g *cg) cmd(c *parse.CommandNode, sc *scope, piped *value) ([]jen.Code, value, bool) {
	if id, ok := c.Args[0].(*parse.IdentifierNode); ok {
		return g.call(id, id.Ident, c.Args[1:], piped, sc)
	}
	if len(c.Args) > 1 || piped != nil {
		g.c.errorf(c, "%s is not a function: only functions take arguments", c.Args[0])
		return nil, value{}, false
	}
	return g.arg(c.Args[0], sc)
}

// read marks the Go variable holding v as read.
func (g *cg) read(v value) {
	if v.goName != "" {
		delete(g.unused, v.goName)
	}
}

// fields follows a chain of field names from v.
func (g *cg) fields(n parse.Node, v value, chain []string, pre []jen.Code) ([]jen.Code, value, bool) {
	walked := ""
	if f, ok := n.(*parse.VariableNode); ok {
		walked = f.Ident[0]
	}
	for _, name := range chain {
		p, next, err := g.field(v, name)
		if err != "" {
			g.c.errorf(n, "%s.%s: %s", walked, name, err)
			return nil, value{}, false
		}
		pre = append(pre, p...)
		v = next
		walked += "." + name
	}
	return pre, v, true
}

// field is v.name: a field or method of a struct (through a pointer, which
// must not be nil) or the value of a string-keyed map.
func (g *cg) field(v value, name string) ([]jen.Code, value, string) {
	if v.typ == nil {
		return g.rootField(name)
	}
	if v.unit {
		_, out, err := g.field(value{code: v.code, typ: v.typ, nonNil: true}, name)
		out.path = g.unitPath(name)
		return nil, out, err
	}
	var pre []jen.Code
	t := v.typ
	if elem, ok := pointer(t); ok {
		if !v.nonNil {
			pre = append(pre, g.nilCheck(v))
		}
		t = elem
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		switch o := obj.(type) {
		case *types.Var:
			out := value{code: v.expr().Dot(name), typ: o.Type(), addr: v.addr || v.typ != t, taint: v.taint}
			if v.node != nil {
				for _, ch := range v.node.Children {
					if ch.GoName == name {
						out.node, out.path = ch, extend(v.path, pathSeg{lit: "." + ch.JSON})
					}
				}
			}
			return pre, out, ""
		case *types.Func:
			sig := o.Type().(*types.Signature)
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
				return nil, value{}, "only methods without arguments and with one result can be called"
			}
			return pre, value{code: v.expr().Dot(name).Call(), typ: sig.Results().At(0).Type(), taint: v.taint}, ""
		}
		return nil, value{}, typeName(t) + " has no field " + name + diag.Suggest(name, fieldNames(u))
	case *types.Map:
		if !isString(u.Key()) {
			break
		}
		tmp := g.fresh("e")
		out := value{code: jen.Id(tmp), typ: u.Elem(), taint: v.taint}
		if v.node != nil && v.node.Elem != nil {
			out.node, out.path = v.node.Elem, extend(v.path, pathSeg{lit: "." + name})
		}
		pre = append(pre,
			jen.List(jen.Id(tmp), jen.Id("ok")).Op(":=").Add(v.expr()).Index(jen.Lit(name)),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Qual(EscapePkg, "NotSet").Call(pathCode(out.path, "."+name)))),
		)
		return pre, out, ""
	}
	return nil, value{}, typeName(t) + " has no fields (it is a " + typeName(t.Underlying()) + ")"
}

func fieldNames(s *types.Struct) []string {
	var out []string
	for i := range s.NumFields() {
		f := s.Field(i)
		if f.Embedded() {
			if e, ok := f.Type().Underlying().(*types.Struct); ok {
				out = append(out, fieldNames(e)...)
			} else if p, ok := pointer(f.Type()); ok {
				if e, ok := p.Underlying().(*types.Struct); ok {
					out = append(out, fieldNames(e)...)
				}
			}
			continue
		}
		if f.Exported() {
			out = append(out, f.Name())
		}
	}
	return out
}

// nilCheck returns the statement that fails the render when v is nil.
func (g *cg) nilCheck(v value) jen.Code {
	return jen.If(v.expr().Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(EscapePkg, "NotSet").Call(pathCode(v.path, "a value the template reads"))))
}

// deref returns the value a pointer points to, failing the render when it
// is nil; other values are returned as they are.
func (g *cg) deref(v value) ([]jen.Code, value) {
	elem, ok := pointer(v.typ)
	if !ok {
		return nil, v
	}
	var pre []jen.Code
	if !v.nonNil {
		pre = append(pre, g.nilCheck(v))
	}
	v.code, v.typ, v.nonNil = jen.Op("*").Add(v.code), elem, false
	return pre, v
}

// truth is text/template's truth of v: false, 0, "", nil and empty
// collections are false.
func truth(v value) jen.Code {
	t := v.typ
	switch {
	case t == nil:
		return jen.True()
	case isBool(t):
		return v.expr()
	case isString(t):
		return v.expr().Op("!=").Lit("")
	case isInt(t) || isUint(t) || isFloat(t):
		return v.expr().Op("!=").Lit(0)
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		if v.nonNil {
			return jen.True()
		}
		return v.expr().Op("!=").Nil()
	case *types.Slice, *types.Map, *types.Array:
		return jen.Len(v.expr()).Op(">").Lit(0)
	}
	return jen.True() // a struct
}

// asString converts a scalar value to its text, as fmt.Sprint prints it.
func (g *cg) asString(n parse.Node, v value) ([]jen.Code, jen.Code, bool) {
	pre, v := g.deref(v)
	t := v.typ
	switch {
	case v.konst && isString(t):
		return pre, v.code, true
	case isString(t):
		if types.Identical(t, types.Typ[types.String]) {
			return pre, v.code, true
		}
		return pre, jen.String().Call(v.code), true
	case isBool(t):
		return pre, jen.Qual("strconv", "FormatBool").Call(conv(v, types.Typ[types.Bool])), true
	case isInt(t):
		return pre, jen.Qual("strconv", "FormatInt").Call(conv(v, types.Typ[types.Int64]), jen.Lit(10)), true
	case isUint(t):
		return pre, jen.Qual("strconv", "FormatUint").Call(conv(v, types.Typ[types.Uint64]), jen.Lit(10)), true
	case isFloat(t):
		return pre, jen.Qual("strconv", "FormatFloat").Call(conv(v, types.Typ[types.Float64]), jen.LitRune('g'), jen.Lit(-1), jen.Lit(64)), true
	case stringer(t):
		return pre, v.expr().Dot("String").Call(), true
	}
	g.c.errorf(n, "%s is a %s, not a value that prints as text", n, typeName(t))
	return nil, nil, false
}

// conv converts v to t when its type differs.
func conv(v value, t types.Type) jen.Code {
	if v.konst || types.Identical(v.typ, t) {
		return v.code
	}
	return typeCode(t).(*jen.Statement).Clone().Call(v.code)
}

// fresh returns an unused Go identifier for a temporary.
func (g *cg) fresh(base string) string {
	for {
		g.n++
		name := base + strconv.Itoa(g.n)
		if !reserved[name] {
			return name
		}
	}
}

// reserved are the identifiers a compiled template uses or imports.
var reserved = map[string]bool{
	"b": true, "c": true, "u": true, "svc": true, "sec": true, "err": true, "ok": true,
	"base64": true, "strconv": true, "strings": true, "escape": true, "config": true, "catalog": true,
}
