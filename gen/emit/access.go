package emit

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/check"
	"github.com/opencenter-dev/opencenter/gen/descriptor"
	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/catalog"
)

// walkChain emits the statements that walk from c to the last node of chain,
// returning false (or the given early return) when a pointer on the way is nil
// or a map key is missing; it returns the statements and the leaf expression.
func walkChain(chain []*model.Node, keys []string, tag string, early jen.Code) ([]jen.Code, func() *jen.Statement) {
	var stmts []jen.Code
	sel := []string{"c"}
	base := func(sel []string) func() *jen.Statement {
		s := append([]string(nil), sel...)
		return func() *jen.Statement {
			st := jen.Id(s[0])
			for _, x := range s[1:] {
				st = st.Dot(x)
			}
			return st
		}
	}
	for i, n := range chain {
		if keys[i] != "" {
			v := fmt.Sprintf("v%s%d", tag, i)
			stmts = append(stmts,
				jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Add(base(sel)()).Index(jen.Lit(keys[i])),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Return(early)),
			)
			sel = []string{v}
		} else {
			sel = append(sel, n.GoName)
		}
		if n.Ptr && i < len(chain)-1 {
			stmts = append(stmts, jen.If(base(sel)().Op("==").Nil()).Block(jen.Return(early)))
		}
	}
	return stmts, base(sel)
}

// condFunc compiles ANDed conditions into func(c *config.Config) bool.
func condFunc(conds []*check.Cond) jen.Code {
	if len(conds) == 0 {
		return jen.Nil()
	}
	var body []jen.Code
	for i, k := range conds {
		stmts, x := walkChain(k.Chain, k.Keys, strconv.Itoa(i), jen.False())
		body = append(body, stmts...)
		test := leafTest(k, x, k.Chain[len(k.Chain)-1])
		if i == len(conds)-1 {
			body = append(body, jen.Return(test))
		} else {
			body = append(body, jen.If(jen.Op("!").Parens(test)).Block(jen.Return(jen.False())))
		}
	}
	return jen.Func().Params(cfg()).Bool().Block(body...)
}

func leafTest(k *check.Cond, x func() *jen.Statement, leaf *model.Node) *jen.Statement {
	switch k.Op {
	case descriptor.OpTrue:
		if leaf.Ptr {
			return x().Op("!=").Nil().Op("&&").Op("*").Add(x())
		}
		return x()
	case descriptor.OpFalse:
		if leaf.Ptr {
			return x().Op("==").Nil().Op("||").Op("!").Op("*").Add(x())
		}
		return jen.Op("!").Add(x())
	case descriptor.OpExists:
		switch {
		case leaf.Ptr:
			return x().Op("!=").Nil()
		case leaf.Kind == catalog.KindString:
			return x().Op("!=").Lit("")
		case leaf.Kind == catalog.KindInt || leaf.Kind == catalog.KindNumber:
			return x().Op("!=").Lit(0)
		case leaf.Kind == catalog.KindBool:
			return x()
		default:
			return jen.Len(x()).Op(">").Lit(0)
		}
	}
	var lit jen.Code
	switch leaf.Kind {
	case catalog.KindInt:
		n, _ := strconv.ParseInt(k.Value, 10, 64)
		lit = jen.Lit(int(n))
	case catalog.KindNumber:
		f, _ := strconv.ParseFloat(k.Value, 64)
		lit = jen.Lit(f)
	case catalog.KindBool:
		lit = jen.Lit(k.Value == "true")
	default:
		lit = jen.Lit(k.Value)
	}
	op := "=="
	if k.Op == descriptor.OpNotEquals {
		op = "!="
	}
	if leaf.Ptr {
		return x().Op("!=").Nil().Op("&&").Op("*").Add(x()).Op(op).Add(lit)
	}
	return x().Op(op).Add(lit)
}

// stringFunc compiles the string field k names into func(c *config.Config)
// string, "" when a pointer on the way is nil.
func stringFunc(k *check.Cond) jen.Code {
	stmts, x := walkChain(k.Chain, k.Keys, "", jen.Lit(""))
	stmts = append(stmts, jen.Return(x()))
	return jen.Func().Params(cfg()).String().Block(stmts...)
}
