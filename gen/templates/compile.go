package templates

import (
	"fmt"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template/parse"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/opencenter-dev/opencenter/gen/model"
	"github.com/opencenter-dev/opencenter/internal/diag"
)

// Input is one template to compile.
type Input struct {
	// File is the template's path for diagnostics.
	File string
	// Name is its path under descriptors/files, for the generated doc comment.
	Name string
	// Text is the template.
	Text string
	// Func names the Go function to emit.
	Func string
	// Model holds the config and table packages.
	Model *model.Model
	// Service and Secrets are the config nodes of the unit's service and
	// secrets, nil when it has none: what .Service and .Secrets read.
	Service, Secrets *model.Node
}

// Output is a compiled template.
type Output struct {
	// Func is the name of the emitted function, of the type of catalog.File.Render.
	Func string
	// Code is the function's declaration.
	Code jen.Code
	// Secret is true when the template prints a value read from .Secrets.
	Secret bool
}

type compiler struct {
	in    Input
	diags diag.List
}

func (c *compiler) errorf(n parse.Node, format string, args ...any) {
	c.errorAt(n.Position(), format, args...)
}

func (c *compiler) errorAt(pos parse.Pos, format string, args ...any) {
	off := min(int(pos), len(c.in.Text))
	line := 1 + strings.Count(c.in.Text[:off], "\n")
	col := off - strings.LastIndex(c.in.Text[:off], "\n")
	d := diag.Diag{File: c.in.File, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	if !slices.Contains(c.diags, d) { // a line can be laid out on several paths
		c.diags = append(c.diags, d)
	}
}

var parseErr = regexp.MustCompile(`^template: [^:]+:(\d+):(?:(\d+):)? ?(.*)$`)

// Compile compiles one template. Every problem is a diagnostic at the
// template's file:line:col.
func Compile(in Input) (*Output, diag.List) {
	c := &compiler{in: in}
	t := parse.New(in.Name)
	t.Mode = parse.ParseComments | parse.SkipFuncCheck
	trees := map[string]*parse.Tree{}
	if _, err := t.Parse(in.Text, "", "", trees); err != nil {
		d := diag.Diag{File: in.File, Line: 1, Col: 1, Msg: err.Error()}
		if m := parseErr.FindStringSubmatch(err.Error()); m != nil {
			d.Line, _ = strconv.Atoi(m[1])
			d.Col, _ = strconv.Atoi(m[2])
			d.Msg = m[3]
		}
		return nil, diag.List{d}
	}
	for name, tree := range trees {
		if name != in.Name {
			c.errorAt(tree.Root.Pos, "{{define}} and {{block}}: overlay templates are single files")
		}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	a := &analyzer{c: c, byPtr: map[*parse.ActionNode]int{}}
	a.finish(a.list(t.Root, []state{{}}))
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	g := &cg{c: c, a: a, unused: map[string]*jen.Statement{}}
	root := &scope{vars: map[string]*value{}}
	root.dot = value{} // the template's data
	root.vars["$"] = &value{}
	body := g.list(t.Root, root)
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	for name, st := range g.unused {
		st.Id("_").Op("=").Id(name) // a variable only assigned, or never read
	}
	var decls []jen.Code
	if g.usesSvc {
		// The renderer runs a template only for an active unit, whose
		// service is set: one check serves every read of .Service.
		decls = append(decls,
			jen.Id("svc").Op(":=").Add(selector(in.Service)),
			jen.If(jen.Id("svc").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(EscapePkg, "NotSet").Call(jen.Lit(in.Service.Path)))),
		)
	}
	if g.usesSec {
		decls = append(decls, jen.Id("sec").Op(":=").Add(selector(in.Secrets)))
	}
	if g.usesErr {
		decls = append(decls, jen.Var().Id("err").Error())
	}
	// One allocation for the file: its literal text, and room for the values.
	grow := jen.Id("b").Op("=").Qual("slices", "Grow").Call(jen.Id("b"), jen.Lit(textSize(t.Root)+16*len(a.holes)))
	body = append(append([]jen.Code{grow}, append(decls, body...)...), jen.Return(jen.Id("b"), jen.Nil()))
	code := jen.Commentf("%s renders %s.", in.Func, in.Name).Line().
		Func().Id(in.Func).Params(
		jen.Id("b").Index().Byte(),
		jen.Id("c").Op("*").Qual(configPkg, "Config"),
		jen.Id("u").Op("*").Qual(tablePkg, "Info"),
	).Params(jen.Index().Byte(), jen.Error()).Block(body...)
	return &Output{Func: in.Func, Code: code, Secret: g.secret}, nil
}

// textSize is the length of the literal text of a template.
func textSize(n parse.Node) int {
	switch n := n.(type) {
	case *parse.TextNode:
		return len(n.Text)
	case *parse.ListNode:
		size := 0
		if n != nil {
			for _, c := range n.Nodes {
				size += textSize(c)
			}
		}
		return size
	case *parse.IfNode:
		return textSize(n.List) + textSize(n.ElseList)
	case *parse.WithNode:
		return textSize(n.List) + textSize(n.ElseList)
	case *parse.RangeNode:
		return textSize(n.List) + textSize(n.ElseList)
	}
	return 0
}

// selector is c.X.Y for a config node.
func selector(n *model.Node) *jen.Statement {
	var names []string
	for ; n != nil && n.GoName != ""; n = n.Parent {
		names = append([]string{n.GoName}, names...)
	}
	s := jen.Id("c")
	for _, name := range names {
		s = s.Dot(name)
	}
	return s
}

// FuncName derives a Go function name from a template path.
func FuncName(rel string) string {
	rel = strings.TrimSuffix(rel, ".tpl")
	var b strings.Builder
	b.WriteString("render")
	up := true
	for _, r := range rel {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cg is pass 2: it compiles the template to Go statements.
type cg struct {
	c                         *compiler
	a                         *analyzer
	n                         int
	usesSvc, usesSec, usesErr bool
	secret                    bool
	// unused holds a statement per Go variable, filled with `_ = name` when
	// the template never reads the variable.
	unused map[string]*jen.Statement
}

// bindVar returns the statement that marks Go variable name used if
// nothing reads it; reads delete it from g.unused.
func (g *cg) bindVar(name string) jen.Code {
	st := jen.Null()
	g.unused[name] = st
	return st
}

// rootField is .OpenCenter, .Service, .Secrets or .Unit of the template's data.
func (g *cg) rootField(name string) ([]jen.Code, value, string) {
	in := g.c.in
	switch name {
	case "OpenCenter":
		v := value{code: jen.Id("c").Dot("OpenCenter"), typ: in.Model.Config.Scope().Lookup("OpenCenter").Type(), addr: true}
		if n := in.Model.Root.Child("opencenter"); n != nil {
			v.node, v.path = n, litPath(n.Path)
		}
		return nil, v, ""
	case "Service":
		if in.Service == nil {
			return nil, value{}, "this template's unit has no service"
		}
		g.usesSvc = true
		return nil, value{code: jen.Id("svc"), typ: in.Service.Type, node: in.Service, path: litPath(in.Service.Path), nonNil: true}, ""
	case "Secrets":
		if in.Secrets == nil {
			return nil, value{}, "this template's unit has no secrets type"
		}
		g.usesSec = true
		return nil, value{code: jen.Id("sec"), typ: in.Secrets.Type, node: in.Secrets, path: litPath(in.Secrets.Path), taint: true}, ""
	case "Unit":
		return nil, value{code: jen.Id("u"), typ: types.NewPointer(in.Model.Table.Scope().Lookup("Info").Type()), nonNil: true, unit: true}, ""
	}
	return nil, value{}, fmt.Sprintf("template data has no field %s%s", name, diag.Suggest(name, []string{"OpenCenter", "Secrets", "Service", "Unit"}))
}

// unitPath is the config path a field of .Unit comes from, nil for fields
// that come from the descriptor alone.
func (g *cg) unitPath(name string) []pathSeg {
	switch name {
	case "Namespace": // the service's namespace field, or the descriptor's
		if g.c.in.Service != nil {
			if ns := g.c.in.Service.Child("namespace"); ns != nil {
				return litPath(ns.Path)
			}
		}
	case "Overlay":
		return litPath("opencenter.cluster.cluster_name")
	}
	return nil
}

// list compiles a list of nodes. A YAML scalar that holds values is
// written by one escaper call, so the literal text of that scalar in the
// text nodes around its values is cut from them and joins the call.
func (g *cg) list(l *parse.ListNode, sc *scope) []jen.Code {
	if l == nil {
		return nil
	}
	head := map[int]int{} // text node index -> bytes a scalar takes from its start
	tail := map[int]int{} // text node index -> bytes a scalar takes from its end
	skip := map[int]bool{}
	for i, n := range l.Nodes {
		an, ok := n.(*parse.ActionNode)
		if !ok {
			continue
		}
		id, ok := g.a.byPtr[an]
		if !ok {
			continue
		}
		h := g.a.holes[id].ctx
		if (h.kind != ctxScalar && h.kind != ctxKey) || h.group[0] != id {
			continue
		}
		bad := func() {
			g.c.errorf(an, "the scalar %q holds this value: write a scalar's text and values together, without actions or branches between them", h.text())
		}
		if pre := h.lits[0]; pre != "" {
			t, ok := textAt(l, i-1)
			if !ok || !strings.HasSuffix(t, pre) {
				bad()
				continue
			}
			tail[i-1] = len(pre)
		}
		j := i
		for k := 1; k < len(h.group); k++ {
			if mid := h.lits[k]; mid != "" {
				if t, ok := textAt(l, j+1); !ok || t != mid {
					bad()
					break
				}
				j++
				skip[j] = true
			}
			if next, ok := l.Nodes[j+1].(*parse.ActionNode); !ok || g.a.byPtr[next] != h.group[k] {
				bad()
				break
			}
			j++
			skip[j] = true
		}
		if post := h.lits[len(h.lits)-1]; post != "" {
			t, ok := textAt(l, j+1)
			if !ok || !strings.HasPrefix(t, post) {
				bad()
				continue
			}
			head[j+1] = len(post)
		}
	}
	var out []jen.Code
	lit := ""
	flush := func() {
		if lit != "" {
			out = append(out, jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(lit).Op("...")))
			lit = ""
		}
	}
	for i, n := range l.Nodes {
		if skip[i] {
			continue
		}
		switch n := n.(type) {
		case *parse.TextNode:
			t := string(n.Text)
			if head[i]+tail[i] > len(t) {
				g.c.errorf(n, "internal error: two scalars share this text")
				continue
			}
			lit += t[head[i] : len(t)-tail[i]]
		case *parse.CommentNode:
		case *parse.ActionNode:
			flush()
			out = append(out, g.action(n, sc)...)
		case *parse.IfNode:
			flush()
			out = append(out, g.ifNode(n, sc)...)
		case *parse.WithNode:
			flush()
			out = append(out, g.withNode(n, sc)...)
		case *parse.RangeNode:
			flush()
			out = append(out, g.rangeNode(n, sc)...)
		default:
			g.c.errorf(n, "%s is not supported in overlay templates", n)
		}
	}
	flush()
	return out
}

func textAt(l *parse.ListNode, i int) (string, bool) {
	if i < 0 || i >= len(l.Nodes) {
		return "", false
	}
	t, ok := l.Nodes[i].(*parse.TextNode)
	if !ok {
		return "", false
	}
	return string(t.Text), true
}

// declare binds the pipeline's variables ($x := …) or assigns them ($x = …).
func (g *cg) declare(p *parse.PipeNode, v value, sc *scope) []jen.Code {
	var out []jen.Code
	for _, d := range p.Decl {
		name := d.Ident[0]
		if p.IsAssign {
			prev, ok := sc.lookup(name)
			if !ok {
				g.c.errorf(d, "undefined variable %s", name)
				continue
			}
			if !(types.Identical(prev.typ, v.typ) || family(prev.typ) != "" && family(prev.typ) == family(v.typ) || v.konst && family(v.typ) == "int" && family(prev.typ) == "float") {
				g.c.errorf(d, "%s is a %s; it cannot take a %s", name, typeName(prev.typ), typeName(v.typ))
				continue
			}
			out = append(out, prev.expr().Op("=").Add(conv(v, prev.typ)))
			prev.taint = prev.taint || v.taint
			continue
		}
		goName := g.fresh(goIdent(name))
		nv := v
		nv.code, nv.konst, nv.addr = jen.Id(goName), false, false
		if v.typ == nil { // $x := . at the root: the data itself
			sc.vars[name] = &v
			continue
		}
		if v.konst {
			out = append(out, jen.Var().Id(goName).Add(typeCode(v.typ)).Op("=").Add(v.code))
		} else {
			out = append(out, jen.Id(goName).Op(":=").Add(v.code))
		}
		out = append(out, g.bindVar(goName))
		nv.goName = goName
		sc.vars[name] = &nv
	}
	return out
}

// goIdent turns a template variable ($name) into a Go identifier base.
func goIdent(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimPrefix(name, "$") {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || !unicode.IsLetter([]rune(b.String())[0]) {
		return "v" + b.String()
	}
	return b.String()
}

func (g *cg) action(n *parse.ActionNode, sc *scope) []jen.Code {
	if len(n.Pipe.Decl) > 0 {
		pre, v, ok := g.pipe(n.Pipe, sc)
		if !ok {
			return nil
		}
		return append(pre, g.declare(n.Pipe, v, sc)...)
	}
	id := g.a.byPtr[n]
	h := g.a.holes[id]
	switch h.ctx.kind {
	case ctxScalar, ctxKey:
		return g.scalar(h.ctx, sc)
	case ctxBlock:
		return g.block(n, h, sc)
	}
	pre, v, ok := g.pipe(n.Pipe, sc)
	if !ok {
		return nil
	}
	g.secret = g.secret || v.taint
	what := n.String()
	switch h.ctx.kind {
	case ctxComment:
		return append(pre, g.write(n, v, func(s jen.Code) jen.Code {
			return jen.Id("b").Op("=").Qual(EscapePkg, "Comment").Call(jen.Id("b"), s)
		})...)
	case ctxGcfgValue, ctxGcfgSubsection, ctxINIValue:
		fn := map[kind]string{ctxGcfgValue: "GcfgValue", ctxGcfgSubsection: "GcfgSubsection", ctxINIValue: "INIValue"}[h.ctx.kind]
		g.usesErr = true
		return append(pre, g.write(n, v, func(s jen.Code) jen.Code {
			return jen.If(
				jen.List(jen.Id("b"), jen.Id("err")).Op("=").Qual(EscapePkg, fn).Call(jen.Id("b"), s),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Qual(EscapePkg, "Field").Call(pathCode(v.path, what), jen.Err())))
		})...)
	}
	return nil
}

// write prints v: numbers and bools as digits and words, which no context
// needs to escape, strings through str.
func (g *cg) write(n *parse.ActionNode, v value, str func(jen.Code) jen.Code) []jen.Code {
	pre, v := g.deref(v)
	switch t := v.typ; {
	case isInt(t):
		return append(pre, jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), conv(v, types.Typ[types.Int64]), jen.Lit(10)))
	case isUint(t):
		return append(pre, jen.Id("b").Op("=").Qual("strconv", "AppendUint").Call(jen.Id("b"), conv(v, types.Typ[types.Uint64]), jen.Lit(10)))
	case isBool(t):
		return append(pre, jen.Id("b").Op("=").Qual("strconv", "AppendBool").Call(jen.Id("b"), conv(v, types.Typ[types.Bool])))
	}
	p, s, ok := g.asString(n, v)
	if !ok {
		return nil
	}
	return append(append(pre, p...), str(s))
}

// scalar writes a YAML scalar or key: one value of a scalar type keeps its
// type (a nil pointer is null); anything else, literal text included, is a
// string the escaper quotes when YAML would read it otherwise.
func (g *cg) scalar(h *hctx, sc *scope) []jen.Code {
	var pre []jen.Code
	var vals []value
	for _, id := range h.group {
		n := g.a.holes[id].node
		p, v, ok := g.pipe(n.Pipe, sc)
		if !ok {
			return nil
		}
		g.secret = g.secret || v.taint
		pre, vals = append(pre, p...), append(vals, v)
	}
	lead := g.a.holes[h.group[0]].node
	if h.kind == ctxScalar && len(vals) == 1 && h.lits[0] == "" && h.lits[1] == "" {
		v := vals[0]
		elem, ptr := pointer(v.typ)
		if ptr && scalarType(elem) {
			p := g.fresh("p")
			inner := value{code: jen.Op("*").Id(p), typ: elem}
			return append(pre, jen.If(jen.Id(p).Op(":=").Add(v.code), jen.Id(p).Op("!=").Nil()).Block(
				g.typed(lead, inner)...,
			).Else().Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("..."))))
		}
		return append(pre, g.typed(lead, v)...)
	}
	var s *jen.Statement
	add := func(c jen.Code) {
		if s == nil {
			s = jen.Add(c)
		} else {
			s = s.Op("+").Add(c)
		}
	}
	for i, v := range vals {
		if h.lits[i] != "" {
			add(jen.Lit(h.lits[i]))
		}
		p, code, ok := g.asString(g.a.holes[h.group[i]].node, v)
		if !ok {
			return nil
		}
		pre = append(pre, p...)
		add(code)
	}
	if last := h.lits[len(h.lits)-1]; last != "" {
		add(jen.Lit(last))
	}
	if h.kind == ctxKey {
		return append(pre, jen.Id("b").Op("=").Qual(EscapePkg, "Key").Call(jen.Id("b"), s, jen.Lit(h.col)))
	}
	return append(pre, jen.Id("b").Op("=").Qual(EscapePkg, "Scalar").Call(jen.Id("b"), s))
}

// typed writes one scalar value as its type.
func (g *cg) typed(n *parse.ActionNode, v value) []jen.Code {
	if isFloat(v.typ) {
		return []jen.Code{jen.Id("b").Op("=").Qual(EscapePkg, "Float").Call(jen.Id("b"), conv(v, types.Typ[types.Float64]))}
	}
	return g.write(n, v, func(s jen.Code) jen.Code {
		return jen.Id("b").Op("=").Qual(EscapePkg, "Scalar").Call(jen.Id("b"), s)
	})
}

// block writes toYaml x | nindent N: a map or list of strings as a YAML
// block under the key before it.
func (g *cg) block(n *parse.ActionNode, h *hole, sc *scope) []jen.Code {
	cmds := n.Pipe.Cmds
	var arg parse.Node
	switch {
	case len(cmds) == 2 && len(cmds[0].Args) == 2 && isIdent(cmds[0].Args[0], "toYaml") && len(cmds[1].Args) == 2:
		arg = cmds[0].Args[1]
	case len(cmds) == 1 && len(cmds[0].Args) == 3:
		if p, ok := cmds[0].Args[2].(*parse.PipeNode); ok && len(p.Cmds) == 1 && len(p.Cmds[0].Args) == 2 && isIdent(p.Cmds[0].Args[0], "toYaml") {
			arg = p.Cmds[0].Args[1]
		}
	}
	if arg == nil {
		g.c.errorf(n, "nindent lays out toYaml's output only: {{ toYaml … | nindent N }}")
		return nil
	}
	pre, v, ok := g.arg(arg, sc)
	if !ok {
		return nil
	}
	g.secret = g.secret || v.taint
	p, v := g.deref(v)
	pre = append(pre, p...)
	switch u := v.typ.Underlying().(type) {
	case *types.Map:
		if isString(u.Key()) && isString(u.Elem()) {
			return append(pre, jen.Id("b").Op("=").Qual(EscapePkg, "Map").Call(jen.Id("b"), v.code, jen.Lit(h.ctx.col)))
		}
	case *types.Slice:
		if isString(u.Elem()) {
			return append(pre, jen.Id("b").Op("=").Qual(EscapePkg, "Seq").Call(jen.Id("b"), v.code, jen.Lit(h.ctx.col)))
		}
	}
	g.c.errorf(n, "toYaml of a %s: only maps and lists of strings are laid out", typeName(v.typ))
	return nil
}

func isIdent(n parse.Node, name string) bool {
	id, ok := n.(*parse.IdentifierNode)
	return ok && id.Ident == name
}

// cond compiles the pipeline of if/with: its statements, its value, and
// the variables it declares (in a scope of their own).
func (g *cg) cond(p *parse.PipeNode, sc *scope) ([]jen.Code, value, *scope, bool) {
	inner := sc.child(sc.dot)
	pre, v, ok := g.pipe(p, inner)
	if !ok {
		return nil, value{}, nil, false
	}
	if len(p.Decl) > 0 {
		pre = append(pre, g.declare(p, v, inner)...)
		if d, ok := inner.lookup(p.Decl[0].Ident[0]); ok {
			v = *d
		}
	}
	return pre, v, inner, true
}

// wrap puts statements that declare variables into a block of their own.
func wrap(pre []jen.Code, stmt jen.Code) []jen.Code {
	if len(pre) == 0 {
		return []jen.Code{stmt}
	}
	return []jen.Code{jen.Block(append(pre, stmt)...)}
}

func (g *cg) ifNode(n *parse.IfNode, sc *scope) []jen.Code {
	pre, v, inner, ok := g.cond(n.Pipe, sc)
	if !ok {
		return nil
	}
	stmt := jen.If(truth(v)).Block(g.list(n.List, inner.child(sc.dot))...)
	if n.ElseList != nil {
		stmt = stmt.Else().Block(g.list(n.ElseList, inner.child(sc.dot))...)
	}
	return wrap(pre, stmt)
}

func (g *cg) withNode(n *parse.WithNode, sc *scope) []jen.Code {
	pre, v, inner, ok := g.cond(n.Pipe, sc)
	if !ok {
		return nil
	}
	w := g.fresh("w")
	dot := v
	dot.code, dot.konst = jen.Id(w), false
	var bind jen.Code
	switch elem, ptr := pointer(v.typ); {
	case ptr && scalarType(elem):
		// A non-nil pointer to a scalar: dot is the scalar.
		dot.code, dot.typ = jen.Op("*").Id(w), elem
		bind = jen.Id(w).Op(":=").Add(v.code)
	case ptr:
		dot.nonNil = true
		bind = jen.Id(w).Op(":=").Add(v.code)
	case v.typ != nil && v.addr && isStruct(v.typ):
		// Bind a struct by address instead of copying it.
		dot.typ, dot.nonNil = types.NewPointer(v.typ), true
		bind = jen.Id(w).Op(":=").Op("&").Add(v.code)
	default:
		bind = jen.Id(w).Op(":=").Add(v.code)
	}
	test := value{code: jen.Id(w), typ: v.typ}
	if dot.typ != nil && isPointer(dot.typ) && !isPointer(v.typ) {
		test = value{code: jen.Id(w), typ: dot.typ, nonNil: true}
	}
	stmt := jen.If(truth(test)).Block(g.list(n.List, inner.child(dot))...)
	if n.ElseList != nil {
		stmt = stmt.Else().Block(g.list(n.ElseList, inner.child(sc.dot))...)
	}
	if v.typ == nil {
		g.c.errorf(n, "{{with .}} of the template data: it is always set")
		return nil
	}
	return []jen.Code{jen.Block(append(pre, bind, stmt)...)}
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

func (g *cg) rangeNode(n *parse.RangeNode, sc *scope) []jen.Code {
	if n.Pipe.IsAssign {
		g.c.errorf(n, "{{range}} declares its variables with :=")
		return nil
	}
	inner := sc.child(sc.dot)
	pre, v, ok := g.pipe(n.Pipe, inner)
	if !ok {
		return nil
	}
	p, v := g.deref(v)
	pre = append(pre, p...)
	coll := g.fresh("r")
	pre = append(pre, jen.Id(coll).Op(":=").Add(v.code))
	var idx, elem value
	var loop *jen.Statement
	body := inner.child(sc.dot)
	switch u := v.typ.Underlying().(type) {
	case *types.Slice:
		i, e := g.fresh("i"), g.fresh("e")
		idx = value{code: jen.Id(i), typ: types.Typ[types.Int]}
		elem = value{code: jen.Id(e), typ: u.Elem(), taint: v.taint, goName: e}
		if v.node != nil && v.node.Elem != nil {
			elem.node, elem.path = v.node.Elem, extend(v.path, pathSeg{lit: "["}, pathSeg{dyn: jen.Id(i), index: true}, pathSeg{lit: "]"})
		}
		bindElem := jen.Id(e).Op(":=").Id(coll).Index(jen.Id(i))
		if isStruct(u.Elem()) {
			elem.typ, elem.nonNil = types.NewPointer(u.Elem()), true
			bindElem = jen.Id(e).Op(":=").Op("&").Id(coll).Index(jen.Id(i))
		}
		stmts := []jen.Code{bindElem, g.bindVar(e)}
		body.dot = elem
		g.rangeVars(n, body, idx, elem)
		stmts = append(stmts, g.list(n.List, body)...)
		loop = jen.For(jen.Id(i).Op(":=").Range().Id(coll)).Block(stmts...)
	case *types.Map:
		if !isString(u.Key()) {
			g.c.errorf(n, "{{range}} over a map with %s keys: only string keys have an order", typeName(u.Key()))
			return nil
		}
		k, e := g.fresh("k"), g.fresh("e")
		idx = value{code: jen.Id(k), typ: u.Key(), taint: v.taint}
		elem = value{code: jen.Id(e), typ: u.Elem(), taint: v.taint, goName: e}
		if v.node != nil && v.node.Elem != nil {
			elem.node, elem.path = v.node.Elem, extend(v.path, pathSeg{lit: "."}, pathSeg{dyn: jen.String().Call(jen.Id(k))})
		}
		body.dot = elem
		g.rangeVars(n, body, idx, elem)
		stmts := []jen.Code{jen.Id(e).Op(":=").Id(coll).Index(jen.Id(k)), g.bindVar(e)}
		stmts = append(stmts, g.list(n.List, body)...)
		// text/template ranges over a map in key order.
		loop = jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(jen.Id(coll)))).Block(stmts...)
	default:
		g.c.errorf(n, "{{range}} over a %s: only lists and maps", typeName(v.typ))
		return nil
	}
	if n.ElseList != nil {
		loop = jen.If(jen.Len(jen.Id(coll)).Op("==").Lit(0)).Block(g.list(n.ElseList, inner.child(sc.dot))...).Else().Block(loop)
	}
	return []jen.Code{jen.Block(append(pre, loop)...)}
}

// rangeVars binds {{range $e := …}} (the element) or {{range $i, $e := …}}.
func (g *cg) rangeVars(n *parse.RangeNode, sc *scope, idx, elem value) {
	switch len(n.Pipe.Decl) {
	case 1:
		sc.vars[n.Pipe.Decl[0].Ident[0]] = &elem
	case 2:
		sc.vars[n.Pipe.Decl[0].Ident[0]] = &idx
		sc.vars[n.Pipe.Decl[1].Ident[0]] = &elem
	}
}

// Sorted returns the outputs by function name, for deterministic emission.
func Sorted(outs []*Output) []*Output {
	s := slices.Clone(outs)
	slices.SortFunc(s, func(a, b *Output) int { return strings.Compare(a.Func, b.Func) })
	return s
}
