package emit

import (
	"fmt"
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
// declaration order with what explain, enable --set and secrets show of
// it. It holds no accessors: the checks that read values are check.go's.
func Fields(cat *check.Catalog) ([]byte, error) {
	f := newFile()
	var entries []jen.Code
	var visit func(n *model.Node)
	visit = func(n *model.Node) {
		if n.Path != "" {
			entries = append(entries, field(cat, n))
		}
		if n.Elem != nil {
			if n.Elem.Kind == catalog.KindObject {
				for _, c := range n.Elem.Children {
					visit(c)
				}
			}
			return
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(cat.Model.Root)
	f.Comment("Fields is the field index of the config: every path, in declaration order.")
	f.Var().Id("Fields").Op("=").Index().Qual(CatalogPkg, "Field").Add(values(entries...))
	return render(f)
}

func field(cat *check.Catalog, n *model.Node) jen.Code {
	ff := []jen.Code{
		jen.Id("Path").Op(":").Lit(n.Path),
		jen.Id("Kind").Op(":").Qual(CatalogPkg, kindConst[n.Kind]),
		jen.Id("GoType").Op(":").Lit(cat.Model.GoTypeString(n.Type)),
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
	}
	return values(ff...)
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
