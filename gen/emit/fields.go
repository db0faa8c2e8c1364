package emit

import (
	"fmt"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

var kindConst = map[catalog.Kind]string{
	catalog.KindObject: "KindObject",
	catalog.KindString: "KindString",
	catalog.KindBool:   "KindBool",
	catalog.KindInt:    "KindInt",
	catalog.KindNumber: "KindNumber",
	catalog.KindList:   "KindList",
	catalog.KindMap:    "KindMap",
}

// Fields emits fields.go: the field index, every path of the config in
// declaration order, with an accessor for each path outside lists and maps.
func Fields(cat *check.Catalog) ([]byte, error) {
	m := cat.Model
	f := newFile()
	var entries []jen.Code
	// chain runs from the root, or inside a list's elements from the
	// element; list is the chain to the list whose elements hold n.
	var visit func(n *model.Node, chain, list []*model.Node, inElem bool)
	visit = func(n *model.Node, chain, list []*model.Node, inElem bool) {
		if n.Path != "" {
			entries = append(entries, field(cat, m, n, chain, list, inElem))
		}
		if n.Elem != nil {
			if n.Elem.Kind == catalog.KindObject {
				var outer []*model.Node
				if !inElem {
					outer = chain
				}
				for _, c := range n.Elem.Children {
					visit(c, []*model.Node{c}, outer, true)
				}
			}
			return
		}
		for _, c := range n.Children {
			visit(c, append(chain[:len(chain):len(chain)], c), list, inElem)
		}
	}
	visit(m.Root, nil, nil, false)
	f.Comment("Fields is the field index of the config: every path, in declaration order.")
	f.Var().Id("Fields").Op("=").Index().Qual(CatalogPkg, "Field").Add(values(entries...))
	return render(f)
}

func field(cat *check.Catalog, m *model.Model, n *model.Node, chain, list []*model.Node, inElem bool) jen.Code {
	ff := []jen.Code{
		jen.Id("Path").Op(":").Lit(n.Path),
		jen.Id("Kind").Op(":").Qual(CatalogPkg, kindConst[n.Kind]),
		jen.Id("GoType").Op(":").Lit(m.GoTypeString(n.Type)),
	}
	if cat.Default(n) != "" {
		ff = append(ff, jen.Id("Default").Op(":").Lit(cat.Default(n)))
	}
	if len(n.Enum) > 0 {
		ff = append(ff, jen.Id("Enum").Op(":").Add(strs(n.Enum)))
	}
	if n.Doc != "" {
		ff = append(ff, jen.Id("Doc").Op(":").Lit(n.Doc))
	}
	if n.Secret {
		ff = append(ff, jen.Id("Secret").Op(":").True())
	}
	if n.Required {
		ff = append(ff, jen.Id("Required").Op(":").True())
	}
	if n.Format != "" {
		ff = append(ff, jen.Id("Format").Op(":").Lit(n.Format))
	}
	if n.KeyFormat != "" {
		ff = append(ff, jen.Id("KeyFormat").Op(":").Lit(n.KeyFormat))
	}
	if r := cat.Requirement(n); r != nil {
		ff = append(ff, jen.Id("RequiredWhen").Op(":").Lit(r.Text))
		if !inElem && r.By != nil {
			ff = append(ff, jen.Id("RequiredBy").Op(":").Lit(r.By.Path))
		}
		ff = append(ff, jen.Id("Missing").Op(":").Add(missingFunc(r)))
	}
	if !inElem {
		ff = append(ff, jen.Id("Get").Op(":").Add(getFunc(chain)))
	} else if n.Format != "" && list != nil {
		ff = append(ff, jen.Id("Item").Op(":").Add(itemFunc(list, chain)))
	}
	return values(ff...)
}

// itemFunc compiles the accessor of a string field inside the elements of
// one list, func(c *config.Config, i int) (string, bool): the field's value
// in element i ("" when a pointer on the way to it is nil), and false when
// the list has no element i.
func itemFunc(list, inElem []*model.Node) jen.Code {
	none := jen.List(jen.Lit(""), jen.False())
	stmts, x := walkChain(list, make([]string, len(list)), "", none)
	over := x()
	if list[len(list)-1].Ptr {
		stmts = append(stmts, jen.If(x().Op("==").Nil()).Block(jen.Return(none)))
		over = jen.Parens(jen.Op("*").Add(over))
	}
	stmts = append(stmts,
		jen.If(jen.Id("i").Op(">=").Len(over.Clone())).Block(jen.Return(none)),
		jen.Id("e").Op(":=").Op("&").Add(over.Clone()).Index(jen.Id("i")))
	e := jen.Id("e")
	for _, n := range inElem {
		e = e.Clone().Dot(n.GoName)
		if n.Ptr {
			stmts = append(stmts, jen.If(e.Clone().Op("==").Nil()).Block(jen.Return(jen.Lit(""), jen.True())))
			if n == inElem[len(inElem)-1] {
				e = jen.Op("*").Add(e)
			}
		}
	}
	leaf := inElem[len(inElem)-1].Type
	if p, ok := leaf.(*types.Pointer); ok {
		leaf = p.Elem()
	}
	if leaf != types.Typ[types.String] {
		e = jen.String().Parens(e) // a named string type, such as an enumeration
	}
	stmts = append(stmts, jen.Return(e, jen.True()))
	return jen.Func().Params(cfg(), jen.Id("i").Int()).Params(jen.String(), jen.Bool()).Block(stmts...)
}

// Defaults emits defaults.go: ApplyDefaults from the `default` tags and the
// units' namespaces, in plain Go.
func Defaults(cat *check.Catalog) ([]byte, error) {
	m := cat.Model
	f := newFile()
	body := defaults(cat, m.Root, func() *jen.Statement { return jen.Id("c") }, 0)
	f.Comment("ApplyDefaults fills every field the user left empty that has a default:")
	f.Comment("`default` struct tags, and each service's namespace from its descriptor.")
	f.Func().Id("ApplyDefaults").Params(cfg()).Block(body...)
	return render(f)
}

func defaults(cat *check.Catalog, n *model.Node, x func() *jen.Statement, depth int) []jen.Code {
	var out []jen.Code
	for _, c := range n.Children {
		cx := func() *jen.Statement { return x().Dot(c.GoName) }
		switch {
		case c.Kind == catalog.KindObject:
			if c.Ptr {
				v := fmt.Sprintf("p%d", depth)
				inner := defaults(cat, c, func() *jen.Statement { return jen.Id(v) }, depth+1)
				if len(inner) > 0 {
					out = append(out, jen.If(jen.Id(v).Op(":=").Add(cx()), jen.Id(v).Op("!=").Nil()).Block(inner...))
				}
			} else {
				out = append(out, defaults(cat, c, cx, depth)...)
			}
		case c.Kind == catalog.KindList && c.Elem.Kind == catalog.KindObject:
			i := fmt.Sprintf("i%d", depth)
			inner := defaults(cat, c.Elem, func() *jen.Statement { return cx().Index(jen.Id(i)) }, depth+1)
			if len(inner) > 0 {
				out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(cx())).Block(inner...))
			}
		case cat.Default(c) != "":
			out = append(out, setDefault(c, cat.Default(c), cx))
		}
	}
	return out
}

func setDefault(n *model.Node, def string, x func() *jen.Statement) jen.Code {
	var lit jen.Code
	var zero jen.Code
	switch n.Kind {
	case catalog.KindString:
		lit, zero = jen.Lit(def), jen.Lit("")
	case catalog.KindInt:
		v, err := strconv.Atoi(def)
		if err != nil {
			panic(fmt.Sprintf("%s: default %q is not an int", n.Path, def))
		}
		lit, zero = jen.Lit(v), jen.Lit(0)
	case catalog.KindNumber:
		v, err := strconv.ParseFloat(def, 64)
		if err != nil {
			panic(fmt.Sprintf("%s: default %q is not a number", n.Path, def))
		}
		lit, zero = jen.Lit(v), jen.Lit(0)
	case catalog.KindBool:
		v, err := strconv.ParseBool(def)
		if err != nil || (!n.Ptr && v) {
			panic(fmt.Sprintf("%s: default %q: a bool defaulting to true must be a *bool", n.Path, def))
		}
		lit, zero = jen.Lit(v), jen.False()
	default:
		panic(fmt.Sprintf("%s: defaults are for scalars, not %s", n.Path, n.Kind))
	}
	if n.Ptr {
		typ := jen.Id(m0(n))
		return jen.If(x().Op("==").Nil()).Block(
			jen.Id("v").Op(":=").Add(typ).Call(lit),
			x().Op("=").Op("&").Id("v"),
		)
	}
	if n.Kind == catalog.KindString && len(n.Enum) > 0 {
		return jen.If(x().Op("==").Add(zero)).Block(x().Op("=").Lit(def))
	}
	return jen.If(x().Op("==").Add(zero)).Block(x().Op("=").Add(lit))
}

// m0 names the Go type of a pointer's element for a typed default.
func m0(n *model.Node) string {
	switch n.Kind {
	case catalog.KindInt:
		return "int"
	case catalog.KindNumber:
		return "float64"
	case catalog.KindBool:
		return "bool"
	}
	return "string"
}

// missingFunc compiles a requirement into func(c *config.Config) []string,
// the paths where the field is required but not set: nil pointers on the way
// to the scope make the requirement void, on the way to the field they make
// it missing.
func missingFunc(r *model.Requirement) jen.Code {
	sel := func(chain []*model.Node) *jen.Statement {
		s := jen.Id("c")
		for _, n := range chain {
			s = s.Dot(n.GoName)
		}
		return s
	}
	outer, elem := r.Scope, (*model.Node)(nil)
	for i, n := range r.Scope {
		if n.Kind == catalog.KindList {
			outer, elem = r.Scope[:i+1], n.Elem
			break
		}
	}
	var body []jen.Code
	for i, n := range outer {
		if n.Ptr {
			body = append(body, jen.If(sel(outer[:i+1]).Op("==").Nil()).Block(jen.Return(jen.Nil())))
		}
	}
	// exprOf is the expression of a field whose parent is on the outer chain
	// or, inside the loop, the element e.
	exprOf := func(n *model.Node) *jen.Statement {
		if n.Parent == elem {
			return jen.Id("e").Dot(n.GoName)
		}
		for i, o := range outer {
			if o == n.Parent {
				return sel(outer[:i+1]).Dot(n.GoName)
			}
		}
		return jen.Id("c").Dot(n.GoName) // a child of the root
	}
	var inner []jen.Code // tests on the element, inside the loop
	skip := func(fails *jen.Statement, onElem bool) {
		if onElem {
			inner = append(inner, jen.If(fails).Block(jen.Continue()))
		} else {
			body = append(body, jen.If(fails).Block(jen.Return(jen.Nil())))
		}
	}
	if r.Gate != nil {
		skip(termFails(model.Term{Node: r.Gate, Op: "true"}, exprOf(r.Gate)), r.Gate.Parent == elem)
	}
	for _, t := range r.Terms {
		if t.Chain != nil {
			// Outside the scope: a nil pointer on the way fails the term.
			for i, n := range t.Chain[:len(t.Chain)-1] {
				if n.Ptr {
					skip(sel(t.Chain[:i+1]).Op("==").Nil(), false)
				}
			}
			skip(termFails(t, sel(t.Chain)), false)
			continue
		}
		skip(termFails(t, exprOf(t.Node)), elem != nil && t.Node.Parent == elem)
	}
	leaf := r.Target[len(r.Target)-1]
	if elem != nil {
		path := jen.Lit(leaf.Parent.Path[:len(leaf.Parent.Path)-2]+"[").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")).Op("+").Lit("]." + leaf.JSON)
		loop := append(inner,
			jen.If(setTest(leaf, exprOf(leaf))).Block(jen.Continue()),
			jen.Id("out").Op("=").Append(jen.Id("out"), path))
		body = append(body,
			jen.Var().Id("out").Index().String(),
			jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(sel(outer))).Block(loop...),
			jen.Return(jen.Id("out")))
		return jen.Func().Params(cfg()).Index().String().Block(body...)
	}
	missing := jen.Return(jen.Index().String().Values(jen.Lit(leaf.Path)))
	for i, n := range r.Target[:len(r.Target)-1] {
		if n.Ptr {
			body = append(body, jen.If(sel(r.Target[:i+1]).Op("==").Nil()).Block(missing))
		}
	}
	body = append(body,
		jen.If(setTest(leaf, sel(r.Target))).Block(jen.Return(jen.Nil())),
		missing)
	return jen.Func().Params(cfg()).Index().String().Block(body...)
}

// termFails is the Go test that a requirement term does not hold for the
// field expression x.
func termFails(t model.Term, x *jen.Statement) *jen.Statement {
	n := t.Node
	switch t.Op {
	case "true":
		if n.Ptr {
			return x.Clone().Op("==").Nil().Op("||").Op("!").Op("*").Add(x)
		}
		return jen.Op("!").Add(x)
	case "unset":
		return setTest(n, x)
	case "set": // a non-pointer string: check.Requirements
		return x.Op("==").Lit("")
	}
	v := x.Clone()
	if n.Ptr {
		v = jen.Op("*").Add(x.Clone())
	}
	var and *jen.Statement
	for _, val := range t.Values {
		lit := jen.Lit(val)
		if n.Kind == catalog.KindInt {
			i, _ := strconv.Atoi(val)
			lit = jen.Lit(i)
		}
		ne := v.Clone().Op("!=").Add(lit)
		if and == nil {
			and = ne
		} else {
			and = and.Op("&&").Add(ne)
		}
	}
	if n.Ptr {
		return x.Op("==").Nil().Op("||").Parens(and)
	}
	return and
}

// setTest is the Go test that the field expression x is set.
func setTest(n *model.Node, x *jen.Statement) *jen.Statement {
	switch {
	case n.Ptr:
		return x.Op("!=").Nil()
	case n.Kind == catalog.KindString:
		return x.Op("!=").Lit("")
	case n.Kind == catalog.KindInt || n.Kind == catalog.KindNumber:
		return x.Op("!=").Lit(0)
	}
	return jen.Len(x).Op(">").Lit(0)
}
