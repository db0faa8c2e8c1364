package templates

import (
	"go/types"
	"text/template/parse"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Funcs are the functions overlay templates may call.
var Funcs = []string{
	"and", "b64enc", "default", "eq", "ge", "gt", "hasPrefix", "join", "le", "len",
	"lower", "lt", "ne", "nindent", "not", "or", "print", "toYaml", "trimPrefix", "upper",
}

// gone are functions of the old dialect, with what replaces them.
var gone = map[string]string{
	"quote":  "quote is not needed: every value is escaped for its context (a number as a string: {{ print … }})",
	"indent": "indent lays out text no escaper sees: write toYaml … | nindent N after a key",
	"slice":  "slice is not supported: use hasPrefix and trimPrefix",
}

// call compiles a function call; piped, when set, is the last argument.
func (g *cg) call(n parse.Node, name string, argNodes []parse.Node, piped *value, sc *scope) ([]jen.Code, value, bool) {
	if why, ok := gone[name]; ok {
		g.c.errorf(n, "%s", why)
		return nil, value{}, false
	}
	switch name {
	case "and", "or":
		return g.andOr(n, name, argNodes, piped, sc)
	case "toYaml", "nindent":
		g.c.errorf(n, "%s lays out a YAML block: write {{ toYaml … | nindent N }} right after a key with no value", name)
		return nil, value{}, false
	}
	var pre []jen.Code
	var args []value
	for _, a := range argNodes {
		p, v, ok := g.arg(a, sc)
		if !ok {
			return nil, value{}, false
		}
		pre, args = append(pre, p...), append(args, v)
	}
	if piped != nil {
		args = append(args, *piped)
	}
	nargs := func(want int) bool {
		if len(args) != want {
			g.c.errorf(n, "%s takes %d arguments, not %d", name, want, len(args))
			return false
		}
		return true
	}
	taint := false
	for _, a := range args {
		taint = taint || a.taint
	}
	str := func(i int) (jen.Code, bool) {
		p, code, ok := g.asString(argNodes0(argNodes, n, i), args[i])
		pre = append(pre, p...)
		return code, ok
	}
	boolean := types.Typ[types.Bool]
	switch name {
	case "not":
		if !nargs(1) {
			break
		}
		return pre, value{code: jen.Op("!").Parens(truth(args[0])), typ: boolean}, true
	case "eq", "ne", "lt", "le", "gt", "ge":
		if len(args) < 2 || name != "eq" && len(args) != 2 {
			g.c.errorf(n, "%s compares two values (eq: one with several)", name)
			break
		}
		op := map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[name]
		var out *jen.Statement
		for _, b := range args[1:] {
			p, x, y, ok := g.comparable(n, args[0], b, op != "==" && op != "!=")
			if !ok {
				return nil, value{}, false
			}
			pre = append(pre, p...)
			c := jen.Parens(jen.Add(x).Op(op).Add(y))
			if out == nil {
				out = c
			} else {
				out = out.Op("||").Add(c)
			}
		}
		return pre, value{code: out, typ: boolean}, true
	case "len":
		if !nargs(1) {
			break
		}
		p, v := g.deref(args[0])
		pre = append(pre, p...)
		switch v.typ.Underlying().(type) {
		case *types.Slice, *types.Map:
		default:
			if !isString(v.typ) {
				g.c.errorf(n, "len of a %s", typeName(v.typ))
				return nil, value{}, false
			}
		}
		return pre, value{code: jen.Len(v.code), typ: types.Typ[types.Int]}, true
	case "print":
		var out *jen.Statement
		prevString := true
		for i, a := range args {
			code, ok := str(i)
			if !ok {
				return nil, value{}, false
			}
			isStr := isString(a.typ) && !isPointer(a.typ)
			if i > 0 && !isStr && !prevString {
				out = out.Op("+").Lit(" ") // fmt.Sprint spaces operands when neither is a string
			}
			if out == nil {
				out = jen.Add(code)
			} else {
				out = out.Op("+").Add(code)
			}
			prevString = isStr
		}
		if out == nil {
			out = jen.Lit("")
		}
		return pre, value{code: out, typ: types.Typ[types.String], taint: taint}, true
	case "lower", "upper", "b64enc":
		if !nargs(1) {
			break
		}
		code, ok := str(0)
		if !ok {
			break
		}
		var out *jen.Statement
		switch name {
		case "lower":
			out = jen.Qual("strings", "ToLower").Call(code)
		case "upper":
			out = jen.Qual("strings", "ToUpper").Call(code)
		default:
			out = jen.Qual("encoding/base64", "StdEncoding").Dot("EncodeToString").Call(jen.Index().Byte().Call(code))
		}
		return pre, value{code: out, typ: types.Typ[types.String], taint: taint}, true
	case "hasPrefix", "trimPrefix":
		if !nargs(2) {
			break
		}
		prefix, ok1 := str(0)
		s, ok2 := str(1)
		if !ok1 || !ok2 {
			break
		}
		if name == "hasPrefix" {
			return pre, value{code: jen.Qual("strings", "HasPrefix").Call(s, prefix), typ: boolean}, true
		}
		return pre, value{code: jen.Qual("strings", "TrimPrefix").Call(s, prefix), typ: types.Typ[types.String], taint: taint}, true
	case "join":
		if !nargs(2) {
			break
		}
		sep, ok := str(0)
		if !ok {
			break
		}
		p, list := g.deref(args[1])
		pre = append(pre, p...)
		if s, ok := list.typ.Underlying().(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.String]) {
			g.c.errorf(n, "join takes a []string, not a %s", typeName(list.typ))
			break
		}
		return pre, value{code: jen.Qual("strings", "Join").Call(list.code, sep), typ: types.Typ[types.String], taint: taint}, true
	case "default":
		if !nargs(2) {
			break
		}
		return g.defaultValue(n, args[0], args[1], pre)
	default:
		g.c.errorf(n, "function %q not defined%s", name, diag.Suggest(name, Funcs))
	}
	return nil, value{}, false
}

func argNodes0(args []parse.Node, n parse.Node, i int) parse.Node {
	if i < len(args) {
		return args[i]
	}
	return n
}

func isPointer(t types.Type) bool { _, ok := pointer(t); return ok }

// family names the kind of scalar t is, "" for other types.
func family(t types.Type) string {
	switch {
	case isString(t):
		return "string"
	case isBool(t):
		return "bool"
	case isInt(t):
		return "int"
	case isUint(t):
		return "uint"
	case isFloat(t):
		return "float"
	}
	return ""
}

// andOr compiles and/or to a bool. An operand that needs statements first
// (a nil check) runs them only when the operands before it did not decide.
func (g *cg) andOr(n parse.Node, name string, argNodes []parse.Node, piped *value, sc *scope) ([]jen.Code, value, bool) {
	type operand struct {
		pre []jen.Code
		v   value
	}
	var ops []operand
	for _, a := range argNodes {
		p, v, ok := g.arg(a, sc)
		if !ok {
			return nil, value{}, false
		}
		ops = append(ops, operand{p, v})
	}
	if piped != nil {
		ops = append(ops, operand{v: *piped})
	}
	if len(ops) == 0 {
		g.c.errorf(n, "%s needs at least one argument", name)
		return nil, value{}, false
	}
	op := "&&"
	if name == "or" {
		op = "||"
	}
	lazy := false
	for _, o := range ops[1:] {
		lazy = lazy || len(o.pre) > 0
	}
	if !lazy {
		out := jen.Parens(truth(ops[0].v))
		for _, o := range ops[1:] {
			out = out.Op(op).Parens(truth(o.v))
		}
		return ops[0].pre, value{code: out, typ: types.Typ[types.Bool]}, true
	}
	t := g.fresh("t")
	pre := append(ops[0].pre, jen.Id(t).Op(":=").Add(truth(ops[0].v)))
	for _, o := range ops[1:] {
		cond := jen.Id(t)
		if name == "or" {
			cond = jen.Op("!").Id(t)
		}
		pre = append(pre, jen.If(cond).Block(append(o.pre, jen.Id(t).Op("=").Add(truth(o.v)))...))
	}
	return pre, value{code: jen.Id(t), typ: types.Typ[types.Bool]}, true
}

// comparable returns a and b in types Go compares: both strings, both
// integers, both floats or both bools.
func (g *cg) comparable(n parse.Node, a, b value, ordered bool) ([]jen.Code, jen.Code, jen.Code, bool) {
	pa, a := g.deref(a)
	pb, b := g.deref(b)
	pre := append(pa, pb...)
	if types.Identical(a.typ, b.typ) && scalarType(a.typ) && !stringer(a.typ) {
		if ordered && isBool(a.typ) {
			g.c.errorf(n, "bools are not ordered")
			return nil, nil, nil, false
		}
		return pre, a.code, b.code, true
	}
	var base types.Type
	switch {
	case isString(a.typ) && isString(b.typ):
		base = types.Typ[types.String]
	case isInt(a.typ) && isInt(b.typ):
		base = types.Typ[types.Int64]
	case isUint(a.typ) && isUint(b.typ):
		base = types.Typ[types.Uint64]
	case isFloat(a.typ) && isFloat(b.typ) || isFloat(a.typ) && b.konst && isInt(b.typ) || isFloat(b.typ) && a.konst && isInt(a.typ):
		base = types.Typ[types.Float64]
	case isBool(a.typ) && isBool(b.typ) && !ordered:
		base = types.Typ[types.Bool]
	default:
		g.c.errorf(n, "cannot compare a %s with a %s", typeName(a.typ), typeName(b.typ))
		return nil, nil, nil, false
	}
	return pre, conv(a, base), conv(b, base), true
}

// defaultValue is `default def v`: v, or def when v is nil or the zero
// value of its type.
func (g *cg) defaultValue(n parse.Node, def, v value, pre []jen.Code) ([]jen.Code, value, bool) {
	t := v.typ
	elem, ptr := pointer(t)
	if ptr {
		t = elem
	}
	if !scalarType(t) || stringer(t) {
		g.c.errorf(n, "default of a %s: only scalars have defaults", typeName(v.typ))
		return nil, value{}, false
	}
	dp, d := g.deref(def)
	pre = append(pre, dp...)
	fits := types.Identical(d.typ, t) || family(d.typ) == "string" && family(t) == "string"
	if d.konst {
		fits = family(d.typ) == family(t) || family(d.typ) == "int" && (family(t) == "uint" || family(t) == "float")
	}
	if !fits {
		g.c.errorf(n, "default's value is a %s, the field a %s", typeName(d.typ), typeName(t))
		return nil, value{}, false
	}
	tmp := g.fresh("d")
	pre = append(pre, jen.Var().Id(tmp).Add(typeCode(t)).Op("=").Add(conv(d, t)))
	cur := value{code: v.code, typ: t}
	if ptr {
		p := g.fresh("p")
		cur.code = jen.Op("*").Id(p)
		pre = append(pre, jen.If(jen.Id(p).Op(":=").Add(v.code), jen.Id(p).Op("!=").Nil().Op("&&").Add(truth(cur))).Block(jen.Id(tmp).Op("=").Op("*").Id(p)))
	} else {
		pre = append(pre, jen.If(truth(v)).Block(jen.Id(tmp).Op("=").Add(v.code)))
	}
	return pre, value{code: jen.Id(tmp), typ: t, node: v.node, path: v.path, taint: v.taint || d.taint}, true
}
